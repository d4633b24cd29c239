//! `decisions hook <agent>`: the semantic second axis of a coding agent's permission hook, and
//! `decisions hook test`: what that hook would do with a command, as a person reads it.
//!
//! The hook reads the agent's hook JSON from stdin to the end and, for a shell command in a
//! project with a `permission.json`, asks `destructive`. It can only ever deny: everything else
//! prints nothing and exits 0, so the agent's own permission flow goes on. Each hook event is
//! answered in its own shape (`PreToolUse`, `PermissionRequest`, Gemini's `BeforeTool`). The
//! whole hook runs under one deadline, `LEOPOLD_DECISIONS_TIMEOUT_MS` (default 2000) plus
//! 250 ms of grace, whatever stdin, the filesystem or the provider do; events go to
//! `<project>/.leopold/events.jsonl`, and what cannot be logged in time is skipped. When the
//! project has a `permission.json` but nothing can be asked (no provider, no key, a malformed
//! config or catalog), one `decision_skipped` event says why.

use std::io::Read;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Instant;

use decisions::Env;
use decisions::agent::Agent;
use decisions::consumer::permission::{Outcome, Stage, decide};
use decisions::event::SETTLE;
use decisions::file::Gate;

use crate::exit::{self, CliError};
use crate::guard::{GRACE_MS, budget, within_deadline};

/// Answer an agent's permission hook, or show what it would do with a command
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Debug, clap::Subcommand)]
#[command(defer = true)]
enum Verb {
    /// Claude Code's hook: read its JSON on stdin; deny a destructive shell command, else stay silent
    ClaudeCode,
    /// Codex's hook: read its JSON on stdin; deny a destructive shell command, else stay silent
    Codex,
    /// Gemini CLI's hook: read its JSON on stdin; deny a destructive shell command, else stay silent
    Gemini,
    /// Copilot CLI's hook: read its JSON on stdin; deny a destructive shell command, else stay silent
    Copilot,
    /// Cursor's hook: read its JSON on stdin; deny a destructive shell command, else stay silent
    Cursor,
    /// Show what the hook would do with a command: provider, score, band, bar, verdict and why
    Test(TestArgs),
}

#[derive(Debug, clap::Args)]
struct TestArgs {
    /// The shell command the agent would run
    command: String,
    /// The agent whose hook to play
    #[arg(long, value_name = "AGENT", default_value = "claude-code", value_parser = crate::wiring::agent)]
    agent: Agent,
    /// The directory the agent runs in [default: the working directory]
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
    /// Print the result as JSON
    #[arg(long)]
    json: bool,
    /// Ask this provider instead of the project's (with its own permission catalog when the
    /// project has none, so `--provider builtin` works anywhere)
    #[arg(long, value_name = "NAME")]
    provider: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    match args.verb {
        Verb::ClaudeCode => answer(Agent::ClaudeCode),
        Verb::Codex => answer(Agent::Codex),
        Verb::Gemini => answer(Agent::Gemini),
        Verb::Copilot => answer(Agent::Copilot),
        Verb::Cursor => answer(Agent::Cursor),
        Verb::Test(t) => test(t),
    }
}

/// The hook itself: read stdin, decide within the deadline, answer, log.
fn answer(agent: Agent) -> anyhow::Result<u8> {
    let started = Instant::now();
    let env = Env::Process;
    let budget_ms = budget(&env);
    let log_by = crate::seam::after(started, budget_ms.saturating_add(GRACE_MS - SETTLE.as_millis() as u64));
    // The worker logs the events it decided once it has handed the outcome back; this thread
    // waits for that write until the log's deadline (a held lock, a FIFO, a stalled mount).
    let gate = Gate::default();
    let theirs = gate.clone();
    let (logged_tx, logged) = mpsc::sync_channel(1);
    let outcome = within_deadline(
        started,
        budget_ms,
        &env,
        move || {
            let mut input = Vec::new();
            let read = std::io::stdin().read_to_end(&mut input);
            decide(agent, if read.is_ok() { &input } else { b"" }, budget_ms, &Env::Process, None)
        },
        move |outcome| {
            let pending = outcome.project.clone().map(|leo| (lines(outcome), leo));
            move || {
                if let Some((bytes, leo)) = pending {
                    let _ = logged_tx.send(decisions::event::append_here(&leo, &bytes, log_by, &theirs));
                }
            }
        },
    );
    if let Some(reply) = &outcome.deny {
        crate::output::print_json(reply, false)?;
    }
    let Some(leo) = &outcome.project else { return Ok(exit::OK) };
    if let Stage::OutOfTime(_) = outcome.stage {
        // The worker is stalled: its events never land, and the timeout is logged from here.
        gate.abandon();
        let from = (outcome.session.as_deref(), outcome.agent_id.as_deref());
        crate::log::write_from(Some(leo), decisions::watch::HOOK, &outcome.events, from, log_by);
    } else if let Err(e) = decisions::file::await_write(&logged, &gate, log_by, SETTLE) {
        crate::log::not_logged(leo, outcome.events.len(), &e);
    }
    Ok(exit::OK)
}

/// The outcome's events as lines of the project's event log, naming the agent's session.
fn lines(outcome: &Outcome) -> Vec<u8> {
    let (session, agent_id) = (outcome.session.as_deref(), outcome.agent_id.as_deref());
    decisions::event::lines_of(decisions::watch::HOOK, &outcome.events, None, session, agent_id)
}

/// `hook test`: the same input the agent would send, the same deadline, no event written.
fn test(t: TestArgs) -> anyhow::Result<u8> {
    let cwd = match t.cwd {
        Some(dir) => dir,
        None => std::env::current_dir().map_err(|e| CliError::usage(format!("the working directory: {e}")))?,
    };
    let cwd = cwd.canonicalize().map_err(|e| CliError::usage(format!("--cwd {}: {e}", cwd.display())))?;
    let report = crate::guard::check(t.agent, &t.command, &cwd, t.provider.as_deref())
        .map_err(|e| CliError::usage(format!("--provider: {e}")))?;
    if t.json {
        crate::output::print_json(&report, false)?;
    } else {
        print!("{}", report.text());
    }
    Ok(exit::OK)
}
