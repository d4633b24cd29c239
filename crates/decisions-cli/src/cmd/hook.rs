//! `decisions hook <agent>`: the semantic second axis of a coding agent's permission hook.
//!
//! Reads the agent's hook JSON from stdin to the end and, for a shell command in a project with
//! a `permission.json`, asks `destructive`. It can only ever deny: everything else prints
//! nothing and exits 0, so the agent's own permission flow goes on. Each hook event is answered
//! in its own shape (`PreToolUse`, `PermissionRequest`, Gemini's `BeforeTool`). The whole hook
//! runs under one deadline, `LEOPOLD_DECISIONS_TIMEOUT_MS` (default 2000) plus 250 ms of grace,
//! whatever stdin, the filesystem or the provider do; events go to
//! `<project>/.leopold/events.jsonl`, and what cannot be logged in time is skipped.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use decisions::consumer::permission::{self, Verdict};
use decisions::{CatalogRef, Env, Event, LogLine, Redactor, Request, clip};
use serde_json::{Value, json};

use super::exit;

/// The hook's budget when `LEOPOLD_DECISIONS_TIMEOUT_MS` does not say.
const DEFAULT_TIMEOUT_MS: u64 = 2000;
/// Time past the budget before the hook has answered, logged, and exited.
const GRACE_MS: u64 = 250;
/// How long a write that began just before the deadline is waited for.
const SETTLE_MS: u64 = 50;
/// The variable that sets the budget.
const TIMEOUT_ENV: &str = "LEOPOLD_DECISIONS_TIMEOUT_MS";

/// Read an agent's permission hook input on stdin; deny a destructive shell command, else stay silent
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

impl From<Agent> for permission::Agent {
    fn from(a: Agent) -> Self {
        match a {
            Agent::ClaudeCode => permission::Agent::ClaudeCode,
            Agent::Codex => permission::Agent::Codex,
            Agent::Gemini => permission::Agent::Gemini,
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let started = Instant::now();
    let env = Env::Process;
    let budget_ms = budget(&env);
    // The answer by half the grace, the log by the grace less the time a begun write may take.
    let answer_by = super::after(started, budget_ms.saturating_add(GRACE_MS / 2));
    let log_by = super::after(started, budget_ms.saturating_add(GRACE_MS - SETTLE_MS));

    // Everything that can stall (stdin, the filesystem, the provider) runs in a worker; this
    // thread only waits, answers, and logs what it can by the deadline.
    let (tx, rx) = mpsc::channel();
    let agent = args.agent.into();
    std::thread::spawn(move || {
        let _ = tx.send(decide(agent, budget_ms, &Env::Process));
    });
    let outcome = rx.recv_timeout(answer_by.saturating_duration_since(Instant::now())).unwrap_or_else(|_| {
        // The worker may still hold the input: the project comes from the environment.
        let reason = format!("no decision within {budget_ms}ms + {GRACE_MS}ms grace");
        Outcome {
            project: project(None, &env),
            events: vec![Event::DecisionTimeout { reason, command: None }],
            deny: None,
            session: None,
            agent_id: None,
        }
    });
    if let Some(reply) = &outcome.deny {
        super::print_json(reply, false)?;
    }
    if let Some(leo) = &outcome.project {
        log_events(leo, &outcome, log_by);
    }
    Ok(exit::OK)
}

/// The budget from the environment; a value that is not a positive number of milliseconds is
/// said once on stderr, and the default stands.
fn budget(env: &Env) -> u64 {
    match env.get(TIMEOUT_ENV) {
        None => DEFAULT_TIMEOUT_MS,
        Some(v) => match v.trim().parse::<u64>() {
            Ok(ms) if ms > 0 => ms,
            _ => {
                eprintln!(
                    "decisions: {TIMEOUT_ENV}={:?} is not a positive number of milliseconds; using {DEFAULT_TIMEOUT_MS}",
                    clip(&v, permission::NAME_MAX)
                );
                DEFAULT_TIMEOUT_MS
            }
        },
    }
}

/// What the worker decided: the events to log in the project, the reply, if any, and whose
/// session it was.
struct Outcome {
    project: Option<PathBuf>,
    events: Vec<Event>,
    deny: Option<Value>,
    session: Option<String>,
    agent_id: Option<String>,
}

fn decide(agent: permission::Agent, budget_ms: u64, env: &Env) -> Outcome {
    let mut input = Vec::new();
    let read = std::io::stdin().read_to_end(&mut input);
    // An agent may echo a provider's key (a command that prints it): every key the environment
    // holds for a known provider is out of the input before anything reads, clips, sends or
    // logs it. The project's own key variables join once its config is read.
    let builtin: Vec<String> =
        decisions::known_names().filter_map(decisions::builtin).filter_map(|d| d.auth_env).collect();
    let mut redactor = Redactor::from_env(env, builtin.iter().map(String::as_str));
    let hook = match read {
        Ok(_) => permission::read_call(agent, &input, &redactor),
        Err(_) => permission::read_call(agent, b"", &redactor),
    };
    let mut out = Outcome {
        project: project(hook.cwd.as_deref(), env),
        events: Vec::new(),
        deny: None,
        session: hook.session,
        agent_id: hook.agent_id,
    };
    let call = match hook.call {
        Ok(call) => call,
        Err(reason) => {
            out.events.push(Event::DecisionSkipped { reason });
            return out;
        }
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
    let own = config.config().map(|c| c.providers.values().filter_map(|d| d["auth_env"].as_str()).collect::<Vec<_>>());
    redactor.add_from_env(env, own.unwrap_or_default());
    let command = redactor.redact(&call.command);
    // A catalog that does not read or parse is left for the ask to name as its failure.
    let by_name = CatalogRef::Name(permission::CATALOG.into());
    let read_by = super::after(Instant::now(), budget_ms);
    let doc = decisions::load_catalog(Some(&by_name), Some(&leo), read_by).ok();
    let question = question_text(doc.as_ref().map(|d| &d.value));
    let request = Request {
        catalog: Some(doc.map_or(by_name, CatalogRef::Document)),
        questions: vec![permission::QUESTION.into()],
        state: json!({"command": command, "cwd": hook.cwd.as_ref().map(|c| c.display().to_string())}),
        leo_dir: Some(leo),
        config: Some(config),
        timeout_ms: Some(budget_ms),
        ..Request::default()
    };
    let decision = decisions::ask(&request, ());
    out.events.extend(decision.events.iter().cloned());
    let command = clip(&command, permission::COMMAND_MAX);
    match permission::verdict(&decision, &question) {
        Verdict::Deny { score, reason, .. } => {
            out.events.push(Event::DecisionDenied { command, score, question: permission::QUESTION.into() });
            out.deny = Some(call.event.deny(&format!("decisions: {reason}")));
        }
        Verdict::Allow(Some(reason)) => out.events.push(Event::DecisionTimeout { reason, command: Some(command) }),
        Verdict::Allow(None) => {}
    }
    out
}

/// The project's `.leopold`: from the `cwd` the agent sent, else `LEOPOLD_PROJECT_DIR`, else
/// the agent's project variable, else the working directory.
fn project(cwd: Option<&Path>, env: &Env) -> Option<PathBuf> {
    let named = env.get(decisions::PROJECT_ENV).filter(|d| !d.trim().is_empty()).map(PathBuf::from);
    if let Some(leo) = cwd.and_then(decisions::find_leo_dir) {
        return Some(leo);
    }
    if let Some(dir) = named {
        return Some(dir.join(".leopold")).filter(|l| l.is_dir());
    }
    let from_env = ["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"].iter().find_map(|v| env.get(v)).map(PathBuf::from);
    from_env.into_iter().chain(std::env::current_dir().ok()).find_map(|d| decisions::find_leo_dir(&d))
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

/// Append the events to the project's event log by `deadline`, in one write. A log that cannot
/// be written in time (a held lock, a FIFO, a stalled mount) is skipped with one line on
/// stderr, and never changes the verdict.
fn log_events(leo: &Path, outcome: &Outcome, deadline: Instant) {
    let events = &outcome.events;
    if events.is_empty() {
        return;
    }
    let ts = decisions::ledger::now_ts();
    let lines: Vec<Value> = events
        .iter()
        .map(|event| {
            let (session, agent_id) = (outcome.session.clone(), outcome.agent_id.clone());
            serde_json::to_value(LogLine { ts: ts.clone(), event, session, agent_id }).unwrap_or(Value::Null)
        })
        .collect();
    let path = leo.join("events.jsonl");
    let target = path.clone();
    let written = decisions::file::write_within(deadline, Duration::from_millis(SETTLE_MS), move |gate| {
        decisions::append_lines(&target, &lines, decisions::Versioning::Unversioned, deadline, gate)
    });
    if let Err(e) = written {
        eprintln!("decisions: {} not logged to {}: {e}", super::count(events.len(), "event"), path.display());
    }
}
