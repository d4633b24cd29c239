//! The wires: how a question is put to a provider and how its answer is read back. Each wire
//! keeps its request and response shapes as private types with one conversion each:
//! `systemone` (jev, generic: one request for every question) and `chat` (openrouter, vercel:
//! one enum-constrained request per question, probabilities from the token logprobs).

pub(crate) mod chat;
pub(crate) mod systemone;

use serde::de::{Deserialize, DeserializeOwned, Deserializer};
use serde_json::Value;

/// A field read leniently: a value of the wrong type reads as absent, as a missing one does,
/// so the semantic check that follows says what is wrong with it, naming the question.
pub(crate) fn lenient<'de, D: Deserializer<'de>, T: DeserializeOwned>(d: D) -> Result<Option<T>, D::Error> {
    let v = Value::deserialize(d)?;
    Ok(serde_json::from_value(v).ok())
}
