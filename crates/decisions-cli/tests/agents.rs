//! The agents beyond the first three, and what each agent itself makes of our entry: Copilot
//! CLI and Cursor wired, removed, doctored and answered in their own protocols; Codex asked
//! through its own `app-server` whether it trusts the hook (a stand-in `codex` on PATH speaks
//! the frames Codex 0.171 was seen to speak; the e2e suite runs the real one); Gemini CLI's
//! hooks switch said only when it is off; PermissionRequest's headless gap said.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use stub::{Reply, Stub};

use crate::common::{self, Run, Sandbox};

const KEY: &str = "sk-canary-agents-4b7e19c3d2";

fn run(s: &Sandbox, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut env = env.to_vec();
    env.push(("TYPESAFE_API_KEY", KEY));
    s.run_in(&s.project, args, &env, Some(KEY))
}

fn scored(level: usize) -> Value {
    let probs: serde_json::Map<String, Value> =
        (0..4).map(|i| (i.to_string(), json!(if i == level { 1.0 } else { 0.0 }))).collect();
    json!({"model": "jev-1.13.0", "answers": {"destructive": {"type": "score", "score": level as f64,
        "probabilities": probs, "confidence": 0.97}}})
}

fn hook_with(s: &Sandbox, agent: &str, input: &Value) -> Run {
    let mut c = assert_cmd::Command::cargo_bin("decisions").expect("binary");
    c.current_dir(&s.project)
        .env("HOME", &s.home)
        .env("TYPESAFE_API_KEY", KEY)
        .env_remove("LEOPOLD_DECISIONS_PROVIDER")
        .args(["hook", agent])
        .write_stdin(input.to_string());
    common::run_checked(&mut c, Some(KEY))
}

#[test]
fn copilot_and_cursor_are_wired_answered_in_their_shapes_and_removed() {
    let s = Sandbox::new();
    let stub = Stub::keep_alive(vec![Reply::json(&scored(3))]);
    let r = run(&s, &["install", "--provider", "jev", "--agent", "copilot", "--agent", "cursor"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    common::jev_at(&s.project, &stub.url("/v1/systemone"));
    let copilot = s.project.join(".github/hooks/decisions.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&copilot).expect("copilot file")).expect("json");
    assert_eq!(v["version"], 1);
    assert_eq!(v["hooks"]["preToolUse"][0]["type"], "command");
    assert!(v["hooks"]["preToolUse"][0]["bash"].as_str().is_some_and(|c| c.ends_with("decisions hook copilot")));
    assert_eq!(v["hooks"]["preToolUse"][0]["timeoutSec"], 5);
    // Cursor's file is shared with the user's own hooks: theirs stay.
    let cursor = s.project.join(".cursor/hooks.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&cursor).expect("cursor file")).expect("json");
    assert!(v["hooks"]["beforeShellExecution"][0]["command"].as_str().is_some_and(|c| c.ends_with("hook cursor")));
    assert!(
        r.stdout.contains("todo: Copilot CLI runs a repository's hooks only in a folder it trusts"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("todo: Cursor loads a project's .cursor/hooks.json only in a workspace it trusts"));

    // Copilot CLI 1.0.102's own input, from its own hooks file; the reply it reads.
    let input = json!({"sessionId": "s1", "timestamp": 1764600000000u64, "cwd": s.project,
        "toolName": "bash", "toolArgs": {"command": "rm -rf ~", "description": "clean up"}});
    let r = hook_with(&s, "copilot", &input);
    let reply: Value = serde_json::from_str(r.stdout.trim()).expect("a reply");
    assert_eq!(reply["permissionDecision"], "deny", "{reply}");
    assert!(reply["permissionDecisionReason"].as_str().is_some_and(|w| w.contains("scored it 3 of 3")));
    assert_eq!(reply.as_object().map(|o| o.len()), Some(2), "no field Copilot does not read");
    // Cursor's beforeShellExecution input.
    let input = json!({"hook_event_name": "beforeShellExecution", "conversation_id": "c", "generation_id": "g",
        "workspace_roots": [s.project], "command": "rm -rf ~", "cwd": s.project});
    let reply: Value = serde_json::from_str(hook_with(&s, "cursor", &input).stdout.trim()).expect("a reply");
    assert_eq!(reply["permission"], "deny", "{reply}");
    assert!(reply["agent_message"].as_str().is_some_and(|w| w.contains("scored it 3 of 3")));
    // A command it lets through: silent, for both.
    stub.replace(vec![Reply::json(&scored(0))]);
    let mut harmless = input.clone();
    harmless["command"] = json!("ls");
    assert_eq!(hook_with(&s, "cursor", &harmless).stdout, "");
    // hook test plays each agent's own input.
    stub.replace(vec![Reply::json(&scored(3))]);
    for (agent, event, key) in
        [("copilot", "preToolUse", "permissionDecision"), ("cursor", "beforeShellExecution", "permission")]
    {
        let v = run(&s, &["hook", "test", "rm -rf ~", "--agent", agent, "--json"], &[]).json();
        assert_eq!((v["event"].clone(), v["reply"][key].clone()), (json!(event), json!("deny")), "{agent}: {v}");
    }
    // doctor sees both; Copilot's folder trust is unknown here, so it is said, not assumed.
    let d = run(&s, &["doctor"], &[]);
    assert!(
        d.stdout.contains("copilot: wired for preToolUse in")
            && d.stdout.contains("cursor: wired for beforeShellExecution in"),
        "{}",
        d.stdout
    );
    assert!(
        d.stdout.contains("copilot: warning: Copilot CLI runs a repository's hooks only in a folder it trusts"),
        "{}",
        d.stdout
    );
    // A Copilot config that trusts other folders only: it will not run the hook.
    common::write_text(&s.home.join(".copilot/config.json"), &json!({"trustedFolders": ["/elsewhere"]}).to_string());
    let d = run(&s, &["doctor"], &[]);
    assert_eq!(d.code, 1, "{}", d.stdout);
    assert!(d.stdout.contains("copilot: will not run: Copilot CLI does not trust"), "{}", d.stdout);
    common::write_text(&s.home.join(".copilot/config.json"), &json!({"trustedFolders": [s.project]}).to_string());
    let d = run(&s, &["doctor"], &[]);
    assert!(d.stdout.contains("copilot: Copilot CLI trusts the folder"), "{}", d.stdout);
    // With Claude Code's hook in the project too, Copilot runs both: said.
    run(&s, &["install", "--agent", "claude-code"], &[]);
    let d = run(&s, &["doctor"], &[]);
    assert!(
        d.stdout.contains("copilot: warning: Copilot CLI also runs the project's .claude/settings.json hooks"),
        "{}",
        d.stdout
    );
    // Removed: Copilot's file was ours alone and goes; Cursor's keeps nothing of ours.
    assert_eq!(run(&s, &["remove", "--agent", "copilot", "--agent", "cursor"], &[]).code, 0);
    assert!(!copilot.exists() && !cursor.exists());
}

#[test]
fn cursors_file_keeps_the_users_hooks_byte_for_byte_through_install_and_remove() {
    let s = Sandbox::new();
    let theirs = "{\n  // mine\n  \"version\": 1,\n  \"hooks\": {\n    \"beforeShellExecution\": [\n      {\"command\": \"./audit.sh\", \"timeout\": 30}\n    ],\n    \"afterFileEdit\": [{\"command\": \"./fmt.sh\"}]\n  }\n}\n";
    let path = s.project.join(".cursor/hooks.json");
    common::write_text(&path, theirs);
    assert_eq!(run(&s, &["install", "--agent", "cursor"], &[]).code, 0);
    let wired = std::fs::read_to_string(&path).expect("read");
    assert!(wired.starts_with("{\n  // mine\n  \"version\": 1,\n") && wired.contains("./audit.sh"), "{wired}");
    assert_eq!(run(&s, &["install", "--agent", "cursor"], &[]).code, 0);
    assert_eq!(std::fs::read_to_string(&path).expect("read"), wired, "a second run changes no byte");
    assert_eq!(run(&s, &["remove", "--agent", "cursor"], &[]).code, 0);
    assert_eq!(std::fs::read_to_string(&path).expect("read"), theirs);
}

#[test]
fn gemini_hooks_switch_is_said_only_when_it_is_off() {
    let s = Sandbox::new();
    let r = run(&s, &["install", "--agent", "gemini"], &[]);
    assert!(!r.stdout.contains("hooks are switched off") && !r.stdout.contains("Enable Hooks"), "{}", r.stdout);
    run(&s, &["remove", "--agent", "gemini"], &[]);
    common::write_text(
        &s.home.join(".gemini/settings.json"),
        "{\n  // off\n  \"hooksConfig\": {\"enabled\": false}\n}\n",
    );
    let r = run(&s, &["install", "--provider", "jev", "--agent", "gemini"], &[]);
    assert!(
        r.stdout.contains("todo: Gemini CLI's hooks are switched off in") && r.stdout.contains("hooksConfig.enabled"),
        "{}",
        r.stdout
    );
    let d = run(&s, &["doctor"], &[]);
    assert_eq!(d.code, 1, "{}", d.stdout);
    assert!(d.stdout.contains("gemini: will not run: Gemini CLI's hooks are switched off"), "{}", d.stdout);
}

#[test]
fn a_permission_request_hook_says_it_never_fires_headless() {
    let s = Sandbox::new();
    let r = run(&s, &["install", "--provider", "jev", "--agent", "claude-code", "--event", "PermissionRequest"], &[]);
    assert!(
        r.stdout.contains("warning: PermissionRequest fires only where the agent would ask you first"),
        "{}",
        r.stdout
    );
    let d = run(&s, &["doctor"], &[]);
    assert!(d.stdout.contains("claude-code: warning: PermissionRequest fires only where"), "{}", d.stdout);
}

/// A stand-in `codex` that speaks `app-server` as Codex 0.171 does: `hooks/list` lists every
/// command hook in the project's `.codex/config.toml` with the trust `CODEX_FAKE_TRUST` names
/// (`trusted`, `untrusted`, `modified`), and each frame it reads is logged.
fn fake_codex(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    let script = r#"#!/usr/bin/env python3
import json, os, sys, tomllib
log = open(os.environ["CODEX_FAKE_LOG"], "a")
for line in sys.stdin:
    frame = json.loads(line)
    log.write(line); log.flush()
    if "id" not in frame:
        continue
    method, params = frame["method"], frame.get("params")
    if method == "initialize":
        result = {"userAgent": "codex-fake", "codexHome": os.environ.get("CODEX_HOME", "")}
    elif method == "hooks/list":
        cwd = params["cwds"][0]
        path = os.path.join(cwd, ".codex", "config.toml")
        hooks = []
        try:
            doc = tomllib.load(open(path, "rb"))
        except OSError:
            doc = {}
        for event, groups in doc.get("hooks", {}).items():
            if not isinstance(groups, list):
                continue
            for g, group in enumerate(groups):
                for h, hook in enumerate(group.get("hooks", [])):
                    hooks.append({"key": f"{path}:pre_tool_use:{g}:{h}", "eventName": "preToolUse",
                        "handlerType": "command", "command": hook["command"], "sourcePath": path,
                        "currentHash": "sha256:feedface", "trustStatus": os.environ.get("CODEX_FAKE_TRUST", "untrusted")})
        result = {"data": [{"cwd": cwd, "hooks": hooks, "warnings": [], "errors": []}]}
    elif method == "config/value/write":
        result = {"status": "ok", "version": "sha256:1", "filePath": os.path.join(os.environ.get("CODEX_HOME", ""), "config.toml")}
    else:
        print(json.dumps({"id": frame["id"], "error": {"code": -32601, "message": "no such method"}}), flush=True)
        continue
    print(json.dumps({"method": "configWarning", "params": {}}), flush=True)
    print(json.dumps({"id": frame["id"], "result": result}), flush=True)
"#;
    let path = bin.join("codex");
    std::fs::write(&path, script).expect("write");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    bin
}

#[test]
fn doctor_asks_codex_itself_whether_it_trusts_the_hook_and_install_trust_trusts_exactly_ours() {
    let s = Sandbox::new();
    let codex_home = s.home.join(".codex");
    let log = s.home.join("codex-frames.jsonl");
    let bin = fake_codex(&s.home);
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let env = |trust: &'static str| -> Vec<(&'static str, String)> {
        vec![
            ("PATH", path.clone()),
            ("CODEX_FAKE_TRUST", trust.to_string()),
            ("CODEX_FAKE_LOG", log.display().to_string()),
            ("CODEX_HOME", codex_home.display().to_string()),
        ]
    };
    let with = |trust: &'static str, args: &[&str]| {
        let e = env(trust);
        let pairs: Vec<(&str, &str)> = e.iter().map(|(k, v)| (*k, v.as_str())).collect();
        run(&s, args, &pairs)
    };
    // The user's own hook beside ours, in a project Codex trusts.
    common::write_text(
        &s.project.join(".codex/config.toml"),
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"~/bin/guard\"\n",
    );
    let project = s.project.display().to_string();
    common::write_text(
        &codex_home.join("config.toml"),
        &format!("[projects.\"{project}\"]\ntrust_level = \"trusted\"\n"),
    );
    let r = with("untrusted", &["install", "--provider", "jev", "--agent", "codex"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Untrusted: not ready, naming it and every route to trust it.
    let d = with("untrusted", &["doctor"]);
    assert_eq!(d.code, 1, "{}", d.stdout);
    assert!(d.stdout.contains("codex: will not run: Codex has not trusted the hook in"), "{}", d.stdout);
    for route in ["/hooks", "decisions install --agent codex --trust", "codex exec --dangerously-bypass-hook-trust"] {
        assert!(d.stdout.contains(route), "{route}: {}", d.stdout);
    }
    // Trusted, ready; changed since it was trusted, not ready again.
    let d = with("trusted", &["doctor"]);
    assert!(
        d.stdout.contains("codex: Codex trusts it") && d.stdout.contains("ready: jev can be asked by the hook (codex)"),
        "{}",
        d.stdout
    );
    let d = with("modified", &["doctor"]);
    assert_eq!(d.code, 1);
    assert!(d.stdout.contains("Codex trusted the hook in") && d.stdout.contains("before it changed"), "{}", d.stdout);
    // --trust writes exactly our entry's trust, with the hash Codex listed, through Codex.
    std::fs::write(&log, "").expect("truncate");
    let r = with("untrusted", &["install", "--agent", "codex", "--trust"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("agent: codex trusts `") && !r.stdout.contains("todo: Codex runs a hook only once"),
        "{}",
        r.stdout
    );
    let frames: Vec<Value> =
        std::fs::read_to_string(&log).expect("log").lines().map(|l| serde_json::from_str(l).expect("frame")).collect();
    let writes: Vec<&Value> = frames.iter().filter(|f| f["method"] == "config/value/write").collect();
    assert_eq!(writes.len(), 1, "one trust, ours only: {frames:?}");
    let key = format!("{project}/.codex/config.toml:pre_tool_use:1:0");
    assert_eq!(writes[0]["params"]["keyPath"], json!(format!("hooks.state.\"{key}\"")));
    assert_eq!(writes[0]["params"]["value"], json!({"enabled": true, "trusted_hash": "sha256:feedface"}));
    // An untrusted project: Codex never loads the file, whatever the hook's trust.
    common::write_text(&codex_home.join("config.toml"), "");
    let d = with("trusted", &["doctor"]);
    assert_eq!(d.code, 1);
    assert!(d.stdout.contains("Codex does not trust the project"), "{}", d.stdout);
    // No codex to ask: doctor cannot tell, and says so rather than ready.
    common::write_text(
        &codex_home.join("config.toml"),
        &format!("[projects.\"{project}\"]\ntrust_level = \"trusted\"\n"),
    );
    let d = run(&s, &["doctor"], &[("PATH", "/usr/bin:/bin"), ("CODEX_HOME", &codex_home.display().to_string())]);
    assert_eq!(d.code, 1, "{}", d.stdout);
    assert!(
        d.stdout.contains("cannot tell whether Codex trusts the hook") && d.stdout.contains("no codex binary on PATH"),
        "{}",
        d.stdout
    );
    // --trust with no codex: the entry is wired, the error says how else to trust it.
    let r = run(&s, &["install", "--agent", "codex", "--trust"], &[("PATH", "/usr/bin:/bin")]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("--trust: no codex binary on PATH") && r.stderr.contains("/hooks"), "{}", r.stderr);
}

#[test]
fn doctor_says_an_entry_filed_under_an_event_the_agent_never_sends_will_not_run() {
    let s = Sandbox::new();
    run(&s, &["install", "--provider", "jev", "--agent", "claude-code"], &[]);
    let path = s.project.join(".claude/settings.json");
    let text = std::fs::read_to_string(&path).expect("settings").replace("\"PreToolUse\"", "\"PreToolUsage\"");
    std::fs::write(&path, text).expect("write");
    let d = run(&s, &["doctor"], &[]);
    assert_eq!(d.code, 1, "{}", d.stdout);
    assert!(d.stdout.contains("is filed under \"PreToolUsage\", an event Claude Code never sends"), "{}", d.stdout);
}
