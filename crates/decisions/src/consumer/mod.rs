//! Consumers: the code that asks the seam a question whose answer changes what a run does.
//!
//! A consumer owns one catalog (the questions it asks and the bars it acts on), asks only
//! through [`crate::ask`], keeps the deterministic path it had before any model existed (that
//! path is its fallback, and what it returns whenever the answer is not usable), and records
//! what it decided in the calibration ledger so the bars can be fitted. One file a consumer:
//! `permission` (the agent hook's semantic axis).

pub mod permission;
