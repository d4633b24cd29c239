//! Our hook in the agents' settings, for `install --agent`, `remove --agent` and `doctor`: where
//! each agent's file is, what it holds of ours, and the atomic write of an edit. The edits
//! themselves are the library's (`decisions::agent::settings`).

use std::path::{Path, PathBuf};

use decisions::Env;
use decisions::agent::settings::{Edit, Scope, SettingsError, Wired, settings_path, wired};
use decisions::agent::{Agent, HookEvent};

// Which agents' settings, and whose. (Not a `///` comment: it would become the help text of
// every command that flattens it.)
#[derive(Debug, clap::Args)]
pub struct WiringArgs {
    /// Wire the permission hook into this agent's settings: claude-code, codex, gemini, copilot or cursor (repeatable)
    #[arg(long = "agent", value_name = "AGENT", value_parser = agent)]
    pub agents: Vec<Agent>,
    /// Whose settings: the project's or the user's
    #[arg(long, value_name = "SCOPE", default_value = "project", value_parser = scope, requires = "agents")]
    pub scope: Scope,
}

fn scope(s: &str) -> Result<Scope, String> {
    match s {
        "project" => Ok(Scope::Project),
        "user" => Ok(Scope::User),
        _ => Err(format!("expected project or user, found {s:?}")),
    }
}

/// An agent named on the command line.
pub fn agent(s: &str) -> Result<Agent, String> {
    Agent::parse(s).ok_or_else(|| {
        let known: Vec<&str> = Agent::ALL.iter().map(|a| a.name()).collect();
        format!("expected one of {}, found {s:?}", known.join(", "))
    })
}

/// The project: `LEOPOLD_PROJECT_DIR`, else the nearest directory above the working directory
/// with a `.leopold`, else the git top level.
pub fn find_project() -> Option<PathBuf> {
    if let Some(dir) = Env::Process.get(decisions::PROJECT_ENV).filter(|d| !d.trim().is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let cwd = std::env::current_dir().ok()?;
    if let Some(leo) = decisions::find_leo_dir(&cwd) {
        return leo.parent().map(Path::to_path_buf);
    }
    decisions::git_root(&cwd)
}

/// An agent's settings file and what it holds of ours.
#[derive(Clone)]
pub struct Place {
    /// The agent.
    pub agent: Agent,
    /// Whose settings.
    pub scope: Scope,
    /// The file.
    pub path: PathBuf,
    /// Its text, when it exists.
    pub text: Option<String>,
}

/// Why a settings file could not be had.
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    /// It could not be read (not a regular file, no permission, not UTF-8).
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// It does not parse, or is of another shape.
    #[error(transparent)]
    Settings(#[from] SettingsError),
}

impl Place {
    /// Read an agent's settings file for a scope (`project` names the project root).
    pub fn read(agent: Agent, scope: Scope, project: &Path, env: &Env) -> Result<Place, PlaceError> {
        let path = settings_path(agent, scope, project, env);
        let text = match decisions::read_project_file(&path) {
            Ok(t) => Some(t),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(source) => return Err(PlaceError::Read { path, source }),
        };
        Ok(Place { agent, scope, path, text })
    }

    /// The file where an agent registers the project's MCP servers (none for an agent we do
    /// not register our server with).
    pub fn read_mcp(agent: Agent, project: &Path) -> Result<Option<Place>, PlaceError> {
        let Some(path) = decisions::agent::settings::mcp_path(agent, project) else { return Ok(None) };
        let text = match decisions::read_project_file(&path) {
            Ok(t) => Some(t),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(source) => return Err(PlaceError::Read { path, source }),
        };
        Ok(Some(Place { agent, scope: Scope::Project, path, text }))
    }

    /// The text this place will hold once `edit` is carried out.
    pub fn after(&self, edit: &Edit) -> Option<String> {
        match edit {
            Edit::Unchanged => self.text.clone(),
            Edit::Write(t) => Some(t.clone()),
            Edit::Delete => None,
        }
    }

    /// Our hooks in it.
    pub fn wired(&self) -> Result<Vec<Wired>, SettingsError> {
        self.text.as_deref().map_or(Ok(Vec::new()), |t| wired(t, self.agent, &self.path))
    }

    /// Carry out an edit: write it atomically (the file's mode kept, a link followed), or
    /// delete the file that held nothing else. True when something changed.
    pub fn apply(&self, edit: &Edit) -> std::io::Result<bool> {
        match edit {
            Edit::Unchanged => Ok(false),
            Edit::Write(text) => decisions::file::write_atomic(&self.path, text.as_bytes()).map(|()| true),
            Edit::Delete => {
                std::fs::remove_file(&self.path)?;
                // The agent's directory goes too when that file was all it held.
                if let Some(dir) = self.path.parent() {
                    let _ = std::fs::remove_dir(dir);
                }
                Ok(true)
            }
        }
    }
}

/// The program our hook entry names: `decisions` when that is what PATH finds (the same file
/// as this one), else this binary's absolute path.
pub fn hook_program() -> String {
    let me = std::env::current_exe().and_then(|p| p.canonicalize()).unwrap_or_default();
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).map(|d| d.join("decisions")).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .find(|c| c.is_file());
    match on_path.and_then(|c| c.canonicalize().ok()) {
        Some(found) if found == me => "decisions".to_string(),
        _ => me.display().to_string(),
    }
}

/// Whether the program a hook command runs exists and can be run: a bare name is looked up
/// on PATH. `Err` says what is wrong with it.
pub fn runnable(program: &str) -> Result<PathBuf, String> {
    let path = if program.contains('/') {
        PathBuf::from(program)
    } else {
        let dirs = std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect::<Vec<_>>()).unwrap_or_default();
        match dirs.into_iter().map(|d| d.join(program)).find(|c| c.is_file()) {
            Some(p) => p,
            None => return Err(format!("{program} is not on PATH")),
        }
    };
    let meta = std::fs::metadata(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
            return Err(format!("{} is not an executable file", path.display()));
        }
    }
    #[cfg(not(unix))]
    if !meta.is_file() {
        return Err(format!("{} is not a file", path.display()));
    }
    Ok(path)
}

/// The routes to trusting our Codex hook, for a person, a script and CI.
pub const CODEX_TRUST_ROUTES: &str = "trust it in Codex's /hooks screen, or run `decisions install --agent codex --trust`, or run CI with `codex exec --dangerously-bypass-hook-trust`";

/// What Codex needs before it runs our hook, said each install until it is trusted.
pub fn codex_trust_todo() -> String {
    format!("Codex runs a hook only once it is trusted, and silently skips it until then: {CODEX_TRUST_ROUTES}")
}

/// Why a `PermissionRequest` hook protects nothing headless.
pub const ASKS_FIRST: &str = "PermissionRequest fires only where the agent would ask you first: when it bypasses its permissions (headless `claude -p --permission-mode bypassPermissions`, `codex exec --dangerously-bypass-approvals-and-sandbox`, yolo modes) the hook never runs; wire PreToolUse (the default) to judge every shell command";

/// What an agent needs beyond its settings for our hook to run, said once when it is wired:
/// `todo:` lines, and `warning:` lines for what will not protect as a user may think.
pub fn notes(agent: Agent, scope: Scope, event: HookEvent, project: &Path, env: &Env) -> (Vec<String>, Vec<String>) {
    let (mut todo, mut warn) = (Vec::new(), Vec::new());
    if event.asks_first() {
        warn.push(ASKS_FIRST.to_string());
    }
    match agent {
        Agent::ClaudeCode => {}
        Agent::Codex => {
            if scope == Scope::Project && codex_project_trust(project, env).as_deref() != Some("trusted") {
                todo.push(format!(
                    "Codex loads {} only in a project it trusts, and this one is not: trust it when Codex asks on start, or add [projects.\"{}\"] trust_level = \"trusted\" to {} (or wire it with --scope user)",
                    settings_path(agent, scope, project, env).display(),
                    project.display(),
                    codex_config(env).display()
                ));
            }
        }
        Agent::Gemini => {
            for (file, key) in gemini_switched_off(project, env) {
                todo.push(format!(
                    "Gemini CLI's hooks are switched off in {} ({key}): set hooksConfig.enabled to true (/settings, Advanced, Enable Hooks) and take \"decisions\" out of hooksConfig.disabled",
                    file.display()
                ));
            }
        }
        Agent::Copilot => {
            if scope == Scope::Project {
                todo.push(format!(
                    "Copilot CLI runs a repository's hooks only in a folder it trusts (it asks on its first start there; or `copilot --trust-folder`, or \"trustedFolders\" in {}); --scope user avoids that",
                    copilot_home(env).join("config.json").display()
                ));
            }
            if claude_wired_in(project, env) {
                warn.push(COPILOT_RUNS_CLAUDE.to_string());
            }
        }
        Agent::Cursor => {
            if scope == Scope::Project {
                todo.push("Cursor loads a project's .cursor/hooks.json only in a workspace it trusts".to_string());
            }
        }
    }
    (todo, warn)
}

/// Whether the project's Claude Code settings run our hook (which Copilot CLI runs too).
pub fn claude_wired_in(project: &Path, env: &Env) -> bool {
    let claude = Place::read(Agent::ClaudeCode, Scope::Project, project, env).ok();
    claude.and_then(|p| p.wired().ok()).is_some_and(|w| !w.is_empty())
}

/// Copilot CLI also runs the project's Claude Code hooks.
pub const COPILOT_RUNS_CLAUDE: &str = "Copilot CLI also runs the project's .claude/settings.json hooks: with the claude-code hook wired there too, each shell command is judged twice (wire one of them)";

/// Codex's home: `CODEX_HOME`, else `~/.codex`.
pub fn codex_config(env: &Env) -> PathBuf {
    settings_path(Agent::Codex, Scope::User, Path::new(""), env)
}

/// The trust level the user's Codex config gives the project.
pub fn codex_project_trust(project: &Path, env: &Env) -> Option<String> {
    let text = decisions::read_project_file(&codex_config(env)).ok()?;
    decisions::agent::settings::codex_trust_level(&text, project)
}

/// Copilot CLI's home: `COPILOT_HOME`, else `~/.copilot`.
pub fn copilot_home(env: &Env) -> PathBuf {
    settings_path(Agent::Copilot, Scope::User, Path::new(""), env)
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Whether Copilot CLI trusts the project folder: `Some(true)` when its config lists the folder
/// or one above it, `Some(false)` when it lists others, `None` when it has no config to tell.
pub fn copilot_trusts(project: &Path, env: &Env) -> Option<bool> {
    let text = decisions::read_project_file(&copilot_home(env).join("config.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let folders = v.get("trustedFolders")?.as_array()?;
    let project = project.canonicalize().unwrap_or_else(|_| project.to_path_buf());
    Some(folders.iter().filter_map(|f| f.as_str()).any(|f| {
        let f = Path::new(f);
        project.starts_with(f) || f.canonicalize().is_ok_and(|c| project.starts_with(c))
    }))
}

/// The Gemini CLI settings files (the project's, then the user's) that switch its hooks off,
/// with the key that does.
pub fn gemini_switched_off(project: &Path, env: &Env) -> Vec<(PathBuf, &'static str)> {
    [Scope::Project, Scope::User]
        .into_iter()
        .map(|scope| settings_path(Agent::Gemini, scope, project, env))
        .filter_map(|path| {
            let text = decisions::read_project_file(&path).ok()?;
            decisions::agent::settings::gemini_hooks_off(&text).map(|key| (path, key))
        })
        .collect()
}

/// What an agent needs before its model can call our MCP server's tools (all of them only
/// read, and say so: Codex runs such a tool without asking).
pub fn mcp_notes(agent: Agent) -> Vec<String> {
    match agent {
        Agent::ClaudeCode => vec![
            "Claude Code asks before its model calls a tool of the server: allow them all with \"mcp__decisions\" in permissions.allow of .claude/settings.local.json (headless: claude -p --allowedTools=mcp__decisions)".into(),
        ],
        Agent::Gemini => vec![
            "Gemini CLI hides an MCP server's tools from its model when headless unless they are allowed: add \"trust\": true to mcpServers.decisions in .gemini/settings.json, or run gemini --allowed-mcp-server-names decisions".into(),
        ],
        _ => Vec::new(),
    }
}
