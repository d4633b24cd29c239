//! Evaluation against labelled states: how good a provider's answers to one question are
//! before anything acts on them, and which bars the evidence supports.
//!
//! Each labelled item becomes a [`Scored`] answer; [`Evaluation`] gathers them into accuracy,
//! the mean probability on the true label, the Brier score of the distribution, the expected
//! calibration error of the certainty (what the bars are compared with), and for a score the
//! rank correlation of the expected level with the label. The bars come from
//! [`crate::ledger::propose_thresholds`] over the same decision and outcome rows `--record`
//! writes: the rule `decisions ledger propose` applies to a project's ledger.
//!
//! A consumer that acts on one side of a score only (the permission hook denies at a score of
//! 2.5 and otherwise stands aside, whatever the certainty) is evaluated with `acts_at`: the rows
//! are then the answers it would act on, each correct when its label is on the same side, so the
//! bar rests on the decisions it governs and not on mistakes it never acts on (a level 1 read
//! as 0).

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use std::sync::Arc;

use crate::answer::{Answer, AnswerValue, Failure, certainty_of};
use crate::ask::Prepared;
use crate::band::Band;
use crate::contract::{Question, QuestionKind};
use crate::escape::terminal;
use crate::ledger::{
    CalibrationReport, DecisionRow, OutcomeRow, Proposal, Row, calibration_report, propose_thresholds,
};
use crate::run::input::{Records, Shape, StateOf};
use crate::run::summary::Summary;
use crate::run::{Finished, RunError};

/// The consumer name eval's rows carry in the calibration ledger.
pub const CONSUMER: &str = "eval";

/// A label as the question's outcomes name it: an option, a level (`"2"`), or `"true"` /
/// `"false"`. Numbers, booleans and their string forms are all accepted where they fit.
pub fn label_of(kind: &QuestionKind, label: &Value) -> Result<String, LabelError> {
    let outcomes = kind.outcomes();
    let text = match (kind, label) {
        (_, Value::String(s)) => s.trim().to_string(),
        (QuestionKind::Score { .. }, Value::Number(n)) => n.to_string(),
        (QuestionKind::Noul { .. }, Value::Bool(b)) => b.to_string(),
        (_, Value::Null) => return Err(LabelError::Missing),
        (_, other) => other.to_string(),
    };
    if outcomes.contains(&text) {
        Ok(text)
    } else {
        Err(LabelError::NotAnOutcome { label: label.to_string(), outcomes: outcomes.join(", ") })
    }
}

/// Why a labelled line has no label the question can take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LabelError {
    /// No `label` field.
    #[error("no \"label\"")]
    Missing,
    /// A label that is none of the question's outcomes.
    #[error("label {label} is not one of {outcomes}")]
    NotAnOutcome {
        /// The label as given.
        label: String,
        /// The outcomes it could be.
        outcomes: String,
    },
}

/// Why a labelled line gives nothing to evaluate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoSample {
    /// Its label.
    #[error(transparent)]
    Label(#[from] LabelError),
    /// No state.
    #[error("no \"state\" to ask about")]
    NoState,
}

/// The shape of an evaluation's input: `{"state": ..., "label": ...}` a line, the label checked
/// against the question before anything is asked.
pub fn shape(question: &Question) -> Shape {
    let kind = question.kind.clone();
    let derive = move |obj: &serde_json::Map<String, Value>| -> Result<Value, crate::run::input::NoState> {
        label_of(&kind, obj.get("label").unwrap_or(&Value::Null)).map_err(NoSample::from)?;
        match obj.get("state") {
            Some(s) if !s.is_null() => Ok(s.clone()),
            _ => Err(NoSample::NoState.into()),
        }
    };
    Shape { id_fields: vec!["id".into()], state: StateOf::Derived(Arc::new(derive)), ..Shape::default() }
}

/// What an evaluation run gathered.
#[derive(Debug)]
pub struct Evaluated {
    /// The run's figures.
    pub summary: Summary,
    /// The evaluation.
    pub evaluation: Evaluation,
    /// Each answered item's decision row and its outcome, for `--record` (with `acts_at`, only
    /// the answers acted on: [`Scored::acting`]).
    pub rows: Vec<Row>,
    /// The median and 90th percentile of an item's ask, in milliseconds.
    pub latency_ms: (Option<f64>, Option<f64>),
}

/// How many invalid lines an evaluation names; the rest are counted.
pub const INVALID_KEPT: usize = 20;

/// Input lines that gave no state or label: a count, and the first few named. Memory does not
/// grow with them.
#[derive(Debug, Clone, Default)]
pub struct Invalid {
    /// The first [`INVALID_KEPT`], each named.
    pub first: Vec<String>,
    /// All of them.
    pub count: usize,
}

impl Invalid {
    /// One more.
    pub fn add(&mut self, why: &impl std::fmt::Display) {
        self.count += 1;
        if self.first.len() < INVALID_KEPT {
            self.first.push(why.to_string());
        }
    }
}

/// Evaluate a question on labelled states: every record asked on the run engine, each answer
/// scored against its label.
pub fn run(
    prepared: &Prepared,
    question: &Question,
    records: Records,
    acts_at: Option<f64>,
    opts: crate::run::Options<'_>,
    progress: impl FnMut(&Summary),
) -> Result<Evaluated, RunError> {
    let (mut scored, mut answers, mut failures, mut invalid, mut took_ms) =
        (Vec::new(), Vec::new(), Vec::new(), Invalid::default(), Vec::new());
    let summary = crate::run::run(
        Ok(prepared),
        records,
        opts,
        |finished| {
            let Finished::Outcome(o) = finished else { return Ok(()) };
            if let Err(why) = &o.item.state {
                invalid.add(why);
                return Ok(());
            }
            took_ms.push(o.took.as_secs_f64() * 1000.0);
            let band = o.decision.band(&question.id).unwrap_or(Band::Floor);
            match o.decision.answer(&question.id) {
                Some(Ok(a)) => {
                    if let Ok(label) = label_of(&question.kind, o.item.input.get("label").unwrap_or(&Value::Null)) {
                        let mut s = score(question, a, &label, band);
                        s.at_least = o.item.input.get("unsure").and_then(Value::as_bool).unwrap_or(false);
                        scored.push(s);
                        answers.push(a.clone());
                    }
                }
                Some(Err(f)) => failures.push(f.clone()),
                None => {}
            }
            Ok(())
        },
        progress,
    )?;
    let refs: Vec<&Answer> = answers.iter().collect();
    let evaluation = Evaluation::new(question, &scored, &refs, &failures, invalid, acts_at);
    let rows = acting_rows(&scored, acts_at);
    Ok(Evaluated { summary, evaluation, rows, latency_ms: percentiles(took_ms) })
}

/// The median and 90th percentile.
fn percentiles(mut xs: Vec<f64>) -> (Option<f64>, Option<f64>) {
    if xs.is_empty() {
        return (None, None);
    }
    xs.sort_by(f64::total_cmp);
    let at = |q: f64| xs[((xs.len() as f64 * q).ceil() as usize).clamp(1, xs.len()) - 1];
    (Some(at(0.5)), Some(at(0.9)))
}

/// One labelled item's answer, scored.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// The true label.
    pub label: String,
    /// The answer's own outcome: the option, the nearest level, or true/false.
    pub answered: String,
    /// Whether the answer is the label.
    pub correct: bool,
    /// The gating scalar; none for an estimated answer.
    pub certainty: Option<f64>,
    /// The probability the answer put on the label, and the Brier score of its distribution;
    /// none for an estimated answer (its distribution was asserted, not measured).
    pub measured: Option<(f64, f64)>,
    /// For a score: the expected level and the label's level.
    pub levels: Option<(f64, f64)>,
    /// The decision row this answer is, and its outcome (correct or not).
    pub rows: [Row; 2],
    /// The label is the least the state could be (`"unsure": true` on its line: what decides it
    /// could not be seen), not its level: an action on a higher level is no evidence either way.
    pub at_least: bool,
}

impl Scored {
    /// The decision row and outcome the calibration ledger gets for this answer. With no
    /// `acts_at`, its own. With one, the consumer acts only on a score at least `acts_at`: an
    /// answer below it gets none (nothing was acted on, whatever its certainty), and one at or
    /// above it is correct when its label is at or above `acts_at` too (a denial of a level 3
    /// command), not only when the level is exact. A label that is only the least the state
    /// could be ([`Scored::at_least`]) below `acts_at` decides nothing: no row.
    pub fn acting(&self, acts_at: Option<f64>) -> Option<[Row; 2]> {
        let Some(at) = acts_at else { return Some(self.rows.clone()) };
        let (score, label) = self.levels?;
        if score < at || (self.at_least && label < at) {
            return None;
        }
        let decision = self.rows[0].clone();
        let note = format!("labelled {}; acted on at a score of {at} or more", self.label);
        let outcome = OutcomeRow::new(decision.id(), Some(label >= at), Some(note));
        Some([decision, Row::Outcome(outcome)])
    }
}

/// The decision rows and outcomes of the answers a consumer acts on ([`Scored::acting`]): what
/// `--record` writes and what the proposed bar rests on.
fn acting_rows(scored: &[Scored], acts_at: Option<f64>) -> Vec<Row> {
    scored.iter().filter_map(|s| s.acting(acts_at)).flatten().collect()
}

/// Score an answer against its label (already checked with [`label_of`]).
pub fn score(question: &Question, answer: &Answer, label: &str, band: Band) -> Scored {
    let outcomes = question.kind.outcomes();
    let (answered, probs): (String, Vec<f64>) = match &answer.value {
        AnswerValue::Noul(p) => ((*p >= 0.5).to_string(), vec![*p, 1.0 - *p]),
        AnswerValue::Choice(c) => (c.clone(), distribution(answer, &outcomes)),
        AnswerValue::Score { score, .. } => {
            let top = outcomes.len().saturating_sub(1) as f64;
            let level = if score.is_finite() { score.round().clamp(0.0, top) as usize } else { 0 };
            (level.to_string(), distribution(answer, &outcomes))
        }
    };
    let correct = answered == label;
    let measured = (!answer.estimated).then(|| {
        let on_label = outcomes.iter().position(|o| o == label).and_then(|i| probs.get(i).copied()).unwrap_or(0.0);
        let brier: f64 = match &question.kind {
            // The binary Brier score: (p - y)^2 for the probability of yes.
            QuestionKind::Noul { .. } => (probs[0] - if label == "true" { 1.0 } else { 0.0 }).powi(2),
            _ => outcomes.iter().zip(&probs).map(|(o, p)| (p - if o == label { 1.0 } else { 0.0 }).powi(2)).sum(),
        };
        (on_label, brier)
    });
    let levels = match (&answer.value, label.parse::<f64>()) {
        (AnswerValue::Score { score, .. }, Ok(l)) => Some((*score, l)),
        _ => None,
    };
    let decision = DecisionRow::for_answer(CONSUMER, &question.id, answer, band, false);
    let outcome = OutcomeRow::new(&decision.id, Some(correct), Some(format!("labelled {label}")));
    Scored {
        label: label.to_string(),
        answered,
        correct,
        certainty: certainty_of(answer),
        measured,
        levels,
        rows: [Row::Decision(decision), Row::Outcome(outcome)],
        at_least: false,
    }
}

/// The answer's probabilities in the order of `outcomes` (0 for an outcome it does not name).
fn distribution(answer: &Answer, outcomes: &[String]) -> Vec<f64> {
    let probs = answer.probabilities.as_ref();
    outcomes.iter().map(|o| probs.and_then(|p| p.get(o)).unwrap_or(0.0)).collect()
}

/// What an evaluation found.
#[derive(Debug, Clone, Serialize)]
pub struct Evaluation {
    /// The question.
    pub question: String,
    /// Its type.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The provider and model that answered (the first answer's).
    pub provider: Option<String>,
    /// The model.
    pub model: Option<String>,
    /// Labelled items read.
    pub items: usize,
    /// Items answered.
    pub answered: usize,
    /// Answered items whose distribution was asserted, not measured (no certainty).
    pub estimated: usize,
    /// The first [`INVALID_KEPT`] input lines that gave no state or label, each named.
    pub invalid: Vec<String>,
    /// How many input lines gave no state or label.
    pub invalid_count: usize,
    /// Failures by reason.
    pub failures: BTreeMap<String, usize>,
    /// The share of answered items whose answer was the label.
    pub accuracy: Option<f64>,
    /// The mean probability put on the true label, over measured answers.
    pub mean_p_label: Option<f64>,
    /// The distribution Brier score: the mean, over measured answers, of the sum over the
    /// outcomes of (p - [outcome is the label])² (0 to 2; for a noul, (p(yes) - y)², 0 to 1).
    pub brier_distribution: Option<f64>,
    /// The certainty Brier score: the mean of (certainty - correct)², as `ledger report` gives
    /// it (0 to 1).
    pub brier_certainty: Option<f64>,
    /// The expected calibration error of certainty against correctness (10 bins).
    pub ece: Option<f64>,
    /// For a score: Spearman's rank correlation of the expected level with the label.
    pub rank_correlation: Option<f64>,
    /// For a consumer that acts only on a score at least this: the answers it acts on are what
    /// the proposal rests on ([`Scored::acting`]).
    pub acts_at: Option<f64>,
    /// The answers the proposal rests on: every answer, or with `acts_at` those at or above it.
    pub acting: usize,
    /// The act bar the evidence supports, by `ledger propose`'s rule.
    pub proposal: Option<Proposal>,
    /// Accuracy against certainty by bin, as `ledger report` gives it.
    pub calibration: Option<CalibrationReport>,
}

impl Evaluation {
    /// Gather scored answers, failures and invalid lines.
    pub fn new(
        question: &Question,
        scored: &[Scored],
        answers: &[&Answer],
        failures: &[Failure],
        invalid: Invalid,
        acts_at: Option<f64>,
    ) -> Evaluation {
        let mean = |xs: &mut dyn Iterator<Item = f64>| {
            let (sum, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
            (n > 0).then(|| sum / n as f64)
        };
        let rows: Vec<Row> = scored.iter().flat_map(|s| s.rows.iter().cloned()).collect();
        let mut failed: BTreeMap<String, usize> = BTreeMap::new();
        for f in failures {
            *failed.entry(f.reason.to_string()).or_default() += 1;
        }
        let levels: Vec<(f64, f64)> = scored.iter().filter_map(|s| s.levels).collect();
        let calibration = calibration_report(&rows).into_iter().next();
        let acting = acting_rows(scored, acts_at);
        Evaluation {
            question: question.id.clone(),
            kind: question.kind.type_name(),
            provider: answers.first().map(|a| a.provider.clone()),
            model: answers.first().map(|a| a.model.clone()),
            items: scored.len() + failures.len() + invalid.count,
            answered: scored.len(),
            estimated: scored.iter().filter(|s| s.certainty.is_none()).count(),
            invalid: invalid.first,
            invalid_count: invalid.count,
            failures: failed,
            accuracy: mean(&mut scored.iter().map(|s| if s.correct { 1.0 } else { 0.0 })),
            mean_p_label: mean(&mut scored.iter().filter_map(|s| s.measured.map(|m| m.0))),
            brier_distribution: mean(&mut scored.iter().filter_map(|s| s.measured.map(|m| m.1))),
            brier_certainty: calibration.as_ref().map(|r| r.brier_certainty),
            ece: calibration.as_ref().map(|r| r.ece),
            rank_correlation: matches!(question.kind, QuestionKind::Score { .. }).then(|| spearman(&levels)).flatten(),
            acts_at,
            acting: acting.len() / 2,
            proposal: propose_thresholds(&acting).into_iter().next(),
            calibration,
        }
    }

    /// The report a person reads.
    pub fn text(&self, current: &crate::contract::Thresholds) -> String {
        let f = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.3}"));
        let mut out = format!(
            "question {} ({}), provider {}, model {}\n",
            self.question,
            self.kind,
            terminal(self.provider.as_deref().unwrap_or("-")),
            terminal(self.model.as_deref().unwrap_or("-"))
        );
        out.push_str(&format!(
            "items {}: {} answered ({} of them estimated, so without a certainty), {} failed, {} invalid\n",
            self.items,
            self.answered,
            self.estimated,
            self.failures.values().sum::<usize>(),
            self.invalid_count
        ));
        for (reason, n) in &self.failures {
            out.push_str(&format!("  failed: {reason} {n}\n"));
        }
        for line in self.invalid.iter().take(5) {
            out.push_str(&format!("  invalid: {}\n", terminal(line)));
        }
        if self.invalid_count > 5 {
            out.push_str(&format!("  invalid: and {} more\n", self.invalid_count - 5));
        }
        let measured = self.answered - self.estimated;
        out.push_str(&format!("accuracy                   {}\n", f(self.accuracy)));
        out.push_str(&format!(
            "mean p(true label)         {}  (over {measured} measured answers)\n",
            f(self.mean_p_label)
        ));
        out.push_str(&format!(
            "Brier (distribution)       {}  (0-2: the answer's probabilities against the label)\n",
            f(self.brier_distribution)
        ));
        out.push_str(&format!(
            "Brier (certainty)          {}  (0-1: certainty against correct, as ledger report)\n",
            f(self.brier_certainty)
        ));
        out.push_str(&format!("ECE (certainty, 10 bins)   {}\n", f(self.ece)));
        if self.kind == "score" {
            out.push_str(&format!(
                "rank correlation           {}  (Spearman, expected level against label)\n",
                f(self.rank_correlation)
            ));
        }
        out.push_str(&format!(
            "current bars               floor {} escalate {} act {}\n",
            current.floor, current.escalate, current.act
        ));
        if let Some(at) = self.acts_at {
            out.push_str(&format!(
                "acted on                   {} of {} answers, a score of {at} or more: the bar rests on them, each right when its label is {at} or more too\n",
                self.acting, self.answered
            ));
        }
        match &self.proposal {
            Some(p) => out.push_str(&format!(
                "proposed act bar           {}  {}\n",
                p.act.map_or("-".to_string(), |a| format!("{:.3}", crate::ledger::display_bar(a))),
                p.reasoning
            )),
            None => out.push_str("proposed act bar           -  no answer had a certainty\n"),
        }
        out
    }
}

/// Spearman's rank correlation (average ranks for ties); none for fewer than 3 pairs or a
/// constant side.
pub fn spearman(pairs: &[(f64, f64)]) -> Option<f64> {
    if pairs.len() < 3 {
        return None;
    }
    let ranks = |xs: Vec<f64>| -> Vec<f64> {
        let mut order: Vec<usize> = (0..xs.len()).collect();
        order.sort_by(|a, b| xs[*a].total_cmp(&xs[*b]));
        let mut r = vec![0.0; xs.len()];
        let mut i = 0;
        while i < order.len() {
            let mut j = i;
            while j + 1 < order.len() && xs[order[j + 1]] == xs[order[i]] {
                j += 1;
            }
            let avg = (i + j) as f64 / 2.0 + 1.0;
            for k in i..=j {
                r[order[k]] = avg;
            }
            i = j + 1;
        }
        r
    };
    let a = ranks(pairs.iter().map(|p| p.0).collect());
    let b = ranks(pairs.iter().map(|p| p.1).collect());
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let cov: f64 = a.iter().zip(&b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = a.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
    (va > 0.0 && vb > 0.0).then(|| cov / (va * vb).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::Probabilities;
    use crate::contract::Thresholds;
    use serde_json::json;

    fn question(kind: QuestionKind) -> Question {
        let thresholds = Thresholds { floor: 0.5, escalate: 0.65, act: 0.85, act_raise: None, act_lower: None };
        Question { id: "q".into(), instructions: json!("?"), kind, thresholds }
    }

    fn answer(value: AnswerValue, probs: &[(&str, f64)], confidence: Option<f64>) -> Answer {
        let probabilities =
            (!probs.is_empty()).then(|| Probabilities(probs.iter().map(|(k, p)| (k.to_string(), *p)).collect()));
        Answer { provider: "p".into(), model: "m".into(), value, probabilities, confidence, estimated: false }
    }

    #[test]
    fn labels_are_read_as_the_question_names_its_outcomes() {
        let choice =
            QuestionKind::Choice { options: vec![("bug".into(), Value::Null), ("feature".into(), Value::Null)] };
        assert_eq!(label_of(&choice, &json!("bug")), Ok("bug".into()));
        assert!(label_of(&choice, &json!("spam")).is_err_and(|e| e.to_string().contains("not one of bug, feature")));
        let score = QuestionKind::Score { levels: vec![json!("a"), json!("b"), json!("c")] };
        assert_eq!(label_of(&score, &json!(2)), Ok("2".into()));
        assert_eq!(label_of(&score, &json!("1")), Ok("1".into()));
        assert!(label_of(&score, &json!(3)).is_err() && label_of(&score, &json!(1.5)).is_err());
        let noul = QuestionKind::Noul { criteria: None };
        assert_eq!(label_of(&noul, &json!(true)), Ok("true".into()));
        assert_eq!(label_of(&noul, &json!("false")), Ok("false".into()));
        assert_eq!(label_of(&noul, &Value::Null), Err(LabelError::Missing));
    }

    #[test]
    fn a_choice_is_scored_on_its_distribution() {
        let q = question(QuestionKind::Choice { options: vec![("a".into(), Value::Null), ("b".into(), Value::Null)] });
        let a = answer(AnswerValue::Choice("a".into()), &[("a", 0.8), ("b", 0.2)], Some(0.6));
        let s = score(&q, &a, "b", Band::Escalate);
        assert!(!s.correct);
        let (p, brier) = s.measured.expect("measured");
        assert!((p - 0.2).abs() < 1e-12 && (brier - (0.64 + 0.64)).abs() < 1e-12);
        assert_eq!(s.certainty, Some(0.6));
        let Row::Outcome(o) = &s.rows[1] else { panic!() };
        assert_eq!((o.id.as_str(), o.correct), (s.rows[0].id(), Some(false)));
    }

    #[test]
    fn a_noul_and_a_score_are_scored_their_way() {
        let noul = question(QuestionKind::Noul { criteria: None });
        let s = score(&noul, &answer(AnswerValue::Noul(0.9), &[], None), "true", Band::Escalate);
        assert!(s.correct && (s.measured.expect("m").1 - 0.01).abs() < 1e-12);
        let levels = QuestionKind::Score { levels: vec![json!("a"), json!("b"), json!("c")] };
        let sc = question(levels);
        let a = answer(
            AnswerValue::Score { score: 1.4, legend: json!({}) },
            &[("0", 0.1), ("1", 0.4), ("2", 0.5)],
            Some(0.25),
        );
        let s = score(&sc, &a, "1", Band::Floor);
        assert!(s.correct, "1.4 rounds to level 1");
        assert_eq!(s.levels, Some((1.4, 1.0)));
    }

    #[test]
    fn an_estimated_answer_counts_for_accuracy_but_not_for_the_distribution() {
        let noul = question(QuestionKind::Noul { criteria: None });
        let mut a = answer(AnswerValue::Noul(1.0), &[], None);
        a.estimated = true;
        let s = score(&noul, &a, "true", Band::Floor);
        assert!(s.correct && s.measured.is_none() && s.certainty.is_none());
    }

    /// A score of 4 levels answered with `p3` on the top level and the rest on level `low`.
    fn four_levels(low: usize, p3: f64) -> Answer {
        let mut p = [0.0; 4];
        p[low] = 1.0 - p3;
        p[3] += p3;
        let score: f64 = p.iter().enumerate().map(|(k, x)| k as f64 * x).sum();
        let probs: Vec<(String, f64)> = (0..4).map(|k| (k.to_string(), p[k])).collect();
        let refs: Vec<(&str, f64)> = probs.iter().map(|(k, x)| (k.as_str(), *x)).collect();
        let top = p.iter().copied().fold(0.0, f64::max);
        answer(AnswerValue::Score { score, legend: json!({}) }, &refs, Some((4.0 * top - 1.0) / 3.0))
    }

    #[test]
    fn a_consumer_that_acts_on_one_side_of_a_score_gets_a_bar_from_what_it_acts_on() {
        let levels = QuestionKind::Score { levels: vec![json!("a"), json!("b"), json!("c"), json!("d")] };
        let q = question(levels);
        // 40 sure denials of level 3 commands at certainties 0.60..0.99, one sure "level 0" for a
        // level 1 command (certainty 0.96), one denial of a level 2 command at 0.55.
        let mut scored: Vec<Scored> =
            (0..40).map(|i| score(&q, &four_levels(2, 0.7 + 0.0075 * f64::from(i)), "3", Band::Act)).collect();
        scored.push(score(&q, &four_levels(0, 0.03), "1", Band::Act));
        scored.push(score(&q, &four_levels(2, 0.66), "2", Band::Act));
        let refs: [&Answer; 0] = [];
        let exact = Evaluation::new(&q, &scored, &refs, &[], Invalid::default(), None);
        let acting = Evaluation::new(&q, &scored, &refs, &[], Invalid::default(), Some(2.5));
        // On the exact levels, the level 1 read as 0 at 0.96 sets the bar above it.
        assert!(exact.proposal.as_ref().and_then(|p| p.act).expect("a bar") > 0.96);
        assert_eq!(exact.acting, 42);
        // The denials alone: 40 right and one wrong, the level 2 denied at 0.547; the bar is
        // the lowest of the right ones above it. Accuracy and calibration still count every answer.
        assert_eq!(acting.acting, 41);
        let bar = acting.proposal.as_ref().and_then(|p| p.act).expect("a bar");
        assert!(bar > 0.547 && bar <= 0.61, "{bar}");
        assert_eq!(acting.accuracy, exact.accuracy);
        assert!(acting.text(&q.thresholds).contains("acted on                   41 of 42 answers"));
        // The rows recorded are the ones acted on, right when the label is at or above 2.5.
        let rows: Vec<[Row; 2]> = scored.iter().filter_map(|s| s.acting(Some(2.5))).collect();
        assert_eq!(rows.len(), 41);
        let Row::Outcome(o) = &rows[40][1] else { panic!() };
        assert_eq!(o.correct, Some(false), "a level 2 command denied is a wrong denial");
        assert!(scored[40].acting(Some(2.5)).is_none(), "a level 0 answer is not acted on");
        // A label that is only the least the state could be: a denial above it decides nothing,
        // unless the least is already at the bar's side (`make deploy`, at least 3).
        let mut unseen = scored[41].clone();
        unseen.at_least = true;
        assert!(unseen.acting(Some(2.5)).is_none(), "an unsure level 2 denied is no evidence");
        let mut deploy = scored[0].clone();
        deploy.at_least = true;
        assert!(deploy.acting(Some(2.5)).is_some(), "an unsure level 3 denied is right");
    }

    #[test]
    fn spearman_handles_ties_and_refuses_too_little() {
        assert_eq!(spearman(&[(1.0, 1.0), (2.0, 2.0)]), None);
        assert!((spearman(&[(0.1, 0.0), (1.2, 1.0), (2.5, 2.0), (2.9, 3.0)]).expect("rho") - 1.0).abs() < 1e-12);
        assert!((spearman(&[(3.0, 0.0), (2.0, 1.0), (1.0, 2.0)]).expect("rho") + 1.0).abs() < 1e-12);
        assert_eq!(spearman(&[(1.0, 0.0), (1.0, 1.0), (1.0, 2.0)]), None);
        let tied = spearman(&[(1.0, 0.0), (1.0, 0.0), (2.0, 1.0), (3.0, 1.0)]).expect("rho");
        assert!(tied > 0.8 && tied < 1.0, "{tied}");
    }
}
