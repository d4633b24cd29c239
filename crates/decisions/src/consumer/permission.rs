//! The permission consumer: the semantic second axis of a coding agent's permission hook.
//! It can only ever add a denial: it denies when the `destructive` answer is in the act band
//! and its score is at least [`DENY_AT`] on the 0..3 rubric; every other outcome allows.
//!
//! The agents' hook protocols live here too: [`read_call`] reads what Claude Code, Codex or
//! Gemini CLI send on stdin, and [`HookEvent::deny`] is the reply each event reads.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::answer::AnswerValue;
use crate::ask::Decision;
use crate::band::Band;
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
    Allow(Option<String>),
}

/// The verdict on a decision about a command. `question` is the text the denial quotes.
pub fn verdict<T>(decision: &Decision<T>, question: &str) -> Verdict {
    let band = decision.band(QUESTION).unwrap_or(Band::Floor);
    match decision.answer(QUESTION) {
        Some(Ok(a)) => {
            let AnswerValue::Score { score, legend } = &a.value else {
                return Verdict::Allow(Some(format!("{QUESTION} came back as a {}, not a score", a.type_name())));
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
                other => Verdict::Allow(Some(format!(
                    "the answer (score {}) fell in the {} band",
                    shown(*score),
                    other.as_str()
                ))),
            }
        }
        Some(Err(f)) => Verdict::Allow(Some(match &f.detail {
            Some(d) => format!("{}: {d}", f.reason),
            None => f.reason.to_string(),
        })),
        None => Verdict::Allow(Some(format!("no answer for {QUESTION}"))),
    }
}

/// How much of a command an event keeps.
pub const COMMAND_MAX: usize = 200;
/// How much of a name the agent sent (a tool, an event, an agent id) an event keeps.
pub const NAME_MAX: usize = 100;
/// How much of a session id an event keeps.
pub const SESSION_MAX: usize = 8;

/// The agents whose permission hooks this answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    /// Claude Code: `PreToolUse` or `PermissionRequest`, shell tool `Bash`.
    ClaudeCode,
    /// Codex CLI: the same events and replies as Claude Code.
    Codex,
    /// Gemini CLI: `BeforeTool`, shell tool `run_shell_command`.
    Gemini,
}

/// The hook events whose reply can deny.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookEvent {
    /// Claude Code and Codex: every tool call, before it runs.
    PreToolUse,
    /// Claude Code and Codex: only where a permission prompt would be shown.
    PermissionRequest,
    /// Gemini CLI: every tool call, before it runs.
    BeforeTool,
}

impl Agent {
    /// Whether the tool is the agent's shell.
    pub fn is_shell(self, tool: &str) -> bool {
        match self {
            Agent::ClaudeCode => tool == "Bash",
            Agent::Codex => matches!(tool, "Bash" | "shell" | "exec_command" | "local_shell"),
            Agent::Gemini => tool == "run_shell_command",
        }
    }

    /// The event named in the input; absent, the event this agent's hook is wired as by default.
    pub fn event(self, name: Option<&str>) -> Option<HookEvent> {
        match (self, name) {
            (Agent::Gemini, None | Some("BeforeTool")) => Some(HookEvent::BeforeTool),
            (Agent::Gemini, Some(_)) => None,
            (_, None | Some("PreToolUse")) => Some(HookEvent::PreToolUse),
            (_, Some("PermissionRequest")) => Some(HookEvent::PermissionRequest),
            (_, Some(_)) => None,
        }
    }
}

impl HookEvent {
    /// The deny reply, in the shape this event reads (and no field it does not).
    pub fn deny(self, reason: &str) -> Value {
        match self {
            HookEvent::PreToolUse => json!({"hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason
            }}),
            HookEvent::PermissionRequest => json!({"hookSpecificOutput": {
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": reason}
            }}),
            HookEvent::BeforeTool => json!({"decision": "deny", "reason": reason}),
        }
    }
}

/// What the agent sent, read and redacted.
#[derive(Debug, Clone, PartialEq)]
pub struct HookInput {
    /// The working directory the agent named.
    pub cwd: Option<PathBuf>,
    /// The first [`SESSION_MAX`] characters of `session_id`.
    pub session: Option<String>,
    /// The agent's `agent_id`, clipped.
    pub agent_id: Option<String>,
    /// The shell call to judge, or why there is none.
    pub call: Result<ShellCall, String>,
}

/// A shell command the agent is about to run, in an event that can deny it.
#[derive(Debug, Clone, PartialEq)]
pub struct ShellCall {
    /// The event, which decides the reply's shape.
    pub event: HookEvent,
    /// The command, whole (only what is logged is clipped).
    pub command: String,
}

/// Read a hook's stdin. Every key in `redactor` is taken out of it before anything reads it,
/// and every reason quotes at most a clip of what the agent sent.
pub fn read_call(agent: Agent, input: &[u8], redactor: &Redactor) -> HookInput {
    let Ok(mut hook) = serde_json::from_slice::<Value>(input) else {
        return HookInput { cwd: None, session: None, agent_id: None, call: Err("unreadable hook input".into()) };
    };
    redactor.redact_value(&mut hook);
    let text = |key: &str| hook.get(key).and_then(Value::as_str);
    let mut read = HookInput {
        cwd: text("cwd").map(PathBuf::from),
        session: text("session_id").map(|s| s.chars().take(SESSION_MAX).collect()),
        agent_id: text("agent_id").map(|s| clip(s, NAME_MAX)),
        call: Err(String::new()),
    };
    let event_name = text("hook_event_name");
    read.call = match agent.event(event_name) {
        None => Err(format!("not a permission event (\"{}\")", clip(event_name.unwrap_or(""), NAME_MAX))),
        Some(event) => {
            let tool = text("tool_name").unwrap_or_default();
            match command_of(&hook).filter(|_| agent.is_shell(tool)) {
                Some(command) => Ok(ShellCall { event, command }),
                None => Err(format!("not a shell command (tool \"{}\")", clip(tool, NAME_MAX))),
            }
        }
    };
    read
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

/// A score as a person reads it: at most two decimals, no trailing zeros.
fn shown(score: f64) -> String {
    let s = format!("{score:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(agent: Agent, input: Value) -> HookInput {
        read_call(agent, input.to_string().as_bytes(), &Redactor::default())
    }

    #[test]
    fn each_agent_and_event_reads_as_its_protocol_says() {
        let call = |event: &str, tool: &str| {
            json!({"hook_event_name": event, "tool_name": tool,
            "tool_input": {"command": "ls"}, "session_id": "0123456789", "agent_id": "a"})
        };
        let r = read(Agent::ClaudeCode, call("PermissionRequest", "Bash"));
        assert_eq!(r.call.map(|c| c.event), Ok(HookEvent::PermissionRequest));
        assert_eq!((r.session.as_deref(), r.agent_id.as_deref()), (Some("01234567"), Some("a")));
        assert_eq!(
            read(Agent::Codex, call("PreToolUse", "exec_command")).call.map(|c| c.event),
            Ok(HookEvent::PreToolUse)
        );
        assert_eq!(
            read(Agent::Gemini, call("BeforeTool", "run_shell_command")).call.map(|c| c.event),
            Ok(HookEvent::BeforeTool)
        );
        assert!(read(Agent::Gemini, call("PreToolUse", "run_shell_command")).call.is_err());
        assert!(read(Agent::ClaudeCode, call("PostToolUse", "Bash")).call.is_err());
        assert!(read(Agent::ClaudeCode, call("PreToolUse", "Edit")).call.is_err());
        let argv = json!({"tool_name": "shell", "tool_input": {"command": ["git", "push"]}});
        assert_eq!(read(Agent::Codex, argv).call.map(|c| c.command), Ok("git push".into()));
    }

    #[test]
    fn what_the_agent_sent_is_quoted_clipped() {
        let r = read(Agent::ClaudeCode, json!({"tool_name": "T".repeat(10_000), "tool_input": {}}));
        assert!(r.call.as_ref().err().is_some_and(|e| e.chars().count() < NAME_MAX + 40), "{r:?}");
        assert_eq!(
            read_call(Agent::ClaudeCode, b"{oops", &Redactor::default()).call,
            Err("unreadable hook input".into())
        );
    }

    #[test]
    fn scores_are_shown_briefly() {
        assert_eq!(shown(3.0), "3");
        assert_eq!(shown(2.5), "2.5");
        assert_eq!(shown(2.8765), "2.88");
    }
}
