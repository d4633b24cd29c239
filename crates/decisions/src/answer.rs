//! Answers and failures: what one question comes back as, and the gating scalar derived from it.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;

/// A probability distribution over a question's outcomes, in the question's order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Probabilities(pub Vec<(String, f64)>);

impl Probabilities {
    /// The probability of one outcome.
    pub fn get(&self, key: &str) -> Option<f64> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, p)| *p)
    }

    /// The probabilities alone, in order.
    pub fn values(&self) -> impl Iterator<Item = f64> + '_ {
        self.0.iter().map(|(_, p)| *p)
    }
}

impl Serialize for Probabilities {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::json::Ordered(&self.0).serialize(s)
    }
}

/// The typed value of an answer.
#[derive(Debug, Clone, PartialEq)]
pub enum AnswerValue {
    /// The chosen option.
    Choice(String),
    /// The expected level, in 0..N-1, with the legend (level -> description).
    Score {
        /// The probability-weighted level.
        score: f64,
        /// Level number (as a string) to description.
        legend: Value,
    },
    /// The probability the answer is yes.
    Noul(f64),
}

/// A typed answer from a provider.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The provider that answered.
    pub provider: String,
    /// The model that did the work, as the response named it.
    pub model: String,
    /// The answer itself.
    pub value: AnswerValue,
    /// The distribution over outcomes; absent for a noul, whose value is its distribution.
    pub probabilities: Option<Probabilities>,
    /// The provider's confidence (or one derived from the probabilities); always `None` for a noul.
    pub confidence: Option<f64>,
    /// The distribution was asserted rather than measured; such an answer never clears a floor.
    pub estimated: bool,
}

impl Answer {
    /// The contract's name for the answer's type.
    pub fn type_name(&self) -> &'static str {
        match self.value {
            AnswerValue::Choice(_) => "choice",
            AnswerValue::Score { .. } => "score",
            AnswerValue::Noul(_) => "noul",
        }
    }
}

impl Serialize for Answer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("ok", &true)?;
        m.serialize_entry("type", self.type_name())?;
        m.serialize_entry("provider", &self.provider)?;
        m.serialize_entry("model", &self.model)?;
        match &self.value {
            AnswerValue::Choice(c) => m.serialize_entry("choice", c)?,
            AnswerValue::Score { score, legend } => {
                m.serialize_entry("score", score)?;
                m.serialize_entry("legend", legend)?;
            }
            AnswerValue::Noul(p) => m.serialize_entry("noul", p)?,
        }
        if let Some(p) = &self.probabilities {
            m.serialize_entry("probabilities", p)?;
        }
        m.serialize_entry("confidence", &self.confidence)?;
        if self.estimated {
            m.serialize_entry("estimated", &true)?;
        }
        m.end()
    }
}

/// Why a question came back without an answer. Serialised exactly as the contract names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureReason {
    /// Nothing configured, or a configured name with no descriptor, or a name this build does not know.
    NoProvider,
    /// No readable catalog.
    NoCatalog,
    /// A catalog or descriptor broke a contract rule, or the provider answered 400/422.
    Validation,
    /// The key variable is unset, or the provider answered 401/403.
    Auth,
    /// HTTP 429 after the retry budget.
    RateLimit,
    /// HTTP 503 / 529 after the retry budget.
    Overloaded,
    /// The provider did not answer within the budget.
    Timeout,
    /// The request never reached a model: no response, 5xx or unlisted status, a gateway error envelope.
    Transport,
    /// The provider broke its own contract: not JSON, a missing or broken answer.
    Malformed,
    /// An LLM-backed provider answered outside the question's enum.
    OffSchema,
    /// The provider's wire shape is not spoken on this seam.
    Unsupported,
}

impl FailureReason {
    /// Every reason, in the contract's order.
    pub const ALL: [FailureReason; 11] = [
        FailureReason::NoProvider,
        FailureReason::NoCatalog,
        FailureReason::Validation,
        FailureReason::Auth,
        FailureReason::RateLimit,
        FailureReason::Overloaded,
        FailureReason::Timeout,
        FailureReason::Transport,
        FailureReason::Malformed,
        FailureReason::OffSchema,
        FailureReason::Unsupported,
    ];

    /// The reason as it is written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureReason::NoProvider => "no_provider",
            FailureReason::NoCatalog => "no_catalog",
            FailureReason::Validation => "validation",
            FailureReason::Auth => "auth",
            FailureReason::RateLimit => "rate_limit",
            FailureReason::Overloaded => "overloaded",
            FailureReason::Timeout => "timeout",
            FailureReason::Transport => "transport",
            FailureReason::Malformed => "malformed",
            FailureReason::OffSchema => "off_schema",
            FailureReason::Unsupported => "unsupported",
        }
    }
}

impl std::fmt::Display for FailureReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The explicit failure: a question came back without an answer, and this says why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Why.
    pub reason: FailureReason,
    /// The provider that was (or would have been) asked.
    pub provider: String,
    /// What a human needs to fix or know; never a key's value.
    pub detail: Option<String>,
}

impl Failure {
    /// A failure with a detail.
    pub fn new(reason: FailureReason, provider: impl Into<String>, detail: impl Into<String>) -> Self {
        Failure { reason, provider: provider.into(), detail: Some(detail.into()) }
    }
}

impl Serialize for Failure {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("ok", &false)?;
        m.serialize_entry("reason", &self.reason)?;
        m.serialize_entry("provider", &self.provider)?;
        if let Some(d) = &self.detail {
            m.serialize_entry("detail", d)?;
        }
        m.end()
    }
}

/// The gating scalar: a noul's distance from the coin flip, a choice's or score's confidence.
///
/// An estimated answer has none, so it can never clear a floor.
pub fn certainty_of(answer: &Answer) -> Option<f64> {
    if answer.estimated {
        return None;
    }
    match answer.value {
        AnswerValue::Noul(p) => Some((p - 0.5).abs() * 2.0),
        _ => answer.confidence,
    }
}

/// Confidence from a distribution: (n * peak - 1) / (n - 1), clamped to [0, 1].
///
/// `None` for fewer than two outcomes or a non-finite peak.
pub fn confidence_from(probabilities: &Probabilities) -> Option<f64> {
    let n = probabilities.0.len();
    if n < 2 {
        return None;
    }
    let peak = probabilities.values().fold(f64::NEG_INFINITY, f64::max);
    if !peak.is_finite() {
        return None;
    }
    let n = n as f64;
    Some(((n * peak - 1.0) / (n - 1.0)).clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(value: AnswerValue, confidence: Option<f64>, estimated: bool) -> Answer {
        Answer { provider: "jev".into(), model: "m".into(), value, probabilities: None, confidence, estimated }
    }

    fn probs(ps: &[f64]) -> Probabilities {
        Probabilities(ps.iter().enumerate().map(|(i, p)| (i.to_string(), *p)).collect())
    }

    #[test]
    fn noul_certainty_is_distance_from_the_coin_flip() {
        assert_eq!(certainty_of(&answer(AnswerValue::Noul(0.5), None, false)), Some(0.0));
        assert_eq!(certainty_of(&answer(AnswerValue::Noul(1.0), None, false)), Some(1.0));
        assert_eq!(certainty_of(&answer(AnswerValue::Noul(0.0), None, false)), Some(1.0));
        let c = certainty_of(&answer(AnswerValue::Noul(0.93), None, false)).unwrap_or(f64::NAN);
        assert!((c - 0.86).abs() < 1e-12);
    }

    #[test]
    fn a_noul_at_the_coin_flip_is_below_any_positive_floor_and_never_acts() {
        // Skipping the floor for nouls would act on a model that said it has no idea.
        let bars =
            crate::contract::Thresholds { floor: 0.0, escalate: 0.0, act: 0.5, act_raise: None, act_lower: None };
        let flip = answer(AnswerValue::Noul(0.5), None, false);
        assert_eq!(crate::band::band_of(&bars, certainty_of(&flip), None), crate::band::Band::Escalate);
        let strict = crate::contract::Thresholds { floor: 0.01, ..bars };
        assert_eq!(crate::band::band_of(&strict, certainty_of(&flip), None), crate::band::Band::Floor);
    }

    #[test]
    fn choice_and_score_certainty_is_their_confidence() {
        let c = answer(AnswerValue::Choice("a".into()), Some(0.76), false);
        assert_eq!(certainty_of(&c), Some(0.76));
        let s = answer(AnswerValue::Score { score: 1.0, legend: Value::Null }, None, false);
        assert_eq!(certainty_of(&s), None);
    }

    #[test]
    fn estimated_answers_have_no_certainty() {
        // A fabricated one-hot noul would otherwise read as certainty 1.0.
        assert_eq!(certainty_of(&answer(AnswerValue::Noul(1.0), None, true)), None);
        assert_eq!(certainty_of(&answer(AnswerValue::Choice("a".into()), Some(1.0), true)), None);
    }

    #[test]
    fn confidence_from_spans_one_hot_to_uniform() {
        assert_eq!(confidence_from(&probs(&[1.0, 0.0, 0.0])), Some(1.0));
        assert_eq!(confidence_from(&probs(&[0.5, 0.5])), Some(0.0));
        assert_eq!(confidence_from(&probs(&[0.25; 4])), Some(0.0));
        let c = confidence_from(&probs(&[0.12, 0.88])).unwrap_or(f64::NAN);
        assert!((c - 0.76).abs() < 1e-12);
    }

    #[test]
    fn confidence_from_clamps_and_refuses_degenerate_input() {
        assert_eq!(confidence_from(&probs(&[1.3, 0.0])), Some(1.0));
        assert_eq!(confidence_from(&probs(&[0.1, 0.1, 0.1])), Some(0.0));
        assert_eq!(confidence_from(&probs(&[1.0])), None);
        assert_eq!(confidence_from(&probs(&[])), None);
        assert_eq!(confidence_from(&probs(&[f64::NAN, f64::NAN])), None);
    }

    #[test]
    fn failure_reasons_serialise_exactly_as_the_contract_names_them() {
        let names: Vec<String> = FailureReason::ALL
            .iter()
            .map(|r| serde_json::to_value(r).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default())
            .collect();
        assert_eq!(
            names,
            [
                "no_provider",
                "no_catalog",
                "validation",
                "auth",
                "rate_limit",
                "overloaded",
                "timeout",
                "transport",
                "malformed",
                "off_schema",
                "unsupported"
            ]
        );
        for r in FailureReason::ALL {
            assert_eq!(serde_json::to_value(r).ok(), Some(Value::from(r.as_str())));
        }
    }

    use proptest::prelude::*;

    proptest! {
        /// Confidence from any distribution is in [0, 1]: 0 when flat, 1 when one outcome has
        /// it all, and it grows with the peak.
        #[test]
        fn confidence_from_a_distribution_is_a_unit_that_grows_with_the_peak(
            weights in prop::collection::vec(0.0f64..100.0, 2..8),
        ) {
            let total: f64 = weights.iter().sum();
            prop_assume!(total > 0.0);
            let ps: Vec<f64> = weights.iter().map(|w| w / total).collect();
            let c = confidence_from(&probs(&ps));
            prop_assert!(c.is_some_and(|c| (0.0..=1.0).contains(&c)), "{c:?}");
            let n = ps.len();
            prop_assert!(confidence_from(&probs(&vec![1.0 / n as f64; n])).is_some_and(|c| c.abs() < 1e-9));
            let mut sharp = vec![0.0; n];
            sharp[0] = 1.0;
            prop_assert_eq!(confidence_from(&probs(&sharp)), Some(1.0));
            // Moving mass from the others to the peak never lowers confidence.
            let top = (0..n).fold(0, |b, i| if ps[i] > ps[b] { i } else { b });
            let sharper: Vec<f64> = ps.iter().enumerate().map(|(i, p)| if i == top { p + (1.0 - p) / 2.0 } else { p / 2.0 }).collect();
            prop_assert!(confidence_from(&probs(&sharper)) >= c);
        }
    }
}
