//! Where each agent keeps its hooks, and our entry in them: wired by `install --agent`, found
//! by `doctor`, taken out by `remove --agent`. Everything else in the file is kept byte for byte:
//! the edits go through a concrete syntax tree (`jsonc-parser` for JSON, `toml_edit` for TOML),
//! so the user's other keys, hooks, comments, order and formatting stay as they were, and a
//! second run changes nothing.
//!
//! | agent | project | user | our entry |
//! |---|---|---|---|
//! | Claude Code | `.claude/settings.json` | `~/.claude/settings.json` | `hooks.<Event>[]`: `{"matcher": "Bash", "hooks": [{"type": "command", "command": ..., "timeout": 5}]}` |
//! | Codex | `.codex/config.toml` | `~/.codex/config.toml` | `[[hooks.<Event>]]` `matcher = "Bash"`, `[[hooks.<Event>.hooks]]` `type`, `command`, `timeout = 5` |
//! | Gemini CLI | `.gemini/settings.json` | `~/.gemini/settings.json` | `hooks.BeforeTool[]`: `{"matcher": "run_shell_command", "hooks": [{"name": "decisions", "type": "command", "command": ..., "timeout": 5000}]}` |
//! | Copilot CLI | `.github/hooks/decisions.json` | `~/.copilot/hooks/decisions.json` | `hooks.preToolUse[]`: `{"type": "command", "bash": ..., "timeoutSec": 5}` in `{"version": 1, ...}` |
//! | Cursor | `.cursor/hooks.json` | `~/.cursor/hooks.json` | `hooks.beforeShellExecution[]`: `{"command": ..., "timeout": 5}` in `{"version": 1, ...}` |
//!
//! Timeouts are seconds but for Gemini CLI's milliseconds. A hook entry is ours when its
//! command runs a program named `decisions` with `hook <agent>`. Copilot's and Cursor's entries
//! are flat (the entry is the hook); the others' nest hooks in a group with a matcher.

use std::path::{Path, PathBuf};

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstObjectProp, CstRootNode};
use toml_edit::{ArrayOfTables, DocumentMut, Item, Table, TableLike, Value};

use crate::agent::{Agent, HookEvent};
use crate::config::Env;

/// Whose settings: the project's (checked in, for everyone working on it) or the user's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The project's own settings file.
    Project,
    /// The user's, for every project.
    User,
}

impl Scope {
    /// The scope's name, as `--scope` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::User => "user",
        }
    }
}

/// How long an agent waits for our hook before it gives up on it, in seconds. The hook answers
/// within `LEOPOLD_DECISIONS_TIMEOUT_MS` (2000 by default) plus 250 ms.
pub const AGENT_TIMEOUT_S: u64 = 5;

/// An agent's settings file for a scope: the project's under `project`, the user's under the
/// agent's home (`CLAUDE_CONFIG_DIR` or `~/.claude`, `CODEX_HOME` or `~/.codex`, `~/.gemini`).
pub fn settings_path(agent: Agent, scope: Scope, project: &Path, env: &Env) -> PathBuf {
    let home = |var: &str, dir: &str| {
        env.get(var)
            .map(PathBuf::from)
            .unwrap_or_else(|| env.get("HOME").map(PathBuf::from).unwrap_or_default().join(dir))
    };
    match (agent, scope) {
        (Agent::ClaudeCode, Scope::Project) => project.join(".claude").join("settings.json"),
        (Agent::ClaudeCode, Scope::User) => home("CLAUDE_CONFIG_DIR", ".claude").join("settings.json"),
        (Agent::Codex, Scope::Project) => project.join(".codex").join("config.toml"),
        (Agent::Codex, Scope::User) => home("CODEX_HOME", ".codex").join("config.toml"),
        (Agent::Gemini, Scope::Project) => project.join(".gemini").join("settings.json"),
        (Agent::Gemini, Scope::User) => home("GEMINI_CLI_HOME", ".gemini").join("settings.json"),
        (Agent::Copilot, Scope::Project) => project.join(".github").join("hooks").join("decisions.json"),
        (Agent::Copilot, Scope::User) => home("COPILOT_HOME", ".copilot").join("hooks").join("decisions.json"),
        (Agent::Cursor, Scope::Project) => project.join(".cursor").join("hooks.json"),
        (Agent::Cursor, Scope::User) => home("CURSOR_HOME", ".cursor").join("hooks.json"),
    }
}

/// How an agent's JSON settings hold a hook: Claude Code and Gemini CLI nest it in a group
/// with a matcher; Copilot CLI and Cursor list it flat, under a `version`, its command in a key
/// of their own.
struct Layout {
    /// The hook sits in `hooks.<Event>[].hooks[]` (else in `hooks.<Event>[]`).
    nested: bool,
    /// The key holding its command.
    command: &'static str,
    /// The file carries `"version": 1`.
    versioned: bool,
}

fn layout(agent: Agent) -> Layout {
    match agent {
        Agent::Copilot => Layout { nested: false, command: "bash", versioned: true },
        Agent::Cursor => Layout { nested: false, command: "command", versioned: true },
        _ => Layout { nested: true, command: "command", versioned: false },
    }
}

/// The command our hook runs: `<program> hook <agent>`, the program quoted for a shell when
/// it holds anything a shell would split or expand.
pub fn hook_command(program: &str, agent: Agent) -> String {
    let plain = !program.is_empty()
        && program.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '+' | ':' | '@'));
    let program = if plain { program.to_string() } else { format!("'{}'", program.replace('\'', "'\\''")) };
    format!("{program} hook {}", agent.name())
}

/// The program a hook command of ours runs, unquoted; none when the command is not ours (it
/// must run a program named `decisions` with `hook <agent>`).
pub fn our_program(command: &str, agent: Agent) -> Option<String> {
    let program = command.trim().strip_suffix(&format!(" hook {}", agent.name()))?.trim();
    let program = match program.strip_prefix('\'').and_then(|p| p.strip_suffix('\'')) {
        Some(quoted) => quoted.replace("'\\''", "'"),
        None => program.strip_prefix('"').and_then(|p| p.strip_suffix('"')).unwrap_or(program).to_string(),
    };
    Path::new(&program).file_name().is_some_and(|n| n == "decisions").then_some(program)
}

/// One of our hooks, as an agent's settings hold it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wired {
    /// The event it is wired for (`PreToolUse`, `PermissionRequest`, `BeforeTool`).
    pub event: String,
    /// The command it runs.
    pub command: String,
}

/// What an edit does to a settings file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// Nothing to change: not a byte is written.
    Unchanged,
    /// The file's new text.
    Write(String),
    /// The file held nothing but what we wrote into it: it goes.
    Delete,
}

/// Why a settings file is left as it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// It does not parse.
    #[error("{}:{line}:{column}: does not parse: {message}; it is left as it is", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// The column, from 1.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// It parses, but a part we would write into is of another shape.
    #[error("{}: {at} is {found}, not {expected}; it is left as it is", path.display())]
    Shape {
        /// The file.
        path: PathBuf,
        /// Where (`hooks`, `hooks.PreToolUse`).
        at: String,
        /// What it should be.
        expected: &'static str,
        /// What it is.
        found: &'static str,
    },
}

/// Our hooks in an agent's settings text (empty when it holds none, or there is no text).
pub fn wired(text: &str, agent: Agent, path: &Path) -> Result<Vec<Wired>, SettingsError> {
    found_in(text, agent, path, Filed::Known)
}

/// Our hooks filed under an event the agent never sends (a typo, `PreToolUsage`): the agent
/// never runs them. Empty when there are none, or the text does not parse.
pub fn misfiled(text: &str, agent: Agent) -> Vec<Wired> {
    found_in(text, agent, Path::new(""), Filed::Misfiled).unwrap_or_default()
}

/// Which of our hooks a walk of a settings file finds: those under an event the agent sends,
/// or those under any other name.
#[derive(Clone, Copy, PartialEq)]
enum Filed {
    Known,
    Misfiled,
}

impl Filed {
    fn keeps(self, agent: Agent, event: &str) -> bool {
        agent.events().iter().any(|e| e.name() == event) == (self == Filed::Known)
    }
}

fn found_in(text: &str, agent: Agent, path: &Path, filed: Filed) -> Result<Vec<Wired>, SettingsError> {
    match agent {
        Agent::Codex => {
            let doc = parse_toml(text, path)?;
            Ok(toml_found(&doc, agent, filed).into_iter().map(|f| f.wired).collect())
        }
        _ => {
            let root = parse_json(text, agent, path)?;
            let Some(obj) = root.object_value() else { return Ok(Vec::new()) };
            Ok(json_found(&obj, agent, path, filed)?.into_iter().map(|f| f.wired).collect())
        }
    }
}

/// Wire our hook for `event` into an agent's settings text (`None`: there is no file yet). An
/// entry of ours already there for that event is kept where it is, its command brought up to
/// date; ours for another event is taken out; nothing else changes.
pub fn wire(
    text: Option<&str>,
    agent: Agent,
    event: HookEvent,
    command: &str,
    path: &Path,
) -> Result<Edit, SettingsError> {
    let original = text.unwrap_or_default();
    let out = match agent {
        Agent::Codex => wire_toml(original, agent, event, command, path)?,
        _ => wire_json(original, agent, event, command, path)?,
    };
    Ok(if out == original { Edit::Unchanged } else { Edit::Write(out) })
}

/// Take our hooks out of an agent's settings text, and nothing else. A group, event list or
/// `hooks` table left empty by that goes too; a file left holding nothing is deleted.
pub fn unwire(text: &str, agent: Agent, path: &Path) -> Result<Edit, SettingsError> {
    let out = match agent {
        Agent::Codex => {
            let mut doc = parse_toml(text, path)?;
            let found = toml_found(&doc, agent, Filed::Known);
            if found.is_empty() {
                return Ok(Edit::Unchanged);
            }
            toml_remove(&mut doc, &found);
            doc.to_string()
        }
        _ => {
            let root = parse_json(text, agent, path)?;
            let Some(obj) = root.object_value() else { return Ok(Edit::Unchanged) };
            let found = json_found(&obj, agent, path, Filed::Known)?;
            if found.is_empty() {
                return Ok(Edit::Unchanged);
            }
            json_remove(&obj, found);
            root.to_string()
        }
    };
    let bare: String = out.chars().filter(|c| !c.is_whitespace()).collect();
    let empty = match agent {
        Agent::Codex => out.trim().is_empty(),
        // What a versioned file holds when only ours was in it.
        _ if layout(agent).versioned => bare == "{}" || bare == "{\"version\":1}",
        _ => bare == "{}",
    };
    Ok(if empty { Edit::Delete } else { Edit::Write(out) })
}

/// The switch in a Gemini CLI settings text that keeps our hook from running, when one does.
/// Gemini CLI 0.61 runs hooks with nothing enabled (`hooksConfig.enabled` defaults to true);
/// `hooksConfig.enabled: false` turns every hook off, and `hooksConfig.disabled` listing our
/// hook's name (`decisions`) turns ours off. None when the text turns nothing off (or does not
/// parse: that is said elsewhere).
pub fn gemini_hooks_off(text: &str) -> Option<&'static str> {
    let v = CstRootNode::parse(text, &json_options()).ok()?.to_serde_value()?;
    if v.pointer("/hooksConfig/enabled") == Some(&serde_json::Value::Bool(false)) {
        return Some("hooksConfig.enabled: false");
    }
    let disabled = v.pointer("/hooksConfig/disabled").and_then(serde_json::Value::as_array);
    disabled
        .is_some_and(|d| d.iter().any(|n| n.as_str() == Some(GEMINI_HOOK_NAME)))
        .then_some("hooksConfig.disabled lists \"decisions\"")
}

/// The name our Gemini CLI hook goes by (what `hooksConfig.disabled` would list).
pub const GEMINI_HOOK_NAME: &str = "decisions";

/// The trust level Codex's user config gives a project (`[projects."<path>"] trust_level`),
/// looked up by the project's path as written and as resolved. Codex loads a project's
/// `.codex/config.toml` only when it is `trusted`.
pub fn codex_trust_level(text: &str, project: &Path) -> Option<String> {
    let doc = text.parse::<DocumentMut>().ok()?;
    let projects = doc.get("projects")?.as_table_like()?;
    let resolved = project.canonicalize().ok();
    let keys = [Some(project.to_path_buf()), resolved];
    keys.iter().flatten().find_map(|k| {
        let entry = projects.get(&k.display().to_string())?.as_table_like()?;
        entry.get("trust_level")?.as_str().map(str::to_string)
    })
}

// ---- JSON (Claude Code, Gemini CLI) ----------------------------------------------------------

/// JSON as the agents read it: comments and trailing commas allowed (Gemini CLI strips
/// comments; a user's are kept either way), nothing looser.
fn json_options() -> ParseOptions {
    ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

fn parse_json(text: &str, _agent: Agent, path: &Path) -> Result<CstRootNode, SettingsError> {
    let text = if text.trim().is_empty() { "{}\n" } else { text };
    let root = CstRootNode::parse(text, &json_options()).map_err(|e| SettingsError::Parse {
        path: path.to_path_buf(),
        line: e.line_display(),
        column: e.column_display(),
        message: e.kind().to_string(),
    })?;
    match root.value() {
        None => Ok(root),
        Some(v) if v.as_object().is_some() => Ok(root),
        Some(v) => Err(shape(path, "the document", "an object", kind_of(&v))),
    }
}

fn shape(path: &Path, at: &str, expected: &'static str, found: &'static str) -> SettingsError {
    SettingsError::Shape { path: path.to_path_buf(), at: at.to_string(), expected, found }
}

fn kind_of(node: &CstNode) -> &'static str {
    if node.as_array().is_some() {
        "an array"
    } else if node.as_object().is_some() {
        "an object"
    } else if node.as_string_lit().is_some() {
        "a string"
    } else {
        "a value"
    }
}

/// One of our hooks in a JSON settings file, with the nodes it sits in (for a flat layout,
/// `group` is the hook and `hooks` the event's list).
struct JsonFound {
    nested: bool,
    wired: Wired,
    prop: CstObjectProp,
    groups: CstArray,
    group: CstNode,
    hooks: CstArray,
    hook: CstNode,
}

/// The `hooks` object, when the file has one (an error when it is of another shape).
fn json_hooks(obj: &CstObject, path: &Path) -> Result<Option<CstObject>, SettingsError> {
    match obj.get("hooks").and_then(|p| p.value()) {
        None => Ok(None),
        Some(v) => v.as_object().map(Some).ok_or_else(|| shape(path, "hooks", "an object", kind_of(&v))),
    }
}

fn json_found(obj: &CstObject, agent: Agent, path: &Path, filed: Filed) -> Result<Vec<JsonFound>, SettingsError> {
    let Some(hooks) = json_hooks(obj, path)? else { return Ok(Vec::new()) };
    let layout = layout(agent);
    let command_of = |hook: &CstNode| {
        let command = hook.as_object().and_then(|h| h.get(layout.command)).and_then(|c| c.value());
        command.and_then(|c| c.as_string_lit()).and_then(|s| s.decoded_value().ok())
    };
    let mut found = Vec::new();
    for prop in hooks.properties() {
        let Some(event) = prop.decoded_name().filter(|n| filed.keeps(agent, n)) else { continue };
        let Some(groups) = prop.value().and_then(|v| v.as_array()) else { continue };
        for group in groups.elements() {
            let (inner, members) = if layout.nested {
                let Some(inner) = group.as_object().and_then(|g| g.array_value("hooks")) else { continue };
                let members = inner.elements();
                (inner, members)
            } else {
                (groups.clone(), vec![group.clone()])
            };
            for hook in members {
                let Some(command) = command_of(&hook).filter(|c| our_program(c, agent).is_some()) else { continue };
                found.push(JsonFound {
                    nested: layout.nested,
                    wired: Wired { event: event.clone(), command },
                    prop: prop.clone(),
                    groups: groups.clone(),
                    group: group.clone(),
                    hooks: inner.clone(),
                    hook,
                });
            }
        }
    }
    Ok(found)
}

/// Remove found hooks, then whatever that leaves empty: the group, the event's list, `hooks`.
fn json_remove(obj: &CstObject, found: Vec<JsonFound>) {
    for f in found.into_iter().rev() {
        f.hook.remove();
        if f.nested && f.hooks.elements().is_empty() {
            f.group.remove();
        }
        if f.groups.elements().is_empty() {
            f.prop.remove();
        }
    }
    if let Some(hooks) = obj.get("hooks")
        && hooks.value().and_then(|v| v.as_object()).is_some_and(|h| h.properties().is_empty())
    {
        hooks.remove();
    }
}

fn json_entry(agent: Agent, command: &str) -> CstInputValue {
    let s = |v: &str| CstInputValue::String(v.to_string());
    let seconds = || CstInputValue::Number(AGENT_TIMEOUT_S.to_string());
    match agent {
        Agent::Copilot => {
            return CstInputValue::Object(vec![
                ("type".to_string(), s("command")),
                ("bash".to_string(), s(command)),
                ("timeoutSec".to_string(), seconds()),
            ]);
        }
        Agent::Cursor => {
            return CstInputValue::Object(vec![
                ("command".to_string(), s(command)),
                ("timeout".to_string(), seconds()),
            ]);
        }
        _ => {}
    }
    let mut hook = Vec::new();
    if agent == Agent::Gemini {
        hook.push(("name".to_string(), s(GEMINI_HOOK_NAME)));
    }
    hook.push(("type".to_string(), s("command")));
    hook.push(("command".to_string(), s(command)));
    let timeout = if agent == Agent::Gemini { AGENT_TIMEOUT_S * 1000 } else { AGENT_TIMEOUT_S };
    hook.push(("timeout".to_string(), CstInputValue::Number(timeout.to_string())));
    CstInputValue::Object(vec![
        ("matcher".to_string(), s(agent.shell_tool())),
        ("hooks".to_string(), CstInputValue::Array(vec![CstInputValue::Object(hook)])),
    ])
}

fn wire_json(text: &str, agent: Agent, event: HookEvent, command: &str, path: &Path) -> Result<String, SettingsError> {
    let fresh = text.trim().is_empty();
    let root = parse_json(text, agent, path)?;
    let obj = root.object_value_or_set();
    let mut found = json_found(&obj, agent, path, Filed::Known)?;
    if let Some(keep) = found.iter().position(|f| f.wired.event == event.name()) {
        let kept = found.remove(keep);
        if kept.wired.command != command
            && let Some(c) = kept.hook.as_object().and_then(|h| h.get(layout(agent).command))
        {
            c.set_value(CstInputValue::String(command.to_string()));
        }
        json_remove(&obj, found);
        return Ok(root.to_string());
    }
    json_remove(&obj, found);
    if layout(agent).versioned && obj.get("version").is_none() {
        obj.insert(0, "version", CstInputValue::Number("1".into()));
    }
    let hooks = match obj.object_value_or_create("hooks") {
        Some(h) => h,
        None => return Err(shape(path, "hooks", "an object", "another value")),
    };
    let groups = match hooks.array_value_or_create(event.name()) {
        Some(g) => g,
        None => return Err(shape(path, &format!("hooks.{}", event.name()), "an array", "another value")),
    };
    groups.append(json_entry(agent, command));
    if fresh {
        obj.ensure_multiline();
    }
    let mut out = root.to_string();
    if fresh && !out.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}

// ---- TOML (Codex) --------------------------------------------------------------------------

fn parse_toml(text: &str, path: &Path) -> Result<DocumentMut, SettingsError> {
    text.parse::<DocumentMut>().map_err(|e| {
        let at = e.span().map_or(0, |s| s.start).min(text.len());
        let before = &text[..at];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        let message = e.message().to_string();
        SettingsError::Parse { path: path.to_path_buf(), line, column, message }
    })
}

/// One of our hooks in a TOML settings file: where it sits, by position.
struct TomlFound {
    wired: Wired,
    group: usize,
    hook: usize,
}

/// How many entries a list holds, as an array of tables or an inline array.
fn entries(item: &Item) -> usize {
    match item {
        Item::ArrayOfTables(a) => a.len(),
        Item::Value(Value::Array(a)) => a.len(),
        _ => 0,
    }
}

fn entry(item: &Item, i: usize) -> Option<&dyn TableLike> {
    match item {
        Item::ArrayOfTables(a) => a.get(i).map(|t| t as &dyn TableLike),
        Item::Value(Value::Array(a)) => a.get(i).and_then(Value::as_inline_table).map(|t| t as &dyn TableLike),
        _ => None,
    }
}

fn entry_mut(item: &mut Item, i: usize) -> Option<&mut dyn TableLike> {
    match item {
        Item::ArrayOfTables(a) => a.get_mut(i).map(|t| t as &mut dyn TableLike),
        Item::Value(Value::Array(a)) => {
            a.get_mut(i).and_then(Value::as_inline_table_mut).map(|t| t as &mut dyn TableLike)
        }
        _ => None,
    }
}

fn remove_entry(item: &mut Item, i: usize) {
    match item {
        Item::ArrayOfTables(a) => {
            a.remove(i);
        }
        Item::Value(Value::Array(a)) => {
            a.remove(i);
        }
        _ => {}
    }
}

fn toml_hooks(doc: &DocumentMut) -> Option<&dyn TableLike> {
    doc.get("hooks").and_then(Item::as_table_like)
}

fn toml_found(doc: &DocumentMut, agent: Agent, filed: Filed) -> Vec<TomlFound> {
    let Some(hooks) = toml_hooks(doc) else { return Vec::new() };
    // The agent's events in its order; any other name in the file's.
    let names: Vec<&str> = match filed {
        Filed::Known => agent.events().iter().map(|e| e.name()).collect(),
        Filed::Misfiled => hooks.iter().map(|(k, _)| k).filter(|k| filed.keeps(agent, k)).collect(),
    };
    let mut found = Vec::new();
    for event in names {
        let Some(groups) = hooks.get(event) else { continue };
        for g in 0..entries(groups) {
            let Some(inner) = entry(groups, g).and_then(|t| t.get("hooks")) else { continue };
            for h in 0..entries(inner) {
                let command = entry(inner, h).and_then(|t| t.get("command")).and_then(Item::as_str);
                if let Some(command) = command.filter(|c| our_program(c, agent).is_some()) {
                    let wired = Wired { event: event.to_string(), command: command.to_string() };
                    found.push(TomlFound { wired, group: g, hook: h });
                }
            }
        }
    }
    found
}

/// Remove found hooks (last first, so positions hold), then whatever that leaves empty.
fn toml_remove(doc: &mut DocumentMut, found: &[TomlFound]) {
    let Some(hooks) = doc.get_mut("hooks").and_then(Item::as_table_like_mut) else { return };
    for f in found.iter().rev() {
        let Some(groups) = hooks.get_mut(&f.wired.event) else { continue };
        let emptied = match entry_mut(groups, f.group).and_then(|t| t.get_mut("hooks")) {
            Some(inner) => {
                remove_entry(inner, f.hook);
                entries(inner) == 0
            }
            None => false,
        };
        if emptied {
            remove_entry(groups, f.group);
        }
        if entries(groups) == 0 {
            hooks.remove(&f.wired.event);
        }
    }
    if hooks.is_empty() {
        doc.remove("hooks");
    }
}

/// Set a TOML value where it stands, keeping the spacing and the comment around it: a user's
/// `# note` after our command survives a new program path.
fn set_toml(item: &mut Item, mut value: Value) {
    if let Some(old) = item.as_value() {
        *value.decor_mut() = old.decor().clone();
    }
    *item = Item::Value(value);
}

fn wire_toml(text: &str, agent: Agent, event: HookEvent, command: &str, path: &Path) -> Result<String, SettingsError> {
    let mut doc = parse_toml(text, path)?;
    let mut found = toml_found(&doc, agent, Filed::Known);
    if let Some(keep) = found.iter().position(|f| f.wired.event == event.name()) {
        let kept = found.remove(keep);
        if kept.wired.command != command {
            let hooks = doc.get_mut("hooks").and_then(Item::as_table_like_mut);
            let groups = hooks.and_then(|h| h.get_mut(event.name()));
            let inner = groups.and_then(|g| entry_mut(g, kept.group)).and_then(|t| t.get_mut("hooks"));
            if let Some(c) = inner.and_then(|i| entry_mut(i, kept.hook)).and_then(|t| t.get_mut("command")) {
                set_toml(c, Value::from(command));
            }
        }
        toml_remove(&mut doc, &found);
        return Ok(doc.to_string());
    }
    toml_remove(&mut doc, &found);
    if doc.get("hooks").is_some_and(|h| h.as_table_like().is_none()) {
        return Err(shape(path, "hooks", "a table", "another value"));
    }
    if doc.get("hooks").is_none() {
        let mut hooks = Table::new();
        hooks.set_implicit(true);
        doc.insert("hooks", Item::Table(hooks));
    }
    let Some(hooks) = doc.get_mut("hooks").and_then(Item::as_table_like_mut) else {
        return Err(shape(path, "hooks", "a table", "another value"));
    };
    let mut hook = Table::new();
    hook.insert("type", toml_edit::value("command"));
    hook.insert("command", toml_edit::value(command));
    hook.insert("timeout", toml_edit::value(AGENT_TIMEOUT_S as i64));
    let mut group = Table::new();
    group.insert("matcher", toml_edit::value(agent.shell_tool()));
    match hooks.get_mut(event.name()) {
        None => {
            let mut inner = ArrayOfTables::new();
            inner.push(hook);
            group.insert("hooks", Item::ArrayOfTables(inner));
            let mut groups = ArrayOfTables::new();
            groups.push(group);
            hooks.insert(event.name(), Item::ArrayOfTables(groups));
        }
        Some(Item::ArrayOfTables(groups)) => {
            let mut inner = ArrayOfTables::new();
            inner.push(hook);
            group.insert("hooks", Item::ArrayOfTables(inner));
            groups.push(group);
        }
        Some(Item::Value(Value::Array(groups))) => {
            let mut inline = group.into_inline_table();
            let mut inner = toml_edit::Array::new();
            inner.push(hook.into_inline_table());
            inline.insert("hooks", Value::Array(inner));
            groups.push(inline);
        }
        Some(_) => {
            return Err(shape(path, &format!("hooks.{}", event.name()), "an array of tables", "another value"));
        }
    }
    Ok(doc.to_string())
}

// ---- MCP server entries (`install --mcp`) ---------------------------------------------------

/// Our MCP server's name in every agent's settings.
pub const MCP_NAME: &str = "decisions";

/// The arguments our server entry runs the program with.
pub const MCP_ARGS: &[&str] = &["mcp"];

/// The variables Codex passes our server from its own environment (it passes none unless
/// told): each known provider's key variable, by name only (the value is read at call time and
/// never written), and the variables that choose the provider, the budget and the ledger.
pub fn mcp_env_vars() -> Vec<String> {
    let mut vars = crate::descriptor::key_variables();
    for v in [crate::config::PROVIDER_ENV, "LEOPOLD_DECISIONS_TIMEOUT_MS", "HARNESS_JUDGMENT_LEDGER"] {
        if !vars.iter().any(|x| x == v) {
            vars.push(v.to_string());
        }
    }
    vars
}

/// Where an agent registers a project's MCP servers: Claude Code's `.mcp.json`
/// (`mcpServers`), Codex's `.codex/config.toml` (`[mcp_servers.<name>]`), Gemini CLI's
/// `.gemini/settings.json` (`mcpServers`). None for an agent we do not register a server with.
pub fn mcp_path(agent: Agent, project: &Path) -> Option<PathBuf> {
    match agent {
        Agent::ClaudeCode => Some(project.join(".mcp.json")),
        Agent::Codex => Some(project.join(".codex").join("config.toml")),
        Agent::Gemini => Some(project.join(".gemini").join("settings.json")),
        Agent::Copilot | Agent::Cursor => None,
    }
}

/// Our server's entry, as an agent's settings hold it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpEntry {
    /// The program it runs.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
}

/// Our server in an agent's settings text: the entry named `decisions` that runs a program
/// named `decisions`. None when there is none (or no text); an entry of that name that runs
/// another program is not ours, and an error: we never take it over.
pub fn mcp_registered(text: &str, agent: Agent, path: &Path) -> Result<Option<McpEntry>, SettingsError> {
    let entry = match agent {
        Agent::Codex => {
            let doc = parse_toml(text, path)?;
            let Some(t) = doc.get("mcp_servers").and_then(Item::as_table_like).and_then(|m| m.get(MCP_NAME)) else {
                return Ok(None);
            };
            let t = t.as_table_like().ok_or_else(|| shape(path, "mcp_servers.decisions", "a table", "a value"))?;
            let args = t
                .get("args")
                .and_then(Item::as_array)
                .map(|a| a.iter().filter_map(|v| v.as_str()).map(String::from).collect());
            McpEntry {
                command: t.get("command").and_then(Item::as_str).unwrap_or_default().to_string(),
                args: args.unwrap_or_default(),
            }
        }
        _ => {
            let root = parse_json(text, agent, path)?;
            let Some(v) = root.to_serde_value() else { return Ok(None) };
            let Some(e) = v.get("mcpServers").and_then(|m| m.get(MCP_NAME)) else { return Ok(None) };
            let args = e["args"].as_array().map(|a| a.iter().filter_map(|v| v.as_str()).map(String::from).collect());
            McpEntry { command: e["command"].as_str().unwrap_or_default().to_string(), args: args.unwrap_or_default() }
        }
    };
    if Path::new(&entry.command).file_name().is_some_and(|n| n == "decisions") {
        Ok(Some(entry))
    } else {
        let at = if agent == Agent::Codex { "mcp_servers.decisions" } else { "mcpServers.decisions" };
        Err(shape(path, at, "our server (a program named decisions)", "another server of that name"))
    }
}

/// Register our server (`<program> mcp`) in an agent's settings text (`None`: no file yet).
/// An entry of ours is brought up to date where it stands; nothing else changes.
pub fn mcp_register(text: Option<&str>, agent: Agent, program: &str, path: &Path) -> Result<Edit, SettingsError> {
    let original = text.unwrap_or_default();
    let wanted = McpEntry { command: program.to_string(), args: MCP_ARGS.iter().map(|a| a.to_string()).collect() };
    let current = mcp_registered(original, agent, path)?;
    if current.as_ref() == Some(&wanted) {
        return Ok(Edit::Unchanged);
    }
    // Only the fields that differ are written: the rest of our entry stays byte for byte.
    let stale = |key: &str| match (&current, key) {
        (None, _) => true,
        (Some(c), "command") => c.command != wanted.command,
        (Some(c), _) => c.args != wanted.args,
    };
    let out = match agent {
        Agent::Codex => {
            let mut doc = parse_toml(original, path)?;
            let servers = doc.entry("mcp_servers").or_insert_with(|| {
                let mut t = Table::new();
                t.set_implicit(true);
                Item::Table(t)
            });
            let servers =
                servers.as_table_like_mut().ok_or_else(|| shape(path, "mcp_servers", "a table", "a value"))?;
            // An entry of ours is a table (`mcp_registered` refused anything else): brought up
            // to date where it stands, or made with the variables Codex is to pass it.
            let made = servers.get(MCP_NAME).is_none();
            if made {
                servers.insert(MCP_NAME, Item::Table(Table::new()));
            }
            let ours = servers
                .get_mut(MCP_NAME)
                .and_then(Item::as_table_like_mut)
                .ok_or_else(|| shape(path, "mcp_servers.decisions", "a table", "a value"))?;
            for (key, value) in [("command", Value::from(program)), ("args", MCP_ARGS.iter().copied().collect())] {
                match ours.get_mut(key) {
                    Some(item) if stale(key) => set_toml(item, value),
                    Some(_) => {}
                    None => {
                        ours.insert(key, Item::Value(value));
                    }
                }
            }
            if made {
                ours.insert("env_vars", toml_edit::value(Value::Array(mcp_env_vars().iter().collect())));
            }
            doc.to_string()
        }
        _ => {
            let fresh = original.trim().is_empty();
            let root = parse_json(original, agent, path)?;
            let obj = root.object_value_or_set();
            let servers = obj
                .object_value_or_create("mcpServers")
                .ok_or_else(|| shape(path, "mcpServers", "an object", "another value"))?;
            let s = |v: &str| CstInputValue::String(v.to_string());
            let args = CstInputValue::Array(MCP_ARGS.iter().map(|a| s(a)).collect());
            match servers.get(MCP_NAME).and_then(|p| p.value()).and_then(|v| v.as_object()) {
                Some(ours) => {
                    for (key, value) in [("command", s(program)), ("args", args)] {
                        match ours.get(key) {
                            Some(p) if stale(key) => p.set_value(value),
                            Some(_) => {}
                            None => {
                                ours.append(key, value);
                            }
                        }
                    }
                }
                None => {
                    let mut entry = Vec::new();
                    if agent == Agent::ClaudeCode {
                        entry.push(("type".to_string(), s("stdio")));
                    }
                    entry.push(("command".to_string(), s(program)));
                    entry.push(("args".to_string(), args));
                    servers.append(MCP_NAME, CstInputValue::Object(entry));
                }
            }
            if fresh {
                obj.ensure_multiline();
            }
            let mut out = root.to_string();
            if fresh && !out.ends_with('\n') {
                out.push('\n');
            }
            out
        }
    };
    Ok(if out == original { Edit::Unchanged } else { Edit::Write(out) })
}

/// Take our server out of an agent's settings text, and nothing else; `mcpServers` left empty
/// goes too, and a file left holding nothing is deleted.
pub fn mcp_unregister(text: &str, agent: Agent, path: &Path) -> Result<Edit, SettingsError> {
    if mcp_registered(text, agent, path)?.is_none() {
        return Ok(Edit::Unchanged);
    }
    let out = match agent {
        Agent::Codex => {
            let mut doc = parse_toml(text, path)?;
            if let Some(servers) = doc.get_mut("mcp_servers").and_then(Item::as_table_like_mut) {
                servers.remove(MCP_NAME);
                if servers.is_empty() {
                    doc.remove("mcp_servers");
                }
            }
            doc.to_string()
        }
        _ => {
            let root = parse_json(text, agent, path)?;
            let Some(obj) = root.object_value() else { return Ok(Edit::Unchanged) };
            if let Some(servers) = obj.object_value("mcpServers") {
                if let Some(ours) = servers.get(MCP_NAME) {
                    ours.remove();
                }
                if servers.properties().is_empty()
                    && let Some(p) = obj.get("mcpServers")
                {
                    p.remove();
                }
            }
            root.to_string()
        }
    };
    let bare: String = out.chars().filter(|c| !c.is_whitespace()).collect();
    let empty = if agent == Agent::Codex { out.trim().is_empty() } else { bare == "{}" };
    Ok(if empty { Edit::Delete } else { Edit::Write(out) })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CMD: &str = "/opt/bin/decisions hook claude-code";

    #[test]
    fn a_command_is_ours_only_when_decisions_runs_the_agents_hook() {
        assert_eq!(our_program(CMD, Agent::ClaudeCode).as_deref(), Some("/opt/bin/decisions"));
        assert_eq!(our_program("decisions hook codex", Agent::Codex).as_deref(), Some("decisions"));
        assert!(our_program(CMD, Agent::Codex).is_none(), "another agent's");
        assert!(our_program("/opt/bin/other hook claude-code", Agent::ClaudeCode).is_none());
        assert!(our_program("decisions hook claude-code --x", Agent::ClaudeCode).is_none());
        let spaced = hook_command("/Users/A B/it's/decisions", Agent::Gemini);
        assert_eq!(spaced, "'/Users/A B/it'\\''s/decisions' hook gemini");
        assert_eq!(our_program(&spaced, Agent::Gemini).as_deref(), Some("/Users/A B/it's/decisions"));
        assert_eq!(hook_command("decisions", Agent::Codex), "decisions hook codex");
    }

    #[test]
    fn json_wiring_keeps_every_other_byte_and_a_second_run_changes_none() {
        let p = Path::new("settings.json");
        let text = "{\n  // mine\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"lint\"}]}\n    ]\n  },\n  \"env\": {}\n}\n";
        let Edit::Write(wired) = wire(Some(text), Agent::ClaudeCode, HookEvent::PreToolUse, CMD, p).expect("wire")
        else {
            panic!("nothing written")
        };
        assert!(wired.starts_with("{\n  // mine\n  \"model\": \"opus\",\n"), "{wired}");
        assert!(
            wired.contains("{\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"lint\"}]}"),
            "{wired}"
        );
        assert!(wired.ends_with("  \"env\": {}\n}\n"), "{wired}");
        let ours = wired_hooks(&wired, Agent::ClaudeCode);
        assert_eq!(ours, [Wired { event: "PreToolUse".into(), command: CMD.into() }]);
        assert_eq!(wire(Some(&wired), Agent::ClaudeCode, HookEvent::PreToolUse, CMD, p), Ok(Edit::Unchanged));
        // Removed, the file is exactly what it was.
        assert_eq!(unwire(&wired, Agent::ClaudeCode, p), Ok(Edit::Write(text.to_string())));
        // Moved to the other event: one entry, under it.
        let Edit::Write(moved) =
            wire(Some(&wired), Agent::ClaudeCode, HookEvent::PermissionRequest, CMD, p).expect("w")
        else {
            panic!()
        };
        assert_eq!(
            wired_hooks(&moved, Agent::ClaudeCode),
            [Wired { event: "PermissionRequest".into(), command: CMD.into() }]
        );
    }

    fn wired_hooks(text: &str, agent: Agent) -> Vec<Wired> {
        wired(text, agent, Path::new("s")).expect("parses")
    }

    #[test]
    fn a_file_we_made_goes_when_our_entry_does() {
        let p = Path::new("settings.json");
        let Edit::Write(fresh) =
            wire(None, Agent::Gemini, HookEvent::BeforeTool, "decisions hook gemini", p).expect("w")
        else {
            panic!()
        };
        let v: serde_json::Value = serde_json::from_str(&fresh).expect("strict JSON");
        assert_eq!(v["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"], 5000);
        assert_eq!(v["hooks"]["BeforeTool"][0]["matcher"], "run_shell_command");
        assert_eq!(unwire(&fresh, Agent::Gemini, p), Ok(Edit::Delete));
    }

    #[test]
    fn copilot_and_cursor_entries_are_flat_in_a_versioned_file_and_others_hooks_stay() {
        let p = Path::new("hooks.json");
        let cmd = "decisions hook copilot";
        let Edit::Write(fresh) = wire(None, Agent::Copilot, HookEvent::CopilotPreToolUse, cmd, p).expect("w") else {
            panic!()
        };
        let v: serde_json::Value = serde_json::from_str(&fresh).expect("strict JSON");
        assert_eq!(
            v,
            serde_json::json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": cmd, "timeoutSec": 5}]}})
        );
        assert_eq!(wired_hooks(&fresh, Agent::Copilot), [Wired { event: "preToolUse".into(), command: cmd.into() }]);
        assert_eq!(unwire(&fresh, Agent::Copilot, p), Ok(Edit::Delete));
        // Cursor's file is shared: the user's hooks and order are kept byte for byte.
        let theirs = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"beforeShellExecution\": [\n      {\"command\": \"./audit.sh\"}\n    ],\n    \"afterFileEdit\": [{\"command\": \"./fmt.sh\"}]\n  }\n}\n";
        let cmd = "/opt/decisions hook cursor";
        let Edit::Write(wired) = wire(Some(theirs), Agent::Cursor, HookEvent::BeforeShellExecution, cmd, p).expect("w")
        else {
            panic!()
        };
        assert!(
            wired.contains("      {\"command\": \"./audit.sh\"},\n")
                && wired.contains("\"afterFileEdit\": [{\"command\": \"./fmt.sh\"}]"),
            "{wired}"
        );
        assert_eq!(
            wired_hooks(&wired, Agent::Cursor),
            [Wired { event: "beforeShellExecution".into(), command: cmd.into() }]
        );
        assert_eq!(wire(Some(&wired), Agent::Cursor, HookEvent::BeforeShellExecution, cmd, p), Ok(Edit::Unchanged));
        assert_eq!(unwire(&wired, Agent::Cursor, p), Ok(Edit::Write(theirs.to_string())));
        // The binary moved: our entry is brought up to date where it is.
        let Edit::Write(moved) =
            wire(Some(&wired), Agent::Cursor, HookEvent::BeforeShellExecution, "/new/decisions hook cursor", p)
                .expect("w")
        else {
            panic!()
        };
        assert_eq!(wired_hooks(&moved, Agent::Cursor).len(), 1);
        assert!(moved.contains("/new/decisions hook cursor") && !moved.contains("/opt/decisions"), "{moved}");
    }

    #[test]
    fn toml_wiring_keeps_comments_order_and_formatting() {
        let p = Path::new("config.toml");
        let text = "# my codex\nmodel = \"o4\"   # pinned\n\n[hooks.state]\ntrusted = [\"x\"]\n\n[[hooks.PreToolUse]]\nmatcher = \"Edit\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"lint\"\n\n[profiles.fast]\nmodel = \"mini\"\n";
        let cmd = "decisions hook codex";
        let Edit::Write(wired) = wire(Some(text), Agent::Codex, HookEvent::PreToolUse, cmd, p).expect("wire") else {
            panic!()
        };
        assert!(wired.starts_with("# my codex\nmodel = \"o4\"   # pinned\n"), "{wired}");
        assert!(wired.contains("[profiles.fast]\nmodel = \"mini\"\n"), "{wired}");
        assert_eq!(wired_hooks(&wired, Agent::Codex), [Wired { event: "PreToolUse".into(), command: cmd.into() }]);
        assert_eq!(wire(Some(&wired), Agent::Codex, HookEvent::PreToolUse, cmd, p), Ok(Edit::Unchanged));
        assert_eq!(unwire(&wired, Agent::Codex, p), Ok(Edit::Write(text.to_string())));
        // The binary moved: only the command's value changes, a comment after it stays.
        let noted = wired.replace(&format!("command = \"{cmd}\""), &format!("command = \"{cmd}\"  # ours"));
        let moved = "/opt/bin/decisions hook codex";
        let Ok(Edit::Write(rewired)) = wire(Some(&noted), Agent::Codex, HookEvent::PreToolUse, moved, p) else {
            panic!("an edit")
        };
        assert_eq!(rewired, noted.replace(&format!("\"{cmd}\""), &format!("\"{moved}\"")));
    }

    #[test]
    fn gemini_hooks_are_off_only_where_a_switch_says_false() {
        assert_eq!(gemini_hooks_off("{}"), None, "on by default in 0.61");
        assert_eq!(gemini_hooks_off("{\"hooksConfig\": {\"enabled\": true, \"disabled\": [\"lint\"]}}"), None);
        assert_eq!(
            gemini_hooks_off("{\n // off\n \"hooksConfig\": {\"enabled\": false}}"),
            Some("hooksConfig.enabled: false")
        );
        assert_eq!(
            gemini_hooks_off("{\"hooksConfig\": {\"disabled\": [\"decisions\"]}}"),
            Some("hooksConfig.disabled lists \"decisions\"")
        );
        assert_eq!(gemini_hooks_off("not json"), None);
    }

    #[test]
    fn codex_trust_is_read_by_the_projects_path() {
        let dir = std::env::temp_dir();
        let text = format!("model = \"x\"\n[projects.\"{}\"]\ntrust_level = \"trusted\"\n", dir.display());
        assert_eq!(codex_trust_level(&text, &dir).as_deref(), Some("trusted"));
        assert_eq!(codex_trust_level(&text, Path::new("/nowhere/else")), None);
        assert_eq!(codex_trust_level("[projects]\n", &dir), None);
    }

    #[test]
    fn an_entry_under_an_event_the_agent_never_sends_is_found() {
        let json = "{\"hooks\": {\"PreToolUsage\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"decisions hook claude-code\"}]}]}}";
        assert_eq!(
            misfiled(json, Agent::ClaudeCode),
            [Wired { event: "PreToolUsage".into(), command: "decisions hook claude-code".into() }]
        );
        assert!(wired_hooks(json, Agent::ClaudeCode).is_empty());
        let toml = "[[hooks.PreToolUsage]]\nmatcher = \"Bash\"\n[[hooks.PreToolUsage.hooks]]\ntype = \"command\"\ncommand = \"decisions hook codex\"\n";
        assert_eq!(misfiled(toml, Agent::Codex).len(), 1);
        let fine = "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"decisions hook claude-code\"}]}]}}";
        assert!(misfiled(fine, Agent::ClaudeCode).is_empty());
        // A flat layout (Cursor): the entry is the hook.
        let flat = "{\"version\": 1, \"hooks\": {\"beforeShell\": [{\"command\": \"decisions hook cursor\"}]}}";
        assert_eq!(
            misfiled(flat, Agent::Cursor),
            [Wired { event: "beforeShell".into(), command: "decisions hook cursor".into() }]
        );
    }

    #[test]
    fn broken_settings_are_refused_with_their_line_and_column() {
        let e =
            wire(Some("{\n  \"a\": 1,\n  oops\n}"), Agent::ClaudeCode, HookEvent::PreToolUse, CMD, Path::new("s.json"));
        assert!(matches!(e, Err(SettingsError::Parse { line: 3, column: 3, .. })), "{e:?}");
        let e = wire(Some("a = 1\nb = = 2\n"), Agent::Codex, HookEvent::PreToolUse, CMD, Path::new("c.toml"));
        assert!(matches!(e, Err(SettingsError::Parse { line: 2, .. })), "{e:?}");
        let e = wire(Some("{\"hooks\": []}"), Agent::ClaudeCode, HookEvent::PreToolUse, CMD, Path::new("s.json"));
        assert!(matches!(e, Err(SettingsError::Shape { .. })), "{e:?}");
    }

    #[test]
    fn a_server_entry_of_ours_is_brought_up_to_date_where_it_stands() {
        let path = Path::new("settings");
        let json = "{\n  \"mcpServers\": {\n    \"decisions\": {\"command\": \"/old/decisions\", \"args\": [\"mcp\"], \"env\": {\"A\": \"1\"}}\n  }\n}\n";
        let Ok(Edit::Write(out)) = mcp_register(Some(json), Agent::Gemini, "/new/decisions", path) else {
            panic!("an edit")
        };
        assert_eq!(out, json.replace("/old/decisions", "/new/decisions"));
        let toml =
            "[mcp_servers.decisions]\ncommand = \"/old/decisions\"  # ours\nargs = [ \"mcp\" ]\nenv_vars = [\"X\"]\n";
        let Ok(Edit::Write(out)) = mcp_register(Some(toml), Agent::Codex, "/new/decisions", path) else {
            panic!("an edit")
        };
        assert_eq!(out, toml.replace("/old/decisions", "/new/decisions"));
        // Made afresh, Codex's entry names the variables to pass; an entry not ours is refused.
        let Ok(Edit::Write(out)) = mcp_register(None, Agent::Codex, "decisions", path) else { panic!("an edit") };
        assert!(out.contains("env_vars = [\"TYPESAFE_API_KEY\""), "{out}");
        let theirs = "[mcp_servers.decisions]\ncommand = \"other\"\n";
        assert!(matches!(
            mcp_register(Some(theirs), Agent::Codex, "decisions", path),
            Err(SettingsError::Shape { .. })
        ));
    }
}
