//! The outputs people read, pinned with `insta`: exit code, stdout and stderr together, with
//! times and temporary paths filtered. A deliberate change is accepted with
//! `INSTA_UPDATE=always` and a reviewed diff.

use std::path::Path;

use assert_cmd::Command;
use serde_json::{Value, json};
use stub::{Reply, Stub};

use crate::common;
use crate::common::Run;

/// Exit code, stdout and stderr as one text.
fn shown(r: &Run, root: &Path) -> String {
    let root = root.display().to_string();
    format!("exit: {}\n--- stdout\n{}--- stderr\n{}", r.code, r.stdout, r.stderr).replace(&root, "[PROJECT]")
}

/// `elapsed_ms` and `ts` values replaced: they are the only fields that differ run to run.
fn steady(mut v: Value) -> Value {
    match &mut v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == "elapsed_ms" || k == "ts" {
                    *x = json!("[filtered]");
                } else {
                    *x = steady(x.take());
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|x| *x = steady(x.take())),
        _ => {}
    }
    v
}

fn decisions(cwd: &Path) -> Command {
    let mut c = Command::cargo_bin("decisions").expect("binary");
    c.current_dir(cwd).env_remove("LEOPOLD_DECISIONS_PROVIDER").env("TYPESAFE_API_KEY", "k");
    c
}

#[test]
fn ask_prints_the_contract_shape() {
    let stub = Stub::start(vec![Reply::json(&json!({"model": "jev-1.13.0", "answers": {
        "effort": {"type": "choice", "choice": "high",
                   "probabilities": {"low": 0.02, "medium": 0.03, "high": 0.9, "xhigh": 0.03, "max": 0.02}, "confidence": 0.875},
        "irreversible": {"type": "noul", "noul": 0.12}}}))]);
    let dir = tempfile::tempdir().expect("tmp");
    let leo = dir.path().join(".leopold/decisions");
    std::fs::create_dir_all(&leo).expect("mkdir");
    std::fs::write(leo.join("routing.json"), decisions::install::SHIPPED[0].1).expect("write");
    let mut jev = serde_json::to_value(decisions::builtin("jev").expect("jev")).expect("json");
    jev["endpoint"] = json!(stub.url("/v1/systemone"));
    let config = json!({"version": "decisions/1.0", "provider": "jev", "providers": {"jev": jev}});
    std::fs::write(leo.join("config.json"), config.to_string()).expect("write");
    let mut r = common::run(decisions(dir.path()).args([
        "ask",
        "--catalog",
        "routing",
        "--questions",
        "effort,irreversible,cosmetic",
        "--state",
        "{\"item\": \"Rename the config loader\"}",
    ]));
    let out: Value = serde_json::from_str(&r.stdout).expect("one JSON object");
    r.stdout = serde_json::to_string_pretty(&steady(out)).expect("json") + "\n";
    insta::assert_snapshot!("ask", shown(&r, dir.path()));
}

/// A ledger with 40 settled decisions for one question and 3 for another, written with fixed
/// ids and times so the outputs are the same every run.
fn ledger(root: &Path) {
    let path = root.join(".leopold/decisions/ledger.jsonl");
    std::fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    let mut text = String::new();
    for i in 0..43 {
        let question = if i < 40 { "effort" } else { "cosmetic" };
        let certainty = 0.5 + (i % 40) as f64 / 80.0;
        let correct = certainty >= 0.7 || i % 3 == 0;
        text.push_str(&format!(
            "{{\"kind\":\"decision\",\"id\":\"d{i}\",\"ts\":\"2026-11-01T00:00:00Z\",\"consumer\":\"routing\",\"question\":\"{question}\",\"provider\":\"jev\",\"model\":\"jev-1.13.0\",\"confidence\":{certainty},\"certainty\":{certainty},\"band\":\"act\",\"acted\":true,\"v\":\"1.0\"}}\n"
        ));
        text.push_str(&format!(
            "{{\"kind\":\"outcome\",\"id\":\"d{i}\",\"ts\":\"2026-11-02T00:00:00Z\",\"correct\":{correct},\"v\":\"1.0\"}}\n"
        ));
    }
    text.push_str("{\"kind\":\"outcome\",\"id\":\"torn");
    std::fs::write(path, text).expect("write");
}

#[test]
fn ledger_propose_as_a_table_reads_as_pinned() {
    let dir = tempfile::tempdir().expect("tmp");
    ledger(dir.path());
    let r = common::run(decisions(dir.path()).args(["ledger", "propose", "--format", "table"]));
    insta::assert_snapshot!("propose_table", shown(&r, dir.path()));
}

#[test]
fn ledger_report_reads_as_pinned() {
    let dir = tempfile::tempdir().expect("tmp");
    ledger(dir.path());
    let r = common::run(decisions(dir.path()).args(["ledger", "report"]));
    insta::assert_snapshot!("report", shown(&r, dir.path()));
}
