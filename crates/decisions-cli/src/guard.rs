//! What the permission hook would do with a command, as `hook test` and `decisions mcp`'s
//! `guard_check` say it: the hook's own decision (`decisions::consumer::permission::decide`)
//! played on the input the agent would send, under the hook's deadline, writing no event.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Instant;

use decisions::agent::{Agent, HookEvent};
use decisions::consumer::permission::{self, Outcome, Stage, Verdict, decide, project};
use decisions::{Env, Event, clip};
use serde_json::Value;

/// The hook's budget when `LEOPOLD_DECISIONS_TIMEOUT_MS` does not say.
const DEFAULT_TIMEOUT_MS: u64 = 2000;
/// Time past the budget before the hook has answered, logged, and exited.
pub const GRACE_MS: u64 = 250;
/// The hook worker's stack, in bytes.
const WORKER_STACK: usize = 16 << 20;
/// The variable that sets the budget.
const TIMEOUT_ENV: &str = "LEOPOLD_DECISIONS_TIMEOUT_MS";

/// What the hook would do with `command` run in `cwd` (canonical) by `agent`: the same input
/// the agent would send, the same deadline, no event written. `provider` asks that provider
/// instead of the project's; an unknown one is refused before anything is asked.
pub fn check(agent: Agent, command: &str, cwd: &Path, provider: Option<&str>) -> Result<Report, String> {
    if let Some(p) = provider {
        decisions::install::check_provider(p).map_err(|e| e.to_string())?;
    }
    let event = agent.events()[0];
    let input = decisions::agent::sample_call(agent, cwd, command);
    let started = Instant::now();
    let env = Env::Process;
    let budget_ms = budget(&env);
    let bytes = input.to_string().into_bytes();
    let chosen = provider.map(String::from);
    let outcome = within_deadline(
        started,
        budget_ms,
        &env,
        move || decide(agent, &bytes, budget_ms, &Env::Process, chosen.as_deref()),
        |_| || {},
    );
    let elapsed_ms = started.elapsed().as_millis() as u64;
    Ok(Report::of(&outcome, agent, event, command, cwd, elapsed_ms, budget_ms))
}

/// Run the hook's work on a worker and wait for it until the deadline (the budget plus half
/// the grace): whatever stalls, an outcome comes back in time. What `then` makes of the
/// outcome runs on the same worker once the outcome is handed back (the hook logs its events
/// there, and waits for that write no longer than its own deadline), so a stalled write never
/// holds up the answer and costs no thread of its own.
pub fn within_deadline<F: FnOnce() + Send + 'static>(
    started: Instant,
    budget_ms: u64,
    env: &Env,
    work: impl FnOnce() -> Outcome + Send + 'static,
    then: impl FnOnce(&Outcome) -> F + Send + 'static,
) -> Outcome {
    let answer_by = crate::seam::after(started, budget_ms.saturating_add(GRACE_MS / 2));
    let (tx, rx) = mpsc::channel();
    // A roomy stack: the command is parsed as a program here (docs/builtin-model.md).
    let spawned = std::thread::Builder::new().stack_size(WORKER_STACK).spawn(move || {
        let outcome = work();
        let after = then(&outcome);
        if tx.send(outcome).is_ok() {
            after();
        }
    });
    drop(spawned);
    rx.recv_timeout(answer_by.saturating_duration_since(Instant::now())).unwrap_or_else(|_| {
        // The worker may still hold the input: the project comes from the environment.
        let reason = format!("no decision within {budget_ms}ms + {GRACE_MS}ms grace");
        Outcome {
            project: project(None, env),
            stage: Stage::OutOfTime(reason.clone()),
            events: vec![Event::DecisionTimeout {
                reason,
                cause: permission::Cause::Timeout.as_str().into(),
                command: None,
            }],
            deny: None,
            session: None,
            agent_id: None,
        }
    })
}

/// The budget from the environment; a value that is not a positive number of milliseconds is
/// said once on stderr, and the default stands.
pub fn budget(env: &Env) -> u64 {
    match env.get(TIMEOUT_ENV) {
        None => DEFAULT_TIMEOUT_MS,
        Some(v) => match v.trim().parse::<u64>() {
            Ok(ms) if ms > 0 => ms,
            _ => {
                eprintln!(
                    "decisions: {TIMEOUT_ENV}={:?} is not a positive number of milliseconds; using {DEFAULT_TIMEOUT_MS}",
                    decisions::escape::terminal(&clip(&v, decisions::agent::NAME_MAX))
                );
                DEFAULT_TIMEOUT_MS
            }
        },
    }
}

/// What `hook test` says.
#[derive(serde::Serialize)]
pub struct Report {
    agent: &'static str,
    event: &'static str,
    command: String,
    project: Option<PathBuf>,
    provider: Option<String>,
    source: Option<String>,
    model: Option<String>,
    score: Option<f64>,
    top: Option<usize>,
    band: Option<String>,
    certainty: Option<f64>,
    bar: Option<f64>,
    verdict: &'static str,
    why: String,
    reply: Option<Value>,
    elapsed_ms: u64,
    budget_ms: u64,
}

impl Report {
    fn of(
        o: &Outcome,
        agent: Agent,
        event: HookEvent,
        command: &str,
        cwd: &Path,
        elapsed_ms: u64,
        budget_ms: u64,
    ) -> Report {
        let mut r = Report {
            agent: agent.name(),
            event: event.name(),
            command: command.to_string(),
            project: o.project.as_ref().and_then(|l| l.parent().map(Path::to_path_buf)),
            provider: None,
            source: None,
            model: None,
            score: None,
            top: None,
            band: None,
            certainty: None,
            bar: None,
            verdict: if o.deny.is_some() { "deny" } else { "stand aside" },
            why: String::new(),
            reply: o.deny.clone(),
            elapsed_ms,
            budget_ms,
        };
        r.why = match &o.stage {
            Stage::NotAShellCall(why) => format!("the hook does not judge this call: {why}"),
            Stage::NoProject => format!(
                "no .leopold at or above {}: the hook is silent there (decisions install --agent {} sets one up)",
                cwd.display(),
                agent.name()
            ),
            Stage::NoCatalog(path) => format!(
                "no {}: the hook is silent, and asks nothing (decisions install --agent {} copies it)",
                path.display(),
                agent.name()
            ),
            Stage::Skipped(why) => {
                format!("nothing can be asked ({why}); the hook logs one decision_skipped event and stays silent")
            }
            Stage::OutOfTime(why) => format!("{why}; the hook stays silent and logs decision_timeout"),
            Stage::Asked { decision, verdict, thresholds } => {
                r.provider = Some(decision.provider.clone());
                r.source = Some(decision.source.to_string());
                r.band = decision.band(permission::QUESTION).map(|b| b.as_str().to_string());
                r.bar = thresholds.map(|t| t.act);
                if let Some(Ok(a)) = decision.answer(permission::QUESTION) {
                    r.model = Some(a.model.clone());
                    r.certainty = decisions::certainty_of(a);
                    if let decisions::AnswerValue::Score { score, legend } = &a.value {
                        r.score = Some(*score);
                        r.top = legend.as_object().map(|l| l.len().saturating_sub(1));
                    }
                }
                match verdict {
                    Verdict::Deny { reason, .. } => reason.clone(),
                    Verdict::Allow(Some(why)) if why.cause == permission::Cause::Band => {
                        format!("{}; the agent's own permission flow decides", why.reason)
                    }
                    Verdict::Allow(Some(why)) => {
                        format!("{} ({}); the agent's own permission flow decides", why.reason, why.cause.as_str())
                    }
                    Verdict::Allow(None) => format!(
                        "the score is below {} of {}: the agent's own permission flow decides",
                        permission::DENY_AT,
                        r.top.unwrap_or(3)
                    ),
                }
            }
        };
        r
    }

    pub fn text(&self) -> String {
        let f = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.2}"));
        // Each value may quote a command, a model or a server: shown inert, on its own line.
        let t = |s: &str| decisions::escape::terminal(s).into_owned();
        let mut out = format!("decisions hook test: {} ({}, {})\n", t(&self.command), self.agent, self.event);
        if let Some(p) = &self.project {
            out.push_str(&format!("project    {}\n", t(&p.display().to_string())));
        }
        if let Some(p) = &self.provider {
            out.push_str(&format!(
                "provider   {} (source: {}), model {}\n",
                t(p),
                self.source.as_deref().unwrap_or("-"),
                t(self.model.as_deref().unwrap_or("-"))
            ));
        }
        if self.score.is_some() {
            out.push_str(&format!("score      {} of {}\n", f(self.score), self.top.unwrap_or(3)));
        }
        if let Some(b) = &self.band {
            out.push_str(&format!("band       {b}: certainty {}, act bar {}\n", f(self.certainty), f(self.bar)));
        }
        out.push_str(&format!("verdict    {}: {}\n", self.verdict, t(&self.why)));
        out.push_str(&format!("took       {} ms of a {} ms budget\n", self.elapsed_ms, self.budget_ms));
        out
    }
}
