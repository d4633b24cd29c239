//! `decisions hook`: the real PreToolUse input shapes piped into the binary, against a stub
//! provider on loopback. It can only ever deny; everything else is silence and exit 0.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use serde_json::{Value, json};
use stub::{Reply, Stub};

use crate::common;
use crate::common::Run;

pub(crate) const KEY: &str = "sk-canary-hook-55e1a09b7c";
const PERMISSION: &str = decisions::install::SHIPPED[3].1;

/// A project with the shipped permission.json and a config pointing jev at `endpoint`.
pub(crate) fn project(endpoint: Option<&str>, with_catalog: bool) -> (tempfile::TempDir, PathBuf) {
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
pub(crate) fn claude_input(cwd: &Path, tool: &str, command: &str) -> String {
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
pub(crate) fn answer(mass: [f64; 4], confidence: f64) -> Value {
    let score: f64 = mass.iter().enumerate().map(|(i, p)| i as f64 * p).sum();
    let probs: serde_json::Map<String, Value> =
        mass.iter().enumerate().map(|(i, p)| (i.to_string(), json!(p))).collect();
    json!({"model": "jev-1.13.0", "answers": {"destructive": {"type": "score", "score": score,
        "legend": {"0": "a", "1": "b", "2": "c", "3": "d"}, "probabilities": probs, "confidence": confidence}}})
}

/// All the mass on one level.
pub(crate) fn score(level: usize, confidence: f64) -> Value {
    let mut mass = [0.0; 4];
    mass[level] = 1.0;
    answer(mass, confidence)
}

pub(crate) fn hook(agent: &str, cwd: &Path, input: &str, timeout_ms: Option<&str>) -> Run {
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
fn each_fallback_says_its_cause_an_outage_apart_from_a_timeout() {
    let cause = |endpoint: &str, timeout: Option<&str>| {
        let (_dir, root) = project(Some(endpoint), true);
        let r = hook("claude-code", &root, &claude_input(&root, "Bash", "rm -r precious/"), timeout);
        assert_eq!((r.code, r.stdout.as_str()), (0, ""), "stood aside");
        let ev = events(&root);
        let last = ev.last().cloned().unwrap_or_default();
        assert_eq!(last["event"], "decision_timeout", "{ev:?}");
        (last["cause"].as_str().unwrap_or("").to_string(), last["reason"].as_str().unwrap_or("").to_string())
    };
    // Nothing listens on a port just freed: the connection is refused.
    let refused = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        format!("http://{}/v1/systemone", l.local_addr().expect("addr"))
    };
    let (c, reason) = cause(&refused, None);
    assert_eq!(c, "unreachable", "{reason}");
    let hang = Stub::start(vec![Reply::Hang]);
    assert_eq!(cause(&hang.url("/v1/systemone"), Some("300")).0, "timeout");
    let unsure = Stub::start(vec![Reply::json(&score(3, 0.3))]);
    assert_eq!(cause(&unsure.url("/v1/systemone"), None).0, "band");
    let broken = Stub::start(vec![Reply::status(500, "{}")]);
    assert_eq!(cause(&broken.url("/v1/systemone"), None).0, "failed");
}

#[test]
fn no_permission_catalog_or_no_provider_is_silent_with_no_network() {
    let stub = Stub::start(vec![Reply::json(&score(3, 0.95))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), false);
    let r = hook("claude-code", &root, &claude_input(&root, "Bash", "rm -rf ~"), None);
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", ""));
    let (_dir2, bare) = project(None, true);
    let r = hook("claude-code", &bare, &claude_input(&bare, "Bash", "rm -rf ~"), None);
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", ""));
    assert_eq!(stub.requests().len(), 0);
    // No permission.json: nothing at all, as the specification says.
    assert!(events(&root).is_empty());
    // permission.json but nothing to ask with: one trace, naming why.
    let ev = events(&bare);
    assert_eq!(names(&ev), ["decision_skipped"]);
    assert!(ev[0]["reason"].as_str().is_some_and(|r| r.starts_with("no_provider: no provider configured")), "{ev:?}");
}

#[test]
fn a_hook_that_stands_aside_because_nothing_can_be_asked_leaves_one_trace_naming_why() {
    // With permission.json present but no provider or a malformed config.json, every Bash call
    // passed with nothing on stderr and nothing in events.jsonl.
    let stub = Stub::start(vec![Reply::json(&score(3, 0.95))]);
    type Breaks<'a> = &'a dyn Fn(&Path);
    let cases: [(&str, Breaks); 3] = [
        ("no_provider: no provider configured (", &|root: &Path| {
            std::fs::write(root.join(".leopold/decisions/config.json"), "{ not json").expect("write")
        }),
        ("auth: TYPESAFE_API_KEY is not set", &|_: &Path| {}),
        ("validation: ", &|root: &Path| {
            std::fs::write(root.join(".leopold/decisions/permission.json"), "{\"version\": \"decisions/1.0\"}")
                .expect("write")
        }),
    ];
    for (i, (why, break_it)) in cases.iter().enumerate() {
        let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
        break_it(&root);
        let mut c = Command::cargo_bin("decisions").expect("binary");
        c.current_dir(&root).env_remove("LEOPOLD_DECISIONS_PROVIDER").env_remove("CLAUDE_PROJECT_DIR");
        if i != 1 {
            c.env("TYPESAFE_API_KEY", KEY);
        } else {
            c.env_remove("TYPESAFE_API_KEY");
        }
        let r = common::run_checked(
            c.args(["hook", "claude-code"]).write_stdin(claude_input(&root, "Bash", "rm -rf ~")),
            Some(KEY),
        );
        assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", ""), "silent to the agent: {why}");
        let ev = events(&root);
        assert_eq!(names(&ev), ["decision_skipped"], "{why}: {ev:?}");
        assert!(ev[0]["reason"].as_str().is_some_and(|r| r.starts_with(why)), "{why}: {ev:?}");
    }
    assert_eq!(stub.requests().len(), 0, "nothing was asked");
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
fn a_denied_command_is_logged_cut_to_200_characters_and_an_ellipsis() {
    let stub = Stub::start(vec![Reply::json(&score(3, 0.95))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    let long = format!("rm -rf {}", "ü".repeat(300));
    hook("claude-code", &root, &claude_input(&root, "Bash", &long), None);
    let ev = events(&root);
    let denied = ev.iter().find(|e| e["event"] == "decision_denied").expect("denied");
    let command = denied["command"].as_str().unwrap_or_default();
    assert_eq!(command.chars().count(), 203);
    assert!(command.ends_with("ü...") && command.starts_with("rm -rf ü"), "{command}");
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
    // No provider, so silent, with its one trace; had the read waited, the deadline would have
    // logged a timeout instead.
    let ev = events(&root);
    assert_eq!(names(&ev), ["decision_skipped"]);
    assert!(ev[0]["reason"].as_str().is_some_and(|r| r.contains("not a regular file")), "{ev:?}");
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

/// A lock on `path` held by this process, standing in for another process that holds it.
fn held_lock(path: &Path) -> std::fs::File {
    let f = std::fs::OpenOptions::new().create(true).append(true).open(path).expect("open");
    f.lock().expect("lock");
    f
}

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(made.success());
}

#[test]
fn a_held_event_log_lock_cannot_hold_the_hook_past_its_deadline() {
    // `flock -x .leopold/events.jsonl sleep 5` once held the hook for 4.7 s at a 300 ms budget.
    let stub = Stub::start(vec![Reply::json(&score(3, 0.95))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    let log = root.join(".leopold/events.jsonl");
    let lock = held_lock(&log);
    let r = hook("claude-code", &root, &claude_input(&root, "Bash", "rm -rf ~"), Some("300"));
    assert!(r.took < Duration::from_millis(300 + 250 + 150), "took {:?}", r.took);
    assert!(r.stdout.contains("\"deny\""), "the agent still gets its answer: {}", r.stdout);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("not logged") && r.stderr.contains("events.jsonl"), "{}", r.stderr);
    drop(lock);
    std::thread::sleep(Duration::from_millis(100));
    assert!(events(&root).is_empty(), "what was skipped never lands later");
}

#[test]
fn a_fifo_event_log_cannot_hold_the_hook_and_is_left_alone() {
    let stub = Stub::start(vec![Reply::json(&score(3, 0.95))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    let log = root.join(".leopold/events.jsonl");
    mkfifo(&log);
    let r = hook("claude-code", &root, &claude_input(&root, "Bash", "rm -rf ~"), Some("300"));
    assert!(r.took < Duration::from_millis(300 + 250 + 150), "took {:?}", r.took);
    assert!(r.stdout.contains("\"deny\""), "{}", r.stdout);
    assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
    assert!(std::fs::metadata(&log).map(|m| !m.is_file()).unwrap_or(false), "the FIFO is still there");
}

#[test]
fn a_ten_megabyte_tool_name_is_clipped_in_the_event_log() {
    // One fuzz run once wrote 245 MB of events from inputs like this.
    let (_dir, root) = project(None, true);
    let mut input: Value = serde_json::from_str(&claude_input(&root, "Bash", "ls")).expect("json");
    input["tool_name"] = json!("T".repeat(10 << 20));
    input["hook_event_name"] = json!("PreToolUse");
    let r = hook("claude-code", &root, &input.to_string(), None);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    let ev = events(&root);
    assert_eq!(names(&ev), ["decision_skipped"]);
    let size = std::fs::metadata(root.join(".leopold/events.jsonl")).map(|m| m.len()).unwrap_or(u64::MAX);
    assert!(size < 400, "one small line, not {size} bytes");
    let mut odd = input.clone();
    odd["hook_event_name"] = json!("E".repeat(1 << 20));
    odd["tool_name"] = json!("Bash");
    hook("claude-code", &root, &odd.to_string(), None);
    let size = std::fs::metadata(root.join(".leopold/events.jsonl")).map(|m| m.len()).unwrap_or(u64::MAX);
    assert!(size < 800, "{size} bytes");
}

#[test]
fn a_long_timed_out_command_is_clipped_too() {
    let stub = Stub::start(vec![Reply::json(&score(3, 0.3))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    hook("claude-code", &root, &claude_input(&root, "Bash", &"x".repeat(1 << 20)), None);
    let ev = events(&root);
    let timeout = ev.iter().find(|e| e["event"] == "decision_timeout").expect("timeout");
    assert_eq!(timeout["command"].as_str().map(str::len), Some(203));
}

/// The input Claude Code and Codex send a PermissionRequest hook.
fn permission_request(cwd: &Path, command: &str) -> String {
    json!({
        "session_id": "0a1b2c3d4e5f6789",
        "transcript_path": "/home/u/.claude/projects/p/s.jsonl",
        "cwd": cwd,
        "hook_event_name": "PermissionRequest",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Run it"},
        "permission_suggestions": []
    })
    .to_string()
}

#[test]
fn a_permission_request_is_answered_in_its_own_shape_for_claude_code_and_codex() {
    // A PreToolUse-shaped reply to a PermissionRequest is not read by that event.
    for agent in ["claude-code", "codex"] {
        let stub = Stub::start(vec![Reply::json(&score(3, 0.95))]);
        let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
        let r = hook(agent, &root, &permission_request(&root, "rm -rf ~"), None);
        let out: Value = serde_json::from_str(r.stdout.trim()).expect("deny object");
        assert_eq!(out["hookSpecificOutput"]["hookEventName"], "PermissionRequest", "{agent}");
        assert_eq!(out["hookSpecificOutput"]["decision"]["behavior"], "deny", "{agent}");
        let message = out["hookSpecificOutput"]["decision"]["message"].as_str().unwrap_or("");
        assert!(message.contains("scored it 3 of 3"), "{agent}: {message}");
        let keys: Vec<&String> = out["hookSpecificOutput"].as_object().map(|o| o.keys().collect()).unwrap_or_default();
        assert_eq!(keys, ["hookEventName", "decision"], "{agent}: no field that event does not read");
        // The same call as PreToolUse keeps the PreToolUse shape.
        let r = hook(agent, &root, &claude_input(&root, "Bash", "rm -rf ~"), None);
        let out: Value = serde_json::from_str(r.stdout.trim()).expect("deny object");
        assert_eq!(out["hookSpecificOutput"]["hookEventName"], "PreToolUse", "{agent}");
        assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny", "{agent}");
    }
}

#[test]
fn an_event_that_cannot_carry_a_denial_is_skipped_silently() {
    let stub = Stub::start(vec![Reply::json(&score(3, 0.95))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    let mut input: Value = serde_json::from_str(&claude_input(&root, "Bash", "rm -rf ~")).expect("json");
    input["hook_event_name"] = json!("PostToolUse");
    let r = hook("claude-code", &root, &input.to_string(), None);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    let r = hook("gemini", &root, &permission_request(&root, "rm -rf ~"), None);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    assert_eq!(names(&events(&root)), ["decision_skipped", "decision_skipped"]);
    assert_eq!(stub.requests().len(), 0);
}

#[test]
fn hook_events_carry_the_session_and_the_agent_id() {
    let stub = Stub::start(vec![Reply::json(&score(3, 0.95))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    let mut input: Value = serde_json::from_str(&permission_request(&root, "rm -rf ~")).expect("json");
    input["agent_id"] = json!("subagent-7");
    hook("claude-code", &root, &input.to_string(), None);
    let ev = events(&root);
    assert_eq!(names(&ev), ["decision_asked", "decision_answered", "decision_denied"]);
    for e in &ev {
        assert_eq!((e["session"].clone(), e["agent_id"].clone()), (json!("0a1b2c3d"), json!("subagent-7")), "{e}");
    }
    // Without them, no such fields.
    let (_dir2, other) = project(Some(&stub.url("/v1/systemone")), true);
    let bare = json!({"cwd": other, "tool_name": "Bash", "tool_input": {"command": "rm -rf ~"}});
    hook("claude-code", &other, &bare.to_string(), None);
    assert!(events(&other).iter().all(|e| e.get("session").is_none() && e.get("agent_id").is_none()));
}

#[test]
fn a_repeated_answer_key_never_denies() {
    // Bad then good: read last-wins, this once denied.
    let good = score(3, 0.95)["answers"]["destructive"].to_string();
    let bad = score(0, 0.95)["answers"]["destructive"].to_string();
    let body =
        format!("{{\"model\": \"jev-1.13.0\", \"answers\": {{\"destructive\": {bad}, \"destructive\": {good}}}}}");
    let stub = Stub::start(vec![Reply::status(200, &body)]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    let r = hook("claude-code", &root, &claude_input(&root, "Bash", "rm -rf ~"), None);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    let ev = events(&root);
    assert_eq!(names(&ev), ["decision_asked", "decision_failed", "decision_timeout"]);
    assert!(ev[1]["detail"].as_str().unwrap_or("").contains("duplicate key \"destructive\""), "{}", ev[1]);
}

#[test]
fn a_key_across_the_clip_never_reaches_the_event_log() {
    // 253 filler characters then the key, in a 401: once 47 of 48 characters were logged.
    let offsets: Vec<usize> = (300 - KEY.len() - 2..=302).chain([0, 600]).collect();
    let script: Vec<Reply> = offsets
        .iter()
        .map(|f| Reply::status(401, &json!({"detail": format!("{}{KEY}", "f".repeat(*f))}).to_string()))
        .collect();
    let stub = Stub::start(script);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    for _ in &offsets {
        let r = hook("claude-code", &root, &claude_input(&root, "Bash", "rm -rf ~"), None);
        assert_eq!(r.stdout, "");
    }
    let text = std::fs::read_to_string(root.join(".leopold/events.jsonl")).unwrap_or_default();
    assert_eq!(text.lines().filter(|l| l.contains("\"decision_failed\"")).count(), offsets.len());
    for w in KEY.as_bytes().windows(8) {
        assert!(!text.as_bytes().windows(8).any(|t| t == w), "a fragment {:?} leaked", String::from_utf8_lossy(w));
    }
}

#[test]
fn a_key_the_agent_echoes_is_never_logged_or_sent_in_the_body() {
    // Found by the campaign: a command holding the key was logged, cut by the clip.
    let stub = Stub::start(vec![Reply::json(&score(3, 0.3))]);
    let (_dir, root) = project(Some(&stub.url("/v1/systemone")), true);
    for f in [0, 150, 190, 200 - KEY.len() / 2] {
        let command = format!("{}{KEY} && rm -rf ~", "x".repeat(f));
        let mut input: Value = serde_json::from_str(&claude_input(&root, "Bash", &command)).expect("json");
        input["hook_event_name"] = json!(format!("{}{KEY}", "E".repeat(f)));
        hook("claude-code", &root, &input.to_string(), None);
        hook("claude-code", &root, &claude_input(&root, "Bash", &command), None);
    }
    let text = std::fs::read_to_string(root.join(".leopold/events.jsonl")).unwrap_or_default();
    for w in KEY.as_bytes().windows(8) {
        assert!(!text.as_bytes().windows(8).any(|t| t == w), "{:?} leaked into the log", String::from_utf8_lossy(w));
    }
    assert!(text.contains("[redacted] && rm -rf ~") || text.contains("[redacted]"), "{text}");
    for r in stub.requests() {
        assert!(!r.body.contains(KEY), "the key went out in the request body");
    }
}
