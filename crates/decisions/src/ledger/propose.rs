//! Threshold proposals: the weakest act bar the evidence supports, per provider and question.
//! Proposals are read by a person next to the current value; nothing here writes a catalog.

use std::path::Path;

use serde::Serialize;

use super::{Entry, LedgerError, Row, samples, with_file};

/// Below this many decisions with a known outcome, nothing is proposed.
pub const MIN_SAMPLE: usize = 30;

/// What a proposal says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProposalStatus {
    /// A bar is proposed.
    Proposed,
    /// Too few known outcomes: the current value stands.
    TooFewSamples,
    /// No certainty is followed only by correct outcomes.
    Unanswerable,
}

/// A proposed act bar for one provider and question.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Proposal {
    /// The provider the evidence is about.
    pub provider: String,
    /// The question id.
    pub question: String,
    /// What the proposal says.
    pub status: ProposalStatus,
    /// Decisions with a known outcome and a certainty.
    pub samples: usize,
    /// How many of them were correct.
    pub correct: usize,
    /// The proposed act bar: the lowest certainty at or above which every sample was correct.
    pub act: Option<f64>,
    /// How many samples the bar admits.
    pub admitted: usize,
    /// One sentence a person reads before moving a bar.
    pub reasoning: String,
}

/// A bar as shown to a person: rounded up to three decimals, so the shown value never admits
/// a sample the exact bar excludes.
pub fn display_bar(act: f64) -> f64 {
    let up = (act * 1000.0).ceil() / 1000.0;
    if up < act { up + 0.001 } else { up }
}

/// Propose act bars from ledger rows, grouped by provider and question.
pub fn propose_thresholds(rows: &[Row]) -> Vec<Proposal> {
    let entries: Vec<Vec<Entry>> = vec![rows.iter().map(Entry::from).collect()];
    propose_all(&entries)
}

/// Propose act bars from a ledger file, reading it on every core. Also returns how many lines
/// were skipped.
pub fn propose_file(path: &Path) -> Result<(Vec<Proposal>, usize), LedgerError> {
    with_file(path, propose_all)
}

fn propose_all(entries: &[Vec<Entry>]) -> Vec<Proposal> {
    samples(entries).into_iter().map(|((provider, question), samples)| propose(provider, question, samples)).collect()
}

fn propose(provider: &str, question: &str, mut samples: Vec<(f64, bool)>) -> Proposal {
    let n = samples.len();
    let correct = samples.iter().filter(|(_, ok)| *ok).count();
    let mut p = Proposal {
        provider: provider.into(),
        question: question.into(),
        status: ProposalStatus::TooFewSamples,
        samples: n,
        correct,
        act: None,
        admitted: 0,
        reasoning: String::new(),
    };
    if n < MIN_SAMPLE {
        p.reasoning = format!(
            "Only {n} decisions with a known outcome; {MIN_SAMPLE} are needed before a bar is proposed, so the current value stands."
        );
        return p;
    }
    samples.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Every candidate bar is a distinct certainty, tested by value: the bar admits every sample
    // at or above it, so equal certainties stand or fall together.
    let worst_wrong = samples.iter().filter(|(_, ok)| !ok).map(|(c, _)| *c).fold(f64::NEG_INFINITY, f64::max);
    match samples.iter().map(|(c, _)| *c).find(|c| *c > worst_wrong) {
        Some(bar) => {
            let admitted = samples.iter().filter(|(c, _)| *c >= bar).count();
            p.status = ProposalStatus::Proposed;
            p.act = Some(bar);
            p.admitted = admitted;
            p.reasoning = if worst_wrong.is_finite() {
                format!(
                    "Every one of the {admitted} decisions at certainty {:.3} or above was correct, and a decision at {worst_wrong:.3} was wrong; {:.3} is the weakest bar this evidence supports.",
                    display_bar(bar),
                    display_bar(bar)
                )
            } else {
                format!(
                    "All {n} decisions were correct, down to the lowest certainty seen ({:.3}); a lower bar is untested by this evidence.",
                    display_bar(bar)
                )
            };
        }
        None => {
            p.status = ProposalStatus::Unanswerable;
            p.reasoning = format!(
                "No certainty is followed only by correct outcomes: even the most certain decision ({worst_wrong:.3}) was wrong, so this question may not be answerable by provider \"{provider}\"."
            );
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::band::Band;
    use crate::ledger::{DecisionRow, OutcomeRow};

    fn decision(id: usize, provider: &str, certainty: f64) -> Row {
        Row::Decision(DecisionRow {
            id: id.to_string(),
            ts: "2026-01-01T00:00:00Z".into(),
            consumer: "routing".into(),
            question: "effort".into(),
            provider: provider.into(),
            model: "m".into(),
            confidence: Some(certainty),
            certainty: Some(certainty),
            band: Band::Act,
            acted: true,
        })
    }

    fn outcome(id: usize, correct: Option<bool>) -> Row {
        Row::Outcome(OutcomeRow { id: id.to_string(), ts: "2026-01-02T00:00:00Z".into(), correct, note: None })
    }

    /// `samples` of (certainty, correct) as rows for one provider.
    fn rows(samples: &[(f64, bool)]) -> Vec<Row> {
        let mut rows = Vec::new();
        for (i, (c, ok)) in samples.iter().enumerate() {
            rows.push(decision(i, "jev", *c));
            rows.push(outcome(i, Some(*ok)));
        }
        rows
    }

    #[test]
    fn below_thirty_known_outcomes_nothing_is_proposed() {
        let samples: Vec<(f64, bool)> = (0..29).map(|i| (0.5 + i as f64 / 100.0, true)).collect();
        let mut r = rows(&samples);
        // Unknown outcomes and decisions without one do not count.
        r.push(decision(100, "jev", 0.9));
        r.push(outcome(100, None));
        r.push(decision(101, "jev", 0.9));
        let p = propose_thresholds(&r);
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].status, p[0].samples, p[0].act), (ProposalStatus::TooFewSamples, 29, None));
        assert!(p[0].reasoning.contains("Only 29"), "{}", p[0].reasoning);
    }

    #[test]
    fn the_bar_is_the_lowest_certainty_above_every_wrong_decision() {
        let mut samples: Vec<(f64, bool)> = (0..40).map(|i| (0.5 + i as f64 / 100.0, true)).collect();
        samples[10].1 = false; // 0.60 wrong
        samples[20].1 = false; // 0.70 wrong
        let p = &propose_thresholds(&rows(&samples))[0];
        assert_eq!(p.status, ProposalStatus::Proposed);
        assert_eq!(p.act, Some(0.5 + 21.0 / 100.0));
        assert_eq!((p.samples, p.correct, p.admitted), (40, 38, 19));
    }

    #[test]
    fn equal_certainties_stand_or_fall_together() {
        // Slicing by position would cut through the group at 0.8 and propose a bar a wrong
        // sample sitting exactly on it contradicts.
        let mut samples: Vec<(f64, bool)> = (0..30).map(|_| (0.8, true)).collect();
        samples.push((0.8, false));
        samples.extend((0..5).map(|_| (0.9, true)));
        let p = &propose_thresholds(&rows(&samples))[0];
        assert_eq!(p.act, Some(0.9));
        assert_eq!(p.admitted, 5);
    }

    #[test]
    fn when_the_most_certain_decision_is_wrong_the_question_may_be_unanswerable() {
        let mut samples: Vec<(f64, bool)> = (0..30).map(|i| (0.5 + i as f64 / 100.0, true)).collect();
        samples.push((0.99, false));
        let p = &propose_thresholds(&rows(&samples))[0];
        assert_eq!((p.status, p.act), (ProposalStatus::Unanswerable, None));
        assert!(p.reasoning.contains("may not be answerable by provider \"jev\""), "{}", p.reasoning);
    }

    #[test]
    fn the_latest_outcome_counts() {
        let samples: Vec<(f64, bool)> = (0..30).map(|i| (0.5 + i as f64 / 100.0, true)).collect();
        let mut r = rows(&samples);
        r.push(outcome(29, Some(false))); // the most certain decision, later found wrong
        assert_eq!(propose_thresholds(&r)[0].status, ProposalStatus::Unanswerable);
        r.push(outcome(29, Some(true))); // and later still, right after all
        assert_eq!(propose_thresholds(&r)[0].act, Some(0.5));
    }

    #[test]
    fn groups_are_per_provider_and_question() {
        let mut r = rows(&(0..30).map(|i| (0.5 + i as f64 / 100.0, true)).collect::<Vec<_>>());
        r.push(decision(500, "openrouter", 0.9));
        let p = propose_thresholds(&r);
        let keys: Vec<(&str, usize)> = p.iter().map(|p| (p.provider.as_str(), p.samples)).collect();
        assert_eq!(keys, [("jev", 30), ("openrouter", 0)]);
    }

    #[test]
    fn the_shown_bar_never_admits_a_contradicting_sample() {
        // A wrong decision at 0.8504 and a right one at 0.85041: rounding to 0.850 would admit
        // the wrong one; rounding up does not.
        let mut samples: Vec<(f64, bool)> = (0..30).map(|_| (0.95, true)).collect();
        samples.push((0.8504, false));
        samples.push((0.85041, true));
        let p = &propose_thresholds(&rows(&samples))[0];
        let act = p.act.unwrap_or(f64::NAN);
        assert_eq!(act, 0.85041);
        assert!(display_bar(act) > 0.8504 && display_bar(act) >= act);
        assert!(p.reasoning.contains("0.851"), "{}", p.reasoning);
    }

    #[test]
    fn randomised_proposals_never_admit_a_wrong_sample() {
        // A small deterministic generator: no dependency, same cases every run.
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..300 {
            let n = 30 + (next() % 60) as usize;
            let samples: Vec<(f64, bool)> =
                (0..n).map(|_| (((next() % 1000) as f64 / 997.0).min(1.0), next() % 5 != 0)).collect();
            let p = &propose_thresholds(&rows(&samples))[0];
            match p.act {
                Some(act) => {
                    for bar in [act, display_bar(act)] {
                        assert!(samples.iter().filter(|(c, _)| *c >= bar).all(|(_, ok)| *ok), "bar {bar}");
                    }
                    // And it is the weakest: the next lower distinct certainty admits a wrong one.
                    let lower = samples.iter().map(|(c, _)| *c).filter(|c| *c < act).fold(f64::NEG_INFINITY, f64::max);
                    if lower.is_finite() {
                        assert!(samples.iter().any(|(c, ok)| *c >= lower && !ok));
                    }
                }
                None => assert_eq!(p.status, ProposalStatus::Unanswerable),
            }
        }
    }
}
