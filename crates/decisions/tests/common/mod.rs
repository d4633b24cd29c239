//! Shared fixtures for the seam's integration tests.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use decisions::{CatalogRef, Descriptor, Env, ProviderChoice, Request, builtin};
use serde_json::{Value, json};

pub const KEY: &str = "sk-canary-7f3e9b21d4c8a6";

pub fn catalog() -> Value {
    json!({
        "version": "decisions/1.0",
        "questions": {
            "effort": {"type": "choice", "instructions": {"question": "How much effort?"},
                       "criteria": {"low": {"what": "small"}, "medium": null, "high": {"what": "big"}}},
            "risky": {"type": "noul", "instructions": "Is it risky?",
                      "criteria": {"true": {"what": "yes"}, "false": {"what": "no"}}},
            "severity": {"type": "score", "instructions": "How bad?", "criteria": ["calm", "angry", "furious"]}
        },
        "thresholds": {
            "effort": {"floor": 0.5, "escalate": 0.65, "act": 0.85},
            "risky": {"floor": 0.5, "escalate": 0.65, "act": 0.85},
            "severity": {"floor": 0.5, "escalate": 0.65, "act": 0.85}
        }
    })
}

/// A System One answers body: effort high (conf 0.9), risky 0.96, severity 1.95 (conf 0.9).
pub fn answers() -> Value {
    json!({
        "model": "jev-1.13.0-served",
        "answers": {
            "effort": {"type": "choice", "choice": "high",
                       "probabilities": {"low": 0.02, "medium": 0.05, "high": 0.93}, "confidence": 0.9},
            "risky": {"type": "noul", "noul": 0.96},
            "severity": {"type": "score", "score": 1.95, "legend": {"0": "calm", "1": "angry", "2": "furious"},
                         "probabilities": {"0": 0.0, "1": 0.05, "2": 0.95}, "confidence": 0.9}
        },
        "usage": {"input_tokens": 10, "output_tokens": 3}
    })
}

/// A project dir with `.leopold/decisions/test.json`.
pub fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tmp");
    let leo = dir.path().join(".leopold");
    write(&leo.join("decisions/test.json"), &catalog());
    (dir, leo)
}

pub fn write(path: &Path, v: &Value) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, serde_json::to_string_pretty(v).expect("json")).expect("write");
}

pub fn descriptor(name: &str, endpoint: &str) -> Descriptor {
    let mut d = builtin(name).expect("built in");
    d.endpoint = endpoint.to_string();
    if d.model.is_empty() {
        d.model = "vendor/model-1".into();
    }
    d
}

pub fn env(vars: &[(&str, &str)]) -> Env {
    Env::Map(vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<BTreeMap<_, _>>())
}

pub fn request(leo: &Path, questions: &[&str], provider: Option<ProviderChoice>) -> Request<'static> {
    Request {
        catalog: Some(CatalogRef::Name("test".into())),
        questions: questions.iter().map(|q| q.to_string()).collect(),
        state: json!({"item": "Rename a helper"}),
        leo_dir: Some(leo.to_path_buf()),
        config: None,
        provider,
        timeout_ms: None,
        env: env(&[
            ("TYPESAFE_API_KEY", KEY),
            ("LEOPOLD_DECISIONS_API_KEY", KEY),
            ("OPENROUTER_API_KEY", KEY),
            ("AI_GATEWAY_API_KEY", KEY),
        ]),
        catalog_check: None,
    }
}

pub fn explicit(name: &str, endpoint: &str) -> Option<ProviderChoice> {
    Some(ProviderChoice::Descriptor(descriptor(name, endpoint)))
}

/// The decision as the CLI would print it.
pub fn json_of<T>(d: &decisions::Decision<T>) -> Value {
    serde_json::to_value(d).expect("serialises")
}

/// A System One provider that answers each question it is asked from `answers` (a question
/// with no entry gets no answer), as model `stub-1.0.0`.
pub fn answering(answers: Vec<(&'static str, Value)>) -> stub::Reply {
    let answers: BTreeMap<String, Value> = answers.into_iter().map(|(q, a)| (q.to_string(), a)).collect();
    stub::Reply::computed(move |req| {
        let asked = req.json()["questions"].as_object().cloned().unwrap_or_default();
        let out: serde_json::Map<String, Value> =
            asked.keys().filter_map(|q| answers.get(q).map(|a| (q.clone(), a.clone()))).collect();
        stub::Reply::json(&json!({"model": "stub-1.0.0", "answers": out}))
    })
}

/// A choice among `options` with `confidence`: the choice is the likeliest option.
pub fn choice(options: &[&str], pick: &str, confidence: f64) -> Value {
    let rest = 0.4 / (options.len() - 1) as f64;
    let probs: serde_json::Map<String, Value> =
        options.iter().map(|o| (o.to_string(), json!(if *o == pick { 0.6 } else { rest }))).collect();
    json!({"type": "choice", "choice": pick, "probabilities": probs, "confidence": confidence})
}

/// A noul: the probability of yes.
pub fn noul(p: f64) -> Value {
    json!({"type": "noul", "noul": p})
}

/// The shipped catalog `name`, as a project keeps it: `<leo>/decisions/<name>.json`.
pub fn shipped(leo: &Path, name: &str) {
    let text = decisions::install::shipped(name).expect("shipped");
    std::fs::create_dir_all(leo.join("decisions")).expect("mkdir");
    std::fs::write(leo.join("decisions").join(format!("{name}.json")), text).expect("write");
}
