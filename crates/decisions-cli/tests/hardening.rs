//! The binary against a hostile filesystem and hostile servers: deadlines hold whatever the
//! files do, a row reported as stored is stored, a short write leaves nothing, a repeated key
//! is refused, and no fragment of the key reaches any output.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::{Value, json};
use stub::{Reply, Stub};

use crate::common;
use crate::common::{Run, write};

const KEY: &str = "sk-canary-5d1e7a90c3b24f68e1d0";

fn catalog() -> Value {
    json!({"version": "decisions/1.0",
        "questions": {"risky": {"type": "noul", "instructions": "risky?"}},
        "thresholds": {"risky": {"floor": 0.5, "escalate": 0.65, "act": 0.85}}})
}

fn answer() -> Value {
    json!({"model": "jev-1.13.0", "answers": {"risky": {"type": "noul", "noul": 0.97}}})
}

/// A project with the catalog `test` and a config pointing jev at `endpoint`.
fn project(endpoint: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tmp");
    let leo = dir.path().join(".leopold");
    write(&leo.join("decisions/test.json"), &catalog());
    let mut jev = serde_json::to_value(decisions::builtin("jev").expect("jev")).expect("json");
    jev["endpoint"] = json!(endpoint);
    write(
        &leo.join("decisions/config.json"),
        &json!({"version": "decisions/1.0", "provider": "jev", "providers": {"jev": jev}}),
    );
    (dir, leo)
}

fn decisions(cwd: &Path) -> Command {
    let mut c = Command::cargo_bin("decisions").expect("binary");
    c.current_dir(cwd)
        .env_remove("LEOPOLD_DECISIONS_PROVIDER")
        .env_remove("HARNESS_JUDGMENT_LEDGER")
        .env("TYPESAFE_API_KEY", KEY)
        .timeout(Duration::from_secs(30));
    c
}

fn run(cmd: &mut Command) -> Run {
    common::run_checked(cmd, Some(KEY))
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    let made = std::process::Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(made.success());
}

fn held_lock(path: &Path) -> std::fs::File {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    let f = std::fs::OpenOptions::new().create(true).append(true).open(path).expect("open");
    f.lock().expect("lock");
    f
}

const ASK: [&str; 7] = ["ask", "--catalog", "test", "--questions", "risky", "--state", "{}"];

#[test]
fn a_held_ledger_lock_cannot_hold_ask_record_past_its_deadline() {
    // With the ledger lock held, `ask --record --timeout-ms 1000` once took 5.7 s.
    let stub = Stub::start(vec![Reply::json(&answer())]);
    let (dir, leo) = project(&stub.url("/v1/systemone"));
    let ledger = leo.join("decisions/ledger.jsonl");
    let lock = held_lock(&ledger);
    let r = run(decisions(dir.path()).args(ASK).args(["--timeout-ms", "1000", "--record", "routing"]));
    assert!(r.took < Duration::from_millis(1000 + 250 + 200), "took {:?}", r.took);
    assert_eq!(r.code, 0);
    let out = r.json();
    assert_eq!(out["usable"], true, "the decision is still printed");
    assert_eq!(out["recorded"], json!([]), "no id for a row that was not written");
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("not recorded") && r.stderr.contains("ledger.jsonl"), "{}", r.stderr);
    drop(lock);
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(std::fs::read(&ledger).unwrap_or_default(), b"", "a skipped row never lands later");
}

#[test]
fn a_fifo_catalog_nobody_writes_cannot_hold_ask_past_its_deadline() {
    let stub = Stub::start(vec![Reply::json(&answer())]);
    let (dir, _leo) = project(&stub.url("/v1/systemone"));
    mkfifo(&dir.path().join("c.json"));
    let r = run(decisions(dir.path()).args([
        "ask",
        "--catalog",
        "./c.json",
        "--questions",
        "risky",
        "--state",
        "{}",
        "--timeout-ms",
        "300",
    ]));
    assert!(r.took < Duration::from_millis(300 + 250), "took {:?}", r.took);
    assert_eq!(r.code, 0);
    let out = r.json();
    assert_eq!(out["answers"]["risky"]["reason"], "no_catalog");
    assert_eq!((out["provider"].clone(), out["source"].clone()), (json!("jev"), json!("config")));
    // A state file that is a FIFO nobody writes is bounded the same way.
    mkfifo(&dir.path().join("s.json"));
    let started = Instant::now();
    let r = run(decisions(dir.path()).args([
        "ask",
        "--catalog",
        "test",
        "--questions",
        "risky",
        "--state-file",
        "s.json",
        "--timeout-ms",
        "300",
    ]));
    assert!(started.elapsed() < Duration::from_millis(300 + 250), "took {:?}", started.elapsed());
    assert_eq!(r.code, 64, "{}", r.stderr);
}

#[test]
fn a_catalog_from_process_substitution_still_works() {
    let stub = Stub::start(vec![Reply::json(&answer())]);
    let (dir, leo) = project(&stub.url("/v1/systemone"));
    let bin = assert_cmd::cargo::cargo_bin("decisions");
    let script = format!(
        "exec {} ask --catalog <(cat {}) --questions risky --state-file <(echo '{{\"x\": 1}}') --timeout-ms 3000",
        bin.display(),
        leo.join("decisions/test.json").display()
    );
    let mut c = Command::new("bash");
    c.current_dir(dir.path()).env("TYPESAFE_API_KEY", KEY).args(["-c", &script]);
    let r = run(&mut c);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["usable"], true, "{}", r.stdout);
    assert_eq!(stub.requests()[0].json()["state"], json!({"x": 1}));
}

#[test]
fn a_fifo_ledger_is_refused_naming_it_and_no_id_is_printed() {
    // A FIFO at ledger.jsonl once took a row, printed its id and lost it; readers then hung.
    let stub = Stub::start(vec![Reply::json(&answer())]);
    let (dir, leo) = project(&stub.url("/v1/systemone"));
    let ledger = leo.join("decisions/ledger.jsonl");
    mkfifo(&ledger);
    let record = ["ledger", "record", "--consumer", "c", "--question", "q", "--provider", "jev", "--model", "m"];
    let r = run(decisions(dir.path()).args(record).args(["--certainty", "0.9", "--band", "act", "--acted", "true"]));
    assert_eq!((r.code, r.stdout.as_str()), (1, ""), "{}", r.stderr);
    assert!(
        r.stderr.contains(&ledger.display().to_string()) && r.stderr.contains("not a regular file"),
        "{}",
        r.stderr
    );
    for args in
        [&["ledger", "propose"][..], &["ledger", "report"], &["ledger", "outcome", "--id", "x", "--correct", "true"]]
    {
        let r = run(decisions(dir.path()).args(args));
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("not a regular file"), "{args:?}: {}", r.stderr);
        assert!(r.took < Duration::from_secs(5), "{args:?} took {:?}", r.took);
    }
    let r = run(decisions(dir.path()).args(ASK).args(["--record", "routing"]));
    assert_eq!(r.json()["recorded"], json!([]));
    assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
    assert!(std::fs::metadata(&ledger).map(|m| !m.is_file()).unwrap_or(false), "the FIFO is left where it was");
}

#[test]
fn a_fifo_judgment_ledger_is_skipped_fail_open_and_readers_return() {
    let dir = tempfile::tempdir().expect("tmp");
    let ledger = dir.path().join("state/judgment-ledger.jsonl");
    mkfifo(&ledger);
    let jl = |args: &[&str]| {
        let mut c = decisions(dir.path());
        c.env("HARNESS_JUDGMENT_LEDGER", &ledger).args(args);
        run(&mut c)
    };
    let r = jl(&["judgment", "append", "--project", "p", "--question", "q", "--answer", "a", "--card-ref", "c"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "the judgment ledger fails open, and prints no record");
    assert!(r.stderr.contains("append skipped") && r.stderr.contains("not a regular file"), "{}", r.stderr);
    for args in [
        &["judgment", "search", "--project", "p", "--query", "q"][..],
        &["judgment", "recall", "--project", "p", "--question", "q"],
    ] {
        let r = jl(args);
        assert_eq!(r.code, 0, "{args:?}");
        assert!(r.took < Duration::from_secs(5), "{args:?} took {:?}", r.took);
    }
}

#[test]
fn a_fifo_card_nobody_writes_is_an_error_not_a_hang() {
    let dir = tempfile::tempdir().expect("tmp");
    mkfifo(&dir.path().join("card.json"));
    let r = run(decisions(dir.path()).args(["card", "validate", "card.json"]));
    assert_eq!(r.code, 64, "a named file that cannot be had is a usage error, as for every command");
    assert!(r.stderr.contains("card.json"), "{}", r.stderr);
    assert!(r.took < Duration::from_secs(12), "took {:?}", r.took);
}

/// Run the binary with its file size limited to `kib` KiB, as on a full disk: a write beyond
/// the limit comes up short, then fails.
fn with_file_limit(cwd: &Path, kib: u64, args: &[&str], envs: &[(&str, &Path)]) -> Run {
    let bin = assert_cmd::cargo::cargo_bin("decisions");
    let quoted: Vec<String> = args.iter().map(|a| format!("'{}'", a.replace('\'', "'\\''"))).collect();
    let script = format!("trap '' XFSZ; ulimit -f {kib}; exec {} {}", bin.display(), quoted.join(" "));
    let mut c = Command::new("bash");
    c.current_dir(cwd).env_remove("LEOPOLD_DECISIONS_PROVIDER").args(["-c", &script]);
    for (k, v) in envs {
        c.env(k, v);
    }
    run(&mut c)
}

#[test]
fn a_short_write_on_a_full_disk_leaves_the_ledger_exactly_as_it_was() {
    // A 6 KB row on a full 64 KiB tmpfs once left a permanent torn 3,911-byte line.
    let dir = tempfile::tempdir().expect("tmp");
    let leo = dir.path().join(".leopold");
    let ledger = leo.join("decisions/ledger.jsonl");
    std::fs::create_dir_all(ledger.parent().expect("parent")).expect("mkdir");
    let before: String =
        (0..8).map(|i| format!("{{\"kind\":\"outcome\",\"id\":\"{i}\",\"ts\":\"t\",\"correct\":true}}\n")).collect();
    std::fs::write(&ledger, &before).expect("write");
    let model = "m".repeat(6000);
    let record = common::record_args(&model);
    let record: Vec<&str> = record.iter().map(String::as_str).collect();
    let r = with_file_limit(dir.path(), 4, &record, &[]);
    assert_eq!((r.code, r.stdout.as_str()), (1, ""), "an explicit record that could not write exits 1: {}", r.stderr);
    assert!(r.stderr.contains("ledger.jsonl"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&ledger).unwrap_or_default(), before, "not one byte of the row is left");

    // The judgment ledger fails open, and leaves no byte either.
    let judgments = dir.path().join("judgments.jsonl");
    std::fs::write(&judgments, "").expect("write");
    let r = with_file_limit(
        dir.path(),
        4,
        &["judgment", "append", "--project", "p", "--question", &"q".repeat(6000), "--answer", "a", "--card-ref", "c"],
        &[("HARNESS_JUDGMENT_LEDGER", &judgments)],
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
    assert!(r.stderr.contains("append skipped"), "{}", r.stderr);
    assert_eq!(std::fs::read(&judgments).unwrap_or_default(), b"");
}

#[test]
fn a_failed_install_leaves_no_temporary_file_behind() {
    let dir = tempfile::tempdir().expect("tmp");
    let project = dir.path().join("p");
    std::fs::create_dir_all(project.join(".leopold")).expect("mkdir");
    let home = dir.path().join("home");
    let r = with_file_limit(
        &project,
        0,
        &["install", "--provider", "jev", "--project", project.to_str().unwrap_or("")],
        &[("LEOPOLD_DECISIONS_DIR", &home)],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let mut left = Vec::new();
    for root in [&project, &home] {
        for entry in walkdir(root) {
            if entry.to_string_lossy().contains("tmp-decisions") {
                left.push(entry);
            }
        }
    }
    assert_eq!(left, Vec::<PathBuf>::new());
}

fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walkdir(&p));
        }
        out.push(p);
    }
    out
}

#[test]
fn validate_refuses_a_catalog_repeating_a_question_id_naming_the_key_and_line() {
    let dir = tempfile::tempdir().expect("tmp");
    let text = "{\"version\": \"decisions/1.0\",\n \"questions\": {\n  \"risky\": {\"type\": \"noul\", \"instructions\": \"a\"},\n  \"risky\": {\"type\": \"noul\", \"instructions\": \"b\"}\n },\n \"thresholds\": {\"risky\": {\"floor\": 0.5, \"escalate\": 0.6, \"act\": 0.9}}}";
    std::fs::write(dir.path().join("c.json"), text).expect("write");
    let r = run(decisions(dir.path()).args(["validate", "c.json", "--provider", "jev"]));
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("line 4: duplicate key \"risky\" in /questions"), "{}", r.stdout);
}

#[test]
fn validate_refuses_a_config_repeating_a_key_naming_the_key_and_line() {
    let dir = tempfile::tempdir().expect("tmp");
    let leo = dir.path().join(".leopold");
    write(&leo.join("decisions/test.json"), &catalog());
    std::fs::write(
        leo.join("decisions/config.json"),
        "{\"version\": \"decisions/1.0\",\n\"providers\": {},\n\"providers\": {}}",
    )
    .expect("write");
    let r = run(decisions(dir.path()).args(["validate", "test"]));
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.contains("config.json is malformed") && r.stdout.contains("duplicate field `providers` at line 3"),
        "{}",
        r.stdout
    );
    std::fs::write(
        leo.join("decisions/config.json"),
        "{\"version\": \"decisions/1.0\", \"provider\": \"jev\",\n\"providers\": {\"a\": {},\n \"a\": {}}}",
    )
    .expect("write");
    let r = run(decisions(dir.path()).args(["validate", "test"]));
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("line 3: duplicate key \"a\" in /providers"), "{}", r.stdout);
}

#[test]
fn a_key_across_the_clip_never_reaches_ask_output() {
    let offsets: Vec<usize> = (300 - KEY.len() - 2..=302).chain([0, 600]).collect();
    let script: Vec<Reply> = offsets
        .iter()
        .map(|f| Reply::status(401, &json!({"detail": format!("{}{KEY}", "f".repeat(*f))}).to_string()))
        .collect();
    let stub = Stub::start(script);
    let (dir, _leo) = project(&stub.url("/v1/systemone"));
    for f in &offsets {
        let r = run(decisions(dir.path()).args(ASK));
        let text = format!("{}{}", r.stdout, r.stderr);
        for w in KEY.as_bytes().windows(8) {
            assert!(!text.as_bytes().windows(8).any(|t| t == w), "offset {f}: {:?} leaked", String::from_utf8_lossy(w));
        }
        assert_eq!(r.json()["answers"]["risky"]["reason"], "auth");
    }
}
