//! `install`, `remove`, `status` and `doctor` as a new user meets them, in a sandboxed HOME.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common;
use crate::common::Run;

const KEY: &str = "sk-canary-install-91c3d7";

/// The sandbox, with a canary key set that must never show.
struct Sandbox(common::Sandbox);

fn sandbox() -> Sandbox {
    Sandbox(common::Sandbox::new())
}

impl std::ops::Deref for Sandbox {
    type Target = common::Sandbox;
    fn deref(&self) -> &common::Sandbox {
        &self.0
    }
}

impl Sandbox {
    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        let mut env = env.to_vec();
        env.insert(0, ("TYPESAFE_API_KEY", KEY));
        self.0.run_in(&self.project, args, &env, Some(KEY))
    }

    fn config(&self) -> Value {
        let text = std::fs::read_to_string(self.config_path()).expect("config");
        serde_json::from_str(&text).expect("json")
    }
}

/// Every file under `dir`, with its bytes.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(tree(&p));
        } else {
            out.insert(p.clone(), std::fs::read(&p).unwrap_or_default());
        }
    }
    out
}

#[test]
fn with_nothing_installed_or_configured_there_are_no_rows_at_all() {
    // A capability nobody opted into is absent, not degraded: status prints nothing, and
    // doctor one line that says so and how to start.
    let s = sandbox();
    let r = s.run(&["status"], &[]);
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", ""));
    let r = s.run(&["doctor"], &[]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert!(
        r.stdout.starts_with("decisions: nothing is installed or configured here; start with `decisions install"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("decisions payload"), "no rows");
}

#[test]
fn install_seeds_then_updates_and_a_third_run_changes_no_byte() {
    let s = sandbox();
    let r = s.run(&["install", "--provider", "jev"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let payload = s.home.join(".claude/decisions");
    for f in ["README.md", "catalog.schema.json", "providers.json"] {
        assert!(payload.join(f).is_file(), "{f}");
    }
    assert_eq!(
        std::fs::read_to_string(payload.join("catalog.schema.json")).ok(),
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schemas/catalog.schema.json"))
            .ok()
    );
    assert_eq!(s.config()["provider"], "jev");
    assert_eq!(s.config()["providers"]["jev"]["model"], "jev-1.13.0");

    // An operator edits the timeout; switching provider keeps the edit.
    let mut edited = s.config();
    edited["providers"]["jev"]["timeout_ms"] = json!(1500);
    std::fs::write(
        s.project.join(".leopold/decisions/config.json"),
        serde_json::to_string_pretty(&edited).expect("json"),
    )
    .expect("write");
    assert_eq!(s.run(&["install", "--provider", "openrouter"], &[]).code, 0);
    let c = s.config();
    assert_eq!(
        (c["provider"].clone(), c["providers"]["jev"]["timeout_ms"].clone()),
        (json!("openrouter"), json!(1500))
    );
    assert_eq!(c["providers"]["openrouter"]["auth_env"], "OPENROUTER_API_KEY");

    let before = (tree(&s.home), tree(&s.project));
    assert_eq!(s.run(&["install", "--provider", "openrouter"], &[]).code, 0);
    assert_eq!((tree(&s.home), tree(&s.project)), before, "a third run changes no byte");
}

#[test]
fn a_headless_install_takes_the_provider_from_the_environment() {
    let s = sandbox();
    assert_eq!(s.run(&["install"], &[("LEOPOLD_DECISIONS_PROVIDER", "generic")]).code, 0);
    assert_eq!(s.config()["provider"], "generic");
}

#[test]
fn an_unknown_provider_is_refused_and_nothing_is_written() {
    let s = sandbox();
    let r = s.run(&["install", "--provider", "acme", "--catalogs", "routing"], &[]);
    assert_eq!(r.code, 64);
    assert!(r.stderr.contains("unknown provider \"acme\""), "{}", r.stderr);
    let r = s.run(&["install", "--catalogs", "routing,nope"], &[]);
    assert!(r.stderr.contains("no shipped catalog \"nope\""), "{}", r.stderr);
    assert!(tree(&s.home).is_empty() && !s.project.join(".leopold").exists());
}

#[test]
fn a_malformed_config_is_never_clobbered() {
    let s = sandbox();
    let path = s.project.join(".leopold/decisions/config.json");
    std::fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    std::fs::write(&path, "{\"provider\": \"jev\",,}").expect("write");
    let r = s.run(&["install", "--provider", "jev"], &[]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("is not a decisions config"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&path).ok().as_deref(), Some("{\"provider\": \"jev\",,}"));
    // Doctor reports it, goes on, and says it is not ready (exit 1).
    let r = s.run(&["doctor"], &[]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("is malformed, so it configures no provider"), "{}", r.stdout);
    assert!(r.stdout.contains("decisions readiness    not ready:"), "{}", r.stdout);
}

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

#[test]
fn a_fifo_where_a_file_belongs_is_named_and_never_read_or_replaced() {
    // Nobody writes these FIFOs: reading one would wait for ever.
    let s = sandbox();
    let dir = s.project.join(".leopold/decisions");
    std::fs::create_dir_all(&dir).expect("mkdir");
    mkfifo(&dir.join("config.json"));
    mkfifo(&dir.join("piped.json"));
    let r = s.run(&["install", "--provider", "jev"], &[]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("config.json is not a regular file"), "{}", r.stderr);
    assert!(r.stderr.contains("hint: move it aside"), "{}", r.stderr);
    let r = s.run(&["doctor"], &[]);
    assert_eq!(r.code, 1, "not ready");
    for line in [
        "is malformed, so it configures no provider: not a regular file",
        "decisions catalog      piped.json: not a regular file",
    ] {
        assert!(r.stdout.contains(line), "missing {line:?} in\n{}", r.stdout);
    }
    assert!(std::fs::symlink_metadata(dir.join("config.json")).is_ok_and(|m| !m.is_file()), "replaced");
}

#[test]
fn doctor_counts_judgments_as_it_counts_ledger_rows() {
    let s = sandbox();
    let ledger = s.project.join("judgments.jsonl");
    let good = json!({"id": "j1", "project": "p", "decided_at": "2026-01-01T00:00:00Z", "question": "q",
                      "answer": "a", "rationale": "", "card_ref": "c", "tags": []});
    std::fs::write(&ledger, format!("{good}\n{{\"torn\": \n\n{good}\n")).expect("write");
    s.run(&["install", "--provider", "jev"], &[]);
    let r = s.run(&["doctor"], &[("HARNESS_JUDGMENT_LEDGER", ledger.to_str().unwrap_or_default())]);
    let want = format!("decisions judgments    2 rows, 1 unreadable ({})", ledger.display());
    assert!(r.stdout.lines().any(|l| l == want), "missing {want:?} in\n{}", r.stdout);
}

#[test]
fn catalogs_are_copied_without_overwriting_any() {
    let s = sandbox();
    assert_eq!(s.run(&["install", "--provider", "jev", "--catalogs", "routing,permission"], &[]).code, 0);
    let routing = s.project.join(".leopold/decisions/routing.json");
    std::fs::write(&routing, "{\"mine\": true}").expect("write");
    let r = s.run(&["install", "--provider", "jev", "--catalogs", "routing,triage"], &[]);
    assert!(r.stdout.contains("routing.json kept as it is"), "{}", r.stdout);
    assert_eq!(std::fs::read_to_string(&routing).ok().as_deref(), Some("{\"mine\": true}"));
    assert!(s.project.join(".leopold/decisions/triage.json").is_file());
}

#[test]
fn remove_takes_back_the_payload_and_leaves_the_project_exactly_as_it_was() {
    let s = sandbox();
    assert_eq!(s.run(&["install", "--provider", "jev", "--catalogs", "routing"], &[]).code, 0);
    let project = tree(&s.project.join(".leopold"));
    let r = s.run(&["remove"], &[]);
    assert_eq!(r.code, 0);
    assert!(!s.home.join(".claude/decisions").exists());
    assert_eq!(tree(&s.project.join(".leopold")), project);
}

#[test]
fn the_payload_dir_follows_the_environment() {
    let s = sandbox();
    let dir = s.home.join("custom");
    let d = dir.to_str().unwrap_or_default();
    assert_eq!(s.run(&["install"], &[("LEOPOLD_DECISIONS_DIR", d)]).code, 0);
    assert!(dir.join("providers.json").is_file());
    std::fs::create_dir_all(s.home.join(".codex")).expect("mkdir");
    let s2 = sandbox();
    std::fs::create_dir_all(s2.home.join(".codex")).expect("mkdir");
    assert_eq!(s2.run(&["install"], &[]).code, 0);
    assert!(s2.home.join(".codex/decisions/README.md").is_file(), "the only agent home that exists");
}

#[test]
fn doctor_and_status_report_without_showing_keys_or_catalog_text() {
    let s = sandbox();
    s.run(&["install", "--provider", "jev", "--catalogs", "routing"], &[]);
    let dir = s.project.join(".leopold/decisions");
    std::fs::write(dir.join("secret.json"), "{\"version\": \"decisions/1.0\", \"questions\": {\"x\": {\"type\": \"choice\", \"instructions\": \"TOP-SECRET-PLAN\", \"criteria\": {\"a\": null}}}, \"thresholds\": {}}").expect("write");
    std::fs::write(dir.join("broken.json"), "TOP-SECRET-PLAN {").expect("write");
    std::fs::write(dir.join("ledger.jsonl"), "{\"kind\":\"outcome\",\"id\":\"a\",\"ts\":\"t\",\"correct\":true}\n")
        .expect("write");
    let r = s.run(&["doctor"], &[]);
    assert_eq!(r.code, 1, "two catalogs fail: not ready");
    assert!(!r.stdout.contains("TOP-SECRET-PLAN"), "catalog text shown: {}", r.stdout);
    // The sandbox's path as given and as the working directory resolves it (TMPDIR may be a link).
    let root = s.home.parent().expect("sandbox root");
    let real = std::fs::canonicalize(root).expect("canonical").display().to_string();
    insta::assert_snapshot!(
        "doctor",
        r.stdout.replace(&real, "[SANDBOX]").replace(&root.display().to_string(), "[SANDBOX]")
    );
    for line in [
        "decisions provider     jev (source: config)",
        "decisions calibration  calibrated",
        "decisions model        jev-1.13.0",
        "decisions key          TYPESAFE_API_KEY is set",
        "decisions catalog      broken.json: not JSON at line 1, column 1: expected value",
        "decisions catalog      routing.json: ok, 3 questions",
        "decisions catalog      secret.json: 2 problems against \"jev\": question \"x\": a choice needs at least 2 options, found 1; question \"x\": no threshold block (add thresholds.x)",
        "decisions ledger       1 row",
    ] {
        assert!(r.stdout.lines().any(|l| l == line), "missing {line:?} in\n{}", r.stdout);
    }
    let r = s.run(&["status"], &[]);
    assert_eq!(r.stdout.lines().count(), 1);
    assert!(
        r.stdout
            .starts_with("decisions: provider jev (config); calibrated; TYPESAFE_API_KEY set; 1 catalog ok, 2 failing"),
        "{}",
        r.stdout
    );
    // The three labels, word for word.
    s.run(&["install", "--provider", "openrouter"], &[]);
    assert!(s.run(&["doctor"], &[]).stdout.contains("decisions calibration  UNCALIBRATED — thresholds not portable"));
    s.run(&["install", "--provider", "generic"], &[]);
    let r = s.run(&["doctor"], &[]);
    assert!(r.stdout.contains("decisions calibration  calibrated (operator-declared, unverified)"), "{}", r.stdout);
    assert!(r.stdout.contains("decisions key          LEOPOLD_DECISIONS_API_KEY is not set"), "{}", r.stdout);
    assert!(r.stdout.contains("provider \"generic\" has no endpoint set"), "{}", r.stdout);
}
