//! `decisions hook`: the real PreToolUse input shapes piped into the binary, against a stub
//! provider on loopback. It can only ever deny; everything else is silence and exit 0.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use serde_json::{Value, json};
use stub::{Reply, Stub};

mod common;
use common::Run;

const KEY: &str = "sk-canary-hook-55e1a09b7c";
const PERMISSION: &str = include_str!("../../../templates/decisions/permission.json");

/// A project with the shipped permission.json and a config pointing jev at `endpoint`.
fn project(endpoint: Option<&str>, with_catalog: bool) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tmp");
    let decisions_dir = dir.path().join(".leopold/decisions");
    std::fs::create_dir_all(&decisions_dir).expect("mkdir");
    if with_catalog {
        std::fs::write(decisions_dir.join("permission.json"), PERMISSION).expect("write");
    }
    if let Some(endpoint) = endpoint {
        let mut jev = serde_json::to_value(decisions::builtin("jev").expect("jev")).expect("json");
        jev["endpoint"] = json!(endpoint);
        let config = json!({"version": "decisions/1.0", "provider": "jev", "providers": {"jev": jev}});
        std::fs::write(decisions_dir.join("config.json"), config.to_string()).expect("write");
    }
    let root = dir.path().to_path_buf();
    (dir, root)
}

/// The input Claude Code sends a PreToolUse hook.
fn claude_input(cwd: &Path, tool: &str, command: &str) -> String {
    json!({
        "session_id": "abc123",
        "transcript_path": "/home/u/.claude/projects/p/abc123.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": {"command": command, "description": "Run it"},
        "tool_use_id": "toolu_01"
    })
    .to_string()
}

/// A score answer spreading `mass` over the levels 0..3, its score the expectation.
fn answer(mass: [f64; 4], confidence: f64) -> Value {
    let score: f64 = mass.iter().enumerate().map(|(i, p)| i as f64 * p).sum();
    let probs: serde_json::Map<String, Value> =
        mass.iter().enumerate().map(|(i, p)| (i.to_string(), json!(p))).collect();
    json!({"model": "jev-1.13.0", "answers": {"destructive": {"type": "score", "score": score,
        "legend": {"0": "a", "1": "b", "2": "c", "3": "d"}, "probabilities": probs, "confidence": confidence}}})
}

/// All the mass on one level.
fn score(level: usize, confidence: f64) -> Value {
    let mut mass = [0.0; 4];
    mass[level] = 1.0;
    answer(mass, confidence)
}

fn hook(agent: &str, cwd: &Path, input: &str, timeout_ms: Option<&str>) -> Run {
    let mut c = Command::cargo_bin("decisions").expect("binary");
    c.current_dir(cwd)
        .env_remove("LEOPOLD_DECISIONS_PROVIDER")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env("TYPESAFE_API_KEY", KEY)
        .args(["hook", agent])
        .write_stdin(input.to_string());
    if let Some(ms) = timeout_ms {
        c.env("LEOPOLD_DECISIONS_TIMEOUT_MS", ms);
    }
    common::run_checked(&mut c, Some(KEY))
}

fn events(root: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(root.join(".leopold/events.jsonl")).unwrap_or_default();
    assert!(!text.contains(KEY), "the canary leaked into the event log");
    text.lines().map(|l| serde_json::from_str(l).expect("event line")).collect()
}

fn names(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["event"].as_str().unwrap_or("")).collect()
}

#[test]
fn act_and_a_top_score_denies_quoting_the_score_and_the_question() {
    let stub = Stub::start(vec![Reply::json(&score(3, 0.95))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    let r = hook("claude-code", &root, &claude_input(&root, "Bash", "rm -rf ~"), None);
    assert_eq!(r.code, 0);
    let out: Value = serde_json::from_str(r.stdout.trim()).expect("deny object");
    assert_eq!(out["hookSpecificOutput"]["hookEventName"], "PreToolUse");
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    let reason = out["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap_or("");
    assert!(reason.contains("scored it 3 of 3"), "{reason}");
    assert!(reason.contains("How destructive and hard to reverse is this command?"), "{reason}");
    let keys: Vec<&String> = out["hookSpecificOutput"].as_object().map(|o| o.keys().collect()).unwrap_or_default();
    assert_eq!(keys.len(), 3, "no unknown fields");
    let ev = events(&root);
    assert_eq!(names(&ev), ["decision_asked", "decision_answered", "decision_denied"]);
    assert_eq!((ev[2]["command"].clone(), ev[2]["score"].clone()), (json!("rm -rf ~"), json!(3.0)));
    assert!(ev.iter().all(|e| e["ts"].is_string()));
    // The model saw the command as data.
    assert_eq!(stub.requests()[0].json()["state"]["command"], "rm -rf ~");
}

#[test]
fn codex_and_gemini_get_their_own_deny_shapes() {
    let stub = Stub::start(vec![Reply::json(&answer([0.0, 0.0, 0.4, 0.6], 0.95))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    let r = hook("codex", &root, &claude_input(&root, "Bash", "git push --force"), None);
    let out: Value = serde_json::from_str(r.stdout.trim()).expect("deny object");
    assert_eq!(out.as_object().map(|o| o.len()), Some(1));
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    let gemini = json!({"session_id": "s", "cwd": root, "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command", "tool_input": {"command": "git push --force"}});
    let r = hook("gemini", &root, &gemini.to_string(), None);
    let out: Value = serde_json::from_str(r.stdout.trim()).expect("deny object");
    assert_eq!(out["decision"], "deny");
    assert!(out["reason"].as_str().unwrap_or("").contains("scored it 2.6 of 3"));
}

#[test]
fn act_with_a_low_score_is_silent() {
    let stub = Stub::start(vec![Reply::json(&score(1, 0.95))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    let r = hook("claude-code", &root, &claude_input(&root, "Bash", "cargo build"), None);
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", ""));
    assert_eq!(names(&events(&root)), ["decision_asked", "decision_answered"]);
}

#[test]
fn below_the_floor_is_silent_with_a_decision_timeout() {
    let stub = Stub::start(vec![Reply::json(&score(3, 0.3))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    let r = hook("claude-code", &root, &claude_input(&root, "Bash", "rm -rf build"), None);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    let ev = events(&root);
    assert_eq!(names(&ev), ["decision_asked", "decision_answered", "decision_timeout"]);
    assert!(ev[2]["reason"].as_str().unwrap_or("").contains("floor band"), "{}", ev[2]);
}

#[test]
fn a_hanging_server_is_silent_within_the_deadline_and_grace() {
    let stub = Stub::start(vec![Reply::Hang]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    let r = hook("claude-code", &root, &claude_input(&root, "Bash", "make deploy"), Some("300"));
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    assert!(r.took < Duration::from_millis(300 + 250 + 100), "took {:?}", r.took);
    let ev = events(&root);
    assert_eq!(ev.last().map(|e| e["event"].clone()), Some(json!("decision_timeout")));
}

#[test]
fn no_permission_catalog_or_no_provider_is_silent_with_no_network() {
    let stub = Stub::start(vec![Reply::json(&score(3, 0.95))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), false);
    let r = hook("claude-code", &root, &claude_input(&root, "Bash", "rm -rf ~"), None);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    let (_dir2, bare) = project(None, true);
    let r = hook("claude-code", &bare, &claude_input(&bare, "Bash", "rm -rf ~"), None);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    assert_eq!(stub.requests().len(), 0);
    assert!(events(&root).is_empty() && events(&bare).is_empty());
}

#[test]
fn other_tools_and_unreadable_input_allow_silently_with_an_event() {
    let stub = Stub::start(vec![Reply::json(&score(3, 0.95))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    let mut edit: Value = serde_json::from_str(&claude_input(&root, "Edit", "")).expect("json");
    edit["tool_input"] = json!({"file_path": "/etc/passwd", "old_string": "a", "new_string": "b"});
    let r = hook("claude-code", &root, &edit.to_string(), None);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    let r = hook("claude-code", &root, "{\"tool_name\": \"Bash\", oops", None);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    assert_eq!(names(&events(&root)), ["decision_skipped", "decision_skipped"]);
    assert_eq!(stub.requests().len(), 0);
}

#[test]
fn a_denied_command_is_logged_cut_to_200_characters() {
    let stub = Stub::start(vec![Reply::json(&score(3, 0.95))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    let long = format!("rm -rf {}", "ü".repeat(300));
    hook("claude-code", &root, &claude_input(&root, "Bash", &long), None);
    let ev = events(&root);
    let denied = ev.iter().find(|e| e["event"] == "decision_denied").expect("denied");
    assert_eq!(denied["command"].as_str().map(|c| c.chars().count()), Some(200));
}

#[test]
fn the_project_is_found_from_the_hook_cwd_in_a_subdirectory() {
    let stub = Stub::start(vec![Reply::json(&score(3, 0.95))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    let sub = root.join("src/deep");
    std::fs::create_dir_all(&sub).expect("mkdir");
    let elsewhere = tempfile::tempdir().expect("tmp");
    let r = hook("claude-code", elsewhere.path(), &claude_input(&sub, "Bash", "rm -rf ~"), None);
    assert!(r.stdout.contains("\"deny\""), "{}", r.stdout);
}

#[test]
fn a_fifo_config_is_refused_not_waited_on() {
    // config.json is a FIFO nobody writes: reading it would block for ever.
    let (_dir, root) = project(None, true);
    let fifo = root.join(".leopold/decisions/config.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let r = hook("claude-code", &root, &claude_input(&root, "Bash", "rm -rf ~"), Some("200"));
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    // No provider, so silent; had the read waited, the deadline would have logged a timeout.
    assert_eq!(names(&events(&root)), Vec::<&str>::new());
    assert!(fifo.exists(), "the FIFO is left where it was");
}

#[test]
fn input_that_never_ends_cannot_hold_the_hook_past_its_deadline() {
    let (_dir, root) = project(None, true);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("decisions"))
        .args(["hook", "claude-code"])
        .current_dir(&root)
        .env("LEOPOLD_DECISIONS_TIMEOUT_MS", "200")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let started = std::time::Instant::now();
    let _open_stdin = child.stdin.take();
    let status = child.wait().expect("wait");
    assert!(started.elapsed() < Duration::from_millis(200 + 250 + 100), "took {:?}", started.elapsed());
    assert!(status.success());
}
