//! Every integration test of `decisions` in one test binary, one module a file (ripgrep's layout),
//! so the test build links one binary instead of one a file.

mod builtin;
mod canary;
mod catalogs;
mod chat;
mod common;
mod events;
mod hardening;
mod jevcompat;
mod judgment_format;
mod ledger;
mod logprobs;
mod resolution;
mod review;
mod routing;
mod structure;
mod systemone;
