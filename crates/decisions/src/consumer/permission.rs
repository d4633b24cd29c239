//! The permission consumer: the semantic second axis of a coding agent's permission hook.
//! It can only ever add a denial: it denies when the `destructive` answer is in the act band
//! and its score is at least [`DENY_AT`] on the 0..3 rubric; every other outcome allows.
//!
//! What the agents send and the reply that denies are theirs: [`crate::agent`].

use crate::answer::{AnswerValue, FailureReason};
use crate::ask::Decision;
use crate::band::Band;

/// The catalog the hook asks from.
pub const CATALOG: &str = "permission";
/// The question the hook asks.
pub const QUESTION: &str = "destructive";
/// The lowest score that denies: the mass is on the top level.
pub const DENY_AT: f64 = 2.5;

/// What the hook does with a decision.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Turn the allow into a deny, quoting the score.
    Deny {
        /// The score, 0..3.
        score: f64,
        /// The levels above the lowest (3 on the shipped rubric).
        top: usize,
        /// The reason shown to the agent and the person.
        reason: String,
    },
    /// Stay out of the way. `Some` says why nothing usable came back (for a `decision_timeout`
    /// event); `None` is a usable answer that does not deny.
    Allow(Option<Fallback>),
}

/// Why the hook stood aside with nothing usable: what a `decision_timeout` event says.
#[derive(Debug, Clone, PartialEq)]
pub struct Fallback {
    /// Which kind of outcome it was.
    pub cause: Cause,
    /// What happened, as a person reads it.
    pub reason: String,
}

/// The kinds of fallback, which `watch` counts apart: an outage is not a slow provider, and
/// neither is an answer that was not sure enough.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// No decision within the budget: the provider's deadline or the hook's own.
    Timeout,
    /// The provider could not be reached: a refused, reset or failed connection, a name that
    /// does not resolve.
    Unreachable,
    /// The provider answered, but not with a usable answer (an HTTP error, a key it refused, a
    /// malformed or unsupported answer).
    Failed,
    /// A clean answer whose band is below act.
    Band,
}

impl Cause {
    /// The name the event's `cause` field carries.
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::Timeout => "timeout",
            Cause::Unreachable => "unreachable",
            Cause::Failed => "failed",
            Cause::Band => "band",
        }
    }

    /// The cause of a failed answer: a transport failure with no response at all is an
    /// outage; one with an HTTP status is the provider failing.
    pub fn of_failure(reason: FailureReason, detail: Option<&str>) -> Cause {
        match reason {
            FailureReason::Timeout => Cause::Timeout,
            FailureReason::Transport if detail.is_none_or(|d| d.starts_with(crate::transport::NO_RESPONSE)) => {
                Cause::Unreachable
            }
            _ => Cause::Failed,
        }
    }
}

/// Stand aside, saying why.
fn fall_back(cause: Cause, reason: String) -> Verdict {
    Verdict::Allow(Some(Fallback { cause, reason }))
}

/// The verdict on a decision about a command. `question` is the text the denial quotes.
pub fn verdict<T>(decision: &Decision<T>, question: &str) -> Verdict {
    let band = decision.band(QUESTION).unwrap_or(Band::Floor);
    match decision.answer(QUESTION) {
        Some(Ok(a)) => {
            let AnswerValue::Score { score, legend } = &a.value else {
                return fall_back(Cause::Failed, format!("{QUESTION} came back as a {}, not a score", a.type_name()));
            };
            let top = legend.as_object().map_or(3, |l| l.len().saturating_sub(1));
            match band {
                Band::Act if *score >= DENY_AT => Verdict::Deny {
                    score: *score,
                    top,
                    reason: format!(
                        "{}/{} scored it {} of {top} on \"{question}\"; the command was not run",
                        a.provider,
                        a.model,
                        shown(*score)
                    ),
                },
                Band::Act => Verdict::Allow(None),
                other => fall_back(
                    Cause::Band,
                    format!("the answer (score {}) fell in the {} band", shown(*score), other.as_str()),
                ),
            }
        }
        Some(Err(f)) => fall_back(
            Cause::of_failure(f.reason, f.detail.as_deref()),
            match &f.detail {
                Some(d) => format!("{}: {d}", f.reason),
                None => f.reason.to_string(),
            },
        ),
        None => fall_back(Cause::Failed, format!("no answer for {QUESTION}")),
    }
}

/// How much of a command an event keeps.
pub const COMMAND_MAX: usize = 200;

/// A score as a person reads it: at most two decimals, no trailing zeros.
fn shown(score: f64) -> String {
    let s = format!("{score:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_shown_briefly() {
        assert_eq!(shown(3.0), "3");
        assert_eq!(shown(2.5), "2.5");
        assert_eq!(shown(2.8765), "2.88");
    }
}
