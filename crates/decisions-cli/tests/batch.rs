//! `decisions batch` and `decisions triage` as a user runs them: real processes, real loopback
//! HTTP with connections kept alive, real signals. Output lines are whole and complete in any
//! order, a killed run resumes without writing an id twice or losing one, Ctrl-C exits 130
//! with the summary, a bad input line is a typed failure, a 429 pauses every worker, and
//! triage places each issue by the rules with the shipped `triage.json`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::{Value, json};
use stub::{Reply, Stub};

use crate::common;
use crate::common::Run;

pub(crate) const KEY: &str = "sk-canary-batch-7d1e90a3b5c2";

/// A catalog with one noul question, `ok`.
pub(crate) fn catalog() -> Value {
    json!({"version": "decisions/1.0",
        "questions": {"ok": {"type": "noul", "instructions": "Is the item fine?"}},
        "thresholds": {"ok": {"floor": 0.5, "escalate": 0.65, "act": 0.85}}})
}

/// A project with `catalog.json`, the shipped triage catalog and, with an endpoint, jev there.
pub(crate) fn project(endpoint: Option<&str>) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tmp");
    let root = dir.path().to_path_buf();
    std::fs::create_dir_all(root.join(".git")).expect("git");
    common::write(&root.join(".leopold/decisions/ok.json"), &catalog());
    if let Some(endpoint) = endpoint {
        common::jev_at(&root, endpoint);
    }
    (dir, root)
}

pub(crate) fn decisions(cwd: &Path) -> Command {
    common::keyed(cwd, KEY)
}

pub(crate) fn run(cmd: &mut Command) -> Run {
    common::run_checked(cmd, Some(KEY))
}

/// The same command as a child process, to signal or kill.
pub(crate) fn spawn(cwd: &Path, args: &[&str]) -> Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("decisions"))
        .current_dir(cwd)
        .env_remove("LEOPOLD_DECISIONS_PROVIDER")
        .env("TYPESAFE_API_KEY", KEY)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns")
}

/// A batch over `items.jsonl` into `out.jsonl`, four in flight.
pub(crate) const RUN_TO_FILE: [&str; 11] = [
    "batch",
    "--catalog",
    "ok",
    "--questions",
    "ok",
    "--concurrency",
    "4",
    "--input",
    "items.jsonl",
    "--output",
    "out.jsonl",
];

/// `n` input lines `{"id": i, "n": i}`.
pub(crate) fn items(root: &Path, n: usize) -> PathBuf {
    let path = root.join("items.jsonl");
    let text: String = (1..=n).map(|i| format!("{}\n", json!({"id": i, "n": i}))).collect();
    std::fs::write(&path, text).expect("write");
    path
}

/// A provider that answers `ok` yes after `delay(n)`, n being the state's `n`.
pub(crate) fn provider(delay: impl Fn(u64) -> Duration + Send + Sync + 'static) -> Stub {
    Stub::keep_alive(vec![Reply::computed(move |req| {
        let n = req.json()["state"]["n"].as_u64().unwrap_or(0);
        Reply::json(&json!({"model": "stub-1.0.0", "answers": {"ok": {"type": "noul", "noul": 0.97}}}))
            .delayed(delay(n))
    })])
}

/// Every output line, parsed: a torn line fails the test.
pub(crate) fn lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).expect("output");
    assert!(text.is_empty() || text.ends_with('\n'), "the output ends in a whole line");
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("torn line {l:?}: {e}"))).collect()
}

pub(crate) fn ids(lines: &[Value]) -> Vec<u64> {
    lines.iter().map(|l| l["id"].as_u64().expect("numeric id")).collect()
}

/// Wait until the output holds at least `n` lines.
pub(crate) fn wait_for_lines(path: &Path, n: usize) {
    let until = Instant::now() + Duration::from_secs(30);
    while std::fs::read_to_string(path).map_or(0, |t| t.lines().count()) < n {
        assert!(Instant::now() < until, "the run never wrote {n} lines");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn lines_come_in_completion_order_each_whole_and_once_over_kept_alive_connections() {
    // The first items are the slowest, so they finish last.
    let stub = provider(|n| Duration::from_millis(if n <= 4 { 600 } else { 5 }));
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    let input = items(&root, 40);
    let out = root.join("out.jsonl");
    let r = run(decisions(&root)
        .args(["batch", "--catalog", "ok", "--questions", "ok", "--input"])
        .arg(&input)
        .arg("--output")
        .arg(&out));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines = lines(&out);
    let got = ids(&lines);
    assert_eq!(got.iter().copied().collect::<BTreeSet<_>>(), (1..=40).collect(), "every id once");
    assert_eq!(got.len(), 40);
    assert_ne!(got, (1..=40).collect::<Vec<_>>(), "written as they complete, not in input order");
    assert!(got[36..].iter().all(|id| *id <= 4), "the slow ones come last: {got:?}");
    let first = &lines[0];
    assert_eq!(first["usable"], true);
    assert_eq!(first["answers"]["ok"]["noul"], 0.97);
    assert_eq!(first["bands"]["ok"], "act");
    assert_eq!(stub.requests().len(), 40);
    assert!(stub.connections() <= 8, "{} connections for 40 requests at concurrency 8", stub.connections());
    assert!(r.stderr.contains("40 items: 40 answered, 40 usable, no failures"), "{}", r.stderr);
    assert!(r.stderr.contains("40 HTTP requests, 0 429s"), "{}", r.stderr);
}

/// A project whose provider is the model inside the binary, with the permission catalog `install`
/// seeds for it.
pub(crate) fn builtin_project() -> (tempfile::TempDir, PathBuf) {
    let (dir, root) = project(None);
    common::write(
        &root.join(".leopold/decisions/config.json"),
        &json!({"version": "decisions/1.0", "provider": "builtin"}),
    );
    std::fs::write(root.join(".leopold/decisions/permission.json"), decisions::install::PERMISSION_BUILTIN)
        .expect("catalog");
    (dir, root)
}

#[test]
fn a_batch_asked_of_the_model_inside_the_binary_sends_no_http_request_and_says_so() {
    let (_dir, root) = builtin_project();
    let input = root.join("commands.jsonl");
    let text: String = ["rm -rf ~", "ls -la", "git push --force origin main"]
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{}\n", json!({"id": i, "command": c, "cwd": "/home/dev/project"})))
        .collect();
    std::fs::write(&input, text).expect("write");
    let r = run(decisions(&root)
        .args(["batch", "--catalog", "permission", "--questions", "destructive", "--input"])
        .arg(&input));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("3 items: 3 answered"), "{}", r.stderr);
    assert!(r.stderr.contains(" 0 HTTP requests, 0 429s"), "{}", r.stderr);
}

#[test]
fn without_output_lines_go_to_stdout_and_the_summary_to_stderr() {
    let stub = provider(|_| Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    let r = run(decisions(&root)
        .args([
            "batch",
            "--catalog",
            "ok",
            "--questions",
            "ok",
            "--input",
            "-",
            "--id-field",
            "key",
            "--state-field",
            "s",
        ])
        .write_stdin("{\"key\": \"a\", \"s\": {\"n\": 1}}\n{\"key\": \"b\", \"s\": {\"n\": 2}}\n"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let got: BTreeSet<String> =
        r.stdout.lines().map(|l| serde_json::from_str::<Value>(l).expect("json")["id"].to_string()).collect();
    assert_eq!(got, BTreeSet::from(["\"a\"".to_string(), "\"b\"".to_string()]));
    let states: BTreeSet<String> = stub.requests().iter().map(|r| r.json()["state"].to_string()).collect();
    assert_eq!(states, BTreeSet::from([r#"{"n":1}"#.to_string(), r#"{"n":2}"#.to_string()]), "the state is the field");
    assert_eq!(r.stderr.lines().count(), 1, "off a terminal, one summary line and no bar: {}", r.stderr);
}

#[test]
fn a_bad_input_line_is_a_typed_failure_naming_it_and_the_batch_goes_on() {
    let stub = provider(|_| Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    let input = root.join("items.jsonl");
    // Line 1 is not JSON and item 1 is on line 2: neither hides the other.
    let mut text = b"not json at all\n{\"id\": 1, \"n\": 1}\n[1, 2]\n".to_vec();
    text.extend_from_slice(b"{\"id\": 4, \"n\": \xff\xfe}\n\n{\"id\": 6, \"n\": 6}\n");
    std::fs::write(&input, text).expect("write");
    let out = root.join("out.jsonl");
    let r = run(decisions(&root)
        .args(["batch", "--catalog", "ok", "--questions", "ok", "--input"])
        .arg(&input)
        .arg("--output")
        .arg(&out));
    assert_eq!(r.code, 0, "{}", r.stderr);
    // A line with no id of its own has none in the output: its "record" names it.
    let by_id: BTreeMap<String, Value> = lines(&out)
        .into_iter()
        .map(|l| (l.get("id").map_or_else(|| format!("record {}", l["record"]), Value::to_string), l))
        .collect();
    let keys: Vec<&str> = by_id.keys().map(String::as_str).collect();
    assert_eq!(keys, ["1", "6", "record 1", "record 3", "record 4"], "a line that is not an object has no id");
    for (n, starts) in
        [(1, "input line 1: not JSON"), (3, "input line 3: not a JSON object"), (4, "input line 4: not UTF-8")]
    {
        let line = &by_id[&format!("record {n}")];
        let failure = &line["answers"]["ok"];
        assert_eq!((failure["ok"].clone(), failure["reason"].clone()), (json!(false), json!("validation")));
        assert!(failure["detail"].as_str().is_some_and(|d| d.starts_with(starts)), "{failure}");
        assert!(line.get("transient").is_none(), "a bad line is final");
    }
    assert_eq!((by_id["1"]["usable"].clone(), by_id["6"]["usable"].clone()), (json!(true), json!(true)));
    assert_eq!(stub.requests().len(), 2, "bad lines ask nobody");
    assert!(r.stderr.contains("5 items: 2 answered, 2 usable, failed questions: validation 3"), "{}", r.stderr);
}

#[test]
fn a_run_killed_mid_way_resumes_with_no_id_twice_and_none_missing() {
    let stub = provider(|_| Duration::from_millis(20));
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    items(&root, 200);
    let out = root.join("out.jsonl");
    let args = RUN_TO_FILE;
    let mut child = spawn(&root, &args);
    wait_for_lines(&out, 30);
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let before = ids(&lines(&out));
    assert!(before.len() < 200, "killed before the end");
    // Without --resume, the output is not overwritten.
    let refused = run(decisions(&root).args(args));
    assert_eq!(refused.code, 64, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("--output out.jsonl exists") && refused.stderr.contains("--resume"),
        "{}",
        refused.stderr
    );
    let r = run(decisions(&root).args(args).arg("--resume"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let after = ids(&lines(&out));
    assert_eq!(after.len(), 200, "no id twice");
    assert_eq!(after.iter().copied().collect::<BTreeSet<_>>(), (1..=200).collect(), "none missing");
    assert_eq!(after[..before.len()], before[..], "the earlier lines are kept as they were");
    assert!(r.stderr.contains(&format!("({} already done)", before.len())), "{}", r.stderr);
}

#[test]
fn ctrl_c_stops_dispatching_finishes_in_flight_prints_the_summary_and_exits_130() {
    let stub = provider(|_| Duration::from_millis(100));
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    items(&root, 100);
    let out = root.join("out.jsonl");
    let args = RUN_TO_FILE;
    let mut child = spawn(&root, &args);
    wait_for_lines(&out, 8);
    let signalled = Instant::now();
    let kill = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(kill.success());
    let status = child.wait().expect("exits");
    let took = signalled.elapsed();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr).expect("read");
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(took < Duration::from_secs(5), "stopped within the in-flight budget, took {took:?}");
    assert!(
        stderr.contains("; interrupted; ") && stderr.contains(" read and not asked; --resume continues it"),
        "{stderr}"
    );
    let written = ids(&lines(&out));
    assert!(written.len() < 100, "stopped early");
    // Every request the server answered is a line: in-flight requests finished and were written.
    assert_eq!(stub.requests().len(), written.len(), "{stderr}");
    let mut resume = args.to_vec();
    resume[6] = "16";
    let r = run(decisions(&root).args(resume).arg("--resume"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(ids(&lines(&out)).iter().copied().collect::<BTreeSet<_>>(), (1..=100).collect());
}

#[test]
fn a_429_with_retry_after_pauses_every_worker_and_the_item_is_retried() {
    let arrivals: Arc<Mutex<Vec<(Instant, u16)>>> = Arc::default();
    let seen = Arc::clone(&arrivals);
    let stub = Stub::keep_alive(vec![Reply::computed(move |_| {
        let mut a = seen.lock().expect("lock");
        let first = a.is_empty();
        a.push((Instant::now(), if first { 429 } else { 200 }));
        if first {
            return Reply::status(429, r#"{"error": {"message": "slow down"}}"#).header("Retry-After", "1");
        }
        Reply::json(&json!({"model": "stub-1.0.0", "answers": {"ok": {"type": "noul", "noul": 0.97}}}))
            .delayed(Duration::from_millis(100))
    })]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    items(&root, 12);
    let r = run(decisions(&root).args(RUN_TO_FILE));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(ids(&lines(&root.join("out.jsonl"))).len(), 12);
    assert!(r.stderr.contains("12 answered") && r.stderr.contains("13 HTTP requests, 1 429s"), "{}", r.stderr);
    let a = arrivals.lock().expect("lock").clone();
    let told = a[0].0;
    // Workers that were already waiting on an answer may land just after the 429; after that,
    // nobody sends until the second the server asked for has passed.
    let during: Vec<Duration> = a[1..]
        .iter()
        .map(|(t, _)| t.duration_since(told))
        .filter(|d| *d > Duration::from_millis(50) && *d < Duration::from_millis(950))
        .collect();
    assert!(during.is_empty(), "requests sent during the pause: {during:?}");
    assert!(a.iter().any(|(t, _)| t.duration_since(told) >= Duration::from_secs(1)), "the run went on after the pause");
}

#[test]
fn with_no_provider_every_item_is_a_no_provider_failure_left_to_retry() {
    let (_dir, root) = project(None);
    items(&root, 5);
    let r = run(decisions(&root).args([
        "batch",
        "--catalog",
        "ok",
        "--questions",
        "ok",
        "--input",
        "items.jsonl",
        "--output",
        "out.jsonl",
    ]));
    // Nothing at all was answered: every line is written, and the run exits 1 saying so.
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.trim_end().ends_with("; nothing was answered"), "{}", r.stderr);
    let lines = lines(&root.join("out.jsonl"));
    assert_eq!(lines.len(), 5);
    for l in &lines {
        assert_eq!(
            (l["answers"]["ok"]["reason"].clone(), l["asked"].clone(), l["usable"].clone()),
            (json!("no_provider"), json!(false), json!(false))
        );
    }
    assert!(r.stderr.contains("failed questions: no_provider 5, 5 to retry with --resume"), "{}", r.stderr);
}

#[test]
fn batch_usage_errors_name_the_flag() {
    let (_dir, root) = project(None);
    items(&root, 1);
    let cases: [(&[&str], &str); 4] = [
        (&["--rate", "fast"], "expected N/s, N/min or N/h"),
        (&["--concurrency", "0"], "--concurrency"),
        (&["--resume"], "--output"),
        (&["--record", "mine", "--leo-dir", "/nonexistent-leo"], "--record"),
    ];
    for (extra, says) in cases {
        let r = run(decisions(&root)
            .args(["batch", "--catalog", "ok", "--questions", "ok", "--input", "items.jsonl"])
            .args(extra));
        assert_eq!(r.code, 64, "{extra:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{extra:?}: {}", r.stderr);
    }
    let missing =
        run(decisions(&root).args(["batch", "--catalog", "ok", "--questions", "ok", "--input", "nope.jsonl"]));
    assert_eq!(missing.code, 64);
    assert!(missing.stderr.contains("--input nope.jsonl"), "{}", missing.stderr);
}

#[test]
fn batch_record_writes_one_row_a_question_and_returns_the_ids() {
    let stub = provider(|_| Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    items(&root, 3);
    let r = run(decisions(&root).args([
        "batch",
        "--catalog",
        "ok",
        "--questions",
        "ok",
        "--input",
        "items.jsonl",
        "--record",
        "nightly",
    ]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let ledger = std::fs::read_to_string(root.join(".leopold/decisions/ledger.jsonl")).expect("ledger");
    assert_eq!(r.stdout.lines().count(), 3);
    for line in r.stdout.lines() {
        // The same shape as route's and review's: one {question, id} a row.
        let recorded = serde_json::from_str::<Value>(line).expect("json")["recorded"].clone();
        assert_eq!(recorded.as_array().map(Vec::len), Some(1), "{recorded}");
        assert_eq!(recorded[0]["question"], "ok");
        let id = recorded[0]["id"].as_str().expect("id");
        assert!(ledger.contains(&format!("\"id\":\"{id}\"")) && ledger.contains("\"consumer\":\"nightly\""));
    }
}

// --- triage ---------------------------------------------------------------------------------

/// A System One provider for triage that answers what each issue's body asks for: the body is
/// `{"kind": [choice, confidence], "severity": [score, confidence], "needs_repro": p}`, a
/// question it leaves out gets no answer.
pub(crate) fn triage_provider() -> Stub {
    Stub::keep_alive(vec![Reply::computed(|req| {
        let body = req.json()["state"]["item"]["body"].as_str().unwrap_or_default().to_string();
        let script: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
        let mut answers = serde_json::Map::new();
        if let Some([kind, c]) = script["kind"].as_array().map(Vec::as_slice) {
            let options = ["bug", "feature", "question", "docs", "noise"];
            let c = c.as_f64().unwrap_or(0.0);
            let peak = (c * 4.0 + 1.0) / 5.0;
            let probs: serde_json::Map<String, Value> = options
                .iter()
                .map(|o| (o.to_string(), json!(if json!(o) == *kind { peak } else { (1.0 - peak) / 4.0 })))
                .collect();
            answers.insert(
                "kind".into(),
                json!({"type": "choice", "choice": kind, "probabilities": probs, "confidence": c}),
            );
        }
        if let Some([score, c]) = script["severity"].as_array().map(Vec::as_slice) {
            let s = score.as_f64().unwrap_or(0.0);
            let lo = (s.floor() as usize).min(3);
            let mut p = [0.0; 4];
            p[lo] = 1.0 - (s - lo as f64);
            if lo < 3 {
                p[lo + 1] = s - lo as f64;
            }
            let probs: serde_json::Map<String, Value> = (0..4).map(|i| (i.to_string(), json!(p[i]))).collect();
            answers.insert(
                "severity".into(),
                json!({"type": "score", "score": s, "probabilities": probs, "confidence": c}),
            );
        }
        if let Some(p) = script["needs_repro"].as_f64() {
            answers.insert("needs_repro".into(), json!({"type": "noul", "noul": p}));
        }
        Reply::json(&json!({"model": "stub-1.0.0", "answers": answers}))
    })])
}

pub(crate) fn issue(id: u64, title: &str, script: Value) -> Value {
    json!({"id": id, "title": title, "body": script.to_string()})
}

/// One issue for each rule of the bucket table.
fn queue() -> Vec<Value> {
    vec![
        issue(1, "Data loss on save", json!({"kind": ["bug", 0.95], "severity": [2.7, 0.9], "needs_repro": 0.04})),
        issue(2, "Typo in error text", json!({"kind": ["bug", 0.92], "severity": [0.8, 0.9], "needs_repro": 0.96})),
        issue(3, "Add a --json flag", json!({"kind": ["feature", 0.9], "severity": [1.4, 0.88], "needs_repro": 0.02})),
        issue(4, "BUY CHEAP WATCHES", json!({"kind": ["noise", 0.97], "severity": [0.0, 0.95], "needs_repro": 0.03})),
        issue(5, "Something is off", json!({"kind": ["bug", 0.75], "severity": [2.0, 0.9], "needs_repro": 0.05})),
        issue(6, "It broke", json!({"kind": ["bug", 0.9], "severity": [2.0, 0.9], "needs_repro": 0.6})),
        issue(7, "Hmm", json!({"kind": ["noise", 0.3], "severity": [0.0, 0.9], "needs_repro": 0.02})),
        issue(8, "Half answered", json!({"kind": ["docs", 0.9], "needs_repro": 0.02})),
        issue(9, "Slow startup", json!({"kind": ["bug", 0.9], "severity": [1.6, 0.9], "needs_repro": 0.95})),
    ]
}

pub(crate) fn jsonl(values: &[Value]) -> String {
    values.iter().map(|v| format!("{v}\n")).collect()
}

/// A `recorded` list (`[{question, id}]`) by question, in its order.
fn by_question(recorded: &Value) -> serde_json::Map<String, Value> {
    recorded
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| (r["question"].as_str().unwrap_or("").into(), r["id"].clone()))
        .collect()
}

fn entry(list: &Value, id: u64) -> &Value {
    list.as_array().and_then(|l| l.iter().find(|e| e["id"] == id)).unwrap_or_else(|| panic!("#{id} not in {list}"))
}

#[test]
fn triage_places_every_issue_by_the_bucket_rules_of_the_shipped_catalog() {
    let stub = triage_provider();
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    std::fs::write(root.join("issues.jsonl"), jsonl(&queue())).expect("write");
    let r = run(decisions(&root).args([
        "triage",
        "issues.jsonl",
        "--json",
        "report.json",
        "--report",
        "report.md",
        "--output",
        "results.jsonl",
    ]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("report.json")).expect("json")).expect("json");
    assert_eq!(report["provider"], "jev");
    assert_eq!(report["model"], "stub-1.0.0");
    assert_eq!(
        report["counts"],
        json!({"items": 9, "classified": 4, "noise": 1, "human_review": 4, "by_kind": {"bug": 3, "feature": 1}})
    );

    // All three in the act band: bucket = kind, severity = nearest level with its label.
    let bugs = &report["buckets"]["bug"];
    assert_eq!(
        bugs.as_array().map(|b| b.iter().map(|e| e["id"].as_u64().unwrap_or(0)).collect::<Vec<_>>()),
        Some(vec![1, 9, 2]),
        "ranked by severity"
    );
    assert_eq!(entry(bugs, 1)["severity"], json!({"level": 3, "label": "Critical", "score": 2.7}));
    assert_eq!(entry(bugs, 1)["needs_repro"], false);
    assert_eq!(entry(bugs, 2)["severity"]["label"], "Minor");
    assert_eq!(entry(bugs, 2)["needs_repro"], true);
    assert_eq!(entry(&report["buckets"]["feature"], 3)["severity"]["level"], 1);
    // A confident noise is the noise bucket.
    assert_eq!(entry(&report["noise"], 4)["kind"], "noise");
    // An escalate band, a floor, a missing answer: human review, with why and the suggestion.
    let review = &report["human_review"];
    assert_eq!(entry(review, 5)["why"], json!(["kind: escalate (certainty 0.75)"]));
    assert_eq!(entry(review, 5)["suggestion"], "kind bug, severity 2 Major (2.00), needs_repro no (p 0.05)");
    assert_eq!(entry(review, 6)["why"], json!(["needs_repro: floor (certainty 0.20)"]));
    assert_eq!(entry(review, 7)["why"], json!(["kind: floor (certainty 0.30)"]), "an unsure noise is not noise");
    let why8 = entry(review, 8)["why"][0].as_str().unwrap_or_default().to_string();
    assert!(why8.starts_with("severity: malformed"), "{why8}");
    // Every answer's probabilities and the ledger row ids are in the JSON report.
    assert_eq!(
        entry(bugs, 1)["answers"]["kind"]["probabilities"]["bug"].as_f64().map(|p| (p * 100.0).round()),
        Some(96.0)
    );
    let ids = by_question(&entry(bugs, 1)["recorded"]);
    assert_eq!(ids.keys().cloned().collect::<Vec<_>>(), ["kind", "severity", "needs_repro"]);
    let ledger = std::fs::read_to_string(root.join(".leopold/decisions/ledger.jsonl")).expect("ledger");
    assert_eq!(ledger.lines().count(), 9 * 3 - 1, "one row an answered question");
    assert!(ledger.lines().all(|l| l.contains("\"consumer\":\"triage\"")));
    // A maintainer who corrects a label records the outcome against the row id.
    let id = ids["kind"].as_str().expect("id");
    let outcome = run(decisions(&root).args(["ledger", "outcome", "--id", id, "--correct", "false"]));
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);

    // The Markdown: counts first, then human review, then each bucket ranked, then noise.
    let md = std::fs::read_to_string(root.join("report.md")).expect("md");
    let at = |s: &str| md.find(s).unwrap_or_else(|| panic!("{s:?} not in\n{md}"));
    assert!(
        md.starts_with("# Triage report\n\n9 issues: 4 classified (3 bug, 1 feature), 1 noise, 4 for human review."),
        "{md}"
    );
    assert!(
        at("## Human review (4)") < at("## bug (3)")
            && at("## bug (3)") < at("## feature (1)")
            && at("## feature (1)") < at("## Noise (1)")
    );
    assert!(at("| #1 | 3 Critical | Data loss on save |  |") < at("| #9 | 2 Major | Slow startup | yes |"));
    assert!(at("| #9 | 2 Major | Slow startup | yes |") < at("| #2 | 1 Minor | Typo in error text | yes |"));
    assert!(md.contains("| #5 | Something is off | kind: escalate (certainty 0.75) | kind bug,"), "{md}");

    // The state is the item, untrusted text, the body clipped; the id is not in it.
    let state = stub.requests()[0].json()["state"].clone();
    assert_eq!(
        state["item"].as_object().map(|o| o.keys().cloned().collect::<Vec<_>>()),
        Some(vec!["title".into(), "body".into()])
    );
}

#[test]
fn triage_reads_the_array_gh_prints_and_uses_number_as_the_id() {
    let stub = triage_provider();
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    let gh: Vec<Value> = queue()
        .into_iter()
        .map(|mut i| {
            let n = i["id"].take();
            json!({"number": n, "title": i["title"], "body": i["body"]})
        })
        .collect();
    let pretty = serde_json::to_string_pretty(&gh).expect("json");
    let r = run(decisions(&root).args(["triage", "-", "--no-record"]).write_stdin(pretty));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("# Triage report\n\n9 issues: 4 classified"), "{}", r.stdout);
    assert!(r.stdout.contains("| #1 | 3 Critical | Data loss on save |"), "{}", r.stdout);
    assert!(!root.join(".leopold/decisions/ledger.jsonl").exists(), "--no-record writes no rows");
    let body = stub.requests()[0].json();
    assert!(body["state"]["item"]["title"].is_string());
}

#[test]
fn triage_with_no_provider_sends_everything_to_human_review_and_says_so_first() {
    let (_dir, root) = project(None);
    std::fs::write(root.join("issues.jsonl"), jsonl(&queue())).expect("write");
    let r = run(decisions(&root).args(["triage", "--input", "issues.jsonl", "--json", "report.json"]));
    assert_eq!(r.code, 1, "nothing was answered: {}", r.stderr);
    assert_eq!(
        r.stdout.lines().next(),
        Some(
            "No provider is configured: 9 of 9 issues in human review. Run `decisions doctor` to see what is missing."
        )
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("report.json")).expect("json")).expect("json");
    assert_eq!((report["no_provider"].clone(), report["counts"]["human_review"].clone()), (json!(true), json!(9)));
    assert!(
        entry(&report["human_review"], 1)["why"][0]
            .as_str()
            .is_some_and(|w| w.starts_with("kind, severity, needs_repro: no_provider"))
    );
}

#[test]
fn a_resumed_triage_reports_on_the_whole_queue() {
    let (_dir, root) = project(None);
    std::fs::write(root.join("issues.jsonl"), jsonl(&queue())).expect("write");
    let first =
        run(decisions(&root).args(["triage", "issues.jsonl", "--output", "results.jsonl", "--report", "r1.md"]));
    assert_eq!(first.code, 1, "nothing was answered: {}", first.stderr);
    // The provider comes up; the resumed run asks every issue that was never asked.
    let stub = triage_provider();
    let (_d2, with) = project(Some(&stub.url("/v1/systemone")));
    std::fs::copy(with.join(".leopold/decisions/config.json"), root.join(".leopold/decisions/config.json"))
        .expect("copy");
    let r = run(decisions(&root).args([
        "triage",
        "issues.jsonl",
        "--output",
        "results.jsonl",
        "--resume",
        "--report",
        "r2.md",
    ]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(stub.requests().len(), 9);
    let md = std::fs::read_to_string(root.join("r2.md")).expect("md");
    assert!(md.starts_with("# Triage report\n\n9 issues: 4 classified"), "{md}");
    assert_eq!(lines(&root.join("results.jsonl")).len(), 9);
}

#[test]
fn a_reader_that_stops_reading_ends_the_run_quietly_with_141() {
    let (_dir, root) = project(None);
    items(&root, 20_000);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("decisions"))
        .current_dir(&root)
        .env_remove("LEOPOLD_DECISIONS_PROVIDER")
        .args(["batch", "--catalog", "ok", "--questions", "ok", "--input", "items.jsonl"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    drop(child.stdout.take()); // `| head` that has read enough
    let out = child.wait_with_output().expect("exits");
    assert_eq!(out.status.code(), Some(141), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("error"), "{}", String::from_utf8_lossy(&out.stderr));
}
