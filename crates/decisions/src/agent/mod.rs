//! The coding agents whose permission hooks `decisions hook` answers: Claude Code, Codex,
//! Gemini CLI, GitHub Copilot CLI and Cursor. Here are their hook protocols ([`read_call`] reads what each sends on stdin,
//! [`HookEvent::deny`] is the reply each event reads) and, in [`settings`], where each keeps
//! its hooks and how our entry is wired into them and taken out again.

pub mod settings;

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::secret::{Redactor, clip};

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
    /// GitHub Copilot CLI: `preToolUse`, shell tool `bash` (its hooks in `.github/hooks/*.json`).
    Copilot,
    /// Cursor: `beforeShellExecution`, every shell command (its hooks in `.cursor/hooks.json`).
    Cursor,
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
    /// Copilot CLI, as its own `hooks` files name it: every tool call, before it runs.
    CopilotPreToolUse,
    /// Cursor: every shell command, before it runs.
    BeforeShellExecution,
}

impl Agent {
    /// Every agent, in the order they are listed.
    pub const ALL: [Agent; 5] = [Agent::ClaudeCode, Agent::Codex, Agent::Gemini, Agent::Copilot, Agent::Cursor];

    /// The agent's name, as `decisions hook <name>` and `--agent <name>` write it.
    pub fn name(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "claude-code",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Copilot => "copilot",
            Agent::Cursor => "cursor",
        }
    }

    /// The agent as a person names it.
    pub fn title(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "Claude Code",
            Agent::Codex => "Codex",
            Agent::Gemini => "Gemini CLI",
            Agent::Copilot => "Copilot CLI",
            Agent::Cursor => "Cursor",
        }
    }

    /// The agent a name names.
    pub fn parse(name: &str) -> Option<Agent> {
        Agent::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The events its hook can be wired for, the default first.
    pub fn events(self) -> &'static [HookEvent] {
        match self {
            Agent::Gemini => &[HookEvent::BeforeTool],
            Agent::Copilot => &[HookEvent::CopilotPreToolUse],
            Agent::Cursor => &[HookEvent::BeforeShellExecution],
            Agent::ClaudeCode | Agent::Codex => &[HookEvent::PreToolUse, HookEvent::PermissionRequest],
        }
    }

    /// The name it gives the shell tool (what a hook's `matcher` names, and what it sends).
    pub fn shell_tool(self) -> &'static str {
        match self {
            Agent::ClaudeCode | Agent::Codex => "Bash",
            Agent::Gemini => "run_shell_command",
            Agent::Copilot => "bash",
            Agent::Cursor => "",
        }
    }

    /// Whether the tool is the agent's shell. Cursor's event is a shell command's own: it names
    /// no tool.
    pub fn is_shell(self, tool: &str) -> bool {
        match self {
            Agent::ClaudeCode => tool == "Bash",
            Agent::Codex => matches!(tool, "Bash" | "shell" | "exec_command" | "local_shell"),
            Agent::Gemini => tool == "run_shell_command",
            // Copilot's own files send `bash` (`powershell` on Windows); a Claude Code style
            // file it also reads sends `Bash`.
            Agent::Copilot => matches!(tool, "bash" | "Bash" | "powershell"),
            Agent::Cursor => true,
        }
    }

    /// The event named in the input; absent, the event this agent's hook is wired as by default.
    pub fn event(self, name: Option<&str>) -> Option<HookEvent> {
        match (self, name) {
            (Agent::Gemini, None | Some("BeforeTool")) => Some(HookEvent::BeforeTool),
            (Agent::Gemini, Some(_)) => None,
            // Copilot's own hook files send no event name; a Claude Code style one sends it.
            (Agent::Copilot, None | Some("preToolUse")) => Some(HookEvent::CopilotPreToolUse),
            (Agent::Copilot, Some("PreToolUse")) => Some(HookEvent::PreToolUse),
            (Agent::Copilot, Some(_)) => None,
            (Agent::Cursor, None | Some("beforeShellExecution")) => Some(HookEvent::BeforeShellExecution),
            (Agent::Cursor, Some(_)) => None,
            (_, None | Some("PreToolUse")) => Some(HookEvent::PreToolUse),
            (_, Some("PermissionRequest")) => Some(HookEvent::PermissionRequest),
            (_, Some(_)) => None,
        }
    }
}

impl HookEvent {
    /// The event's name, as the agents write it.
    pub fn name(self) -> &'static str {
        match self {
            HookEvent::PreToolUse => "PreToolUse",
            HookEvent::PermissionRequest => "PermissionRequest",
            HookEvent::BeforeTool => "BeforeTool",
            HookEvent::CopilotPreToolUse => "preToolUse",
            HookEvent::BeforeShellExecution => "beforeShellExecution",
        }
    }

    /// The event a name names.
    pub fn parse(name: &str) -> Option<HookEvent> {
        [
            HookEvent::PreToolUse,
            HookEvent::PermissionRequest,
            HookEvent::BeforeTool,
            HookEvent::CopilotPreToolUse,
            HookEvent::BeforeShellExecution,
        ]
        .into_iter()
        .find(|e| e.name() == name)
    }

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
            HookEvent::CopilotPreToolUse => json!({"permissionDecision": "deny", "permissionDecisionReason": reason}),
            HookEvent::BeforeShellExecution => {
                json!({"permission": "deny", "user_message": reason, "agent_message": reason})
            }
        }
    }

    /// Whether the agent sends this event only where it would ask a person: an agent that
    /// bypasses its permissions (a headless run, a `--yolo` mode) never sends it.
    pub fn asks_first(self) -> bool {
        self == HookEvent::PermissionRequest
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
    pub call: Result<ShellCall, NotJudged>,
}

/// Why the hook does not judge a call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotJudged {
    /// The input is not JSON.
    #[error("unreadable hook input")]
    Unreadable,
    /// An event whose reply cannot deny.
    #[error("not a permission event (\"{0}\")")]
    NotAPermissionEvent(String),
    /// Not the agent's shell, or no command.
    #[error("not a shell command (tool \"{0}\")")]
    NotAShellCommand(String),
}

/// A shell command the agent is about to run, in an event that can deny it.
#[derive(Debug, Clone, PartialEq)]
pub struct ShellCall {
    /// The event, which decides the reply's shape.
    pub event: HookEvent,
    /// The command, whole (only what is logged is clipped).
    pub command: String,
}

/// The input this agent sends its hook for a shell command in `cwd`, as its default event
/// carries it: what `hook test` plays.
pub fn sample_call(agent: Agent, cwd: &std::path::Path, command: &str) -> Value {
    let session = "decisions-hook-test";
    match agent {
        Agent::Copilot => json!({"sessionId": session, "timestamp": 0, "cwd": cwd,
            "toolName": agent.shell_tool(), "toolArgs": {"command": command}}),
        Agent::Cursor => json!({"conversation_id": session, "hook_event_name": agent.events()[0].name(),
            "workspace_roots": [cwd], "cwd": cwd, "command": command}),
        _ => json!({"session_id": session, "cwd": cwd, "hook_event_name": agent.events()[0].name(),
            "tool_name": agent.shell_tool(), "tool_input": {"command": command}}),
    }
}

/// Read a hook's stdin. Every key in `redactor` is taken out of it before anything reads it,
/// and every reason quotes at most a clip of what the agent sent.
pub fn read_call(agent: Agent, input: &[u8], redactor: &Redactor) -> HookInput {
    let Ok(mut hook) = serde_json::from_slice::<Value>(input) else {
        return HookInput { cwd: None, session: None, agent_id: None, call: Err(NotJudged::Unreadable) };
    };
    redactor.redact_value(&mut hook);
    let text = |key: &str| hook.get(key).and_then(Value::as_str);
    // Cursor names its workspace's roots beside (or instead of) a cwd.
    let root = hook.pointer("/workspace_roots/0").and_then(Value::as_str);
    let mut read = HookInput {
        cwd: text("cwd").or(root).map(PathBuf::from),
        session: text("session_id")
            .or(text("sessionId"))
            .or(text("conversation_id"))
            .map(|s| s.chars().take(SESSION_MAX).collect()),
        agent_id: text("agent_id").map(|s| clip(s, NAME_MAX)),
        call: Err(NotJudged::Unreadable),
    };
    let event_name = text("hook_event_name");
    read.call = match agent.event(event_name) {
        None => Err(NotJudged::NotAPermissionEvent(clip(event_name.unwrap_or(""), NAME_MAX))),
        Some(event) => {
            let tool = text("tool_name").or(text("toolName")).unwrap_or_default();
            match command_of(&hook).filter(|_| agent.is_shell(tool)) {
                Some(command) => Ok(ShellCall { event, command }),
                None => Err(NotJudged::NotAShellCommand(clip(tool, NAME_MAX))),
            }
        }
    };
    read
}

/// The command of a shell tool call: a string, or an argv array joined by spaces. Claude Code,
/// Codex and Gemini CLI send it in `tool_input`, Copilot CLI in `toolArgs` (an object, or that
/// object as JSON text), Cursor at the top level.
fn command_of(hook: &Value) -> Option<String> {
    let from_text = hook.get("toolArgs").and_then(Value::as_str).and_then(|t| serde_json::from_str::<Value>(t).ok());
    let command = hook
        .pointer("/tool_input/command")
        .or_else(|| hook.pointer("/toolArgs/command"))
        .or_else(|| from_text.as_ref().and_then(|v| v.get("command")))
        .or_else(|| hook.get("command"))?;
    match command {
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        Value::Array(parts) => {
            let words: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
            (!words.is_empty()).then(|| words.join(" "))
        }
        _ => None,
    }
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
    fn copilot_and_cursor_read_as_their_documents_and_runs_show() {
        // Copilot CLI 1.0.102 from its own `.github/hooks` file: no event name, camelCase.
        let copilot = json!({"sessionId": "9f8e7d6c5b4a", "timestamp": 1764600000000u64, "cwd": "/p",
            "toolName": "bash", "toolArgs": {"command": "rm -rf ~", "description": "clean"}});
        let r = read(Agent::Copilot, copilot);
        assert_eq!(r.call.clone().map(|c| (c.event, c.command)), Ok((HookEvent::CopilotPreToolUse, "rm -rf ~".into())));
        assert_eq!((r.cwd, r.session.as_deref()), (Some(PathBuf::from("/p")), Some("9f8e7d6c")));
        let text = json!({"toolName": "bash", "toolArgs": "{\"command\": \"ls\"}"});
        assert_eq!(read(Agent::Copilot, text).call.map(|c| c.command), Ok("ls".into()));
        assert!(read(Agent::Copilot, json!({"toolName": "edit", "toolArgs": {"command": "x"}})).call.is_err());
        // From a Claude Code style file, Copilot sends Claude Code's shape, and reads its reply.
        let pascal = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}});
        assert_eq!(read(Agent::Copilot, pascal).call.map(|c| c.event), Ok(HookEvent::PreToolUse));
        // Cursor: the command and its cwd at the top level.
        let cursor = json!({"hook_event_name": "beforeShellExecution", "conversation_id": "c0nv3rsat10n",
            "generation_id": "g", "workspace_roots": ["/w"], "command": "git push --force", "cwd": "/w/sub"});
        let r = read(Agent::Cursor, cursor);
        assert_eq!(r.call.map(|c| c.event), Ok(HookEvent::BeforeShellExecution));
        assert_eq!(r.cwd, Some(PathBuf::from("/w/sub")));
        let rooted = json!({"hook_event_name": "beforeShellExecution", "workspace_roots": ["/w"], "command": "ls"});
        assert_eq!(read(Agent::Cursor, rooted).cwd, Some(PathBuf::from("/w")));
        assert!(read(Agent::Cursor, json!({"hook_event_name": "afterFileEdit", "command": "x"})).call.is_err());
        // Each reply in the shape each reads.
        assert_eq!(
            HookEvent::CopilotPreToolUse.deny("r"),
            json!({"permissionDecision": "deny", "permissionDecisionReason": "r"})
        );
        assert_eq!(
            HookEvent::BeforeShellExecution.deny("r"),
            json!({"permission": "deny", "user_message": "r", "agent_message": "r"})
        );
    }

    #[test]
    fn what_the_agent_sent_is_quoted_clipped() {
        let r = read(Agent::ClaudeCode, json!({"tool_name": "T".repeat(10_000), "tool_input": {}}));
        assert!(r.call.as_ref().err().is_some_and(|e| e.to_string().chars().count() < NAME_MAX + 40), "{r:?}");
        assert_eq!(read_call(Agent::ClaudeCode, b"{oops", &Redactor::default()).call, Err(NotJudged::Unreadable));
    }
}
