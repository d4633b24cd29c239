//! Events: the trail every ask leaves, returned with the result. The seam writes no log itself.

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
}
