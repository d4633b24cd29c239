//! Ask a model a typed question (a choice, an ordinal score, or a yes/no probability called a
//! *noul*) and get back a decision with a probability distribution, or a typed reason why not.
//!
//! The caller always supplies its deterministic fallback: [`ask`] cannot be called without one,
//! and the fallback is what runs whenever there is no provider, no key, no network, a timeout,
//! or an answer below its floor.
//!
//! ```no_run
//! use decisions::{ask, CatalogRef, Request};
//!
//! #[derive(Debug, Clone, Copy, PartialEq)]
//! enum Effort { Low, Medium, High }
//!
//! let regex_verdict = Effort::Medium; // what the deterministic router decided
//! let request = Request {
//!     catalog: Some(CatalogRef::Name("routing".into())),
//!     questions: vec!["effort".into()],
//!     state: serde_json::json!({"item": "Rename the config loader", "evidence": {"files": ["src/config.rs"]}}),
//!     ..Request::default()
//! };
//! let decision = ask(&request, regex_verdict);
//! let effort = match decision.answer("effort") {
//!     Some(Ok(a)) if decision.usable => match &a.value {
//!         decisions::AnswerValue::Choice(c) if c == "low" => Effort::Low,
//!         decisions::AnswerValue::Choice(c) if c == "high" => Effort::High,
//!         _ => decision.fallback,
//!     },
//!     _ => decision.fallback,
//! };
//! # let _ = effort;
//! ```

mod answer;
mod ask;
mod band;
mod config;
mod contract;
mod event;
pub mod file;
pub mod install;
pub mod json;
mod jsonl;
pub mod judgment;
pub mod ledger;
pub mod permission;
pub use jsonl::{Records, append_line, append_lines};
mod provider;
mod secret;
pub use secret::clip;
mod transport;

pub use answer::{Answer, AnswerValue, Failure, FailureReason, Probabilities, certainty_of, confidence_from};
pub use ask::{
    CatalogCheck, CatalogReadError, CatalogRef, Decision, ProviderChoice, READ_BUDGET_MS, Request, ask, catalog_path,
    load_catalog,
};
pub use band::{Band, Direction, band_of};
pub use config::{
    Config, ConfigFile, DescriptorLookup, Env, PROVIDER_ENV, Source, config_path, descriptor_for, find_leo_dir,
    git_root, load_config, read_project_file, resolve_name,
};
pub use contract::{
    CHOICE_MAX_OPTIONS, CHOICE_MIN_OPTIONS, CONTRACT_VERSION, Catalog, CatalogError, NOUL_CRITERIA_KEYS,
    QUESTION_TYPES, Question, QuestionKind, SCORE_LEVELS, Thresholds, catalog_schema, validate_catalog,
};
pub use event::{Event, LogLine};
pub use provider::{
    Descriptor, DescriptorError, NONE, REGISTRY, Wire, builtin, calibration_label, is_system_one_endpoint, known_names,
    provider_templates, validate_descriptor, wire_of,
};
