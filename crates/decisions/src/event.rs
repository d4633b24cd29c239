//! Events: the trail every ask leaves, returned with the result, and what the permission hook
//! adds. The seam writes no log itself; a caller appends [`LogLine`]s to the project's
//! `.leopold/events.jsonl`.

use serde::Serialize;

use crate::answer::{FailureReason, Probabilities};
use crate::band::Band;
use crate::config::Source;

/// One event of an ask, as the caller would append it to its event log.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A provider was engaged with a set of typed questions.
    DecisionAsked {
        /// The provider engaged.
        provider: String,
        /// The model asked for.
        model: String,
        /// The question ids asked.
        questions: Vec<String>,
        /// Where the provider was configured.
        source: Source,
    },
    /// The provider was congested (429/503/529): backing off and retrying.
    DecisionRetry {
        /// The provider.
        provider: String,
        /// The attempt that failed, counting from 1.
        attempt: u32,
        /// How long the seam waits before the next attempt.
        delay_ms: u64,
        /// The HTTP status that caused the retry.
        status: u16,
        /// Where the provider was configured.
        source: Source,
    },
    /// A typed answer with the band that fired.
    DecisionAnswered {
        /// The provider.
        provider: String,
        /// The model that answered.
        model: String,
        /// The question id.
        question: String,
        /// The distribution; absent for a noul.
        #[serde(skip_serializing_if = "Option::is_none")]
        probabilities: Option<Probabilities>,
        /// The answer's confidence.
        confidence: Option<f64>,
        /// The gating scalar.
        certainty: Option<f64>,
        /// The band the certainty fell in.
        threshold_fired: Band,
        /// Milliseconds from the start of the ask.
        elapsed_ms: u64,
        /// Where the provider was configured.
        source: Source,
    },
    /// One question failed; the consumer used its deterministic path.
    DecisionFailed {
        /// The provider.
        provider: String,
        /// The question id.
        question: String,
        /// Why.
        reason: FailureReason,
        /// What a human needs to know.
        #[serde(skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
        /// Milliseconds from the start of the ask, only when a call was made.
        #[serde(skip_serializing_if = "Option::is_none")]
        elapsed_ms: Option<u64>,
        /// Where the provider was configured.
        source: Source,
    },
    /// The hook was not asked to judge: not a shell command, not a permission event, or input
    /// it could not read. Written by the hook.
    DecisionSkipped {
        /// Why, quoting at most a clip of what the agent sent.
        reason: String,
    },
    /// The semantic axis turned the agent's allow into a deny. Written by the hook.
    DecisionDenied {
        /// The command, clipped.
        command: String,
        /// The score it got.
        score: f64,
        /// The question that scored it.
        question: String,
    },
    /// The seam gave nothing usable in the hook's budget, so the agent's own flow goes on.
    /// Written by the hook.
    DecisionTimeout {
        /// Why: the failure, the band, or the budget that ran out.
        reason: String,
        /// The command, clipped, when the input was read.
        #[serde(skip_serializing_if = "Option::is_none")]
        command: Option<String>,
    },
}

impl Event {
    /// The event's name as it is written.
    pub fn name(&self) -> &'static str {
        match self {
            Event::DecisionAsked { .. } => "decision_asked",
            Event::DecisionRetry { .. } => "decision_retry",
            Event::DecisionAnswered { .. } => "decision_answered",
            Event::DecisionFailed { .. } => "decision_failed",
            Event::DecisionSkipped { .. } => "decision_skipped",
            Event::DecisionDenied { .. } => "decision_denied",
            Event::DecisionTimeout { .. } => "decision_timeout",
        }
    }
}

/// One line of a project's event log: when, the event, and the agent session it belongs to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogLine<'a> {
    /// When it was written, UTC to the second.
    pub ts: String,
    /// The event, its fields inline.
    #[serde(flatten)]
    pub event: &'a Event,
    /// The first 8 characters of the agent's `session_id`, when it sent one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The agent's `agent_id`, when it sent one (clipped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
}
