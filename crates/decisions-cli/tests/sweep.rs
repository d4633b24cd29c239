//! The sweep of issue 27, each item as a user met it: output lines that are JSON whatever an
//! id's whitespace, a resume that refuses an output it cannot read to the end, documents with
//! a bound, a walk that says what it skipped, stop lines that say what happened, one exit code
//! for an output that cannot be written, and eval's memory under invalid lines.

use std::path::Path;

use serde_json::{Value, json};

use crate::batch::{decisions, lines, project, provider, run};

const BATCH: [&str; 9] =
    ["batch", "--catalog", "ok", "--questions", "ok", "--input", "items.jsonl", "--output", "out.jsonl"];

fn write(root: &Path, name: &str, text: &str) {
    std::fs::write(root.join(name), text).expect("write");
}

#[test]
fn an_array_or_object_id_writes_one_line_of_json_and_resume_knows_it() {
    let stub = provider(|_| std::time::Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    // A tab and a carriage return between tokens, and an array id pretty-printed over lines.
    let text = "{\"id\": [1,\t2], \"t\":\"a\"}\n{\"id\": {\"k\":\r1}, \"t\":\"b\"}\n";
    write(&root, "items.jsonl", text);
    let r = run(decisions(&root).args(BATCH));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = lines(&root.join("out.jsonl"));
    let ids: Vec<Value> = out.iter().map(|l| l["id"].clone()).collect();
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&json!([1, 2])) && ids.contains(&json!({"k": 1})), "{ids:?}");
    // Resumed, neither is asked again, and nothing is written twice.
    let asked = stub.requests().len();
    let r = run(decisions(&root).args(BATCH).arg("--resume"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(stub.requests().len(), asked, "resume asked again");
    assert_eq!(lines(&root.join("out.jsonl")).len(), 2);
    // A pretty-printed array input: each element one record, each output line one line.
    write(&root, "items.jsonl", "[\n  {\n    \"id\": [\n      3,\n      4\n    ],\n    \"t\": \"c\"\n  }\n]\n");
    std::fs::remove_file(root.join("out.jsonl")).expect("rm");
    let r = run(decisions(&root).args(BATCH));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(root.join("out.jsonl")).expect("out");
    assert_eq!(text.lines().count(), 1, "{text}");
    assert_eq!(lines(&root.join("out.jsonl"))[0]["id"], json!([3, 4]));
}

#[test]
fn resume_onto_a_fifo_or_a_device_is_refused_before_anything_is_read_or_asked() {
    let stub = provider(|_| std::time::Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    write(&root, "items.jsonl", "{\"id\": 1, \"t\": \"a\"}\n");
    let fifo = root.join("f");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    for output in [fifo.display().to_string(), "/dev/full".to_string(), "/dev/null".to_string()] {
        let mut args: Vec<String> = BATCH.iter().map(ToString::to_string).collect();
        *args.last_mut().expect("output") = output.clone();
        let started = std::time::Instant::now();
        let r = run(decisions(&root).args(&args).arg("--resume"));
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "{output}: it returned");
        assert_eq!(r.code, 64, "{output}: {}", r.stderr);
        assert!(r.stderr.contains(&output) && r.stderr.contains("not a regular file"), "{}", r.stderr);
    }
    assert!(stub.requests().is_empty(), "nothing was asked");
}

#[test]
fn a_huge_card_is_refused_at_its_bound_and_errors_quote_clipped_values() {
    let dir = tempfile::tempdir().expect("tmp");
    let root = dir.path();
    // A card over the bound: refused by size, naming the flag, before it is parsed.
    let big = format!("{{\"question\": \"{}\"}}", "q".repeat(2 << 20));
    write(root, "big.json", &big);
    for verb in [&["card", "validate", "big.json"][..], &["card", "recall", "big.json", "--project", "p"]] {
        let r = run(decisions(root).args(verb).args(["--document-max", "1048576"]));
        assert_eq!(r.code, 64, "{verb:?}: {}", r.stderr);
        assert!(r.stderr.contains("larger than 1048576 bytes") && r.stderr.contains("--document-max"), "{}", r.stderr);
        assert!(r.stderr.len() < 2_000, "{} bytes of stderr", r.stderr.len());
    }
    // Under the bound, a card whose bad values are megabytes long: every problem quotes a clip.
    let huge = "x".repeat(1 << 20);
    let card = json!({"question": "q", "options": [{"id": huge, "label": "a", "consequence": "c"},
        {"id": huge, "label": "b", "consequence": "c"}], "recommendation": huge, "confidence": huge,
        "impact": "i", "impact_score": 5, "diff_summary": "d", huge.clone(): 1});
    write(root, "card.json", &card.to_string());
    let r = run(decisions(root).args(["card", "validate", "card.json"]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.contains("/confidence") && r.stdout.contains("unknown field"),
        "{}",
        &r.stdout[..r.stdout.len().min(2000)]
    );
    assert!(r.stdout.len() + r.stderr.len() < 8_000, "{} bytes out", r.stdout.len() + r.stderr.len());
    let r = run(decisions(root).args([
        "card",
        "record-answer",
        "card.json",
        "--answer",
        "a",
        "--why",
        "w",
        "--project",
        "p",
    ]));
    assert_eq!(r.code, 1, "{}", &r.stderr[..r.stderr.len().min(2000)]);
    assert!(r.stderr.len() < 8_000, "{} bytes of stderr", r.stderr.len());
}

#[test]
fn route_says_its_counts_are_incomplete_when_the_walk_could_not_read_a_file() {
    let stub = crate::consumers::provider();
    let (_dir, root) = crate::consumers::project("routing", Some(&stub.url("/v1/systemone")));
    // A tree deeper than a path can name: the walk cannot open what is at its bottom. Long
    // names (200 bytes, 25 levels: 5,025 bytes of path) rather than thousands of one-letter
    // levels, so the walk meets the unreadable entry in a few directories, well inside its
    // budget however slow the machine.
    let deep = "import os\nfor _ in range(25):\n    os.mkdir('x' * 200); os.chdir('x' * 200)\nopen('f.md', 'w').write('src/loop.rs\\n')\n";
    let made = std::process::Command::new("python3").args(["-c", deep]).current_dir(&root).status().expect("python3");
    assert!(made.success());
    let route = |root: &Path| {
        let r = run(crate::consumers::decisions(root).args(["route", "--item", "Fix `src/loop.rs`", "--no-record"]));
        assert_eq!(r.code, 0, "{}", r.stderr);
    };
    route(&root);
    let state = stub.requests().last().expect("asked").json()["state"].clone();
    let why = state["references_incomplete"].as_str().unwrap_or_default();
    assert!(why.contains("could not read 1 entry") && why.contains("counts are lower bounds"), "{state}");
    assert_eq!(state["references"]["src/loop.rs"], 1, "what it could read is counted: {state}");
    // A tree it can read whole is complete.
    let _ = std::process::Command::new("rm").args(["-rf", &"x".repeat(200)]).current_dir(&root).status();
    route(&root);
    let state = stub.requests().last().expect("asked").json()["state"].clone();
    assert!(state["references_incomplete"].is_null(), "{state}");
}

#[test]
fn an_output_that_cannot_be_written_exits_64_for_every_command_and_the_input_is_not_the_output() {
    let stub = provider(|_| std::time::Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    write(&root, "items.jsonl", "{\"id\": 1, \"state\": {\"t\": \"a\"}, \"label\": true}\n");
    let missing = root.join("no/such/dir/out.jsonl").display().to_string();
    let cases: Vec<Vec<String>> = vec![
        BATCH[..8].iter().map(ToString::to_string).chain([missing.clone()]).collect(),
        ["triage", "items.jsonl", "--output", &missing].iter().map(ToString::to_string).collect(),
        ["triage", "items.jsonl", "--report", &missing].iter().map(ToString::to_string).collect(),
        ["eval", "--catalog", "ok", "--question", "ok", "--input", "items.jsonl", "--svg", &missing]
            .iter()
            .map(ToString::to_string)
            .collect(),
    ];
    for args in cases {
        let r = run(decisions(&root).args(&args));
        assert_eq!(r.code, 64, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("no/such/dir"), "{args:?}: {}", r.stderr);
    }
    // The output named as the input: refused, the input untouched.
    let before = std::fs::read(root.join("items.jsonl")).expect("read");
    for resume in [false, true] {
        let mut args: Vec<&str> = BATCH[..8].to_vec();
        args.push("items.jsonl");
        if resume {
            args.push("--resume");
        }
        let r = run(decisions(&root).args(&args));
        assert_eq!(r.code, 64, "{}", r.stderr);
        assert!(r.stderr.contains("is the --input file"), "{}", r.stderr);
    }
    assert_eq!(std::fs::read(root.join("items.jsonl")).expect("read"), before);
    assert!(stub.requests().is_empty());
}

#[test]
fn watch_since_counts_the_lines_of_its_window() {
    let dir = tempfile::tempdir().expect("tmp");
    let leo = dir.path().join(".leopold");
    std::fs::create_dir_all(&leo).expect("mkdir");
    let line = |ts: &str| {
        format!("{}\n", json!({"ts": ts, "consumer": "permission", "event": "decision_skipped", "reason": "r"}))
    };
    let text = [
        line("2026-11-29T01:00:00Z"),
        line("2026-11-29T02:00:00Z"),
        line("2026-11-29T03:00:00Z"),
        line("2026-11-30T01:00:00Z"),
        line("2026-11-30T02:00:00Z"),
        "{\"torn\n".to_string(),
    ]
    .concat();
    std::fs::write(leo.join("events.jsonl"), text).expect("write");
    let all = run(decisions(dir.path()).args(["watch", "--once"]));
    assert!(all.stdout.contains("6 log lines read, 1 skipped"), "{}", all.stdout);
    let window = run(decisions(dir.path()).args(["watch", "--once", "--since", "2026-11-30"]));
    assert!(window.stdout.contains("3 log lines read, 1 skipped"), "{}", window.stdout);
}

#[test]
fn eval_names_the_first_invalid_lines_and_counts_the_rest() {
    let stub = provider(|_| std::time::Duration::ZERO);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
    let mut text = String::from("{\"state\": {\"n\": 1}, \"label\": true}\n");
    for i in 0..500 {
        text.push_str(&format!("{{\"nostate\": {i}}}\n"));
    }
    write(&root, "labelled.jsonl", &text);
    let r = run(decisions(&root).args([
        "eval",
        "--catalog",
        "ok",
        "--question",
        "ok",
        "--input",
        "labelled.jsonl",
        "--json",
    ]));
    let out: Value = serde_json::from_str(r.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", r.stdout));
    let e = if out["evaluation"].is_object() { &out["evaluation"] } else { &out };
    assert_eq!(e["invalid_count"], json!(500), "{e}");
    assert_eq!(e["invalid"].as_array().map(Vec::len), Some(decisions::eval::INVALID_KEPT));
    assert_eq!(e["items"], json!(501));
}

#[test]
fn a_stop_line_says_what_the_provider_asked_and_what_the_run_did_and_no_unmeasured_pace() {
    use stub::{Reply, Stub};
    for (header, value, said) in [("Retry-After", "172800", "2.0 days"), ("retry-after-ms", "100080000", "1.2 days")] {
        let stub = Stub::keep_alive(vec![Reply::computed(move |_| {
            Reply::status(429, r#"{"error":{"message":"slow down"}}"#).header(header, value)
        })]);
        let (_dir, root) = project(Some(&stub.url("/v1/systemone")));
        let text: String = (1..=5).map(|i| format!("{}\n", json!({"id": i, "n": i}))).collect();
        write(&root, "items.jsonl", &text);
        let r = run(decisions(&root).args(BATCH));
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert!(r.stderr.contains(&format!("asked to be called again in {said}, at ")), "{}", r.stderr);
        assert!(r.stderr.contains("past the 1.0 min the run waits at most (--max-pause)"), "{}", r.stderr);
        assert!(!r.stderr.contains("paced at"), "a pace nobody measured: {}", r.stderr);
    }
}
