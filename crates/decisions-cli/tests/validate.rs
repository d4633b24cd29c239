//! `decisions validate`: exit codes, one problem a line, and the provider it checks against.

use std::path::Path;

use assert_cmd::Command;
use serde_json::{Value, json};

use crate::common::{run, write};

fn decisions(cwd: &Path) -> Command {
    let mut c = Command::cargo_bin("decisions").expect("binary");
    c.current_dir(cwd).env_remove("LEOPOLD_DECISIONS_PROVIDER");
    c
}

fn choice(n: usize) -> Value {
    let opts: serde_json::Map<String, Value> = (0..n).map(|i| (format!("o{i}"), Value::Null)).collect();
    json!({"type": "choice", "instructions": "pick", "criteria": opts})
}

fn catalog(q: Value) -> Value {
    json!({"version": "decisions/1.0", "questions": {"a": q},
           "thresholds": {"a": {"floor": 0.5, "escalate": 0.65, "act": 0.85}}})
}

#[test]
fn a_valid_catalog_prints_its_question_count() {
    let dir = tempfile::tempdir().expect("tmp");
    write(&dir.path().join("c.json"), &catalog(choice(3)));
    let r = run(decisions(dir.path()).args(["validate", "c.json"]));
    assert_eq!((r.code, r.stdout.as_str()), (0, "ok: 1 question\n"));
}

#[test]
fn every_problem_is_printed_one_a_line() {
    let dir = tempfile::tempdir().expect("tmp");
    let doc = json!({"version": "decisions/0.9",
        "questions": {"a": choice(1), "b": {"type": "boolean", "instructions": "x"}},
        "thresholds": {"a": {"floor": 0.9, "escalate": 0.5, "act": 0.6}, "ghost": {"floor": 0, "escalate": 0, "act": 0}}});
    write(&dir.path().join("bad.json"), &doc);
    let r = run(decisions(dir.path()).args(["validate", "bad.json"]));
    assert_eq!(r.code, 1);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{}", r.stdout);
    for needle in [
        "version must be",
        "question \"a\": a choice needs at least 2 options",
        "question \"b\": unknown type \"boolean\" (legal types: choice, score, noul)",
        "question \"b\": no threshold block",
        "thresholds \"a\": floor <= escalate <= act is broken",
        "thresholds \"ghost\": orphan threshold block",
    ] {
        assert!(lines.iter().any(|l| l.starts_with("bad.json: ") && l.contains(needle)), "{needle}\n{}", r.stdout);
    }
}

#[test]
fn a_name_resolves_under_the_nearest_leo_dir() {
    let dir = tempfile::tempdir().expect("tmp");
    write(&dir.path().join(".leopold/decisions/routing.json"), &catalog(choice(2)));
    let nested = dir.path().join("src/deep");
    std::fs::create_dir_all(&nested).expect("mkdir");
    let r = run(decisions(&nested).args(["validate", "routing"]));
    assert_eq!((r.code, r.stdout.as_str()), (0, "ok: 1 question\n"), "{}", r.stderr);
    let elsewhere = tempfile::tempdir().expect("tmp");
    let leo = dir.path().join(".leopold");
    let r = run(decisions(elsewhere.path()).args(["validate", "routing", "--leo-dir"]).arg(&leo));
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn a_missing_file_names_the_file() {
    let dir = tempfile::tempdir().expect("tmp");
    let r = run(decisions(dir.path()).args(["validate", "nope.json"]));
    assert_eq!(r.code, 64, "a named file that cannot be had is a usage error, as for every command");
    assert!(r.stderr.contains("nope.json"), "{}", r.stderr);
    assert!(r.stdout.is_empty());
}

#[test]
fn bad_json_names_the_file_line_and_column() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("broken.json"), "{\n  \"version\": \"decisions/1.0\",\n  \"questions\": {,\n}")
        .expect("write");
    let r = run(decisions(dir.path()).args(["validate", "broken.json"]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("broken.json:3:17"), "{}", r.stderr);
}

#[test]
fn bad_flags_exit_64() {
    let dir = tempfile::tempdir().expect("tmp");
    assert_eq!(run(decisions(dir.path()).args(["validate"])).code, 64);
    assert_eq!(run(decisions(dir.path()).args(["validate", "x.json", "--frobnicate"])).code, 64);
}

#[test]
fn provider_limits_apply_and_are_named() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut doc = catalog(choice(65));
    doc["thresholds_for"] = json!("openrouter");
    write(&dir.path().join("c.json"), &doc);
    let r = run(decisions(dir.path()).args(["validate", "c.json", "--provider", "openrouter"]));
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("provider \"openrouter\" allows (64)"), "{}", r.stdout);
    // Against jev the same catalog breaks only the thresholds_for rule.
    let r = run(decisions(dir.path()).args(["validate", "c.json", "--provider", "jev"]));
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout.lines().count(), 1);
    assert!(r.stdout.contains("give \"jev\" its own threshold file"), "{}", r.stdout);
}

#[test]
fn the_projects_descriptor_outranks_the_builtin() {
    let dir = tempfile::tempdir().expect("tmp");
    let leo = dir.path().join(".leopold");
    write(&leo.join("decisions/c.json"), &catalog(choice(20)));
    let config = json!({"version": "decisions/1.0", "provider": "jev", "providers": {"jev": {
        "name": "jev", "endpoint": "http://127.0.0.1:9/v1/systemone", "model": "jev-1.13.0",
        "calibrated": true, "calibration_source": "trained", "auth_env": "TYPESAFE_API_KEY",
        "timeout_ms": 5000, "max_options": 16, "max_state_tokens": 32000}}});
    write(&leo.join("decisions/config.json"), &config);
    let r = run(decisions(dir.path()).args(["validate", "c", "--provider", "jev"]));
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("provider \"jev\" allows (16)"), "{}", r.stdout);
    // With no --provider, the active provider (config.json's) is the one checked against.
    let r = run(decisions(dir.path()).args(["validate", "c"]));
    assert!(r.stdout.contains("provider \"jev\" allows (16)"), "{}", r.stdout);
}

#[test]
fn an_unknown_provider_is_named() {
    let dir = tempfile::tempdir().expect("tmp");
    write(&dir.path().join("c.json"), &catalog(choice(2)));
    let r = run(decisions(dir.path()).args(["validate", "c.json", "--provider", "acme"]));
    assert_eq!(r.code, 64);
    assert!(r.stderr.contains("unknown provider \"acme\""), "{}", r.stderr);
    assert!(
        r.stderr.contains("hint: known providers: jev, openrouter, vercel, local, generic, builtin, none"),
        "{}",
        r.stderr
    );
}

/// The whole report, pinned: wording, order, and one problem a line.
#[test]
fn the_report_for_a_broken_catalog_reads_as_pinned() {
    let dir = tempfile::tempdir().expect("tmp");
    let doc = json!({"version": "decisions/0.9",
        "questions": {"a": choice(1), "b": {"type": "boolean", "instructions": "x"},
                      "c": {"type": "score", "instructions": "", "criteria": ["only"]}},
        "thresholds": {"a": {"floor": 0.9, "escalate": 0.5, "act": 0.6}, "c": {"floor": 0.5, "escalate": 0.6, "act": 1.5},
                       "ghost": {"floor": 0, "escalate": 0, "act": 0}}});
    write(&dir.path().join("bad.json"), &doc);
    let r = run(decisions(dir.path()).args(["validate", "bad.json", "--provider", "jev"]));
    assert_eq!(r.code, 1);
    insta::assert_snapshot!(r.stdout);
}
