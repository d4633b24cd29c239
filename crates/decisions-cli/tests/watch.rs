//! `decisions watch` and the event log every consumer writes: a hand-written log checked
//! number by number, absent-not-zeroed, rotation, filters, a log written by real `route`,
//! `triage`, `batch`, `eval`, `review` and `hook` runs against a scripted server, a server that
//! echoes the key, and a log that cannot be written (a FIFO, a held lock) never stalling a
//! consumer.

use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::{Value, json};
use stub::{Reply, Stub};

use crate::common::{self, Run};

const KEY: &str = "sk-canary-watch-93c1d7e2a4";

fn decisions(cwd: &Path) -> Command {
    common::keyed(cwd, KEY)
}

fn run(cmd: &mut Command) -> Run {
    common::run_checked(cmd, Some(KEY))
}

fn watch_json(root: &Path, extra: &[&str]) -> Value {
    let r = run(decisions(root).args(["watch", "--json"]).args(extra));
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.json()
}

fn line(ts: &str, consumer: &str, event: &str, rest: Value) -> String {
    let mut v = json!({"ts": ts, "consumer": consumer, "event": event});
    if let (Some(o), Some(r)) = (v.as_object_mut(), rest.as_object()) {
        o.extend(r.clone());
    }
    format!("{v}\n")
}

/// A log with known counts: the hook's asks, answers, a failure, retries, denials, skips and a
/// timeout; route's asks; a torn line and a foreign one.
fn known_log(root: &Path) {
    let asked = |ts: &str, c: &str, q: &str| {
        line(
            ts,
            c,
            "decision_asked",
            json!({"provider": "jev", "model": "jev-1.13.0", "questions": [q], "source": "config"}),
        )
    };
    let answered = |ts: &str, c: &str, q: &str, ms: u64, band: &str| {
        line(
            ts,
            c,
            "decision_answered",
            json!({"provider": "jev", "model": "jev-1.13.0", "question": q,
            "confidence": 0.9, "certainty": 0.9, "threshold_fired": band, "elapsed_ms": ms, "source": "config"}),
        )
    };
    let mut text = String::new();
    for (ts, ms, band) in [
        ("2026-11-29T08:00:00Z", 100, "act"),
        ("2026-11-29T09:00:00Z", 300, "floor"),
        ("2026-11-30T10:00:00Z", 200, "act"),
    ] {
        text.push_str(&asked(ts, "permission", "destructive"));
        text.push_str(&answered(ts, "permission", "destructive", ms, band));
        if band == "floor" {
            let reason = "the answer (score 1.2) fell in the floor band";
            text.push_str(&line(ts, "permission", "decision_timeout", json!({"reason": reason, "command": "make"})));
        }
    }
    text.push_str(&asked("2026-11-30T10:05:00Z", "permission", "destructive"));
    text.push_str(&line(
        "2026-11-30T10:05:00Z",
        "permission",
        "decision_retry",
        json!({"provider": "jev", "attempt": 1, "delay_ms": 250, "status": 429, "source": "config"}),
    ));
    text.push_str(&line(
        "2026-11-30T10:05:00Z",
        "permission",
        "decision_retry",
        json!({"provider": "jev", "attempt": 2, "delay_ms": 500, "status": 503, "source": "config"}),
    ));
    text.push_str(&line("2026-11-30T10:05:01Z", "permission", "decision_failed",
        json!({"provider": "jev", "question": "destructive", "reason": "timeout", "detail": "x", "elapsed_ms": 2000, "source": "config"})));
    text.push_str(&line(
        "2026-11-30T10:05:01Z",
        "permission",
        "decision_timeout",
        json!({"reason": "timeout: x", "command": "ls"}),
    ));
    // A provider that is down is an outage, not a timeout, however the event is named.
    text.push_str(&line(
        "2026-11-30T10:05:02Z",
        "permission",
        "decision_timeout",
        json!({"reason": "transport: no response from http://127.0.0.1:9/v1/systemone: Connection refused", "cause": "unreachable", "command": "ls"}),
    ));
    for (ts, cmd, score) in
        [("2026-11-29T08:00:00Z", "rm -rf /", 3.0), ("2026-11-30T10:00:00Z", "git push --force", 2.9)]
    {
        text.push_str(&line(
            ts,
            "permission",
            "decision_denied",
            json!({"command": cmd, "score": score, "question": "destructive"}),
        ));
    }
    for reason in ["not a shell command (Read)", "not a shell command (Edit)", "no_provider: no provider configured"] {
        text.push_str(&line("2026-11-30T11:00:00Z", "permission", "decision_skipped", json!({"reason": reason})));
    }
    for ts in ["2026-11-30T12:00:00Z", "2026-11-30T12:01:00Z"] {
        text.push_str(&asked(ts, "routing", "effort"));
        text.push_str(&answered(ts, "routing", "effort", 50, "escalate"));
    }
    // Never asked: no meter row for it.
    text.push_str(&line(
        "2026-11-30T12:02:00Z",
        "review",
        "decision_failed",
        json!({"provider": "none", "question": "same_defect", "reason": "no_provider", "source": "default"}),
    ));
    text.push_str("{\"ts\":\"2026-11-30T12:03:00Z\",\"consumer\":\"route\",\"event\":\"decision_ans\n");
    text.push_str("{\"hello\": \"not an event\"}\n");
    common::write_text(&root.join(".leopold/events.jsonl"), &text);
}

#[test]
fn a_hand_written_log_gives_its_known_counts_number_by_number() {
    let dir = tempfile::tempdir().expect("tmp");
    known_log(dir.path());
    // Two of route's decisions have outcomes in the ledger: one right, one wrong.
    let ledger: String = [("r1", "2026-11-30T12:00:00Z", Some(true)), ("r2", "2026-11-30T12:01:00Z", Some(false))]
        .iter()
        .map(|(id, ts, correct)| {
            format!(
                "{}\n{}\n",
                json!({"kind": "decision", "id": id, "ts": ts, "consumer": "routing", "question": "effort", "provider": "jev",
                    "model": "jev-1.13.0", "confidence": 0.9, "certainty": 0.9, "band": "escalate", "acted": false, "v": "1.0"}),
                json!({"kind": "outcome", "id": id, "ts": ts, "correct": correct, "v": "1.0"})
            )
        })
        .collect();
    common::write_text(&dir.path().join(".leopold/decisions/ledger.jsonl"), &ledger);
    let m = watch_json(dir.path(), &[]);
    assert_eq!((m["lines"].clone(), m["skipped"].clone(), m["asked"].clone()), (json!(25), json!(2), json!(true)));
    let consumers = &m["periods"]["all"]["consumers"];
    assert_eq!(
        consumers.as_object().map(|o| o.keys().cloned().collect::<Vec<_>>()),
        Some(vec!["permission".into(), "routing".into()])
    );
    let hook = &consumers["permission"];
    let jev = &hook["providers"]["jev jev-1.13.0"];
    assert_eq!((jev["calls"].clone(), jev["answered"].clone(), jev["failed"].clone()), (json!(4), json!(3), json!(1)));
    assert_eq!(
        (jev["decide_ms_p50"].clone(), jev["decide_ms_p95"].clone(), jev["decide_ms_max"].clone()),
        (json!(200), json!(300), json!(300))
    );
    assert_eq!(jev["fallback"], json!(0.25), "1 failed of 4 outcomes");
    assert_eq!(jev["failures"], json!({"timeout": 1}));
    assert_eq!((jev["retries"].clone(), jev["too_many"].clone()), (json!(2), json!(1)));
    assert_eq!(jev["bands"], json!({"destructive": {"act": 2, "floor": 1}}));
    let h = &hook["hook"];
    assert_eq!((h["judged"].clone(), h["denied"].clone(), h["timeouts"].clone()), (json!(4), json!(2), json!(1)));
    assert_eq!(h["skipped"], json!({"no_provider": 1, "not a shell command": 2}));
    assert_eq!(h["fell_back"], json!({"floor band": 1, "timeout": 1, "unreachable": 1}));
    assert_eq!(h["outages"], json!(1));
    assert_eq!(
        h["last_denials"][1],
        json!({"ts": "2026-11-30T10:00:00Z", "command": "git push --force", "score": 2.9})
    );
    let route = &consumers["routing"];
    assert_eq!(route["providers"]["jev jev-1.13.0"]["bands"], json!({"effort": {"escalate": 2}}));
    assert_eq!(route["outcomes"], json!({"known": 2, "correct": 1, "share_correct": 0.5}));
    // The same in text, as a person reads it.
    let text = run(decisions(dir.path()).args(["watch", "--once"]));
    assert_eq!(text.code, 0);
    for expected in [
        "25 log lines read, 2 skipped (torn or not events)",
        "  jev jev-1.13.0: calls 4, fallback 25.0% (1 of 4)",
        "    decide p50 200 ms, p95 300 ms, max 300 ms",
        "    failures timeout 1; retries 2 (1 for 429)",
        "    destructive: act 2, escalate 0, floor 1",
        "  hook: judged 4, denied 2, fell back 3 (floor band 1, timeout 1, unreachable 1), skipped 3 (no_provider 1, not a shell command 2), timeouts 1, outages 1",
        "    2026-11-30T10:00:00Z  2.90  git push --force",
        "  outcomes: 2 known, 50.0% correct",
    ] {
        assert!(text.stdout.contains(expected), "{expected:?} not in\n{}", text.stdout);
    }
    assert!(!text.stdout.contains("review"), "review never asked: no row");
}

#[test]
fn since_consumer_and_by_day_filter_the_meters() {
    let dir = tempfile::tempdir().expect("tmp");
    known_log(dir.path());
    let m = watch_json(dir.path(), &["--since", "2026-11-30"]);
    let jev = &m["periods"]["all"]["consumers"]["permission"]["providers"]["jev jev-1.13.0"];
    assert_eq!((jev["calls"].clone(), jev["answered"].clone()), (json!(2), json!(1)), "the 29th is left out");
    let m = watch_json(dir.path(), &["--consumer", "routing"]);
    assert_eq!(m["periods"]["all"]["consumers"].as_object().map(|o| o.len()), Some(1));
    let m = watch_json(dir.path(), &["--by", "day"]);
    let days: Vec<String> = m["periods"].as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
    assert_eq!(days, ["2026-11-29", "2026-11-30"]);
    assert_eq!(m["periods"]["2026-11-29"]["consumers"]["permission"]["providers"]["jev jev-1.13.0"]["calls"], json!(2));
    let text = run(decisions(dir.path()).args(["watch", "--once", "--by", "day"]));
    assert!(text.stdout.contains("\n2026-11-29\n") && text.stdout.contains("\n2026-11-30\n"), "{}", text.stdout);
    let bad = run(decisions(dir.path()).args(["watch", "--since", "yesterday"]));
    assert_eq!(bad.code, 64, "{}", bad.stderr);
    assert!(bad.stderr.contains("--since"), "{}", bad.stderr);
}

#[test]
fn meters_are_absent_not_zeroed_when_nothing_asked() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut text = String::new();
    for _ in 0..3 {
        text.push_str(&line(
            "2026-11-30T09:00:00Z",
            "permission",
            "decision_skipped",
            json!({"reason": "no_provider: no provider configured"}),
        ));
    }
    text.push_str(&line(
        "2026-11-30T09:00:00Z",
        "routing",
        "decision_failed",
        json!({"provider": "none", "question": "effort", "reason": "no_provider", "source": "default"}),
    ));
    common::write_text(&dir.path().join(".leopold/events.jsonl"), &text);
    let r = run(decisions(dir.path()).args(["watch", "--once"]));
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stdout,
        "4 log lines read\nNothing was asked: no consumer put a question to a provider; the hook stood aside 3 times (no_provider 3); 1 question fell back with no provider asked (no_provider 1).\n"
    );
    let m = watch_json(dir.path(), &[]);
    assert_eq!((m["asked"].clone(), m["periods"].clone()), (json!(false), json!({})), "no rows of zeroes");
    // No project at all: one line, exit 0.
    let empty = tempfile::tempdir().expect("tmp");
    let r = run(decisions(empty.path()).args(["watch"]));
    assert_eq!((r.code, r.stdout.as_str()), (0, "Nothing was asked: no .leopold directory here, so no event log.\n"));
}

#[test]
fn the_log_rotates_past_64_mib_keeps_three_and_watch_reads_them_all() {
    let dir = tempfile::tempdir().expect("tmp");
    let leo = dir.path().join(".leopold");
    std::fs::create_dir_all(&leo).expect("mkdir");
    let big = format!("{}\n", "x".repeat((64 << 20) + 10));
    let asked = line(
        "2026-11-30T09:00:00Z",
        "routing",
        "decision_asked",
        json!({"provider": "jev", "model": "m", "questions": ["effort"], "source": "config"}),
    );
    for round in 1..=4 {
        // A full log, then one consumer's write: it rotates first.
        std::fs::write(leo.join("events.jsonl"), format!("{asked}{big}")).expect("write");
        let r = run(decisions(dir.path()).args(["route", "--item", &format!("round {round}")]));
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(std::fs::metadata(leo.join("events.jsonl")).expect("log").len() < 4096, "a fresh log");
    }
    for n in 1..=3 {
        assert!(leo.join(format!("events.{n}.jsonl")).exists(), "events.{n}.jsonl kept");
    }
    assert!(!leo.join("events.4.jsonl").exists(), "three kept");
    let m = watch_json(dir.path(), &[]);
    // Three rotated files each hold an ask and the foreign line; the live log route's lines.
    assert_eq!(m["periods"]["all"]["consumers"]["routing"]["providers"]["jev m"]["calls"], json!(3));
    assert_eq!(m["skipped"], json!(3));
}

/// A project with the hook's catalog, an `ok` noul catalog and the shipped `routing.json`,
/// its provider `stub`.
fn project(stub: &Stub) -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, root) = crate::hook::project(Some(&stub.url("/v1/systemone")), true);
    common::write(
        &root.join(".leopold/decisions/ok.json"),
        &json!({"version": "decisions/1.0", "questions": {"ok": {"type": "noul", "instructions": "Fine?"}},
            "thresholds": {"ok": {"floor": 0.5, "escalate": 0.65, "act": 0.85}}}),
    );
    std::fs::write(root.join(".leopold/decisions/routing.json"), decisions::install::SHIPPED[0].1).expect("write");
    (dir, root)
}

/// A System One server that answers every question it is asked with a confident answer.
fn answering() -> Stub {
    Stub::keep_alive(vec![Reply::computed(|req| {
        let body = req.json();
        let mut answers = serde_json::Map::new();
        for (q, spec) in body["questions"].as_object().cloned().unwrap_or_default() {
            let answer = match spec["type"].as_str() {
                Some("noul") => json!({"type": "noul", "noul": 0.97}),
                Some("score") => json!({"type": "score", "score": 3.0, "confidence": 0.95,
                    "probabilities": {"0": 0.0, "1": 0.0, "2": 0.0, "3": 1.0}}),
                _ => {
                    let options: Vec<String> =
                        spec["criteria"].as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
                    let first = options.first().cloned().unwrap_or_default();
                    let probs: serde_json::Map<String, Value> =
                        options.iter().map(|o| (o.clone(), json!(if *o == first { 1.0 } else { 0.0 }))).collect();
                    json!({"type": "choice", "choice": first, "confidence": 0.95, "probabilities": probs})
                }
            };
            answers.insert(q, answer);
        }
        Reply::json(&json!({"model": "jev-1.13.0", "answers": answers}))
    })])
}

#[test]
fn real_route_review_triage_batch_eval_and_hook_runs_leave_a_log_watch_reads() {
    let stub = answering();
    let (_dir, root) = project(&stub);
    let routed = run(decisions(&root).args(["route", "--item", "rename the config loader"]));
    assert_eq!(routed.code, 0, "{}", routed.stderr);
    // The outcome of one of route's ledger rows, learned later: watch joins it by consumer.
    let id = routed.json()["recorded"][0]["id"].as_str().expect("a recorded row").to_string();
    assert_eq!(run(decisions(&root).args(["ledger", "outcome", "--id", &id, "--correct", "true"])).code, 0);
    let issues = "{\"id\": 1, \"title\": \"a\", \"body\": \"b\"}\n{\"id\": 2, \"title\": \"c\", \"body\": \"d\"}\n";
    std::fs::write(root.join("issues.jsonl"), issues).expect("write");
    assert_eq!(run(decisions(&root).args(["triage", "issues.jsonl", "--no-record", "--report", "r.md"])).code, 0);
    std::fs::write(root.join("items.jsonl"), "{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3}\n").expect("write");
    assert_eq!(
        run(decisions(&root).args(["batch", "--catalog", "ok", "--questions", "ok", "--input", "items.jsonl"])).code,
        0
    );
    std::fs::write(root.join("labelled.jsonl"), "{\"state\": 1, \"label\": true}\n").expect("write");
    assert_eq!(
        run(decisions(&root).args(["eval", "--catalog", "ok", "--question", "ok", "--input", "labelled.jsonl"])).code,
        0
    );
    std::fs::write(root.join(".leopold/decisions/review.json"), decisions::install::SHIPPED[1].1).expect("write");
    let lens = |file: &str, issue: &str| {
        json!({"summary": "s", "findings": [{"file": file, "issue": issue, "severity": "blocking"}]}).to_string()
    };
    std::fs::write(root.join("a.txt"), lens("src/pay.rs", "refund() unwraps the order lookup")).expect("write");
    std::fs::write(root.join("b.txt"), lens("src/pay.rs", "a retried refund panics")).expect("write");
    assert_eq!(run(decisions(&root).args(["review", "refine", "a.txt", "b.txt", "--no-record"])).code, 0);
    let hook = crate::hook::hook("claude-code", &root, &crate::hook::claude_input(&root, "Bash", "rm -rf ~"), None);
    assert!(hook.stdout.contains("deny"), "{}", hook.stdout);
    let r = run(decisions(&root).args([
        "ask",
        "--catalog",
        "ok",
        "--questions",
        "ok",
        "--state",
        "{}",
        "--log",
        "nightly",
    ]));
    assert_eq!(r.code, 0);
    // A run with --no-log leaves nothing.
    let before = std::fs::read_to_string(root.join(".leopold/events.jsonl")).expect("log");
    assert_eq!(run(decisions(&root).args(["route", "--item", "x", "--no-log"])).code, 0);
    // The seam itself never touches the log: `ask` without `--log` leaves nothing either.
    assert_eq!(run(decisions(&root).args(["ask", "--catalog", "ok", "--questions", "ok", "--state", "{}"])).code, 0);
    assert_eq!(std::fs::read_to_string(root.join(".leopold/events.jsonl")).expect("log"), before);
    assert!(!before.contains(KEY) && !before.contains(crate::hook::KEY), "no key in the log");
    let lines: Vec<Value> = before.lines().map(|l| serde_json::from_str(l).expect("a whole line")).collect();
    assert!(lines.iter().all(|l| l["consumer"].is_string()), "every line names its consumer");
    let outcomes: Vec<&str> =
        lines.iter().filter_map(|l| l["event"].as_str()).filter(|e| !e.starts_with("decision_")).collect();
    assert_eq!(
        outcomes,
        ["route_decided", "run_finished", "run_finished", "run_finished", "review_refined"],
        "route, triage, batch, eval, review"
    );
    assert!(lines.iter().any(|l| l["consumer"] == "batch" && l["item"] == "1"), "a run's lines name their item");
    let m = watch_json(&root, &[]);
    let consumers = &m["periods"]["all"]["consumers"];
    for (consumer, calls) in
        [("routing", 1), ("triage", 2), ("batch", 3), ("eval", 1), ("review", 2), ("permission", 1), ("nightly", 1)]
    {
        assert_eq!(consumers[consumer]["providers"]["jev jev-1.13.0"]["calls"], json!(calls), "{consumer}: {m}");
    }
    assert_eq!(consumers["permission"]["hook"]["denied"], json!(1));
    assert_eq!(consumers["routing"]["outcomes"], json!({"known": 1, "correct": 1, "share_correct": 1.0}));
    assert_eq!(consumers["triage"]["runs"]["items"], json!(2));
}

#[test]
fn a_log_that_cannot_be_written_never_stalls_a_consumer() {
    let stub = answering();
    let (_dir, root) = project(&stub);
    std::fs::write(root.join("items.jsonl"), "{\"id\": 1}\n{\"id\": 2}\n").expect("write");
    // A FIFO where the log should be.
    let fifo = root.join(".leopold/events.jsonl");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let started = Instant::now();
    let r = run(decisions(&root).args(["route", "--item", "rename the loader"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("not logged to"), "{}", r.stderr);
    let b = run(decisions(&root).args(["batch", "--catalog", "ok", "--questions", "ok", "--input", "items.jsonl"]));
    assert_eq!(b.code, 0, "{}", b.stderr);
    assert!(b.stderr.contains("not logged"), "{}", b.stderr);
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    std::fs::remove_file(&fifo).expect("rm");
    // A lock another process holds.
    std::fs::write(&fifo, "").expect("log");
    // One process that takes the lock and holds it: killing it frees it.
    let holder = std::process::Command::new("bash")
        .args(["-c", "exec 9>>\"$1\"; flock 9; exec sleep 6", "hold"])
        .arg(&fifo)
        .spawn()
        .expect("flock");
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let r = run(decisions(&root).args(["route", "--item", "rename the loader"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(started.elapsed() < Duration::from_secs(3), "held past its deadline: {:?}", started.elapsed());
    assert!(r.stderr.contains("not logged to"), "{}", r.stderr);
    let mut holder = holder;
    let _ = holder.kill();
    let _ = holder.wait();
}

#[test]
fn a_server_that_echoes_the_key_never_gets_it_into_the_log() {
    // Half the answers carry the key in their model name, the rest are errors quoting it.
    let n = std::sync::atomic::AtomicU64::new(0);
    let stub = Stub::keep_alive(vec![Reply::computed(move |req| {
        let auth = req.header("authorization").unwrap_or("").to_string();
        if n.fetch_add(1, std::sync::atomic::Ordering::SeqCst).is_multiple_of(2) {
            let answers: serde_json::Map<String, Value> = req.json()["questions"]
                .as_object()
                .map(|q| q.keys().map(|k| (k.clone(), json!({"type": "noul", "noul": 0.9}))).collect())
                .unwrap_or_default();
            Reply::json(&json!({"model": format!("echo {auth}"), "answers": answers}))
        } else {
            Reply::status(400, &json!({"error": {"message": format!("bad request from {auth}")}}).to_string())
        }
    })]);
    let (_dir, root) = project(&stub);
    let items: String = (1..=6).map(|i| format!("{{\"id\": {i}, \"note\": \"{KEY}\"}}\n")).collect();
    std::fs::write(root.join("items.jsonl"), items).expect("write");
    run(decisions(&root).args(["batch", "--catalog", "ok", "--questions", "ok", "--input", "items.jsonl"]));
    run(decisions(&root).args(["route", "--item", &format!("rotate {KEY}")]));
    run(decisions(&root).args(["ask", "--catalog", "ok", "--questions", "ok", "--state", "{}", "--log", "x"]));
    let log = std::fs::read_to_string(root.join(".leopold/events.jsonl")).expect("log");
    assert!(log.contains("decision_answered") && log.contains("decision_failed"), "{log}");
    for window in KEY.as_bytes().windows(8) {
        let fragment = std::str::from_utf8(window).expect("ascii");
        assert!(!log.contains(fragment), "{fragment:?} of the key in the log:\n{log}");
    }
}
