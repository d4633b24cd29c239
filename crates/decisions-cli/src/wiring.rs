//! Our hook in the agents' settings, for `install --agent`, `remove --agent` and `doctor`: where
//! each agent's file is, what it holds of ours, and the atomic write of an edit. The edits
//! themselves are the library's (`decisions::agent::settings`).

use std::path::{Path, PathBuf};

use decisions::Env;
use decisions::agent::Agent;
use decisions::agent::settings::{Edit, Scope, SettingsError, Wired, settings_path, wired};

// Which agents' settings, and whose. (Not a `///` comment: it would become the help text of
// every command that flattens it.)
#[derive(Debug, clap::Args)]
pub struct WiringArgs {
    /// Wire the permission hook into this agent's settings: claude-code, codex or gemini (repeatable)
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

/// What an agent needs beyond its settings for our hook to run, said once when it is wired.
pub fn notes(agent: Agent, scope: Scope) -> Vec<String> {
    match agent {
        Agent::ClaudeCode => Vec::new(),
        Agent::Codex => {
            let mut out =
                vec!["Codex runs a hook it has not seen only once you trust it: open /hooks in Codex and trust `decisions hook codex`".to_string()];
            if scope == Scope::Project {
                out.push(
                    "Codex loads a project's .codex/config.toml only in a trusted project (or wire it with --scope user)"
                        .into(),
                );
            }
            out
        }
        Agent::Gemini => vec![
            "Gemini CLI runs hooks only with its hooks system on: /settings, Advanced, Enable Hooks System".to_string(),
        ],
    }
}
