//! Day one, as a new user meets it: `install --agent` wires the hook into each agent's own
//! settings (keeping every other byte), `remove --agent` takes exactly that out, `doctor` tells
//! working from inert and `--probe` proves it against real servers, and `hook test` shows what
//! the hook would do with a command.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use stub::{Reply, Stub};

use crate::common::{self, Run, Sandbox};

const KEY: &str = "sk-canary-day-one-9a41c7e2";

fn run(s: &Sandbox, args: &[&str], env: &[(&str, &str)]) -> Run {
    s.run_in(&s.project, args, env, Some(KEY))
}

fn keyed(s: &Sandbox, args: &[&str]) -> Run {
    run(s, args, &[("TYPESAFE_API_KEY", KEY)])
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A Claude Code settings file with the user's own keys, hooks and an unknown key.
const CLAUDE_SETTINGS: &str = r#"{
  "model": "opus",
  "permissions": {"allow": ["Bash(git status)"], "deny": []},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "~/bin/lint-on-edit", "timeout": 30}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]
  },
  "someFutureKey": {"x": [1, 2, 3]}
}
"#;

#[test]
fn wiring_claude_code_keeps_every_other_key_and_hook_and_a_second_run_changes_no_byte() {
    let s = Sandbox::new();
    let settings = s.project.join(".claude/settings.json");
    common::write_text(&settings, CLAUDE_SETTINGS);
    let r = keyed(&s, &["install", "--provider", "jev", "--agent", "claude-code"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("agent: claude-code wired into"), "{}", r.stdout);
    let after = read(&settings);
    let v: Value = serde_json::from_str(&after).expect("still strict JSON");
    assert_eq!(v["model"], "opus");
    assert_eq!(v["someFutureKey"], json!({"x": [1, 2, 3]}));
    assert_eq!(v["hooks"]["Stop"], json!([{"hooks": [{"type": "command", "command": "say done"}]}]));
    let pre = v["hooks"]["PreToolUse"].as_array().expect("array");
    assert_eq!(pre.len(), 2, "theirs, then ours");
    assert_eq!(pre[0]["matcher"], "Edit|Write");
    assert_eq!(pre[1]["matcher"], "Bash");
    let ours = &pre[1]["hooks"][0];
    assert_eq!((ours["type"].clone(), ours["timeout"].clone()), (json!("command"), json!(5)));
    assert!(ours["command"].as_str().is_some_and(|c| c.ends_with("decisions hook claude-code")), "{ours}");
    // Their lines are byte for byte where they were.
    assert!(after.starts_with(
        "{\n  \"model\": \"opus\",\n  \"permissions\": {\"allow\": [\"Bash(git status)\"], \"deny\": []},\n"
    ));
    assert!(after.contains("      {\"matcher\": \"Edit|Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"~/bin/lint-on-edit\", \"timeout\": 30}]},\n"));
    assert!(after.ends_with("  \"someFutureKey\": {\"x\": [1, 2, 3]}\n}\n"), "{after}");
    // The hook needs permission.json: the project had none, so it was copied.
    assert!(s.project.join(".leopold/decisions/permission.json").is_file());
    // A second run changes no byte.
    let r = keyed(&s, &["install", "--provider", "jev", "--agent", "claude-code"]);
    assert!(r.stdout.contains("agent: claude-code already wired in"), "{}", r.stdout);
    assert_eq!(read(&settings), after);
    // Remove takes exactly our entry out: the file is as the user wrote it.
    let r = run(&s, &["remove", "--agent", "claude-code"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(read(&settings), CLAUDE_SETTINGS);
    assert!(s.project.join(".leopold/decisions/permission.json").is_file(), "remove keeps project files");
}

/// A Codex config with comments, order and formatting of its own.
const CODEX_CONFIG: &str = r#"# My Codex set-up.
model = "gpt-5-codex"   # pinned on purpose
approval_policy = "on-request"

[features]
hooks = true

[[hooks.PreToolUse]]
matcher = "apply_patch"   # my patch guard
[[hooks.PreToolUse.hooks]]
type = "command"
command = "~/bin/patch-guard"

[mcp_servers.docs]
command = "docs-server"
args = ["--port", "4000"]
"#;

#[test]
fn wiring_codex_keeps_its_comments_order_and_formatting_through_toml_edit() {
    let s = Sandbox::new();
    let config = s.project.join(".codex/config.toml");
    common::write_text(&config, CODEX_CONFIG);
    let r = keyed(&s, &["install", "--agent", "codex", "--event", "PermissionRequest"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("todo: Codex runs a hook only once it is trusted"), "{}", r.stdout);
    assert!(
        r.stdout.contains("decisions install --agent codex --trust")
            && r.stdout.contains("--dangerously-bypass-hook-trust"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("warning: PermissionRequest fires only where the agent would ask you first"),
        "{}",
        r.stdout
    );
    let after = read(&config);
    // Ours is one block, beside the other hooks; without it the file is the user's, byte for byte.
    let start = after.find("[[hooks.PermissionRequest]]\nmatcher = \"Bash\"\n").expect("our group");
    let tail = "decisions hook codex\"\ntimeout = 5\n\n";
    let end = start + after[start..].find(tail).expect("our hook") + tail.len();
    assert_eq!(format!("{}{}", &after[..start], &after[end..]), CODEX_CONFIG, "{after}");
    let r = keyed(&s, &["install", "--agent", "codex", "--event", "PermissionRequest"]);
    assert!(r.stdout.contains("already wired"), "{}", r.stdout);
    assert_eq!(read(&config), after, "a second run changes no byte");
    // Wired for the other event, ours moves there and nothing else changes.
    keyed(&s, &["install", "--agent", "codex"]);
    let moved = read(&config);
    assert!(!moved.contains("PermissionRequest") && moved.matches("decisions hook codex").count() == 1, "{moved}");
    assert_eq!(run(&s, &["remove", "--agent", "codex"], &[]).code, 0);
    assert_eq!(read(&config), CODEX_CONFIG, "remove leaves the rest byte for byte");
}

#[test]
fn wiring_gemini_keeps_comments_in_its_settings_and_uses_milliseconds() {
    let s = Sandbox::new();
    let settings = s.project.join(".gemini/settings.json");
    let text = "{\n  // the theme I like\n  \"theme\": \"GitHub\",\n  \"tools\": {\"enableHooks\": true},\n}\n";
    common::write_text(&settings, text);
    let r = keyed(&s, &["install", "--agent", "gemini"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("(BeforeTool)"), "{}", r.stdout);
    let after = read(&settings);
    assert!(after.starts_with("{\n  // the theme I like\n  \"theme\": \"GitHub\",\n"), "{after}");
    assert!(after.contains("\"matcher\": \"run_shell_command\"") && after.contains("\"timeout\": 5000"), "{after}");
    assert!(after.contains("\"name\": \"decisions\""), "{after}");
    let r = keyed(&s, &["install", "--agent", "gemini", "--event", "PermissionRequest"]);
    assert_eq!(r.code, 64, "gemini has one event: {}", r.stderr);
    assert!(r.stderr.contains("gemini has only BeforeTool"), "{}", r.stderr);
    assert_eq!(run(&s, &["remove", "--agent", "gemini"], &[]).code, 0);
    assert_eq!(read(&settings), text);
}

#[test]
fn a_settings_file_that_does_not_parse_is_refused_with_its_line_and_column_and_nothing_is_written() {
    let s = Sandbox::new();
    let settings = s.project.join(".claude/settings.json");
    let broken = "{\n  \"model\": \"opus\"\n  \"hooks\": {}\n}\n";
    common::write_text(&settings, broken);
    let r = keyed(&s, &["install", "--provider", "jev", "--agent", "codex", "--agent", "claude-code"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stderr.contains(&format!("{}:2:18: does not parse: Expected comma", settings.display())), "{}", r.stderr);
    assert_eq!(read(&settings), broken, "the broken file is left as it is");
    for nothing in [".codex/config.toml", ".leopold/decisions/config.json", ".leopold/decisions/permission.json"] {
        assert!(!s.project.join(nothing).exists(), "{nothing} was written before the refusal");
    }
    assert!(!s.home.join(".claude/decisions").exists(), "no payload either");
    // A hooks entry of another shape is refused the same way.
    common::write_text(&settings, "{\"hooks\": [1]}\n");
    let r = keyed(&s, &["install", "--agent", "claude-code"]);
    assert!(r.code == 1 && r.stderr.contains("hooks is an array, not an object"), "{}", r.stderr);
}

#[cfg(unix)]
#[test]
fn the_write_is_atomic_keeps_the_mode_and_follows_a_linked_dotfile() {
    use std::os::unix::fs::PermissionsExt;
    let s = Sandbox::new();
    let real = s.home.join("dotfiles/claude-settings.json");
    common::write_text(&real, "{\"model\": \"opus\"}\n");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    std::fs::create_dir_all(s.project.join(".claude")).expect("mkdir");
    let link = s.project.join(".claude/settings.json");
    std::os::unix::fs::symlink(&real, &link).expect("link");
    let r = keyed(&s, &["install", "--agent", "claude-code"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(std::fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()), "still a link");
    assert!(read(&real).contains("decisions hook claude-code"));
    assert_eq!(std::fs::metadata(&real).map(|m| m.permissions().mode() & 0o777).ok(), Some(0o600));
    let beside: Vec<_> = std::fs::read_dir(s.home.join("dotfiles")).expect("dir").flatten().collect();
    assert_eq!(beside.len(), 1, "no temporary file left beside it");
}

#[test]
fn the_hook_command_is_the_binarys_absolute_path_unless_path_finds_the_same_file() {
    let s = Sandbox::new();
    let bin = assert_cmd::cargo::cargo_bin("decisions").canonicalize().expect("binary");
    keyed(&s, &["install", "--agent", "claude-code"]);
    let v: Value = serde_json::from_str(&read(&s.project.join(".claude/settings.json"))).expect("json");
    assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][0]["command"], format!("{} hook claude-code", bin.display()));
    // On PATH as the same file (here through a link): the bare name.
    let dir = s.home.join("bin");
    std::fs::create_dir_all(&dir).expect("mkdir");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&bin, dir.join("decisions")).expect("link");
    let path = format!("{}:{}", dir.display(), std::env::var("PATH").unwrap_or_default());
    let r = run(&s, &["install", "--agent", "claude-code"], &[("PATH", &path)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&read(&s.project.join(".claude/settings.json"))).expect("json");
    let hooks = v["hooks"]["PreToolUse"].as_array().expect("array");
    assert_eq!(hooks.len(), 1, "the entry brought up to date, not added twice");
    assert_eq!(hooks[0]["hooks"][0]["command"], "decisions hook claude-code");
}

#[test]
fn user_scope_writes_the_users_settings() {
    let s = Sandbox::new();
    let r = run(&s, &["install", "--agent", "claude-code", "--agent", "codex", "--scope", "user"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(read(&s.home.join(".claude/settings.json")).contains("hook claude-code"));
    assert!(read(&s.home.join(".codex/config.toml")).contains("hook codex"));
    assert!(!s.project.join(".claude").exists());
    let r = run(&s, &["remove", "--agent", "claude-code", "--scope", "user"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!s.home.join(".claude/settings.json").exists(), "it held nothing but ours");
}

// ---- doctor ---------------------------------------------------------------------------------

fn jev_project(s: &Sandbox, endpoint: &str) {
    common::jev_at(&s.project, endpoint);
}

#[test]
fn doctor_with_nothing_installed_says_so_in_one_line_and_how_to_start() {
    let s = Sandbox::new();
    let r = run(&s, &["doctor"], &[]);
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout.lines().count(), 1, "{}", r.stdout);
    assert!(
        r.stdout.contains("nothing is installed") && r.stdout.contains("decisions install --provider"),
        "{}",
        r.stdout
    );
}

#[test]
fn doctor_is_not_ready_when_nothing_would_reach_a_model_and_names_each_missing_piece() {
    // `install --provider jev` with no catalogs and the key exported once said "ready".
    let s = Sandbox::new();
    keyed(&s, &["install", "--provider", "jev"]);
    let r = keyed(&s, &["doctor"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("not ready: nothing would ask"), "{}", r.stdout);
    // The hook wired, its catalog gone: the hook cannot ask.
    keyed(&s, &["install", "--agent", "claude-code"]);
    std::fs::remove_file(s.project.join(".leopold/decisions/permission.json")).expect("rm");
    let r = keyed(&s, &["doctor"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("decisions agent        claude-code: wired for PreToolUse in"), "{}", r.stdout);
    assert!(r.stdout.contains("hook cannot ask: no permission.json"), "{}", r.stdout);
    // The hook's command moved away: doctor says it cannot run.
    keyed(&s, &["install", "--catalogs", "permission"]);
    let settings = s.project.join(".claude/settings.json");
    let moved = read(&settings).replace(
        &assert_cmd::cargo::cargo_bin("decisions").canonicalize().expect("bin").display().to_string(),
        "/gone/decisions",
    );
    common::write_text(&settings, &moved);
    let r = keyed(&s, &["doctor"]);
    assert!(r.stdout.contains("`/gone/decisions hook claude-code` cannot run"), "{}", r.stdout);
    assert!(r.stdout.contains("not ready") && r.code == 1, "{}", r.stdout);
    // Mended, every piece in place: ready, naming who asks.
    keyed(&s, &["install", "--agent", "claude-code", "--catalogs", "routing"]);
    let r = keyed(&s, &["doctor"]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("ready: jev can be asked by the hook (claude-code), route"), "{}", r.stdout);
    assert!(r.stdout.contains("decisions consumer     review: not set up: no review.json"), "{}", r.stdout);
}

fn probe(s: &Sandbox) -> Run {
    keyed(s, &["doctor", "--probe"])
}

fn probed(s: &Sandbox, endpoint: &str) -> Run {
    keyed(s, &["install", "--catalogs", "routing"]);
    jev_project(s, endpoint);
    probe(s)
}

#[test]
fn doctor_probe_against_a_healthy_server_says_who_answered_and_how_fast() {
    let stub = Stub::start(vec![Reply::json(
        &json!({"model": "jev-1.13.0", "answers": {"probe": {"type": "noul", "noul": 0.98}}}),
    )]);
    let s = Sandbox::new();
    let r = probed(&s, &stub.url("/v1/systemone"));
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("decisions probe        answered by jev-1.13.0 in "), "{}", r.stdout);
    assert!(!r.stdout.contains("warning"), "{}", r.stdout);
    let sent = stub.requests();
    assert_eq!(sent.len(), 1, "one call");
    assert_eq!(sent[0].header("authorization").map(|h| h.starts_with("Bearer ")), Some(true));
    // A model other than the pinned one answers: said, as a warning.
    stub.replace(vec![Reply::json(
        &json!({"model": "jev-1.14.0", "answers": {"probe": {"type": "noul", "noul": 0.9}}}),
    )]);
    let r = probe(&s);
    assert!(r.stdout.contains("warning: the descriptor pins jev-1.13.0 but jev-1.14.0 answered"), "{}", r.stdout);
}

#[test]
fn doctor_probe_against_a_rejected_key_a_closed_port_and_a_hanging_server_is_not_ready() {
    let rejected = Stub::start(vec![Reply::status(401, &json!({"detail": "invalid api key"}).to_string())]);
    let s = Sandbox::new();
    let r = probed(&s, &rejected.url("/v1/systemone"));
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("decisions probe        key rejected: HTTP 401: invalid api key"), "{}", r.stdout);
    assert!(r.stdout.contains("not ready: the probe to jev key rejected"), "{}", r.stdout);

    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = closed.local_addr().expect("addr").port();
    drop(closed);
    let s = Sandbox::new();
    let r = probed(&s, &format!("http://127.0.0.1:{port}/v1/systemone"));
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("decisions probe        unreachable: no response from"), "{}", r.stdout);

    let hanging = Stub::start(vec![Reply::Hang]);
    let s = Sandbox::new();
    keyed(&s, &["install", "--catalogs", "routing"]);
    let mut jev = serde_json::to_value(decisions::builtin("jev").expect("jev")).expect("json");
    jev["endpoint"] = json!(hanging.url("/v1/systemone"));
    jev["timeout_ms"] = json!(300);
    common::write(&s.config_path(), &json!({"version": "decisions/1.0", "provider": "jev", "providers": {"jev": jev}}));
    let r = probe(&s);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.contains("decisions probe        timed out: provider \"jev\" did not answer within 300ms"),
        "{}",
        r.stdout
    );
    assert!(r.took < std::time::Duration::from_secs(3), "within the provider's deadline: {:?}", r.took);
}

// ---- hook test ------------------------------------------------------------------------------

fn scored(level: usize) -> Value {
    let mut probs = serde_json::Map::new();
    for i in 0..4 {
        probs.insert(i.to_string(), json!(if i == level { 1.0 } else { 0.0 }));
    }
    json!({"model": "jev-1.13.0", "answers": {"destructive": {"type": "score", "score": level as f64,
        "probabilities": probs, "confidence": 0.97}}})
}

fn hook_project(s: &Sandbox, endpoint: &str) -> PathBuf {
    keyed(s, &["install", "--catalogs", "permission"]);
    jev_project(s, endpoint);
    s.project.join(".leopold/events.jsonl")
}

#[test]
fn hook_test_shows_the_verdict_as_a_person_reads_it_and_writes_no_event() {
    let stub = Stub::start(vec![Reply::json(&scored(3))]);
    let s = Sandbox::new();
    let events = hook_project(&s, &stub.url("/v1/systemone"));
    let r = keyed(&s, &["hook", "test", "rm -rf ~"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for line in [
        "decisions hook test: rm -rf ~ (claude-code, PreToolUse)",
        "provider   jev (source: config), model jev-1.13.0",
        "score      3.00 of 3",
        "band       act: certainty 0.97, act bar 0.90",
        "verdict    deny: jev/jev-1.13.0 scored it 3 of 3 on",
    ] {
        assert!(r.stdout.contains(line), "missing {line:?} in\n{}", r.stdout);
    }
    assert!(r.stdout.contains("took       ") && r.stdout.contains("ms of a 2000 ms budget"), "{}", r.stdout);
    let sent = stub.requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].json()["state"]["command"], "rm -rf ~", "asked exactly as the hook asks");
    assert!(!events.exists(), "hook test writes no event");
    // A command it would let through, in JSON for scripts.
    stub.replace(vec![Reply::json(&scored(0))]);
    let r = keyed(&s, &["hook", "test", "ls -la", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(
        (v["verdict"].clone(), v["band"].clone(), v["score"].clone()),
        (json!("stand aside"), json!("act"), json!(0.0))
    );
    assert!(v["why"].as_str().is_some_and(|w| w.contains("below 2.5 of 3")), "{v}");
    assert_eq!(v["reply"], Value::Null);
    // Gemini's hook, the same way.
    stub.replace(vec![Reply::json(&scored(3))]);
    let v = keyed(&s, &["hook", "test", "rm -rf ~", "--agent", "gemini", "--json"]).json();
    assert_eq!((v["event"].clone(), v["reply"]["decision"].clone()), (json!("BeforeTool"), json!("deny")));
    assert!(!events.exists());
}

#[test]
fn hook_test_says_why_the_hook_stands_aside_when_it_cannot_ask() {
    let s = Sandbox::new();
    let r = run(&s, &["hook", "test", "rm -rf ~"], &[]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("verdict    stand aside: no .leopold at or above"), "{}", r.stdout);
    keyed(&s, &["install", "--catalogs", "permission"]);
    let r = run(&s, &["hook", "test", "rm -rf ~"], &[]);
    assert!(r.stdout.contains("nothing can be asked (no_provider: no provider configured"), "{}", r.stdout);
    std::fs::remove_file(s.project.join(".leopold/decisions/permission.json")).expect("rm");
    let r = run(&s, &["hook", "test", "rm -rf ~", "--cwd", s.project.to_str().unwrap_or_default()], &[]);
    assert!(r.stdout.contains("permission.json: the hook is silent"), "{}", r.stdout);
}

#[test]
fn with_no_provider_chosen_the_hook_is_wired_to_the_model_inside_the_binary() {
    let s = Sandbox::new();
    // No key in the environment at all.
    let r = run(&s, &["install", "--agent", "claude-code"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("(provider builtin: the model inside this binary, no key and no network"),
        "{}",
        r.stdout
    );
    let config: Value = serde_json::from_str(&read(&s.config_path())).expect("config");
    assert_eq!(config["provider"], "builtin");
    let catalog: Value =
        serde_json::from_str(&read(&s.project.join(".leopold/decisions/permission.json"))).expect("catalog");
    assert_eq!(catalog["thresholds_for"], "builtin", "the bars fitted for builtin");
    let d = run(&s, &["doctor"], &[]);
    assert_eq!(d.code, 0, "{}", d.stdout);
    assert!(d.stdout.contains("ready: builtin can be asked by the hook (claude-code)"), "{}", d.stdout);
    // builtin answers the hook's question only: doctor says so of every other consumer, and a
    // routing.json wired beside it is not ready, rather than counted as asking builtin.
    assert!(
        d.stdout.contains("triage: not set up: builtin answers only the hook's question (\"destructive\")"),
        "{}",
        d.stdout
    );
    run(&s, &["install", "--catalogs", "routing"], &[]);
    let d = run(&s, &["doctor"], &[]);
    assert_eq!(d.code, 1, "{}", d.stdout);
    assert!(d.stdout.contains("not ready: route cannot ask: builtin answers only the hook's question"), "{}", d.stdout);
    let v = run(&s, &["hook", "test", "rm -rf ~", "--json"], &[]).json();
    assert_eq!(v["provider"], "builtin");
    assert!(v["score"].as_f64().is_some_and(|x| x > 2.5), "{v}");
    assert!(v["band"].is_string() && v["bar"].is_number(), "{v}");
    // A provider configured before is kept: builtin only fills the gap.
    let s2 = Sandbox::new();
    run(&s2, &["install", "--provider", "jev"], &[]);
    run(&s2, &["install", "--agent", "claude-code"], &[]);
    let config: Value = serde_json::from_str(&read(&s2.config_path())).expect("config");
    assert_eq!(config["provider"], "jev");
    // --provider none keeps the old behaviour: the hook asks nothing.
    let s3 = Sandbox::new();
    run(&s3, &["install", "--provider", "none", "--agent", "claude-code"], &[]);
    let v = run(&s3, &["hook", "test", "rm -rf ~", "--json"], &[]).json();
    assert_eq!(v["verdict"], "stand aside");
    assert!(v["why"].as_str().unwrap_or("").contains("nothing can be asked"), "{v}");
}
