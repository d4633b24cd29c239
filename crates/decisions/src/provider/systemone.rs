//! The System One wire (jev, generic): one request for every question, typed answers back.
//! The request and response shapes are private types: a field name is written once.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;
use crate::answer::{Answer, AnswerValue, Failure, FailureReason, Probabilities, confidence_from};
use crate::contract::{Question, QuestionKind};
use crate::json::Ordered;
use crate::secret::clip;
use crate::transport::{Body, DETAIL_MAX};

/// `POST /v1/systemone`: exactly model, state and questions.
#[derive(Serialize)]
struct WireRequest<'a> {
    model: &'a str,
    state: &'a Value,
    questions: Ordered<'a, &'a str, WireQuestion<'a>>,
}

/// One question as the wire carries it; its id is the key it sits under.
#[derive(Serialize)]
struct WireQuestion<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    instructions: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    criteria: Option<Value>,
}

/// A 200 body. Gateways add fields (`id`, `usage`, `provider_metadata`): ignored.
#[derive(Deserialize)]
struct WireResponse {
    /// The versioned model that answered, even when an alias was asked for.
    #[serde(default, deserialize_with = "lenient")]
    model: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    answers: Option<Map<String, Value>>,
}

/// One answer, its fields as the wire names them; each is checked for what it must be.
#[derive(Deserialize)]
struct WireAnswer {
    #[serde(rename = "type", default, deserialize_with = "lenient")]
    kind: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    choice: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    score: Option<f64>,
    #[serde(default, deserialize_with = "lenient")]
    noul: Option<f64>,
    #[serde(default, deserialize_with = "lenient")]
    probabilities: Option<Map<String, Value>>,
    /// Kept as sent: absent or null means "derive one", anything else must be a unit number.
    #[serde(default)]
    confidence: Option<Value>,
}

/// How far a distribution may sum from 1: providers round to about two decimals.
const SUM_TOLERANCE: f64 = 0.02;
/// Room for the float error of adding up the probabilities: four values rounded half up can
/// sum to exactly 1.02, which is within tolerance, but adds up to 1.0200000000000002.
const SUM_SLACK: f64 = 1e-9;

/// The request body: exactly model, state and questions.
pub(crate) fn request(model: &str, state: &Value, questions: &[&Question]) -> Value {
    let qs: Vec<(&str, WireQuestion)> = questions
        .iter()
        .map(|q| {
            let wire = WireQuestion {
                kind: q.kind.type_name(),
                instructions: &q.instructions,
                criteria: q.kind.criteria_json(),
            };
            (q.id.as_str(), wire)
        })
        .collect();
    serde_json::to_value(WireRequest { model, state, questions: Ordered(&qs) }).unwrap_or(Value::Null)
}

/// Map a 200 body to one result per question, in the order asked. A key the body repeats
/// anywhere in `answers` makes that question `malformed`, naming the key: read last-wins, a
/// repeated answer would decide silently.
pub(crate) fn answers_from(
    provider: &str,
    asked_model: &str,
    body: &Body,
    questions: &[&Question],
) -> Vec<Result<Answer, Failure>> {
    let mut results = answers(provider, asked_model, &body.value, questions);
    for dup in &body.duplicates {
        let segments = dup.segments();
        let question = match segments.as_slice() {
            [] if dup.key == "answers" => None,
            [answers] if answers == "answers" => Some(dup.key.as_str()),
            [answers, q, ..] if answers == "answers" => Some(q.as_str()),
            _ => continue,
        };
        for (q, r) in questions.iter().zip(results.iter_mut()) {
            // The repeat is the cause whatever else went wrong: it names what to fix.
            if question.is_none_or(|id| id == q.id) {
                let detail = format!("question \"{}\": the answer repeats a key: {dup}", q.id);
                *r = Err(Failure::new(FailureReason::Malformed, provider, detail));
            }
        }
    }
    results
}

/// Map a parsed 200 body to one result per question, in the order asked.
pub(crate) fn answers(
    provider: &str,
    asked_model: &str,
    body: &Value,
    questions: &[&Question],
) -> Vec<Result<Answer, Failure>> {
    let malformed = |detail: String| Failure::new(FailureReason::Malformed, provider, detail);
    let response = WireResponse::deserialize(body).ok();
    let Some(answers) = response.as_ref().and_then(|r| r.answers.as_ref()) else {
        let f = malformed(format!("provider \"{provider}\" answered without an answers object"));
        return questions.iter().map(|_| Err(f.clone())).collect();
    };
    let model = response.as_ref().and_then(|r| r.model.as_deref()).filter(|m| !m.is_empty()).unwrap_or(asked_model);
    questions
        .iter()
        .map(|q| {
            let a = answers.get(&q.id).ok_or_else(|| malformed(format!("question \"{}\": no answer", q.id)))?;
            // What a server sent may be any length: the detail keeps a clip of it.
            answer(provider, model, q, a)
                .map_err(|what| malformed(format!("question \"{}\": {}", q.id, clip(&what, DETAIL_MAX))))
        })
        .collect()
}

fn answer(provider: &str, model: &str, q: &Question, a: &Value) -> Result<Answer, String> {
    let asked = q.kind.type_name();
    let a = WireAnswer::deserialize(a).map_err(|_| "the answer is not an object".to_string())?;
    match a.kind.as_deref() {
        Some(t) if t == asked => {}
        Some(t) => return Err(format!("answered type \"{t}\", asked \"{asked}\"")),
        None => return Err("answer has no type".into()),
    }
    let (value, probabilities, confidence) = match &q.kind {
        QuestionKind::Noul { .. } => {
            let p = unit(a.noul, "noul")?;
            (AnswerValue::Noul(p), None, None)
        }
        QuestionKind::Choice { options } => {
            let probs = distribution(a.probabilities.as_ref(), &q.kind.outcomes())?;
            let choice = a.choice.as_deref().ok_or("choice is missing or not a string")?;
            let Some(p) = probs.get(choice) else {
                return Err(format!("choice \"{choice}\" is not one of the options ({})", names(options)));
            };
            let peak = probs.values().fold(0.0, f64::max);
            if p + 1e-9 < peak {
                return Err(format!("choice \"{choice}\" ({p}) is not the most likely option ({peak})"));
            }
            let conf = confidence(a.confidence.as_ref(), &probs)?;
            (AnswerValue::Choice(choice.to_string()), Some(probs), conf)
        }
        QuestionKind::Score { levels } => {
            let probs = distribution(a.probabilities.as_ref(), &q.kind.outcomes())?;
            let top = (levels.len() - 1) as f64;
            let score = a.score.ok_or("score is missing or not a number")?;
            if !score.is_finite() || !(0.0..=top).contains(&score) {
                return Err(format!("score {score} is outside 0..{top}"));
            }
            let expected: f64 = probs.values().enumerate().map(|(i, p)| i as f64 * p).sum();
            // The score and each probability may be rounded by up to 0.005: the expectation by 0.005 * sum(i).
            let tolerance = 0.015 + 0.005 * top * (top + 1.0) / 2.0;
            if (score - expected).abs() > tolerance {
                return Err(format!("score {score} is not the expectation of its probabilities ({expected:.4})"));
            }
            let conf = confidence(a.confidence.as_ref(), &probs)?;
            let legend: Map<String, Value> =
                levels.iter().enumerate().map(|(i, l)| (i.to_string(), l.clone())).collect();
            (AnswerValue::Score { score, legend: Value::Object(legend) }, Some(probs), conf)
        }
    };
    Ok(Answer { provider: provider.into(), model: model.into(), value, probabilities, confidence, estimated: false })
}

/// The answer's own confidence when it has one (checked), else one derived from the distribution.
fn confidence(sent: Option<&Value>, probs: &Probabilities) -> Result<Option<f64>, String> {
    match sent {
        None | Some(Value::Null) => Ok(confidence_from(probs)),
        Some(v) => unit(v.as_f64(), "confidence").map(Some),
    }
}

fn unit(v: Option<f64>, what: &str) -> Result<f64, String> {
    match v {
        Some(x) if x.is_finite() && (0.0..=1.0).contains(&x) => Ok(x),
        Some(x) => Err(format!("{what} {x} is outside [0, 1]")),
        None => Err(format!("{what} is missing or not a number")),
    }
}

/// A distribution keyed exactly by `keys`, each finite in [0, 1], summing to 1 within tolerance.
fn distribution(sent: Option<&Map<String, Value>>, keys: &[String]) -> Result<Probabilities, String> {
    let obj = sent.ok_or("probabilities are missing or not an object")?;
    let expected = || keys.join(", ");
    if obj.len() != keys.len() || keys.iter().any(|k| !obj.contains_key(k)) {
        let got: Vec<&str> = obj.keys().map(String::as_str).collect();
        return Err(format!("probabilities are keyed by [{}], expected [{}]", got.join(", "), expected()));
    }
    let mut out = Vec::with_capacity(keys.len());
    for k in keys {
        let p = unit(obj.get(k).and_then(Value::as_f64), &format!("probability of \"{k}\""))?;
        out.push((k.clone(), p));
    }
    let sum: f64 = out.iter().map(|(_, p)| p).sum();
    if (sum - 1.0).abs() > SUM_TOLERANCE + SUM_SLACK {
        return Err(format!("probabilities sum to {sum:.4}, not 1"));
    }
    Ok(Probabilities(out))
}

fn names(options: &[(String, Value)]) -> String {
    options.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::Thresholds;
    use proptest::prelude::*;
    use serde_json::json;

    fn question(id: &str, kind: QuestionKind) -> Question {
        let thresholds = Thresholds { floor: 0.5, escalate: 0.65, act: 0.85, act_raise: None, act_lower: None };
        Question { id: id.into(), instructions: json!("?"), kind, thresholds }
    }

    fn catalog() -> Vec<Question> {
        vec![
            question(
                "pick",
                QuestionKind::Choice { options: ["low", "mid", "high"].map(|o| (o.into(), Value::Null)).into() },
            ),
            question("grade", QuestionKind::Score { levels: vec![json!("a"), json!("b"), json!("c"), json!("d")] }),
            question("yes", QuestionKind::Noul { criteria: None }),
        ]
    }

    /// A distribution over `n` outcomes rounded to two decimals, as providers send them.
    fn rounded(weights: &[u32]) -> Vec<f64> {
        let total: u32 = weights.iter().sum::<u32>().max(1);
        weights.iter().map(|w| (f64::from(*w) / f64::from(total) * 100.0).round() / 100.0).collect()
    }

    /// What a well-behaved provider answers for each question, from raw weights.
    fn honest(q: &Question, weights: &[u32], noul: f64, with_confidence: bool) -> Value {
        let keys = q.kind.outcomes();
        let ps = rounded(&weights[..keys.len().min(weights.len())]);
        let probs: Map<String, Value> = keys.iter().cloned().zip(ps.iter().map(|p| json!(p))).collect();
        let mut a = match &q.kind {
            QuestionKind::Noul { .. } => json!({"type": "noul", "noul": noul}),
            QuestionKind::Choice { .. } => {
                let top = (0..ps.len()).fold(0, |b, i| if ps[i] > ps[b] { i } else { b });
                json!({"type": "choice", "choice": keys[top], "probabilities": probs})
            }
            QuestionKind::Score { .. } => {
                let e: f64 = ps.iter().enumerate().map(|(i, p)| i as f64 * p).sum();
                json!({"type": "score", "score": (e * 100.0).round() / 100.0, "probabilities": probs})
            }
        };
        if with_confidence && !matches!(q.kind, QuestionKind::Noul { .. }) {
            a["confidence"] = json!(0.5);
        }
        a
    }

    /// Any JSON a broken provider might send, a few levels deep.
    fn junk() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<f64>().prop_map(|x| serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)),
            (-3i64..5).prop_map(Value::from),
            prop::sample::select(vec!["low", "mid", "high", "0", "3", "choice", "score", "noul", ""])
                .prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            let keys = prop::sample::select(vec![
                "type",
                "choice",
                "score",
                "noul",
                "probabilities",
                "confidence",
                "low",
                "mid",
                "high",
                "0",
                "1",
                "2",
                "3",
                "4",
            ]);
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map(keys, inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
            ]
        })
    }

    /// One field of an honest answer replaced by junk, or removed.
    fn mutate(mut a: Value, field: &str, with: Option<Value>) -> Value {
        if let Some(o) = a.as_object_mut() {
            match with {
                Some(v) => o.insert(field.into(), v),
                None => o.remove(field),
            };
        }
        a
    }

    fn invariants_hold(q: &Question, a: &Answer) -> Result<(), String> {
        let check = |ok: bool, what: &str| if ok { Ok(()) } else { Err(format!("{}: {what}: {a:?}", q.id)) };
        match (&q.kind, &a.value) {
            (QuestionKind::Noul { .. }, AnswerValue::Noul(p)) => {
                check((0.0..=1.0).contains(p), "noul in [0, 1]")?;
                check(a.confidence.is_none() && a.probabilities.is_none(), "a noul has no confidence")
            }
            (QuestionKind::Choice { .. } | QuestionKind::Score { .. }, value) => {
                let probs = a.probabilities.as_ref().ok_or("no probabilities")?;
                let keys: Vec<&str> = probs.0.iter().map(|(k, _)| k.as_str()).collect();
                check(
                    keys == q.kind.outcomes().iter().map(String::as_str).collect::<Vec<_>>(),
                    "keyed by the outcomes",
                )?;
                check(probs.values().all(|p| p.is_finite() && (0.0..=1.0).contains(&p)), "each in [0, 1]")?;
                check((probs.values().sum::<f64>() - 1.0).abs() <= SUM_TOLERANCE + SUM_SLACK, "sums to 1")?;
                check(a.confidence.is_some_and(|c| (0.0..=1.0).contains(&c)), "confidence in [0, 1]")?;
                match value {
                    AnswerValue::Choice(c) => {
                        let peak = probs.values().fold(0.0, f64::max);
                        check(probs.get(c).is_some_and(|p| p + 1e-9 >= peak), "the choice is the most likely")
                    }
                    AnswerValue::Score { score, .. } => check((0.0..=3.0).contains(score), "score within 0..3"),
                    AnswerValue::Noul(_) => check(false, "type as asked"),
                }
            }
            _ => check(false, "type as asked"),
        }
    }

    #[test]
    fn a_sum_of_exactly_1_02_is_within_tolerance() {
        // 0.135, 0.305, 0.495 and 0.065 rounded half up: 0.14 + 0.31 + 0.50 + 0.07 = 1.02.
        let keys: Vec<String> = (0..4).map(|i| i.to_string()).collect();
        let sent = json!({"0": 0.14, "1": 0.31, "2": 0.50, "3": 0.07});
        assert!(distribution(sent.as_object(), &keys).is_ok());
        let over = json!({"0": 0.14, "1": 0.31, "2": 0.50, "3": 0.0701});
        assert!(distribution(over.as_object(), &keys).is_err());
    }

    proptest! {
        /// Honest answers are taken whole; the model served is recorded.
        #[test]
        fn an_honest_provider_is_always_understood(
            weights in prop::collection::vec(1u32..100, 4),
            noul in 0.0f64..=1.0,
            with_confidence: bool,
        ) {
            let qs = catalog();
            let refs: Vec<&Question> = qs.iter().collect();
            let sent: Map<String, Value> =
                qs.iter().map(|q| (q.id.clone(), honest(q, &weights, noul, with_confidence))).collect();
            let body = json!({"model": "jev-served", "answers": sent});
            for (q, r) in qs.iter().zip(answers("jev", "jev-asked", &body, &refs)) {
                let a = r.map_err(|f| TestCaseError::fail(format!("{:?}", f.detail)))?;
                prop_assert_eq!(a.model.as_str(), "jev-served");
                invariants_hold(q, &a).map_err(TestCaseError::fail)?;
            }
        }

        /// Whatever comes back, one result per question: an answer that keeps every rule, or
        /// `malformed` naming its question. Never a panic.
        #[test]
        fn a_broken_provider_gets_malformed_naming_the_question_never_a_panic(
            weights in prop::collection::vec(0u32..100, 4),
            noul in -0.5f64..1.5,
            field in prop::sample::select(vec!["type", "choice", "score", "noul", "probabilities", "confidence"]),
            replacement in prop::option::of(junk()),
            victim in 0usize..3,
            whole in prop::option::of(junk()),
        ) {
            let qs = catalog();
            let refs: Vec<&Question> = qs.iter().collect();
            let mut sent: Map<String, Value> =
                qs.iter().map(|q| (q.id.clone(), honest(q, &weights, noul, false))).collect();
            let id = qs[victim].id.clone();
            let broken = match whole {
                Some(v) => v,
                None => mutate(sent[&id].clone(), field, replacement),
            };
            sent.insert(id, broken);
            let body = json!({"answers": sent});
            let results = answers("jev", "jev-asked", &body, &refs);
            prop_assert_eq!(results.len(), qs.len());
            for (q, r) in qs.iter().zip(results) {
                match r {
                    Ok(a) => invariants_hold(q, &a).map_err(TestCaseError::fail)?,
                    Err(f) => {
                        prop_assert_eq!(f.reason, FailureReason::Malformed);
                        let detail = f.detail.unwrap_or_default();
                        prop_assert!(detail.starts_with(&format!("question \"{}\": ", q.id)), "{}", detail);
                    }
                }
            }
        }
    }
}
