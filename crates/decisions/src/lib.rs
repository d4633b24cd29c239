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

pub mod agent;
mod answer;
mod ask;
mod band;
pub mod builtin;
mod config;
pub mod consumer;
mod contract;
mod descriptor;
pub mod escape;
pub mod eval;
pub mod event;
pub mod file;
pub mod install;
pub mod json;
mod jsonl;
pub mod judgment;
pub mod ledger;
mod project;
mod provider;
pub mod run;
mod schema;
mod secret;
mod transport;
pub mod watch;

pub use answer::{Answer, AnswerValue, Failure, FailureReason, Probabilities, certainty_of, confidence_from};
pub use ask::{
    CatalogCheck, CatalogReadError, CatalogRef, Decision, Prepared, ProviderChoice, READ_BUDGET_MS, Request, ask,
    load_catalog, prepare,
};
pub use band::{Band, Direction, band_of};
pub use config::{
    Config, ConfigFile, DescriptorLookup, Env, PROVIDER_ENV, Source, descriptor_for, load_config, parse_config,
    resolve_name,
};
pub use contract::{Catalog, CatalogError, Question, QuestionKind, Thresholds, validate_catalog};
pub use descriptor::{
    Descriptor, DescriptorError, NONE, REGISTRY, Wire, builtin, calibration_label, is_system_one_endpoint,
    key_variables, known_names, provider_templates, validate_descriptor, wire_of,
};
pub use event::Event;
pub use jsonl::{Format, Records, Versioning, append_line, append_lines};
pub use project::{PROJECT_ENV, catalog_path, config_path, find_leo_dir, git_root, leo_dir_for, read_project_file};
pub use schema::{
    CHOICE_MAX_OPTIONS, CHOICE_MIN_OPTIONS, CONTRACT_VERSION, NOUL_CRITERIA_KEYS, QUESTION_TYPES, SCORE_LEVELS,
    catalog_schema,
};
pub use secret::{Redactor, clip};
pub use transport::Pace;

/// Entry points for the fuzz targets in `crates/decisions/fuzz`: the private wire parsers, fed
/// any bytes. Built only under cargo-fuzz (`--cfg fuzzing`).
#[cfg(fuzzing)]
#[doc(hidden)]
pub mod fuzzing {
    use crate::contract::Question;

    fn questions() -> Vec<Question> {
        let catalog = serde_json::json!({"version": "decisions/1.0", "questions": {
            "pick": {"type": "choice", "instructions": "?", "criteria": {"low": null, "lower": null, "high": null}},
            "grade": {"type": "score", "instructions": "?", "criteria": ["a", "b", "c", "d"]},
            "yes": {"type": "noul", "instructions": "?"}},
            "thresholds": {"pick": {"floor": 0.5, "escalate": 0.6, "act": 0.8},
                           "grade": {"floor": 0.5, "escalate": 0.6, "act": 0.8},
                           "yes": {"floor": 0.5, "escalate": 0.6, "act": 0.8}}});
        let none = crate::builtin("none").unwrap_or_else(|| unreachable!());
        crate::validate_catalog(&catalog, &none).map(|c| c.questions).unwrap_or_default()
    }

    /// Every answer taken keeps the contract: a distribution over exactly the outcomes that
    /// sums to 1, values and confidence in [0, 1].
    fn check(q: &Question, a: &crate::Answer) {
        let unit = |x: f64| x.is_finite() && (0.0..=1.0).contains(&x);
        if let Some(p) = &a.probabilities {
            let keys: Vec<&str> = p.0.iter().map(|(k, _)| k.as_str()).collect();
            assert_eq!(keys, q.kind.outcomes().iter().map(String::as_str).collect::<Vec<_>>(), "{a:?}");
            assert!(p.values().all(unit) && (p.values().sum::<f64>() - 1.0).abs() <= 0.0201, "{a:?}");
        }
        assert!(a.confidence.is_none_or(unit) && crate::certainty_of(a).is_none_or(unit), "{a:?}");
        if let crate::AnswerValue::Noul(p) = a.value {
            assert!(unit(p), "{a:?}");
        }
    }

    /// A System One answer body, as the transport would hand it over.
    pub fn systemone(bytes: &[u8]) {
        let Ok(value) = serde_json::from_slice(bytes) else { return };
        let duplicates = crate::json::duplicate_keys(&String::from_utf8_lossy(bytes));
        let body = crate::transport::Body { value, duplicates };
        let qs = questions();
        let refs: Vec<&Question> = qs.iter().collect();
        for (q, r) in qs.iter().zip(crate::provider::systemone::answers_from("jev", "m", &body, &refs)) {
            if let Ok(a) = r {
                check(q, &a);
            }
        }
    }

    /// A chat-completions body, for each question type.
    pub fn chat(bytes: &[u8]) {
        let Ok(value) = serde_json::from_slice(bytes) else { return };
        for q in &questions() {
            if let Ok(a) = crate::provider::chat::answer("openrouter", "m", &value, q) {
                check(q, &a);
            }
        }
    }
}
