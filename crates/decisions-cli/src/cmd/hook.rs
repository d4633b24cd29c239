//! `decisions hook <agent>`: the semantic second axis of a coding agent's permission hook.
//!
//! Reads the agent's hook JSON from stdin to the end and, for a shell command in a project with
//! a `permission.json`, asks `destructive`. It can only ever deny: everything else prints
//! nothing and exits 0, so the agent's own permission flow goes on. The whole hook runs under
//! one deadline, `LEOPOLD_DECISIONS_TIMEOUT_MS` (default 2000) plus 250 ms of grace, after which
//! it allows. Events go to `<project>/.leopold/events.jsonl`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use decisions::permission::{self, Verdict};
use decisions::{CatalogRef, Env, Request};
use serde_json::{Value, json};

use super::exit;

/// The hook's budget when `LEOPOLD_DECISIONS_TIMEOUT_MS` does not say.
const DEFAULT_TIMEOUT_MS: u64 = 2000;
/// Time past the budget before the hook gives up and allows.
const GRACE_MS: u64 = 250;
/// How much of a command a `decision_denied` event keeps.
const COMMAND_MAX: usize = 200;

/// Read an agent's PreToolUse hook input on stdin; deny a destructive shell command, else stay silent
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agent whose hook protocol to speak
    #[arg(value_enum)]
    agent: Agent,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Agent {
    ClaudeCode,
    Codex,
    Gemini,
}

impl Agent {
    /// Whether the tool is the agent's shell.
    fn is_shell(self, tool: &str) -> bool {
        match self {
            Agent::ClaudeCode => tool == "Bash",
            Agent::Codex => matches!(tool, "Bash" | "shell" | "exec_command" | "local_shell"),
            Agent::Gemini => tool == "run_shell_command",
        }
    }

    /// The agent's deny object.
    fn deny(self, reason: &str) -> Value {
        match self {
            Agent::ClaudeCode | Agent::Codex => json!({"hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason
            }}),
            Agent::Gemini => json!({"decision": "deny", "reason": reason}),
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let started = Instant::now();
    let env = Env::Process;
    let budget_ms = env
        .get("LEOPOLD_DECISIONS_TIMEOUT_MS")
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|ms| *ms > 0)
        .unwrap_or(DEFAULT_TIMEOUT_MS);
    let deadline = started + Duration::from_millis(budget_ms + GRACE_MS);

    // Everything that can stall (stdin, the filesystem, the provider) runs in a worker; this
    // thread only waits, and allows when the deadline passes.
    let (tx, rx) = mpsc::channel();
    let agent = args.agent;
    std::thread::spawn(move || {
        let _ = tx.send(decide(agent, budget_ms, &Env::Process));
    });
    match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(Outcome { project, events, deny }) => {
            if let Some(leo) = &project {
                for e in events {
                    log_event(leo, e);
                }
            }
            if let Some(reason) = deny {
                super::print_json(&agent.deny(&reason), false)?;
            }
        }
        Err(_) => {
            // The worker may still hold the input: the project comes from the environment.
            if let Some(leo) = project(None, &env) {
                let reason = format!("no decision within {budget_ms}ms + {GRACE_MS}ms grace");
                log_event(&leo, json!({"event": "decision_timeout", "reason": reason}));
            }
        }
    }
    Ok(exit::OK)
}

/// What the worker decided: the events to log in the project, and a denial reason, if any.
struct Outcome {
    project: Option<PathBuf>,
    events: Vec<Value>,
    deny: Option<String>,
}

fn decide(agent: Agent, budget_ms: u64, env: &Env) -> Outcome {
    let mut input = Vec::new();
    let read = std::io::stdin().read_to_end(&mut input);
    let hook: Option<Value> = read.ok().and_then(|_| serde_json::from_slice(&input).ok());
    let cwd = hook.as_ref().and_then(|h| h.get("cwd")).and_then(Value::as_str).map(PathBuf::from);
    let mut out = Outcome { project: project(cwd.as_deref(), env), events: Vec::new(), deny: None };
    let skipped = |reason: String| json!({"event": "decision_skipped", "reason": reason});

    let Some(hook) = hook else {
        out.events.push(skipped("unreadable hook input".into()));
        return out;
    };
    let tool = hook.get("tool_name").and_then(Value::as_str).unwrap_or_default();
    let (true, Some(command)) = (agent.is_shell(tool), command_of(&hook)) else {
        out.events.push(skipped(format!("not a shell command (tool {tool:?})")));
        return out;
    };
    // No project, no permission.json or no provider: silent, and no network.
    let Some(leo) = out.project.clone() else { return out };
    // Each file is read once: what decides whether to ask is what the ask uses.
    let catalog = decisions::catalog_path(&leo, permission::CATALOG);
    if !catalog.is_file() {
        return out;
    }
    let config = decisions::load_config(&leo);
    if decisions::resolve_name(None, &config, env).0 == decisions::NONE {
        return out;
    }
    // A catalog that does not read or parse is left for the ask to name as its failure.
    let by_name = CatalogRef::Name(permission::CATALOG.into());
    let doc = decisions::load_catalog(Some(&by_name), Some(&leo)).ok();
    let question = question_text(doc.as_ref());
    let request = Request {
        catalog: Some(doc.map_or(by_name, CatalogRef::Document)),
        questions: vec![permission::QUESTION.into()],
        state: json!({"command": command, "cwd": cwd.as_ref().map(|c| c.display().to_string())}),
        leo_dir: Some(leo),
        config: Some(config),
        timeout_ms: Some(budget_ms),
        ..Request::default()
    };
    let decision = decisions::ask(&request, ());
    out.events.extend(decision.events.iter().map(|e| serde_json::to_value(e).unwrap_or(Value::Null)));
    match permission::verdict(&decision, &question) {
        Verdict::Deny { score, reason, .. } => {
            let cut: String = command.chars().take(COMMAND_MAX).collect();
            out.events.push(
                json!({"event": "decision_denied", "command": cut, "score": score, "question": permission::QUESTION}),
            );
            out.deny = Some(format!("decisions: {reason}"));
        }
        Verdict::Allow(Some(reason)) => out.events.push(json!({"event": "decision_timeout", "reason": reason})),
        Verdict::Allow(None) => {}
    }
    out
}

/// The command of a shell tool call: a string, or an argv array joined by spaces.
fn command_of(hook: &Value) -> Option<String> {
    match hook.pointer("/tool_input/command")? {
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        Value::Array(parts) => {
            let words: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
            (!words.is_empty()).then(|| words.join(" "))
        }
        _ => None,
    }
}

/// The project's `.leopold`: from the hook's `cwd`, else the agent's project variable, else the
/// working directory.
fn project(cwd: Option<&Path>, env: &Env) -> Option<PathBuf> {
    let from_env = ["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"].iter().find_map(|v| env.get(v)).map(PathBuf::from);
    cwd.map(Path::to_path_buf)
        .into_iter()
        .chain(from_env)
        .chain(std::env::current_dir().ok())
        .find_map(|d| decisions::find_leo_dir(&d))
}

/// The question as the catalog words it, for the denial to quote.
fn question_text(doc: Option<&Value>) -> String {
    let instructions = doc.and_then(|d| d.pointer(&format!("/questions/{}/instructions", permission::QUESTION)));
    match instructions {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.get("question").and_then(Value::as_str).unwrap_or(permission::QUESTION).to_string(),
        None => permission::QUESTION.to_string(),
    }
}

/// Append `{ts, event, ...}` to the project's event log; a log that cannot be written never
/// changes the verdict.
fn log_event(leo: &Path, event: Value) {
    let mut line = serde_json::Map::new();
    line.insert("ts".into(), Value::String(decisions::ledger::now_ts()));
    if let Value::Object(fields) = event {
        line.extend(fields);
    }
    let _ = decisions::append_line(&leo.join("events.jsonl"), &Value::Object(line));
}
