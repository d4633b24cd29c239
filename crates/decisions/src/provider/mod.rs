//! The wires: how a question is put to a provider and how its answer is read back. Each wire
//! keeps its request and response shapes as private types with one conversion each:
//! `systemone` (jev, generic: one request for every question) and `chat` (openrouter, vercel:
//! one enum-constrained request per question, probabilities from the token logprobs).

pub(crate) mod chat;
pub(crate) mod systemone;
