//! Text from outside cannot be injected: a model name a server sends, an issue title, an id
//! and a server's error text reach the triage Markdown, the eval report, the terminal and the
//! JSON output inert. Found by a hostile campaign: raw ESC and BEL bytes, a newline that
//! injected a `# Injected heading` line, an `<img onerror>` tag, ANSI and OSC sequences
//! printed straight to the terminal.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use stub::{Reply, Stub};

use crate::common;
use crate::common::Run;

const KEY: &str = "sk-canary-injection-4c01e2";

/// Every family the campaign found, in one string.
const HOSTILE: &str = "jev-1.13.0\u{1b}]0;owned\u{7}\u{1b}[2J\r\n# Injected heading\n<img src=x onerror=alert(1)>\u{9b}31m\u{202e}gnp.exe\u{200b}|x|";

/// What no output a person reads may hold: a control character other than the newlines and
/// tabs of the output's own layout, a bidi control, a zero-width character.
fn hostile_chars(text: &str) -> Vec<char> {
    text.chars().filter(|c| *c != '\n' && decisions::escape::is_hostile(*c)).collect()
}

/// A System One server that answers every question it is asked, as `model`.
fn answering_everything(model: &'static str) -> Stub {
    Stub::keep_alive(vec![Reply::computed(move |req| {
        let mut answers = serde_json::Map::new();
        for (id, q) in req.json()["questions"].as_object().cloned().unwrap_or_default() {
            let a = match q["type"].as_str() {
                Some("choice") => {
                    let options: Vec<String> =
                        q["criteria"].as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
                    let rest = 0.04 / (options.len().max(2) - 1) as f64;
                    let probs: serde_json::Map<String, Value> = options
                        .iter()
                        .enumerate()
                        .map(|(i, o)| (o.clone(), json!(if i == 0 { 0.96 } else { rest })))
                        .collect();
                    json!({"type": "choice", "choice": options[0], "probabilities": probs, "confidence": 0.95})
                }
                Some("score") => {
                    let n = q["criteria"].as_array().map_or(2, Vec::len);
                    let probs: serde_json::Map<String, Value> =
                        (0..n).map(|i| (i.to_string(), json!(if i == 0 { 1.0 } else { 0.0 }))).collect();
                    json!({"type": "score", "score": 0.0, "probabilities": probs, "confidence": 0.95})
                }
                _ => json!({"type": "noul", "noul": 0.02}),
            };
            answers.insert(id, a);
        }
        Reply::json(&json!({"model": model, "answers": answers}))
    })])
}

fn project(endpoint: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tmp");
    let root = dir.path().to_path_buf();
    std::fs::create_dir_all(root.join(".git")).expect("git");
    common::jev_at(&root, endpoint);
    (dir, root)
}

fn run(cwd: &Path, args: &[&str]) -> Run {
    common::run_checked(common::keyed(cwd, KEY).args(args), Some(KEY))
}

#[test]
fn a_hostile_model_name_and_title_are_inert_in_the_triage_markdown() {
    let stub = answering_everything(HOSTILE);
    let (_dir, root) = project(&stub.url("/v1/systemone"));
    let issues = [
        json!({"id": 1, "title": format!("Crash on save {HOSTILE}"), "body": "it crashes"}),
        json!({"id": format!("GH-2 {HOSTILE}"), "title": "Another", "body": "x"}),
    ];
    let text: String = issues.iter().map(|i| format!("{i}\n")).collect();
    std::fs::write(root.join("issues.jsonl"), text).expect("write");
    let r = run(&root, &["triage", "issues.jsonl", "--no-record"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let md = &r.stdout;
    assert_eq!(hostile_chars(md), Vec::<char>::new(), "{md}");
    assert!(!md.lines().any(|l| l.starts_with("# Injected")), "a heading was injected: {md}");
    assert!(!md.contains("<img"), "HTML would render: {md}");
    assert!(md.contains("&lt;img src=x onerror=alert(1)&gt;"), "shown, not rendered: {md}");
    // Each table row stays one row of its table: its cells are not split by a sent `|`.
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| #1 ") || l.starts_with("| GH-2 ")).collect();
    assert_eq!(rows.len(), 2, "{md}");
    for row in rows {
        let unescaped = row.char_indices().filter(|(i, c)| *c == '|' && !row[..*i].ends_with('\\')).count();
        assert_eq!(unescaped, 5, "four cells: {row}");
    }
    let json_out = run(&root, &["triage", "issues.jsonl", "--no-record", "--json", "-"]);
    assert_eq!(hostile_chars(&json_out.stdout), Vec::<char>::new(), "{}", json_out.stdout);
    let v: Value = serde_json::from_str(&json_out.stdout).expect("the JSON report");
    assert_eq!(v["model"], HOSTILE, "the JSON carries the same value, escaped");
}

#[test]
fn a_hostile_model_name_is_inert_in_the_eval_report_and_on_the_terminal() {
    let stub = answering_everything(HOSTILE);
    let (_dir, root) = project(&stub.url("/v1/systemone"));
    common::write(
        &root.join(".leopold/decisions/ok.json"),
        &json!({"version": "decisions/1.0", "questions": {"ok": {"type": "noul", "instructions": "Fine?"}},
            "thresholds": {"ok": {"floor": 0.5, "escalate": 0.65, "act": 0.85}}}),
    );
    let lines: String = (0..5).map(|i| format!("{}\n", json!({"state": {"n": i}, "label": i % 2 == 0}))).collect();
    std::fs::write(root.join("labelled.jsonl"), format!("{lines}{{\"state\": 1, \"label\": \"{}\"}}\n", "\\u001b[2J"))
        .expect("write");
    let r = run(&root, &["eval", "--catalog", "ok", "--question", "ok", "--input", "labelled.jsonl"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(hostile_chars(&r.stdout), Vec::<char>::new(), "{}", r.stdout);
    assert_eq!(hostile_chars(&r.stderr), Vec::<char>::new(), "{}", r.stderr);
    assert!(r.stdout.contains("\\x1b]0;owned\\x07"), "shown escaped: {}", r.stdout);
    // The batch summary and the JSON lines a person reads on the terminal.
    std::fs::write(root.join("items.jsonl"), "{\"id\": 1}\n").expect("write");
    let r = run(&root, &["batch", "--catalog", "ok", "--questions", "ok", "--input", "items.jsonl"]);
    assert_eq!(hostile_chars(&r.stdout), Vec::<char>::new(), "{}", r.stdout);
    assert_eq!(hostile_chars(&r.stderr), Vec::<char>::new(), "{}", r.stderr);
    let line: Value = serde_json::from_str(r.stdout.trim()).expect("a line");
    assert_eq!(line["answers"]["ok"]["model"], HOSTILE);
    let r = run(&root, &["ask", "--catalog", "ok", "--questions", "ok", "--state", "{}"]);
    assert_eq!(hostile_chars(&r.stdout), Vec::<char>::new(), "{}", r.stdout);
}

#[test]
fn a_servers_hostile_error_text_is_inert_wherever_it_is_shown() {
    let body = json!({"detail": {"error_type": "invalid_request", "message": HOSTILE}}).to_string();
    let stub = Stub::keep_alive(vec![Reply::status(422, &body)]);
    let (_dir, root) = project(&stub.url("/v1/systemone"));
    std::fs::write(root.join("issues.jsonl"), "{\"id\": 1, \"title\": \"t\", \"body\": \"b\"}\n").expect("write");
    let r = run(&root, &["triage", "issues.jsonl", "--no-record"]);
    assert_eq!(hostile_chars(&r.stdout), Vec::<char>::new(), "{}", r.stdout);
    assert_eq!(hostile_chars(&r.stderr), Vec::<char>::new(), "{}", r.stderr);
    assert!(!r.stdout.lines().any(|l| l.starts_with("# Injected")), "{}", r.stdout);
    // A config whose model a person copied with a control sequence in it: doctor shows it inert.
    let mut config: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join(".leopold/decisions/config.json")).expect("config"))
            .expect("json");
    config["providers"]["jev"]["model"] = json!(HOSTILE);
    common::write(&root.join(".leopold/decisions/config.json"), &config);
    let r = run(&root, &["doctor"]);
    assert_eq!(hostile_chars(&r.stdout), Vec::<char>::new(), "{}", r.stdout);
    let r = run(&root, &["status"]);
    assert_eq!(hostile_chars(&r.stdout), Vec::<char>::new(), "{}", r.stdout);
}
