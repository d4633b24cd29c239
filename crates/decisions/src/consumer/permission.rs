//! The permission consumer: the semantic second axis of a coding agent's permission hook.
//! It can only ever add a denial: it denies when the `destructive` answer is in the act band
//! and its score is at least [`DENY_AT`] on the 0..3 rubric; every other outcome allows.
//!
//! What the agents send and the reply that denies are theirs: [`crate::agent`]. [`decide`] is
//! the hook's whole decision (redaction, project, catalog, prepare, ask, verdict, events), so the
//! hook, `hook test` and anything else that asks as the hook does take one code path; the CLI
//! keeps reading stdin under its deadline, printing and logging.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::agent::Agent;
use crate::answer::{AnswerValue, FailureReason};
use crate::ask::{CatalogRef, Decision, Request};
use crate::band::Band;
use crate::config::Env;
use crate::event::Event;
use crate::secret::{Redactor, clip};

/// The catalog the hook asks from.
pub const CATALOG: &str = "permission";
/// The question the hook asks.
pub const QUESTION: &str = "destructive";
/// The lowest score that denies: the mass is on the top level.
pub const DENY_AT: f64 = 2.5;

/// What the hook does with a decision.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Turn the allow into a deny, quoting the score.
    Deny {
        /// The score, 0..3.
        score: f64,
        /// The levels above the lowest (3 on the shipped rubric).
        top: usize,
        /// The reason shown to the agent and the person.
        reason: String,
    },
    /// Stay out of the way. `Some` says why nothing usable came back (for a `decision_timeout`
    /// event); `None` is a usable answer that does not deny.
    Allow(Option<Fallback>),
}

/// Why the hook stood aside with nothing usable: what a `decision_timeout` event says.
#[derive(Debug, Clone, PartialEq)]
pub struct Fallback {
    /// Which kind of outcome it was.
    pub cause: Cause,
    /// What happened, as a person reads it.
    pub reason: String,
}

/// The kinds of fallback, which `watch` counts apart: an outage is not a slow provider, and
/// neither is an answer that was not sure enough.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// No decision within the budget: the provider's deadline or the hook's own.
    Timeout,
    /// The provider could not be reached: a refused, reset or failed connection, a name that
    /// does not resolve.
    Unreachable,
    /// The provider answered, but not with a usable answer (an HTTP error, a key it refused, a
    /// malformed or unsupported answer).
    Failed,
    /// A clean answer whose band is below act.
    Band,
}

impl Cause {
    /// The name the event's `cause` field carries.
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::Timeout => "timeout",
            Cause::Unreachable => "unreachable",
            Cause::Failed => "failed",
            Cause::Band => "band",
        }
    }

    /// The cause of a failed answer: a transport failure with no response at all is an
    /// outage; one with an HTTP status is the provider failing.
    pub fn of_failure(reason: FailureReason, detail: Option<&str>) -> Cause {
        match reason {
            FailureReason::Timeout => Cause::Timeout,
            FailureReason::Transport if detail.is_none_or(|d| d.starts_with(crate::transport::NO_RESPONSE)) => {
                Cause::Unreachable
            }
            _ => Cause::Failed,
        }
    }
}

/// Stand aside, saying why.
fn fall_back(cause: Cause, reason: String) -> Verdict {
    Verdict::Allow(Some(Fallback { cause, reason }))
}

/// The verdict on a decision about a command. `question` is the text the denial quotes.
pub fn verdict<T>(decision: &Decision<T>, question: &str) -> Verdict {
    let band = decision.band(QUESTION).unwrap_or(Band::Floor);
    match decision.answer(QUESTION) {
        Some(Ok(a)) => {
            let AnswerValue::Score { score, legend } = &a.value else {
                return fall_back(Cause::Failed, format!("{QUESTION} came back as a {}, not a score", a.type_name()));
            };
            let top = legend.as_object().map_or(3, |l| l.len().saturating_sub(1));
            match band {
                Band::Act if *score >= DENY_AT => Verdict::Deny {
                    score: *score,
                    top,
                    reason: format!(
                        "{}/{} scored it {} of {top} on \"{question}\"; the command was not run",
                        a.provider,
                        a.model,
                        shown(*score)
                    ),
                },
                Band::Act => Verdict::Allow(None),
                other => fall_back(
                    Cause::Band,
                    format!("the answer (score {}) fell in the {} band", shown(*score), other.as_str()),
                ),
            }
        }
        Some(Err(f)) => fall_back(
            Cause::of_failure(f.reason, f.detail.as_deref()),
            match &f.detail {
                Some(d) => format!("{}: {d}", f.reason),
                None => f.reason.to_string(),
            },
        ),
        None => fall_back(Cause::Failed, format!("no answer for {QUESTION}")),
    }
}

// ---- The hook's decision: one code path for the hook, `hook test` and what asks as they do --

/// What the hook did, at the stage it stopped.
pub enum Stage {
    /// The input is not a shell call in an event that can deny (logged as `decision_skipped`).
    NotAShellCall(String),
    /// No `.leopold` above the agent's directory: silent.
    NoProject,
    /// The project has no `permission.json`: silent.
    NoCatalog(PathBuf),
    /// `permission.json` is there but nothing can be asked (logged as `decision_skipped`).
    Skipped(String),
    /// The provider was asked.
    Asked {
        /// The decision.
        decision: Decision<()>,
        /// What the hook does with it.
        verdict: Verdict,
        /// The question's bars.
        thresholds: Option<crate::contract::Thresholds>,
    },
    /// The worker gave nothing by the deadline.
    OutOfTime(String),
}

/// What the worker decided: the stage it reached, the events to log in the project, the reply,
/// if any, and whose session it was.
pub struct Outcome {
    /// The project's `.leopold`, where the events are logged.
    pub project: Option<PathBuf>,
    /// The stage the hook reached.
    pub stage: Stage,
    /// The events to log.
    pub events: Vec<Event>,
    /// The reply that denies, in the shape the event reads; none to stay silent.
    pub deny: Option<Value>,
    /// The agent's session, clipped.
    pub session: Option<String>,
    /// The agent's id, clipped.
    pub agent_id: Option<String>,
}

/// What the hook decides. `chosen` (only `hook test --provider`) asks that provider, with the
/// permission catalog it would be seeded with where the project has none. The caller bounds it
/// with a deadline of its own (the hook runs it on a worker it stops waiting for): the
/// project's files are read on this thread, and only a provider's answer has a deadline here.
pub fn decide(agent: Agent, input: &[u8], budget_ms: u64, env: &Env, chosen: Option<&str>) -> Outcome {
    // An agent may echo a provider's key (a command that prints it): every key the environment
    // holds for a known provider is out of the input before anything reads, clips, sends or
    // logs it. The project's own key variables join once its config is read.
    let builtin = crate::descriptor::key_variables();
    let mut redactor = Redactor::from_env(env, builtin.iter().map(String::as_str));
    let hook = crate::agent::read_call(agent, input, &redactor);
    let mut out = Outcome {
        project: project(hook.cwd.as_deref(), env),
        stage: Stage::NoProject,
        events: Vec::new(),
        deny: None,
        session: hook.session,
        agent_id: hook.agent_id,
    };
    let call = match hook.call {
        Ok(call) => call,
        Err(reason) => {
            out.events.push(Event::DecisionSkipped { reason: reason.to_string() });
            out.stage = Stage::NotAShellCall(reason.to_string());
            return out;
        }
    };
    // No project or no permission.json: silent, and no network.
    let seeded = chosen.map(|p| {
        CatalogRef::Document(crate::json::Document {
            value: serde_json::from_str(crate::install::permission_for(Some(p))).unwrap_or_default(),
            duplicates: Vec::new(),
        })
    });
    let leo = match (out.project.clone(), &seeded) {
        (Some(leo), _) => Some(leo),
        (None, Some(_)) => None,
        (None, None) => return out,
    };
    let catalog = leo.as_deref().map(|l| crate::project::catalog_path(l, CATALOG));
    let has_catalog = catalog.as_ref().is_some_and(|c| c.is_file());
    if !has_catalog && seeded.is_none() {
        out.stage = Stage::NoCatalog(catalog.unwrap_or_default());
        return out;
    }
    // Each file is read once: what decides whether to ask is what the ask uses.
    let config = leo.as_deref().map_or(crate::config::ConfigFile::Missing, crate::config::load_config);
    let own = config.config().map(|c| c.providers.values().filter_map(|d| d["auth_env"].as_str()).collect::<Vec<_>>());
    redactor.add_from_env(env, own.unwrap_or_default());
    let command = redactor.redact(&call.command);
    let by_name = CatalogRef::Name(CATALOG.into());
    let doc = match (has_catalog, seeded) {
        // Read here, as the config was: the hook runs under one deadline (its caller's worker),
        // and a FIFO or device at the path is refused unread. One that does not read or parse
        // is left for `prepare` to read again and name.
        (true, _) => catalog.and_then(|path| {
            let bytes = crate::file::read_regular(&path);
            crate::ask::catalog_from(path, bytes).ok()
        }),
        (false, Some(CatalogRef::Document(d))) => Some(d),
        (false, _) => None,
    };
    let question = question_text(doc.as_ref().map(|d| &d.value));
    let request = Request {
        catalog: Some(doc.map_or(by_name, CatalogRef::Document)),
        questions: vec![QUESTION.into()],
        state: json!({"command": command, "cwd": hook.cwd.as_ref().map(|c| c.display().to_string())}),
        leo_dir: leo,
        config: Some(config),
        provider: chosen.map(|p| crate::ask::ProviderChoice::Name(p.to_string())),
        timeout_ms: Some(budget_ms),
        ..Request::default()
    };
    // Nothing can be asked (no provider, no key, a config or catalog that does not read or
    // validate): the agent hears nothing, and the log says why once.
    let prepared = match crate::ask::prepare(&request) {
        Ok(p) => p,
        Err(failed) => {
            let why = failed.answers.iter().find_map(|(_, r)| r.clone().err()).map_or_else(
                || "nothing could be asked".to_string(),
                |f| match f.detail {
                    Some(d) => format!("{}: {d}", f.reason),
                    None => f.reason.to_string(),
                },
            );
            out.events.push(Event::DecisionSkipped { reason: why.clone() });
            out.stage = Stage::Skipped(why);
            return out;
        }
    };
    let thresholds = prepared.catalog().question(QUESTION).map(|q| q.thresholds);
    let decision = prepared.ask(&request.state, ());
    out.events.extend(decision.events.iter().cloned());
    let command = clip(&command, COMMAND_MAX);
    let verdict = verdict(&decision, &question);
    match &verdict {
        Verdict::Deny { score, reason, .. } => {
            out.events.push(Event::DecisionDenied { command, score: *score, question: QUESTION.into() });
            out.deny = Some(call.event.deny(&format!("decisions: {reason}")));
        }
        Verdict::Allow(Some(fallback)) => out.events.push(Event::DecisionTimeout {
            reason: fallback.reason.clone(),
            cause: fallback.cause.as_str().into(),
            command: Some(command),
        }),
        Verdict::Allow(None) => {}
    }
    out.stage = Stage::Asked { decision, verdict, thresholds };
    out
}

/// The project's `.leopold`: from the `cwd` the agent sent, else `LEOPOLD_PROJECT_DIR`, else
/// the agent's project variable, else the working directory.
pub fn project(cwd: Option<&Path>, env: &Env) -> Option<PathBuf> {
    let named = env.get(crate::project::PROJECT_ENV).filter(|d| !d.trim().is_empty()).map(PathBuf::from);
    if let Some(leo) = cwd.and_then(crate::project::find_leo_dir) {
        return Some(leo);
    }
    if let Some(dir) = named {
        return Some(dir.join(".leopold")).filter(|l| l.is_dir());
    }
    let from_env = ["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"].iter().find_map(|v| env.get(v)).map(PathBuf::from);
    from_env.into_iter().chain(std::env::current_dir().ok()).find_map(|d| crate::project::find_leo_dir(&d))
}

/// The question as the catalog words it, for the denial to quote.
pub fn question_text(doc: Option<&Value>) -> String {
    let instructions = doc.and_then(|d| d.pointer(&format!("/questions/{}/instructions", QUESTION)));
    match instructions {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.get("question").and_then(Value::as_str).unwrap_or(QUESTION).to_string(),
        None => QUESTION.to_string(),
    }
}

/// How much of a command an event keeps.
pub const COMMAND_MAX: usize = 200;

/// A score as a person reads it: at most two decimals, no trailing zeros.
fn shown(score: f64) -> String {
    let s = format!("{score:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_shown_briefly() {
        assert_eq!(shown(3.0), "3");
        assert_eq!(shown(2.5), "2.5");
        assert_eq!(shown(2.8765), "2.88");
    }
}
