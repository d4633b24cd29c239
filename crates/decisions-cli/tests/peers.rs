//! The real local peers, end to end through the binary: llama.cpp's llama-server (xllamacpp)
//! serving SmolLM2-135M-Instruct behind the keyless `local` provider, its `/v1/systemone`
//! route refusing a model that is not a decision model, and `sparrow-decider` as a second
//! independent System One server behind `generic` with no key. `scripts/test.sh` starts them;
//! a test run without it starts its own. These tests assert mechanics (shapes, bands,
//! `estimated`, timing bounds), never the tiny models' judgement: they answer near chance.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use serde_json::{Value, json};
use stub::Peer;

use crate::common;
use crate::common::Run;

/// A project whose config names `provider` with `descriptor` and ships `catalog` as
/// `.leopold/decisions/<name>.json`.
fn project(provider: &str, descriptor: Value, name: &str, catalog: &Value) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tmp");
    let root = dir.path().to_path_buf();
    std::fs::create_dir_all(root.join(".git")).expect("git");
    let config = json!({"version": "decisions/1.0", "provider": provider, "providers": {provider: descriptor}});
    common::write(&root.join(".leopold/decisions/config.json"), &config);
    common::write(&root.join(format!(".leopold/decisions/{name}.json")), catalog);
    (dir, root)
}

/// Three questions, one of each type; the choice's options are several tokens each.
fn catalog(thresholds_for: &str) -> Value {
    let bars = json!({"floor": 0.5, "escalate": 0.65, "act": 0.85});
    json!({"version": "decisions/1.0", "thresholds_for": thresholds_for,
        "questions": {
            "effort": {"type": "choice", "instructions": "How much verification does this change deserve?",
                       "criteria": {"low": null, "medium": null, "high": null, "xhigh": null, "max": null}},
            "risky": {"type": "noul", "instructions": "Could this change lose data?"},
            "severity": {"type": "score", "instructions": "How bad would a mistake here be?",
                         "criteria": ["harmless", "annoying", "costly", "disastrous"]}},
        "thresholds": {"effort": bars, "risky": bars, "severity": bars}})
}

fn local(peer: &Peer) -> Value {
    let mut d = serde_json::to_value(decisions::builtin("local").expect("local")).expect("json");
    d["endpoint"] = json!(format!("{}/v1/chat/completions", peer.url()));
    d
}

fn generic(endpoint: String, model: &str) -> Value {
    json!({"name": "generic", "endpoint": endpoint, "model": model, "calibrated": false, "auth_env": null,
           "timeout_ms": 20000, "max_options": 64, "max_state_tokens": 32000})
}

/// sparrow-decider, and a project that asks it through keyless `generic`.
fn sparrow_project() -> (Peer, tempfile::TempDir, PathBuf) {
    let peer = Peer::sparrow();
    let endpoint = format!("{}/v1/systemone", peer.url());
    let (dir, root) = project("generic", generic(endpoint, "sparrow-nano-general-v1.1"), "change", &catalog("generic"));
    (peer, dir, root)
}

/// The binary with no key variable set at all: these providers take none.
fn decisions(cwd: &Path) -> Command {
    let mut c = Command::cargo_bin("decisions").expect("binary");
    c.current_dir(cwd);
    for v in ["LEOPOLD_DECISIONS_PROVIDER", "TYPESAFE_API_KEY", "LEOPOLD_DECISIONS_API_KEY", "OPENROUTER_API_KEY"] {
        c.env_remove(v);
    }
    c
}

fn run(cmd: &mut Command) -> Run {
    common::run(cmd)
}

const STATE: &str = r#"{"change": "drop the orders table and recreate it empty", "files": ["db/migrate/001.sql"]}"#;

/// Every answer the catalog's shape says, with a distribution that is honest: measured ones
/// sum to 1 with no option at 0, estimated ones have no certainty and sit at the floor.
fn assert_honest(out: &Value) {
    let types = [("effort", "choice"), ("risky", "noul"), ("severity", "score")];
    for (q, kind) in types {
        let a = &out["answers"][q];
        assert_eq!((a["ok"].clone(), a["type"].clone()), (json!(true), json!(kind)), "{q}: {a}");
        if a["estimated"] == json!(true) {
            assert_eq!((a["confidence"].clone(), out["bands"][q].clone()), (Value::Null, json!("floor")), "{q}: {a}");
            continue;
        }
        if let Some(p) = a["probabilities"].as_object() {
            let sum: f64 = p.values().filter_map(Value::as_f64).sum();
            assert!((sum - 1.0).abs() < 1e-6, "{q}: {a}");
            assert!(p.values().all(|x| x.as_f64().is_some_and(|x| x > 0.0)), "{q}: an option at 0: {a}");
        }
    }
}

#[test]
fn the_local_provider_asks_llama_server_with_no_key_and_reads_honest_distributions() {
    let peer = Peer::llama();
    let (_dir, root) = project("local", local(&peer), "change", &catalog("local"));
    let r = run(decisions(&root).args([
        "ask",
        "--catalog",
        "change",
        "--questions",
        "effort,risky,severity",
        "--state",
        STATE,
    ]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.json();
    assert_eq!((out["provider"].clone(), out["usable"].clone()), (json!("local"), json!(false)), "{out:#}");
    assert_honest(&out);
    assert!(out["answers"]["effort"]["model"].as_str().is_some_and(|m| m.contains("SmolLM2")), "{out:#}");
    assert!(r.took < Duration::from_secs(20), "within the local provider's budget: {:?}", r.took);
}

#[test]
fn llama_servers_system_one_route_refuses_a_model_that_is_not_a_decision_model() {
    let peer = Peer::llama();
    let endpoint = format!("{}/v1/systemone", peer.url());
    let (_dir, root) = project("generic", generic(endpoint, "smollm2"), "change", &catalog("generic"));
    let r = run(decisions(&root).args(["ask", "--catalog", "change", "--questions", "risky", "--state", STATE]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let failure = &r.json()["answers"]["risky"];
    assert_eq!(failure["reason"], "unsupported", "{failure}");
    assert!(
        failure["detail"].as_str().is_some_and(|d| d.contains("HTTP 501") && d.contains("not a decision model")),
        "{failure}"
    );
}

#[test]
fn sparrow_decider_answers_through_generic_with_no_key() {
    let (_peer, _dir, root) = sparrow_project();
    let r = run(decisions(&root).args([
        "ask",
        "--catalog",
        "change",
        "--questions",
        "effort,risky,severity",
        "--state",
        STATE,
    ]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.json();
    assert_honest(&out);
    assert_eq!(out["answers"]["risky"]["model"], "sparrow-nano-general-v1.1");
    for q in ["effort", "risky", "severity"] {
        assert!(["act", "escalate", "floor"].contains(&out["bands"][q].as_str().unwrap_or("")), "{out:#}");
    }
    assert!(r.took < Duration::from_secs(5), "a 2 ms model through one request: {:?}", r.took);
}

#[test]
fn eval_against_sparrow_reports_scores_and_records_evidence_that_propose_reads() {
    let (_peer, _dir, root) = sparrow_project();
    let lines: String = (0..40)
        .map(|i| {
            let (change, level) =
                [("fix a typo", 0), ("rename a variable", 1), ("change the retry policy", 2), ("drop a table", 3)]
                    [i % 4];
            format!("{}\n", json!({"id": i, "state": {"change": format!("{change} ({i})")}, "label": level}))
        })
        .collect();
    std::fs::write(root.join("labelled.jsonl"), format!("{lines}{{\"id\": 99, \"state\": {{}}, \"label\": 7}}\n"))
        .expect("write");
    let r = run(decisions(&root).args([
        "eval",
        "--catalog",
        "change",
        "--question",
        "severity",
        "--input",
        "labelled.jsonl",
        "--svg",
        "rel.svg",
        "--record",
        "--json",
        // sparrow-decider's server listens with Python's default backlog of 5: more connections
        // at once than that are reset under load (a transient `transport`, which --resume asks
        // again), and no test asserts on a server's backlog.
        "--concurrency",
        "4",
    ]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let e = r.json();
    assert_eq!((e["items"].clone(), e["answered"].clone()), (json!(41), json!(40)), "{e:#}");
    assert!(
        e["invalid"][0].as_str().is_some_and(|l| l.starts_with("input line 41: label 7 is not one of 0, 1, 2, 3")),
        "{e:#}"
    );
    for metric in ["accuracy", "mean_p_label", "brier_distribution", "brier_certainty", "ece", "rank_correlation"] {
        assert!(e[metric].as_f64().is_some_and(f64::is_finite), "{metric}: {e:#}");
    }
    assert_eq!(e["proposal"]["samples"], 40);
    assert_eq!(e["recorded"], 40);
    assert!(std::fs::read_to_string(root.join("rel.svg")).is_ok_and(|s| s.starts_with("<svg")));
    let ledger = std::fs::read_to_string(root.join(".leopold/decisions/ledger.jsonl")).expect("ledger");
    assert_eq!(ledger.lines().count(), 80, "a decision and an outcome an item");
    let propose = run(decisions(&root).args(["ledger", "propose"]));
    assert_eq!(propose.code, 0, "{}", propose.stderr);
    assert!(
        propose.stdout.contains("\"question\":\"severity\"") && propose.stdout.contains("\"samples\":40"),
        "{}",
        propose.stdout
    );
}

#[test]
fn batch_runs_a_queue_through_sparrow() {
    let (_peer, _dir, root) = sparrow_project();
    let lines: String = (0..30).map(|i| format!("{}\n", json!({"id": i, "change": format!("change {i}")}))).collect();
    std::fs::write(root.join("in.jsonl"), lines).expect("write");
    let r = run(decisions(&root).args([
        "batch",
        "--catalog",
        "change",
        "--questions",
        "risky,severity",
        "--input",
        "in.jsonl",
        // Within the server's listen backlog of 5 (see the eval test).
        "--concurrency",
        "4",
    ]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 30);
    assert!(r.stderr.contains("30 items: 30 answered"), "{}", r.stderr);
}
