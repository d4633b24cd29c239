//! Queues against real servers, each case a test named after it: a long `Retry-After` never
//! stalls a run, a typo or a catalog the provider cannot use fails before the first line, a
//! provider that refuses the first items stops the run, triage says first what happened, Ctrl-C
//! without `--output` never promises a resume, the pace learns a limit, and each Brier score
//! has one name and one meaning. Real processes, real files, real loopback HTTP.

use std::collections::{BTreeSet, VecDeque};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use stub::{Reply, Stub};

use crate::batch::{KEY, RUN_TO_FILE, decisions, ids, items, jsonl, lines, project, provider, run};
use crate::common;

/// The stub's good answer to the `ok` question.
fn yes() -> Reply {
    Reply::json(&json!({"model": "stub-1.0.0", "answers": {"ok": {"type": "noul", "noul": 0.97}}}))
}

/// A server whose first answer is `first`, and every later one a good answer after `delay`.
fn first_then_yes(first: Reply, delay: Duration) -> Stub {
    let answered = Arc::new(AtomicBool::new(false));
    Stub::keep_alive(vec![Reply::computed(move |_| {
        if !answered.swap(true, Ordering::SeqCst) {
            return first.clone();
        }
        yes().delayed(delay)
    })])
}

#[test]
fn a_retry_after_past_the_bound_stops_the_run_cleanly_and_resume_finishes_it() {
    let told = [
        Reply::status(429, r#"{"error":{"message":"slow down"}}"#).header("Retry-After", "3600"),
        Reply::status(529, r#"{"error":{"message":"overloaded"}}"#).header("retry-after-ms", "99999999"),
        Reply::status(429, r#"{"error":{"message":"slow down"}}"#).header("Retry-After", "1e9"),
    ];
    for first in told {
        let stub = first_then_yes(first, Duration::from_millis(50));
        let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
        items(&root, 24);
        let started = Instant::now();
        let r = run(decisions(&root).args(RUN_TO_FILE));
        let took = started.elapsed();
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert!(took < Duration::from_secs(20), "stopped, not stalled: {took:?}");
        let summary = r.stderr.lines().last().unwrap_or_default();
        assert!(summary.contains("; stopped: the provider (HTTP "), "{summary}");
        assert!(summary.contains(") asked to be called again in ") && summary.contains(", at 20"), "{summary}");
        assert!(summary.contains(" read and not asked; --resume continues it"), "{summary}");
        let written = lines(&root.join("out.jsonl"));
        assert!(written.len() < 24, "the rest is left: {summary}");
        let told_line = written.iter().find(|l| l["answers"]["ok"]["ok"] == json!(false)).expect("the told item");
        assert_eq!(told_line["transient"], json!(true), "{told_line}");
        // The provider is back: the resume asks what is left, each item once.
        stub.replace(vec![yes()]);
        let again = run(decisions(&root).args(RUN_TO_FILE).arg("--resume"));
        assert_eq!(again.code, 0, "{}", again.stderr);
        let all = ids(&lines(&root.join("out.jsonl")));
        assert_eq!(all.len(), 24, "no id twice");
        assert_eq!(all.iter().copied().collect::<BTreeSet<_>>(), (1..=24).collect());
    }
}

#[test]
fn a_pause_longer_than_an_items_budget_fails_that_item_at_once_and_the_rest_wait_it_out() {
    // The good answers take 100 ms, so the three items sent beside the told one are still in
    // flight when its 429 comes back: what waits out the pause is every item not yet sent. With
    // no delay, those three could finish the whole queue before the runner read the 429.
    let stub = first_then_yes(
        Reply::status(429, r#"{"error":{"message":"slow down"}}"#).header("Retry-After", "3"),
        Duration::from_millis(100),
    );
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    items(&root, 12);
    let started = Instant::now();
    let r = run(decisions(&root).args(RUN_TO_FILE).args(["--timeout-ms", "1000"]));
    assert_eq!(r.code, 0, "within the 60-second bound the run goes on: {}", r.stderr);
    let written = lines(&root.join("out.jsonl"));
    assert_eq!(written.len(), 12);
    let failed: Vec<&Value> = written.iter().filter(|l| l["answers"]["ok"]["ok"] == json!(false)).collect();
    assert_eq!(failed.len(), 1, "only the item told: {}", r.stderr);
    assert_eq!(failed[0]["answers"]["ok"]["reason"], json!("rate_limit"));
    assert_eq!(failed[0]["transient"], json!(true), "--resume asks it again");
    assert!(started.elapsed() >= Duration::from_secs(3), "every other item waited for the pause");
    assert!(r.stderr.contains("11 answered") && r.stderr.contains("1 to retry with --resume"), "{}", r.stderr);
    // A bound lower than the pause stops the run instead.
    let stub = first_then_yes(
        Reply::status(429, r#"{"error":{"message":"slow down"}}"#).header("Retry-After", "3"),
        Duration::ZERO,
    );
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    items(&root, 12);
    let r = run(decisions(&root).args(RUN_TO_FILE).args(["--max-pause", "2"]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("stopped: the provider (HTTP 429) asked to be called again in 3.0 s"), "{}", r.stderr);
}

#[test]
fn a_long_retry_after_stops_eval_and_triage_too() {
    for args in [
        vec!["eval", "--catalog", "ok", "--question", "ok", "--input", "labelled.jsonl"],
        vec!["triage", "issues.jsonl", "--no-record", "--report", "report.md"],
    ] {
        let first = Reply::status(429, r#"{"error":{"message":"slow down"}}"#).header("Retry-After", "3600");
        let answered = Arc::new(AtomicBool::new(false));
        let stub = Stub::keep_alive(vec![Reply::computed(move |req| {
            if !answered.swap(true, Ordering::SeqCst) {
                return first.clone();
            }
            let questions: serde_json::Map<String, Value> = req.json()["questions"]
                .as_object()
                .map(|q| q.keys().map(|k| (k.clone(), json!({"type": "noul", "noul": 0.9}))).collect())
                .unwrap_or_default();
            Reply::json(&json!({"model": "stub-1.0.0", "answers": questions})).delayed(Duration::from_millis(50))
        })]);
        let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
        let labelled: String = (1..=24).map(|i| format!("{}\n", json!({"state": {"n": i}, "label": true}))).collect();
        std::fs::write(root.join("labelled.jsonl"), labelled).expect("write");
        let issues: Vec<Value> =
            (1..=24).map(|i| json!({"id": i, "title": format!("issue {i}"), "body": "b"})).collect();
        std::fs::write(root.join("issues.jsonl"), jsonl(&issues)).expect("write");
        let started = Instant::now();
        let r = run(decisions(&root).args(&args));
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert!(started.elapsed() < Duration::from_secs(20), "{args:?} stalled");
        assert!(
            r.stderr.contains("stopped: the provider (HTTP 429) asked to be called again in 1.0 h"),
            "{}",
            r.stderr
        );
        assert!(!r.stderr.contains("--resume"), "{args:?} cannot be resumed: {}", r.stderr);
        if args[0] == "triage" {
            let md = std::fs::read_to_string(root.join("report.md")).expect("report");
            assert!(md.starts_with("Partial report: the run stopped (the provider (HTTP 429) asked"), "{md}");
            assert!(
                md.lines().next().is_some_and(|l| l.ends_with("without --output there is nothing to resume from.")),
                "{md}"
            );
        }
    }
}

#[test]
fn a_typo_in_the_catalog_or_a_question_is_a_usage_error_before_any_line() {
    let stub = provider(|_| Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    items(&root, 200);
    let cases: [(&[&str], &str); 4] = [
        (&["batch", "--catalog", "okk", "--questions", "ok"], "did you mean --catalog ok?"),
        (&["batch", "--catalog", "ok", "--questions", "okay"], "did you mean --questions ok?"),
        (&["eval", "--catalog", "okk", "--question", "ok"], "did you mean --catalog ok?"),
        (&["eval", "--catalog", "ok", "--question", "kk"], "did you mean --question ok?"),
    ];
    for (args, hint) in cases {
        let output: &[&str] = if args[0] == "batch" { &["--output", "out.jsonl"] } else { &[] };
        let r = run(decisions(&root).args(args).args(["--input", "items.jsonl"]).args(output));
        assert_eq!(r.code, 64, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(hint), "{args:?}: {}", r.stderr);
        assert!(!root.join("out.jsonl").exists(), "{args:?}: no output made");
    }
    assert_eq!(stub.requests().len(), 0, "nothing asked");
    // `ask` keeps the no_catalog outcome (exit 0) and points at the near name on stderr.
    let r = run(decisions(&root).args(["ask", "--catalog", "okk", "--questions", "ok", "--state", "{}"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["answers"]["ok"]["reason"], json!("no_catalog"));
    assert_eq!(r.stderr.trim(), "hint: no catalog \"okk\"; did you mean --catalog ok?");
}

#[test]
fn a_catalog_the_provider_cannot_use_is_a_usage_error_before_any_line() {
    let stub = provider(|_| Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    items(&root, 5);
    // More options than the provider takes.
    let options: serde_json::Map<String, Value> =
        (0..300).map(|i| (format!("o{i}"), json!({"what": format!("option {i}")}))).collect();
    common::write(
        &root.join(".leopold/decisions/wide.json"),
        &json!({"version": "decisions/1.0", "questions": {"pick": {"type": "choice", "instructions": "Pick one.", "criteria": options}}}),
    );
    let r = run(decisions(&root).args([
        "batch",
        "--catalog",
        "wide",
        "--questions",
        "pick",
        "--input",
        "items.jsonl",
        "--output",
        "out.jsonl",
    ]));
    assert_eq!(r.code, 64, "{}", r.stderr);
    assert!(r.stderr.contains("provider \"jev\" cannot be asked this: validation:"), "{}", r.stderr);
    assert!(!root.join("out.jsonl").exists());
    assert_eq!(stub.requests().len(), 0);
}

#[test]
fn a_provider_that_rejects_the_key_stops_the_run_and_resume_asks_those_items_again() {
    let rejecting = Arc::new(AtomicBool::new(true));
    let flag = Arc::clone(&rejecting);
    let stub = Stub::keep_alive(vec![Reply::computed(move |_| {
        if flag.load(Ordering::SeqCst) {
            return Reply::status(401, r#"{"error":{"message":"invalid api key"}}"#);
        }
        yes()
    })]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    items(&root, 200);
    let r = run(decisions(&root).args(RUN_TO_FILE));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "stopped: the provider refused the first items (auth: HTTP 401: invalid api key); nothing more was asked"
        ),
        "{}",
        r.stderr
    );
    let asked = stub.requests().len();
    assert!(asked <= 8, "it did not grind through the queue: {asked} requests");
    let written = lines(&root.join("out.jsonl"));
    assert!(written.iter().all(|l| l["transient"] == json!(true)), "each refused line is asked again");
    rejecting.store(false, Ordering::SeqCst);
    let again = run(decisions(&root).args(RUN_TO_FILE).arg("--resume"));
    assert_eq!(again.code, 0, "{}", again.stderr);
    let all = lines(&root.join("out.jsonl"));
    assert_eq!(ids(&all).len(), 200);
    assert!(all.iter().all(|l| l["usable"] == json!(true)));
}

#[test]
fn transient_failures_never_stop_the_run() {
    let n = Arc::new(AtomicUsize::new(0));
    let stub = Stub::keep_alive(vec![Reply::computed(move |_| {
        if n.fetch_add(1, Ordering::SeqCst).is_multiple_of(2) {
            return Reply::status(500, r#"{"error":{"message":"boom"}}"#);
        }
        yes()
    })]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    items(&root, 40);
    let r = run(decisions(&root).args(RUN_TO_FILE));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(lines(&root.join("out.jsonl")).len(), 40, "every item has its line");
    assert!(!r.stderr.contains("stopped"), "{}", r.stderr);
}

#[test]
fn triage_against_an_unreachable_server_says_so_first_and_exits_1() {
    let (_dir, root) = project(Some(&stub::refusing_url()));
    let issues: Vec<Value> = (1..=5).map(|i| json!({"id": i, "title": format!("issue {i}"), "body": "b"})).collect();
    std::fs::write(root.join("issues.jsonl"), jsonl(&issues)).expect("write");
    let r = run(decisions(&root).args(["triage", "issues.jsonl", "--no-record", "--json", "report.json"]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let first = r.stdout.lines().next().unwrap_or_default();
    assert!(first.starts_with("Nothing was answered (transport: no response from "), "{first}");
    assert!(first.ends_with("5 of 5 issues in human review. Run decisions doctor --probe to see why."), "{first}");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("report.json")).expect("json")).expect("json");
    assert!(report["status"].as_str().is_some_and(|s| s.starts_with("Nothing was answered")), "{report}");
    assert!(r.stderr.trim_end().ends_with("; nothing was answered"), "{}", r.stderr);
}

#[test]
fn ctrl_c_in_triage_without_output_marks_the_report_partial_and_promises_no_resume() {
    let stub = Stub::keep_alive(vec![Reply::computed(|req| {
        let questions: serde_json::Map<String, Value> = req.json()["questions"]
            .as_object()
            .map(|q| q.keys().map(|k| (k.clone(), json!({"type": "noul", "noul": 0.9}))).collect())
            .unwrap_or_default();
        Reply::json(&json!({"model": "stub-1.0.0", "answers": questions})).delayed(Duration::from_millis(100))
    })]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    let issues: Vec<Value> = (1..=60).map(|i| json!({"id": i, "title": format!("issue {i}"), "body": "b"})).collect();
    std::fs::write(root.join("issues.jsonl"), jsonl(&issues)).expect("write");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("decisions"))
        .current_dir(&root)
        .env("TYPESAFE_API_KEY", KEY)
        .env_remove("LEOPOLD_DECISIONS_PROVIDER")
        .args(["triage", "issues.jsonl", "--no-record", "--concurrency", "2", "--report", "report.md"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    let until = Instant::now() + Duration::from_secs(20);
    while stub.requests().len() < 6 {
        assert!(Instant::now() < until, "no requests");
        std::thread::sleep(Duration::from_millis(10));
    }
    let kill = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(kill.success());
    let code = child.wait().expect("exits").code();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr).expect("read");
    assert_eq!(code, Some(130), "{stderr}");
    assert!(!stderr.contains("--resume"), "nothing to resume from: {stderr}");
    assert!(stderr.contains("; interrupted; ") && stderr.contains(" read and not asked"), "{stderr}");
    let md = std::fs::read_to_string(root.join("report.md")).expect("report");
    let first = md.lines().next().unwrap_or_default();
    assert!(first.starts_with("Partial report: the run was interrupted after "), "{md}");
    assert!(first.ends_with("without --output there is nothing to resume from."), "{first}");
}

#[test]
fn without_rate_the_first_429_sets_the_pace_and_few_follow() {
    // A strict sliding window: at most 20 in any last second, 429 with Retry-After: 1 beyond.
    let accepted: Arc<Mutex<VecDeque<Instant>>> = Arc::default();
    let window = Arc::clone(&accepted);
    let stub = Stub::keep_alive(vec![Reply::computed(move |_| {
        let now = Instant::now();
        let mut w = window.lock().expect("lock");
        while w.front().is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(1)) {
            w.pop_front();
        }
        if w.len() >= 20 {
            return Reply::status(429, r#"{"error":{"message":"slow down"}}"#).header("Retry-After", "1");
        }
        w.push_back(now);
        yes().delayed(Duration::from_millis(20))
    })]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    items(&root, 80);
    let r = run(decisions(&root)
        .args(["batch", "--catalog", "ok", "--questions", "ok", "--input", "items.jsonl"])
        .args(["--output", "out.jsonl", "--concurrency", "8"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(ids(&lines(&root.join("out.jsonl"))).len(), 80, "none lost");
    let limited = stub.requests().len() - 80;
    assert!(limited <= 8, "{limited} 429s: the first one's burst, then the pace holds: {}", r.stderr);
    let paced =
        r.stderr.split("paced at ").nth(1).and_then(|s| s.split('/').next()).and_then(|s| s.parse::<f64>().ok());
    assert!(paced.is_some_and(|p| p > 15.0 && p <= 20.0), "learned the limit: {}", r.stderr);
}

#[test]
fn each_brier_score_has_one_name_and_one_meaning_in_eval_its_svg_and_ledger_report() {
    // A choice whose distribution and certainty give two different Brier scores.
    let stub = Stub::keep_alive(vec![Reply::json(&json!({"model": "stub-1.0.0", "answers": {"pick": {
        "type": "choice", "choice": "a", "confidence": 0.6, "probabilities": {"a": 0.6, "b": 0.3, "c": 0.1}}}}))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    common::write(
        &root.join(".leopold/decisions/pick.json"),
        &json!({"version": "decisions/1.0", "questions": {"pick": {"type": "choice", "instructions": "Pick one.",
            "criteria": {"a": {"what": "a"}, "b": {"what": "b"}, "c": {"what": "c"}}}},
            "thresholds": {"pick": {"floor": 0.5, "escalate": 0.65, "act": 0.85}}}),
    );
    let labelled: String = (1..=40)
        .map(|i| format!("{}\n", json!({"state": {"n": i}, "label": if i % 4 == 0 { "b" } else { "a" }})))
        .collect();
    std::fs::write(root.join("labelled.jsonl"), labelled).expect("write");
    let eval = ["eval", "--catalog", "pick", "--question", "pick", "--input", "labelled.jsonl"];
    let r = run(decisions(&root).args(eval).args(["--json", "--record", "--svg", "eval.svg"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    let (distribution, certainty) = (v["brier_distribution"].as_f64(), v["brier_certainty"].as_f64());
    // 30 labelled a: (0.4² + 0.3² + 0.1²) = 0.26; 10 labelled b: (0.6² + 0.7² + 0.1²) = 0.86.
    assert!(distribution.is_some_and(|d| (d - (30.0 * 0.26 + 10.0 * 0.86) / 40.0).abs() < 1e-9), "{v}");
    // Certainty 0.6: right 30 times, (0.6 - 1)²; wrong 10 times, 0.6².
    assert!(certainty.is_some_and(|c| (c - (30.0 * 0.16 + 10.0 * 0.36) / 40.0).abs() < 1e-9), "{v}");
    assert!(v.get("brier").is_none(), "no bare name");
    let text = run(decisions(&root).args(eval));
    assert!(
        text.stdout.contains(&format!("Brier (distribution)       {:.3}", distribution.unwrap_or(0.0))),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains(&format!("Brier (certainty)          {:.3}", certainty.unwrap_or(0.0))),
        "{}",
        text.stdout
    );
    let svg = std::fs::read_to_string(root.join("eval.svg")).expect("svg");
    assert!(svg.contains(&format!("Brier (certainty)={:.3}", certainty.unwrap_or(0.0))), "{svg}");
    let report = run(decisions(&root).args(["ledger", "report"]));
    assert!(report.stdout.contains("brier_cert"), "{}", report.stdout);
    let row = report.stdout.lines().find(|l| l.contains("pick")).unwrap_or_default().to_string();
    assert!(row.contains(&format!("{:.3}", certainty.unwrap_or(0.0))), "the ledger's is the certainty Brier: {row}");
}
