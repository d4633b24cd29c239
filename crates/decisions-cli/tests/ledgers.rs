//! The ledgers through the binary: `ledger`, `judgment`, `card`, and `ask --record`, joined so
//! that a card a human answers settles the model's decision for the next threshold proposal.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{Value, json};
use stub::{Reply, Stub};

use crate::common::{card, run};

/// A project with a `.leopold` dir; the judgment ledger lives at `<dir>/judgments.jsonl`.
fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::create_dir_all(dir.path().join(".leopold")).expect("mkdir");
    let judgments = dir.path().join("judgments.jsonl");
    (dir, judgments)
}

fn decisions(cwd: &Path) -> Command {
    let mut c = Command::cargo_bin("decisions").expect("binary");
    c.current_dir(cwd)
        .env_remove("LEOPOLD_DECISIONS_PROVIDER")
        .env_remove("HARNESS_PROJECT_ROOT")
        .env_remove("PROJECT_ROOT")
        .env("HARNESS_JUDGMENT_LEDGER", cwd.join("judgments.jsonl"));
    c
}

fn record(cwd: &Path, certainty: f64, extra: &[&str]) -> String {
    let c = certainty.to_string();
    let mut args = vec!["ledger", "record", "--consumer", "routing", "--question", "effort", "--provider", "jev"];
    args.extend(["--model", "jev-1.13.0", "--certainty", &c, "--band", "escalate", "--acted", "false"]);
    args.extend(extra);
    let r = run(decisions(cwd).args(&args));
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stdout.trim().to_string()
}

fn ledger_lines(cwd: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(cwd.join(".leopold/decisions/ledger.jsonl")).unwrap_or_default();
    text.lines().map(|l| serde_json::from_str(l).expect("row")).collect()
}

#[test]
fn record_prints_the_id_and_outcome_joins_it() {
    let (dir, _) = project();
    let id = record(dir.path(), 0.8, &["--confidence", "0.7"]);
    assert_eq!(id.len(), 36, "a UUID: {id}");
    let given = record(dir.path(), 0.8, &["--id", "my-id"]);
    assert_eq!(given, "my-id");
    let r =
        run(decisions(dir.path()).args(["ledger", "outcome", "--id", &id, "--correct", "false", "--note", "was high"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(decisions(dir.path()).args(["ledger", "outcome", "--id", "my-id", "--correct", "null"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let rows = ledger_lines(dir.path());
    assert_eq!(rows.len(), 4);
    let keys: Vec<&String> = rows[0].as_object().map(|o| o.keys().collect()).unwrap_or_default();
    assert_eq!(
        keys,
        [
            "kind",
            "id",
            "ts",
            "consumer",
            "question",
            "provider",
            "model",
            "confidence",
            "certainty",
            "band",
            "acted",
            "v"
        ]
    );
    assert_eq!((rows[0]["confidence"].clone(), rows[1]["confidence"].clone()), (json!(0.7), Value::Null));
    assert_eq!(
        rows[2],
        json!({"kind": "outcome", "id": id, "ts": rows[2]["ts"], "correct": false, "note": "was high", "v": "1.0"})
    );
    assert_eq!(rows[3]["correct"], Value::Null);
}

#[test]
fn bad_input_is_refused_and_writes_nothing() {
    let (dir, _) = project();
    let base = ["ledger", "record", "--consumer", "c", "--question", "q", "--provider", "p", "--model", "m"];
    let cases: [&[&str]; 5] = [
        &["--certainty", "1.2", "--band", "act", "--acted", "true"],
        &["--certainty", "NaN", "--band", "act", "--acted", "true"],
        &["--certainty", "0.5", "--band", "maybe", "--acted", "true"],
        &["--certainty", "0.5", "--band", "act", "--acted", "yes"],
        &["--certainty", "0.5", "--band", "act"],
    ];
    for extra in cases {
        let r = run(decisions(dir.path()).args(base).args(extra));
        assert_eq!(r.code, 64, "{extra:?}: {}", r.stderr);
    }
    let r = run(decisions(dir.path()).args(["ledger", "outcome", "--id", "ghost", "--correct", "true"]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("no decision with id \"ghost\""), "{}", r.stderr);
    let r = run(decisions(dir.path()).args(["ledger", "outcome", "--id", "ghost", "--correct", "maybe"]));
    assert_eq!(r.code, 64);
    assert!(!dir.path().join(".leopold/decisions/ledger.jsonl").exists(), "nothing recorded, no file");
}

#[test]
fn propose_waits_for_thirty_outcomes_then_proposes_the_weakest_supported_bar() {
    let (dir, _) = project();
    let path = dir.path().join(".leopold/decisions/ledger.jsonl");
    std::fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    let mut text = String::new();
    for i in 0..40 {
        let c = 0.5 + i as f64 / 100.0;
        text.push_str(&format!(
            "{{\"kind\":\"decision\",\"id\":\"d{i}\",\"ts\":\"2026-01-01T00:00:00Z\",\"consumer\":\"routing\",\"question\":\"effort\",\"provider\":\"jev\",\"model\":\"m\",\"confidence\":{c},\"certainty\":{c},\"band\":\"act\",\"acted\":true}}\n"
        ));
        if i < 29 {
            text.push_str(&format!("{{\"kind\":\"outcome\",\"id\":\"d{i}\",\"ts\":\"t\",\"correct\":{}}}\n", i != 10));
        }
    }
    std::fs::write(&path, &text).expect("write");
    let r = run(decisions(dir.path()).args(["ledger", "propose"]));
    let p: Value = serde_json::from_str(r.stdout.trim()).expect("one JSON line");
    assert_eq!((p["status"].clone(), p["samples"].clone()), (json!("too_few_samples"), json!(29)));
    // Settle eleven more, the last of them wrong at 0.8.
    let mut more = String::new();
    for i in 29..40 {
        more.push_str(&format!("{{\"kind\":\"outcome\",\"id\":\"d{i}\",\"ts\":\"t\",\"correct\":{}}}\n", i != 30));
    }
    more.push_str("{\"kind\":\"outcome\",\"id\":\"d30\",\"ts\":\"t\",\"cor"); // a torn last line
    std::fs::write(&path, format!("{text}{more}")).expect("write");
    let r = run(decisions(dir.path()).args(["ledger", "propose"]));
    assert!(r.stderr.contains("skipped 1 unreadable line"), "{}", r.stderr);
    let p: Value = serde_json::from_str(r.stdout.trim()).expect("one JSON line");
    assert_eq!(
        (p["status"].clone(), p["samples"].clone(), p["correct"].clone()),
        (json!("proposed"), json!(40), json!(38))
    );
    assert_eq!(p["act"], json!(0.81));
    assert!(p["reasoning"].as_str().unwrap_or("").contains("0.810"));
    let r = run(decisions(dir.path()).args(["ledger", "propose", "--format", "table"]));
    assert!(r.stdout.lines().nth(1).is_some_and(|l| l.contains("jev") && l.contains("0.810")), "{}", r.stdout);
    let r = run(decisions(dir.path()).args(["ledger", "report", "--svg", "diagram.svg"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let row = r.stdout.lines().nth(1).unwrap_or_default().split_whitespace().collect::<Vec<_>>();
    assert_eq!(row[..4], ["jev", "effort", "40", "0.950"]);
    let svg = std::fs::read_to_string(dir.path().join("diagram.svg")).expect("svg written");
    assert!(svg.contains("jev / effort") && svg.contains("n=40"));
    assert_eq!(std::fs::read_to_string(&path).expect("ledger"), format!("{text}{more}"), "never rewritten");
}

#[test]
fn judgment_append_search_recall_behave_as_the_earlier_script() {
    let (dir, ledger) = project();
    let append = |args: &[&str]| run(decisions(dir.path()).arg("judgment").arg("append").args(args));
    let r = append(&[
        "--project",
        "p",
        "--question",
        "金曜日にリリースしますか？",
        "--answer",
        "いいえ",
        "--card-ref",
        "c1",
        "--tags",
        "release",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let rec: Value = serde_json::from_str(r.stdout.trim()).expect("the record");
    let keys: Vec<&String> = rec.as_object().map(|o| o.keys().collect()).unwrap_or_default();
    assert_eq!(keys, ["id", "project", "decided_at", "question", "answer", "rationale", "card_ref", "tags"]);
    assert_eq!(rec["rationale"], "");
    assert!(rec["decided_at"].as_str().is_some_and(|t| t.len() == 20 && t.ends_with('Z')));
    append(&["--project", "other", "--question", "金曜日にリリースしますか？", "--answer", "はい", "--card-ref", "c2"]);
    // Missing flags: exit 1, naming each, nothing written.
    let before = std::fs::read_to_string(&ledger).expect("ledger");
    let r = append(&["--project", "p", "--question", "q"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("--answer, --card-ref"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&ledger).expect("ledger"), before);
    // Search is project-scoped, one record a line.
    let r = run(decisions(dir.path()).args(["judgment", "search", "--project", "p", "--query", "リリース"]));
    assert_eq!(r.stdout.lines().count(), 1);
    assert!(r.stdout.contains("いいえ"));
    let r = run(decisions(dir.path()).args([
        "judgment",
        "recall",
        "--project",
        "p",
        "--question",
        "金曜日にリリースしますか？",
    ]));
    let recalled: Value = serde_json::from_str(r.stdout.trim()).expect("array");
    assert_eq!(recalled[0]["decision"], "いいえ");
    assert_eq!(recalled[0]["outcome"], "recorded");
    assert_eq!(recalled.as_array().map(Vec::len), Some(1));
    let r = run(decisions(dir.path()).args(["judgment", "search", "--query", "x"]));
    assert_eq!(r.code, 1, "--project is required");
}

#[test]
fn judgment_append_fails_open_on_io() {
    let (dir, _) = project();
    // The ledger's directory is a file: the append cannot happen, and the caller is not blocked.
    std::fs::write(dir.path().join("blocker"), "").expect("write");
    let r = run(decisions(dir.path())
        .env("HARNESS_JUDGMENT_LEDGER", dir.path().join("blocker/judgments.jsonl"))
        .args(["judgment", "append", "--project", "p", "--question", "q", "--answer", "a", "--card-ref", "c"]));
    assert_eq!(r.code, 0);
    assert_eq!(r.stderr.lines().count(), 1);
    assert!(r.stderr.contains("append skipped"), "{}", r.stderr);
}

#[test]
fn cards_validate_recall_and_record_answers() {
    let (dir, ledger) = project();
    std::fs::write(dir.path().join("card.json"), card().to_string()).expect("write");
    let r = run(decisions(dir.path()).args(["card", "validate", "card.json"]));
    assert_eq!((r.code, r.stdout.trim()), (0, "ok: card.json"), "{}", r.stdout);
    let mut bad = card();
    bad["confidence"] = json!("sure");
    bad["options"] = json!([{"id": "only", "label": "x", "consequence": "y"}]);
    bad["extra"] = json!(1);
    std::fs::write(dir.path().join("bad.json"), bad.to_string()).expect("write");
    let r = run(decisions(dir.path()).args(["card", "validate", "bad.json"]));
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout.lines().count(), 4, "{}", r.stdout);
    assert!(r.stdout.contains("/confidence") && r.stdout.contains("/options"), "{}", r.stdout);
    assert!(r.stdout.contains("/recommendation: \"wait\" is no option's id (options: only)"), "{}", r.stdout);
    assert_eq!(r.stderr.trim(), "error: 4 problems in bad.json");

    // A decision the model escalated; the human answers the card and the outcome is settled.
    let id = record(dir.path(), 0.7, &[]);
    for (answer, expected) in [("wait", true), ("Merge now", false)] {
        let r = run(decisions(dir.path()).args(["card", "record-answer", "card.json", "--answer", answer]).args([
            "--why",
            "the release is frozen",
            "--project",
            "p",
            "--decision-id",
            &id,
        ]));
        assert_eq!(r.code, 0, "{}", r.stderr);
        let rows = ledger_lines(dir.path());
        let last = rows.last().cloned().unwrap_or_default();
        assert_eq!(
            (last["kind"].clone(), last["id"].clone(), last["correct"].clone()),
            (json!("outcome"), json!(id), json!(expected))
        );
    }
    let text = std::fs::read_to_string(&ledger).expect("judgments");
    let first: Value = serde_json::from_str(text.lines().next().unwrap_or_default()).expect("record");
    assert_eq!(first["question"], card()["question"]);
    assert_eq!(
        (first["rationale"].clone(), first["card_ref"].clone(), first["tags"].clone()),
        (json!("the release is frozen"), json!("card.json"), json!(["judgment-card"]))
    );

    // An unknown decision id is refused as `ledger outcome` refuses it, and nothing is written.
    let (judgments_before, ledger_before) = (std::fs::read(&ledger).unwrap_or_default(), ledger_lines(dir.path()));
    let r = run(decisions(dir.path()).args([
        "card",
        "record-answer",
        "card.json",
        "--answer",
        "wait",
        "--why",
        "w",
        "--project",
        "p",
        "--decision-id",
        "ghost",
    ]));
    assert_eq!((r.code, r.stdout.as_str()), (1, ""));
    assert!(r.stderr.contains("no decision with id \"ghost\""), "{}", r.stderr);
    assert_eq!(std::fs::read(&ledger).unwrap_or_default(), judgments_before);
    assert_eq!(ledger_lines(dir.path()), ledger_before);

    // Recall fills at most three similar past decisions, and the card stays valid.
    for i in 0..4 {
        let q = format!("Merge the storage rewrite before the release? ({i})");
        run(decisions(dir.path()).args([
            "judgment",
            "append",
            "--project",
            "p",
            "--question",
            &q,
            "--answer",
            "wait",
            "--card-ref",
            "c",
        ]));
    }
    let r = run(decisions(dir.path()).args(["card", "recall", "card.json", "--project", "p"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let filled: Value = serde_json::from_str(&r.stdout).expect("card");
    assert_eq!(filled["similar_past_decisions"].as_array().map(Vec::len), Some(3));
    assert!(filled["similar_past_decisions"][0]["mem_id"].as_str().is_some_and(|m| m.starts_with("judgment-ledger:")));
    std::fs::write(dir.path().join("filled.json"), filled.to_string()).expect("write");
    assert_eq!(run(decisions(dir.path()).args(["card", "validate", "filled.json"])).code, 0);
    let r = run(decisions(dir.path()).args(["card", "recall", "card.json", "--project", "nobody"]));
    let empty: Value = serde_json::from_str(&r.stdout).expect("card");
    assert_eq!(empty["similar_past_decisions"], json!([]));
}

#[test]
fn ask_record_appends_a_row_per_answer_and_prints_the_ids() {
    let stub = Stub::start(vec![Reply::json(&json!({"model": "jev-1.13.0-x", "answers": {
        "risky": {"type": "noul", "noul": 0.97}}}))]);
    let (dir, _) = project();
    let leo = dir.path().join(".leopold");
    let catalog = json!({"version": "decisions/1.0",
        "questions": {"risky": {"type": "noul", "instructions": "risky?"}, "other": {"type": "noul", "instructions": "?"}},
        "thresholds": {"risky": {"floor": 0.5, "escalate": 0.65, "act": 0.85}, "other": {"floor": 0.5, "escalate": 0.65, "act": 0.85}}});
    std::fs::create_dir_all(leo.join("decisions")).expect("mkdir");
    std::fs::write(leo.join("decisions/test.json"), catalog.to_string()).expect("write");
    let mut jev = serde_json::to_value(decisions::builtin("jev").expect("jev")).expect("json");
    jev["endpoint"] = json!(stub.url("/v1/systemone"));
    let config = json!({"version": "decisions/1.0", "provider": "jev", "providers": {"jev": jev}});
    std::fs::write(leo.join("decisions/config.json"), config.to_string()).expect("write");
    let r = run(decisions(dir.path()).env("TYPESAFE_API_KEY", "k").args([
        "ask",
        "--catalog",
        "test",
        "--questions",
        "risky,other",
        "--state",
        "{}",
        "--record",
        "routing",
    ]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out: Value = serde_json::from_str(&r.stdout).expect("json");
    let recorded = out["recorded"].as_array().cloned().unwrap_or_default();
    assert_eq!(recorded.len(), 1, "only answered questions are recorded: {recorded:?}");
    assert_eq!(recorded[0]["question"], "risky");
    let rows = ledger_lines(dir.path());
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["id"], recorded[0]["id"]);
    assert_eq!(
        (rows[0]["consumer"].clone(), rows[0]["model"].clone(), rows[0]["band"].clone()),
        (json!("routing"), json!("jev-1.13.0-x"), json!("act"))
    );
    assert!((rows[0]["certainty"].as_f64().unwrap_or(0.0) - 0.94).abs() < 1e-9);
    assert_eq!(rows[0]["acted"], json!(false), "acted follows usable, false since `other` failed");
}

#[test]
fn the_one_line_wrappers_stand_where_the_earlier_scripts_stood() {
    let (dir, ledger) = project();
    let bin = assert_cmd::cargo::cargo_bin("decisions");
    let path = format!("{}:{}", bin.parent().expect("bin dir").display(), std::env::var("PATH").unwrap_or_default());
    let scripts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/compat");
    let wrapper = |script: &str, args: &[&str]| {
        let out = std::process::Command::new("bash")
            .arg(scripts.join(script))
            .args(args)
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("HARNESS_JUDGMENT_LEDGER", &ledger)
            .output()
            .expect("runs");
        (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (code, _) = wrapper(
        "judgment-ledger.sh",
        &["append", "--project", "p", "--question", "Ship?", "--answer", "no", "--card-ref", "c"],
    );
    assert_eq!(code, 0);
    assert_eq!(wrapper("judgment-ledger.sh", &["append", "--project", "p"]).0, 1);
    let (code, out) = wrapper("judgment-ledger.sh", &["search", "--project", "p", "--query", "ship"]);
    assert_eq!((code, out.lines().count()), (0, 1));
    std::fs::write(dir.path().join("card.json"), card().to_string()).expect("write");
    let (code, out) = wrapper("judgment-card.sh", &["validate", "card.json"]);
    assert_eq!((code, out.trim()), (0, "ok: card.json"));
}

/// Check a record as a draft-07 validator with the shipped `judgment-ledger.v1.json` would:
/// closed (`additionalProperties: false`), every required key present, each property's type,
/// `minLength` and `\S` pattern; then the keys in the schema's order. Every problem, named.
fn harness_problems(row: &Value) -> Vec<String> {
    let schema: Value = serde_json::from_str(decisions::install::JUDGMENT_SCHEMA).expect("schema");
    assert_eq!(schema["additionalProperties"], json!(false), "the schema is closed");
    let props = schema["properties"].as_object().expect("properties");
    let obj = row.as_object().expect("an object");
    let mut problems: Vec<String> =
        obj.keys().filter(|k| !props.contains_key(*k)).map(|k| format!("additional property {k:?}")).collect();
    for k in schema["required"].as_array().expect("required").iter().filter_map(Value::as_str) {
        if !obj.contains_key(k) {
            problems.push(format!("missing {k:?}"));
        }
    }
    for (k, rule) in props {
        let Some(v) = obj.get(k) else { continue };
        match rule["type"].as_str() {
            Some("string") => match v.as_str() {
                None => problems.push(format!("{k} is not a string")),
                Some(s) if rule["minLength"].as_u64().is_some_and(|n| (s.chars().count() as u64) < n) => {
                    problems.push(format!("{k} is too short"))
                }
                Some(s) if rule["pattern"] == json!("\\S") && s.trim().is_empty() => {
                    problems.push(format!("{k} has no non-space character"))
                }
                Some(_) => {}
            },
            Some("array") if !v.as_array().is_some_and(|a| a.iter().all(Value::is_string)) => {
                problems.push(format!("{k} is not an array of strings"))
            }
            _ => {}
        }
    }
    let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    let order: Vec<&str> = schema["required"].as_array().expect("required").iter().filter_map(Value::as_str).collect();
    if problems.is_empty() && keys != order {
        problems.push(format!("keys {keys:?} are not in the schema's order {order:?}"));
    }
    problems
}

#[test]
fn every_judgment_row_the_binary_writes_keeps_the_harness_schema() {
    // Since rows became versioned each ended with "v":"1.0", and the Harness's own validator
    // (additionalProperties: false) refused every one.
    let (dir, ledger) = project();
    std::fs::write(dir.path().join("card.json"), card().to_string()).expect("write");
    let append = ["judgment", "append", "--project", "p", "--question", "Ship?", "--answer", "no", "--card-ref", "c"];
    assert_eq!(run(decisions(dir.path()).args(append)).code, 0);
    assert_eq!(run(decisions(dir.path()).args(append).args(["--rationale", "frozen", "--tags", "a,b"])).code, 0);
    let id = record(dir.path(), 0.7, &[]);
    let answer = ["card", "record-answer", "card.json", "--answer", "wait", "--why", "w", "--project", "p"];
    assert_eq!(run(decisions(dir.path()).args(answer)).code, 0);
    assert_eq!(run(decisions(dir.path()).args(answer).args(["--decision-id", &id])).code, 0);
    let text = std::fs::read_to_string(&ledger).expect("judgments");
    assert_eq!(text.lines().count(), 4);
    for line in text.lines() {
        let row: Value = serde_json::from_str(line).expect("a record");
        assert_eq!(harness_problems(&row), Vec::<String>::new(), "{line}");
    }
    // The calibration ledger is our own format, and keeps its "v".
    assert!(ledger_lines(dir.path()).iter().all(|r| r["v"] == "1.0"));
}

#[test]
fn card_new_prints_a_valid_card_to_fill_in() {
    // Writing a first card took three `card validate` rounds.
    let (dir, _) = project();
    let r = run(decisions(dir.path()).args([
        "card",
        "new",
        "--question",
        "Merge the storage rewrite before the release?",
        "--option",
        "Merge now",
        "--option",
        "Wait for 1.5",
        "--recommendation",
        "Wait for 1.5",
    ]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("fill in") && r.stderr.contains("consequence"), "{}", r.stderr);
    let card: Value = serde_json::from_str(&r.stdout).expect("a card");
    assert_eq!(card["recommendation"], "wait-for-1-5");
    assert_eq!(card["options"][0], json!({"id": "merge-now", "label": "Merge now", "consequence": ""}));
    std::fs::write(dir.path().join("new.json"), &r.stdout).expect("write");
    let v = run(decisions(dir.path()).args(["card", "validate", "new.json"]));
    assert_eq!((v.code, v.stdout.trim()), (0, "ok: new.json"), "{}", v.stdout);
    // What cannot make a card is a usage error naming why.
    let r = run(decisions(dir.path()).args(["card", "new", "--question", "q", "--option", "a"]));
    assert_eq!(r.code, 64);
    assert!(r.stderr.contains("a card has 2 or 3 options, found 1"), "{}", r.stderr);
    let r = run(decisions(dir.path()).args([
        "card",
        "new",
        "--question",
        "q",
        "--option",
        "a",
        "--option",
        "b",
        "--recommendation",
        "c",
    ]));
    assert!(
        r.code == 64 && r.stderr.contains("the recommendation \"c\" is none of the options (a, b)"),
        "{}",
        r.stderr
    );
}

#[test]
fn record_answer_says_which_decision_it_settled_in_text_and_json() {
    // It wrote an outcome onto whatever decision row had the id (a routing `effort` row in the
    // walk) and its output mentioned only the judgment record.
    let (dir, _) = project();
    std::fs::write(dir.path().join("card.json"), card().to_string()).expect("write");
    let id = record(dir.path(), 0.7, &[]);
    let r = run(decisions(dir.path()).args(["card", "record-answer", "card.json", "--answer", "Merge now"]).args([
        "--why",
        "the release slipped",
        "--project",
        "p",
        "--decision-id",
        &id,
    ]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out: Value = serde_json::from_str(&r.stdout).expect("json");
    assert_eq!(out["settled"]["id"], json!(id));
    assert_eq!(
        (out["settled"]["consumer"].clone(), out["settled"]["question"].clone(), out["settled"]["correct"].clone()),
        (json!("routing"), json!("effort"), json!(false))
    );
    assert_eq!(out["judgment"]["answer"], "Merge now");
    assert!(
        r.stderr.contains(&format!("settled: decision {id} (consumer routing, question effort) is correct: false")),
        "{}",
        r.stderr
    );
}
