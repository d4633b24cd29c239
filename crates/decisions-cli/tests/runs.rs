//! The run engine's cases, each found by the hostile campaign and named after it: one output
//! never shared by two runs, ids as written (never collapsed, a real repeat said), `--resume`
//! repairing a torn tail and following a link, an endless line bounded, one nested element one
//! failure, `eval` checking its outputs first, and triage's memory at 100,000 issues. Real
//! processes, real files, real loopback HTTP.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use stub::{Reply, Stub};

use crate::batch::{
    KEY, RUN_TO_FILE, builtin_project, decisions, ids, items, lines, project, provider, run, spawn, wait_for_lines,
};

/// Each output line by its record number; a record written twice fails the test.
fn by_record(lines: &[Value]) -> BTreeMap<u64, Value> {
    let mut out = BTreeMap::new();
    for l in lines {
        let n = l["record"].as_u64().unwrap_or_else(|| panic!("no record number: {l}"));
        assert!(out.insert(n, l.clone()).is_none(), "record {n} written twice");
    }
    out
}

/// A live process's peak resident memory so far, in KiB (0 once it is gone).
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn two_runs_cannot_share_one_output() {
    let stub = provider(|_| Duration::from_millis(40));
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    items(&root, 120);
    let out = root.join("out.jsonl");
    let mut first = spawn(&root, &RUN_TO_FILE);
    wait_for_lines(&out, 4);
    // A second fresh run on the same path: refused, the file untouched.
    let fresh = run(decisions(&root).args(RUN_TO_FILE));
    assert_eq!(fresh.code, 64, "{}", fresh.stderr);
    assert!(fresh.stderr.contains("--output out.jsonl exists"), "{}", fresh.stderr);
    // A resume while the first still runs: refused at once, naming the path and the holder.
    let resumed = run(decisions(&root).args(RUN_TO_FILE).arg("--resume"));
    assert_eq!(resumed.code, 64, "a named output that cannot be had: {}", resumed.stderr);
    assert!(
        resumed.stderr.contains("--output out.jsonl: another run holds it"),
        "names the path and that another run holds it: {}",
        resumed.stderr
    );
    assert!(first.wait().expect("first run").success());
    let written = ids(&lines(&out));
    assert_eq!(written.len(), 120, "every id once, none twice");
    assert_eq!(stub.requests().len(), 120, "the refused runs asked nothing");
}

#[test]
fn ids_are_their_exact_text_a_line_without_one_collides_with_none_and_a_repeat_says_so() {
    let stub = provider(|_| Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    let input = concat!(
        "{\"id\": 3, \"n\": 1}\n",
        "{\"id\": 18446744073709551617, \"n\": 2}\n",
        "{\"n\": 3}\n",
        "{\"id\": 18446744073709551618, \"n\": 4}\n",
        "{\"id\": 3, \"n\": 5}\n",
        "{\"id\": \"3\", \"n\": 6}\n",
    );
    std::fs::write(root.join("items.jsonl"), input).expect("write");
    let r = run(decisions(&root).args(RUN_TO_FILE));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(root.join("out.jsonl")).expect("output");
    assert!(text.contains("\"id\":18446744073709551617,") && text.contains("\"id\":18446744073709551618,"));
    let got = by_record(&lines(&root.join("out.jsonl")));
    assert_eq!(got.len(), 6, "one line a record: {text}");
    assert!(got[&3].get("id").is_none(), "a line with no id gets none, so it meets no explicit 3");
    for n in [1, 2, 3, 4, 6] {
        assert_eq!(got[&n]["usable"], json!(true), "record {n} was asked: {}", got[&n]);
    }
    assert_eq!(got[&6]["id"], json!("3"), "the string \"3\" is not the number 3");
    let repeat = &got[&5];
    assert_eq!(repeat["id"], json!(3));
    assert_eq!(repeat["skipped"], json!("repeat: an earlier record of the input has this id; this one is not asked"));
    assert_eq!(stub.requests().len(), 5, "the repeat asks nobody");
    assert!(r.stderr.starts_with("6 items (1 with a repeated id, skipped)"), "{}", r.stderr);
    // Resuming writes nothing again: the repeat's line is final too.
    let again = run(decisions(&root).args(RUN_TO_FILE).arg("--resume"));
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(std::fs::read_to_string(root.join("out.jsonl")).expect("output"), text);
    assert_eq!(stub.requests().len(), 5);
}

#[test]
fn resume_cuts_back_a_torn_last_line_and_asks_its_item_again() {
    let stub = provider(|_| Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    items(&root, 12);
    let out = root.join("out.jsonl");
    assert_eq!(run(decisions(&root).args(RUN_TO_FILE)).code, 0);
    let whole = std::fs::read(&out).expect("output");
    // A full disk cut the last write just before its newline, and another mid-line.
    for cut in [whole.len() - 1, whole.len() - 40] {
        std::fs::write(&out, &whole[..cut]).expect("tear");
        let before = stub.requests().len();
        let r = run(decisions(&root).args(RUN_TO_FILE).arg("--resume"));
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stderr.contains("its last line was cut off mid-write; it is asked again"), "{}", r.stderr);
        let after = ids(&lines(&out));
        assert_eq!(after.len(), 12, "no record glued to the torn one, none twice");
        let mut sorted = after.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (1..=12).collect::<Vec<u64>>());
        assert_eq!(stub.requests().len(), before + 1, "only the torn line's item is asked again");
    }
}

#[test]
fn resume_through_a_symlinked_output_continues_the_file_it_names() {
    // Item 3 fails with a 503 in the first run, so the resume has a line to drop and rewrites.
    let failing = Arc::new(AtomicBool::new(true));
    let flag = Arc::clone(&failing);
    let stub = Stub::keep_alive(vec![Reply::computed(move |req| {
        if req.json()["state"]["n"] == 3 && flag.load(Ordering::SeqCst) {
            return Reply::status(503, r#"{"error":{"message":"overloaded"}}"#);
        }
        Reply::json(&json!({"model": "stub-1.0.0", "answers": {"ok": {"type": "noul", "noul": 0.97}}}))
    })]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    items(&root, 10);
    std::fs::create_dir(root.join("data")).expect("mkdir");
    std::os::unix::fs::symlink("data/real.jsonl", root.join("out.jsonl")).expect("link");
    std::fs::write(root.join("data/real.jsonl"), "").expect("target");
    // The link names an empty file: a resume starts the run in it.
    let r = run(decisions(&root).args(RUN_TO_FILE).arg("--resume"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("1 to retry with --resume"), "{}", r.stderr);
    failing.store(false, Ordering::SeqCst);
    let r = run(decisions(&root).args(RUN_TO_FILE).arg("--resume"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let link = std::fs::symlink_metadata(root.join("out.jsonl")).expect("link");
    assert!(link.file_type().is_symlink(), "the link is still a link");
    let real = lines(&root.join("data/real.jsonl"));
    assert_eq!(real.len(), 10, "the file the link names holds the whole run");
    assert!(real.iter().all(|l| l["usable"] == json!(true)), "item 3 retried in the same file");
}

#[test]
fn an_endless_line_is_one_failure_line_and_memory_stays_bounded() {
    let stub = provider(|_| Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    // 300 MB with no newline, then an item, into a batch held to 160 MiB of data.
    let pipeline = format!(
        "{{ head -c 300000000 /dev/zero | tr '\\0' x; printf '\\n{{\"id\": 2, \"n\": 2}}\\n'; }} \
         | prlimit --data={} -- {} batch --catalog ok --questions ok --input -",
        160 << 20,
        assert_cmd::cargo::cargo_bin("decisions").display()
    );
    let out = std::process::Command::new("bash")
        .current_dir(&root)
        .env("TYPESAFE_API_KEY", KEY)
        .env_remove("LEOPOLD_DECISIONS_PROVIDER")
        .args(["-c", &pipeline])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let got: Vec<Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("a whole line")).collect();
    assert_eq!(got.len(), 2, "{stderr}");
    let long = got.iter().find(|l| l["record"] == 1).expect("the long line's own line");
    let detail = long["answers"]["ok"]["detail"].as_str().unwrap_or_default();
    assert!(detail.starts_with("input line 1: longer than the 16777216-byte bound (--record-max;"), "{detail}");
    assert!(got.iter().any(|l| l["id"] == 2 && l["usable"] == json!(true)), "reading went on at the next newline");
}

#[test]
fn input_from_dev_zero_is_bounded_and_ctrl_c_ends_it() {
    let (_dir, root) = project(None);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("decisions"))
        .current_dir(&root)
        .env_remove("LEOPOLD_DECISIONS_PROVIDER")
        .args(["batch", "--catalog", "ok", "--questions", "ok", "--input", "/dev/zero", "--record-max", "65536"])
        .args(["--output", "out.jsonl"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    wait_for_lines(&root.join("out.jsonl"), 1);
    // A while of reading zeros: the process stays small.
    std::thread::sleep(Duration::from_millis(500));
    let rss_kib = peak_kib(child.id());
    assert!(rss_kib > 0 && rss_kib < 64 * 1024, "peak resident {rss_kib} KiB while reading /dev/zero");
    let kill = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(kill.success());
    let code = child.wait().expect("exits").code();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr).expect("read");
    assert_eq!(code, Some(130), "no abort, no backtrace: {stderr}");
    assert!(!stderr.contains("memory allocation") && !stderr.contains("backtrace"), "{stderr}");
    let written = lines(&root.join("out.jsonl"));
    assert_eq!(written.len(), 1);
    assert!(written[0]["answers"]["ok"]["detail"].as_str().is_some_and(|d| d.contains("longer than the 65536-byte")));
}

#[test]
fn one_deeply_nested_element_is_one_failure_and_the_array_goes_on() {
    let stub = provider(|_| Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    let deep = format!("{{\"id\": 2, \"x\": {}{}}}", "[".repeat(50_000), "]".repeat(50_000));
    let text = format!("[\n  {{\"id\": 1, \"n\": 1}},\n  {deep},\n  {{\"id\": 3, \"n\": 3}}\n]\n");
    std::fs::write(root.join("items.jsonl"), text).expect("write");
    let r = run(decisions(&root).args(RUN_TO_FILE));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let got = by_record(&lines(&root.join("out.jsonl")));
    assert_eq!(got.len(), 3, "{got:?}");
    let detail = got[&2]["answers"]["ok"]["detail"].as_str().unwrap_or_default();
    assert_eq!(detail, "input element 2: not JSON: recursion limit exceeded");
    assert!(got[&1]["usable"] == json!(true) && got[&3]["usable"] == json!(true), "later elements are asked");
    assert_eq!(stub.requests().len(), 2);
}

#[test]
fn a_jsonl_file_whose_first_line_is_an_array_is_jsonl() {
    let stub = provider(|_| Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    std::fs::write(root.join("items.jsonl"), "[{\"id\": 1, \"n\": 1}]\n{\"id\": 2, \"n\": 2}\n{\"id\": 3, \"n\": 3}\n")
        .expect("write");
    let r = run(decisions(&root).args(RUN_TO_FILE));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let got = by_record(&lines(&root.join("out.jsonl")));
    assert_eq!(got.len(), 3);
    assert_eq!(got[&1]["answers"]["ok"]["detail"], json!("input line 1: not a JSON object"));
    assert!(got[&2]["usable"] == json!(true) && got[&3]["usable"] == json!(true));
    // Told it is an array, the same file is refused at its second line, naming it.
    let r = run(decisions(&root).args(RUN_TO_FILE).args(["--resume", "--layout", "array"]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("the input array"), "{}", r.stderr);
}

/// A labelled input for `eval` of the `ok` question: `n` states, label yes.
fn labelled(root: &Path, n: usize) {
    let text: String = (1..=n).map(|i| format!("{}\n", json!({"state": {"n": i}, "label": true}))).collect();
    std::fs::write(root.join("labelled.jsonl"), text).expect("write");
}

#[test]
fn eval_refuses_an_svg_it_cannot_write_before_asking_anything() {
    let stub = provider(|_| Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    labelled(&root, 5);
    let r = run(decisions(&root)
        .args(["eval", "--catalog", "ok", "--question", "ok", "--input", "labelled.jsonl"])
        .args(["--svg", "no/such/dir/diagram.svg", "--record"]));
    assert_eq!(r.code, 64, "{}", r.stderr);
    assert!(r.stderr.contains("--svg no/such/dir/diagram.svg"), "{}", r.stderr);
    assert_eq!(stub.requests().len(), 0, "nothing asked");
    assert!(!root.join(".leopold/decisions/ledger.jsonl").exists());
}

#[test]
fn eval_keeps_its_report_and_ledger_rows_when_the_svg_write_fails() {
    let stub = provider(|_| Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    labelled(&root, 5);
    // /dev/full opens, then refuses every write: the diagram fails after the run.
    let r = run(decisions(&root)
        .args(["eval", "--catalog", "ok", "--question", "ok", "--input", "labelled.jsonl"])
        .args(["--svg", "/dev/full", "--record"]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.contains("accuracy"), "the report is printed: {}", r.stdout);
    assert!(r.stderr.contains("error: --svg /dev/full:"), "{}", r.stderr);
    let ledger = std::fs::read_to_string(root.join(".leopold/decisions/ledger.jsonl")).expect("rows kept");
    assert_eq!(ledger.lines().count(), 10, "a decision and its outcome an item");
}

#[test]
fn eval_of_a_question_not_in_the_catalog_is_a_usage_error_before_any_request() {
    let stub = provider(|_| Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    labelled(&root, 3);
    let r = run(decisions(&root).args(["eval", "--catalog", "ok", "--question", "okk", "--input", "labelled.jsonl"]));
    assert_eq!(r.code, 64, "{}", r.stderr);
    assert!(r.stderr.contains("--question okk: catalog ok has no such question"), "{}", r.stderr);
    assert!(r.stderr.contains("did you mean --question ok?"), "{}", r.stderr);
    assert_eq!(stub.requests().len(), 0);
}

#[test]
fn eval_acts_at_records_only_what_the_consumer_acts_on_and_refuses_a_score_outside_the_levels() {
    let (_dir, root) = builtin_project();
    // The last is labelled only the least it could be (`unsure`): denied above that, it is no
    // evidence either way, and nothing is recorded for it.
    let rows = [
        ("rm -rf ~", 3, false),
        ("git push --force origin main", 3, false),
        ("ls -la", 0, false),
        ("echo 'rm -rf /'", 0, false),
        ("sudo rm -rf /", 2, true),
    ];
    let text: String = rows
        .iter()
        .map(|(c, l, u)| {
            format!("{}\n", json!({"state": {"command": c, "cwd": "/home/dev/p"}, "label": l, "unsure": u}))
        })
        .collect();
    std::fs::write(root.join("labelled.jsonl"), text).expect("write");
    let eval = ["eval", "--catalog", "permission", "--question", "destructive", "--input", "labelled.jsonl"];
    let r = run(decisions(&root).args(eval).args(["--acts-at", "3.5"]));
    assert_eq!(r.code, 64, "{}", r.stderr);
    assert!(r.stderr.contains("--acts-at 3.5: question destructive scores 0 to 3"), "{}", r.stderr);
    assert!(!root.join(".leopold/decisions/ledger.jsonl").exists(), "nothing recorded");
    let r = run(decisions(&root).args(eval).args(["--acts-at", "2.5", "--record"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("acted on                   2 of 5 answers, a score of 2.5 or more"), "{}", r.stdout);
    // The two denials, each with its outcome, and nothing for the two commands it stands aside on.
    let ledger = std::fs::read_to_string(root.join(".leopold/decisions/ledger.jsonl")).expect("ledger");
    let rows: Vec<Value> = ledger.lines().map(|l| serde_json::from_str(l).expect("a row")).collect();
    assert_eq!(rows.len(), 4, "{ledger}");
    let outcomes: Vec<&Value> = rows.iter().filter(|r| r["kind"] == "outcome").collect();
    assert_eq!(outcomes.len(), 2);
    assert!(outcomes.iter().all(|o| o["correct"] == true), "{ledger}");
}

/// The bench (`bench/batch_bench.py`) measures 100,000 issues on a release build; here 30,000
/// on the test build, where holding the report whole (11.5 KB an issue) took 345 MB.
const ISSUES: usize = 30_000;

#[test]
fn triage_does_not_hold_the_whole_report_in_memory() {
    let (_dir, root) = project(None);
    let body = "Steps: run the command with the catalog; observed a wrong exit. ".repeat(9);
    let mut text = String::with_capacity(ISSUES * 700);
    for i in 1..=ISSUES {
        text.push_str(
            &json!({"number": i, "title": format!("Issue {i} about part {}", i % 97), "body": body}).to_string(),
        );
        text.push('\n');
    }
    std::fs::write(root.join("issues.jsonl"), text).expect("write");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("decisions"))
        .current_dir(&root)
        .env_remove("LEOPOLD_DECISIONS_PROVIDER")
        .args(["triage", "issues.jsonl", "--no-record", "--output", "out.jsonl", "--json", "report.json"])
        .args(["--report", "report.md"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    let mut peak = 0u64;
    while child.try_wait().expect("waits").is_none() {
        peak = peak.max(peak_kib(child.id()));
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr).expect("read");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("report.json")).expect("report")).expect("json");
    assert_eq!(report["human_review"].as_array().map(Vec::len), Some(ISSUES), "{stderr}");
    assert!(peak > 0 && peak < 64 * 1024, "peak resident {} MiB for {ISSUES} issues", peak / 1024);
}
