//! What `doctor` and `status` report: the payload, the active provider and its descriptor, the
//! key variable (set or not, never its value), the project's catalogs (named, never shown), the
//! agents' hooks, the consumers and what each would ask with, the ledgers, and what keeps the
//! set-up from reaching a model.

use std::path::{Path, PathBuf};

use decisions::agent::Agent;
use decisions::agent::settings::Scope;
use decisions::install::{PAYLOAD_FILES, payload_dir};
use decisions::{ConfigFile, Descriptor, Env, Source};

use decisions::agent::settings::our_program;

use crate::wiring::{Place, runnable};

/// One agent's hook, as its settings hold it.
pub struct AgentHook {
    /// The agent.
    pub agent: Agent,
    /// Where our entry is, for which event and what it runs; or why the file could not be read.
    pub wired: Vec<WiredAt>,
    /// A settings file that could not be read or parsed.
    pub unreadable: Vec<String>,
    /// Our MCP server in the project's settings of this agent: where, and the program it runs
    /// checked (its path, or what is wrong with it); or why the file could not be read.
    pub server: Option<Result<Server, String>>,
}

/// Our MCP server's entry: the file, and the program it runs checked (its path, or what is
/// wrong with it).
pub type Server = (PathBuf, Result<PathBuf, String>);

/// Our entry in one settings file.
pub struct WiredAt {
    /// The file.
    pub path: PathBuf,
    /// Whose.
    pub scope: Scope,
    /// The event.
    pub event: String,
    /// The command.
    pub command: String,
    /// The program it runs, checked: its path, or what is wrong with it.
    pub runs: Result<PathBuf, String>,
    /// What the agent says of it that a person should know (Codex's trust, when it is given).
    pub notes: Vec<String>,
    /// What keeps the agent from running it (an untrusted Codex hook or project, Gemini's
    /// hooks switched off): each makes doctor `not ready`.
    pub blockers: Vec<String>,
    /// What it will not protect as one may think (a PermissionRequest hook headless).
    pub warnings: Vec<String>,
}

/// A consumer, and the catalog it would ask with.
pub struct Consumer {
    /// Its name: `hook`, `route`, `review`, `triage`.
    pub name: &'static str,
    /// Whether someone set it up: an agent runs the hook, or the project has its catalog.
    pub wired: bool,
    /// Its catalog's state for the active provider: `Ok` says which file, `Err` what is wrong.
    pub status: Result<String, String>,
}

/// What doctor and status report.
pub struct Facts {
    pub payload: Option<PathBuf>,
    pub config_path: Option<PathBuf>,
    pub config: ConfigFile,
    pub provider: String,
    pub source: Source,
    pub descriptor: Result<Descriptor, String>,
    pub descriptor_problems: Vec<String>,
    pub key_set: Option<bool>,
    pub catalogs: Vec<(String, Result<usize, String>)>,
    pub agents: Vec<AgentHook>,
    pub consumers: Vec<Consumer>,
    pub ledger: Option<(usize, usize)>,
    pub judgments: Option<(PathBuf, usize, usize)>,
    /// What keeps the set-up from reaching a model: empty when ready.
    pub missing: Vec<String>,
}

impl Facts {
    /// Nothing installed, configured or wired.
    pub fn absent(&self) -> bool {
        self.payload.is_none()
            && matches!(self.config, ConfigFile::Missing)
            && self.source == Source::None
            && self.agents.iter().all(|a| a.wired.is_empty())
    }

    /// The descriptor of a provider that is configured (not `none`).
    pub fn live(&self) -> Option<&Descriptor> {
        self.descriptor.as_ref().ok().filter(|d| d.name != decisions::NONE)
    }

    /// `ready`, or `not ready: ` and each missing piece.
    pub fn readiness(&self) -> String {
        if self.missing.is_empty() {
            let who: Vec<String> = self
                .consumers
                .iter()
                .filter(|c| c.wired)
                .map(|c| match c.name {
                    "hook" => {
                        let agents: Vec<&str> =
                            self.agents.iter().filter(|a| !a.wired.is_empty()).map(|a| a.agent.name()).collect();
                        format!("the hook ({})", agents.join(", "))
                    }
                    other => other.to_string(),
                })
                .collect();
            if who.is_empty() {
                let ok: Vec<&str> = self.catalogs.iter().filter(|(_, s)| s.is_ok()).map(|(n, _)| n.as_str()).collect();
                return format!("ready: {} can be asked with {} (decisions ask)", self.provider, ok.join(", "));
            }
            format!("ready: {} can be asked by {}", self.provider, who.join(", "))
        } else {
            format!("not ready: {}", self.missing.join("; "))
        }
    }
}

/// The consumers and their catalogs, in the order they are listed.
const CONSUMERS: [(&str, &str); 4] =
    [("hook", "permission"), ("route", "routing"), ("review", "review"), ("triage", "triage")];

pub fn gather(leo_dir: Option<PathBuf>) -> Facts {
    let env = Env::Process;
    let leo = crate::seam::leo_dir(leo_dir);
    let project = leo.as_deref().and_then(Path::parent).map(Path::to_path_buf).or_else(crate::wiring::find_project);
    let dir = payload_dir(&env);
    let payload = PAYLOAD_FILES.iter().any(|f| dir.join(f).is_file()).then_some(dir);
    let config = crate::seam::project_config(leo.as_deref());
    let config_path = leo.as_deref().map(decisions::config_path);
    let (provider, source) = decisions::resolve_name(None, &config, &env);
    let descriptor = decisions::descriptor_for(&provider, &config).map_err(|e| e.to_string());
    let live = descriptor.as_ref().ok().filter(|d| d.name != decisions::NONE);
    let descriptor_problems: Vec<String> = live
        .map(|d| decisions::validate_descriptor(d).err().unwrap_or_default().iter().map(ToString::to_string).collect())
        .unwrap_or_default();
    // A keyless endpoint needs none: its key counts as set.
    let key_set = live.map(|d| d.auth_env.as_ref().is_none_or(|var| env.get(var).is_some()));
    let against = descriptor.clone().ok().or_else(|| decisions::builtin(decisions::NONE));
    let catalogs = leo.as_deref().map(|l| catalogs(l, against.as_ref())).unwrap_or_default();
    let agents = agents(project.as_deref(), &env);
    let hook_wired = agents.iter().any(|a| !a.wired.is_empty());
    let consumers: Vec<Consumer> = CONSUMERS
        .iter()
        .map(|&(name, catalog)| {
            let file = format!("{catalog}.json");
            let found = catalogs.iter().find(|(n, _)| *n == file);
            let status = match (found, name) {
                // The model inside the binary answers the hook's question only: any other
                // consumer would get `unsupported` every time and keep to its own rules.
                _ if name != "hook" && provider == decisions::builtin::NAME => Err(format!(
                    "{} answers only the hook's question (\"destructive\"), so {name} would keep to its own rules; a provider such as jev or local answers both (decisions install --provider jev)",
                    decisions::builtin::NAME
                )),
                (Some((_, Ok(_))), _) => Ok(format!("{file}, valid for \"{}\"", provider)),
                (Some((_, Err(e))), _) => Err(format!("{file}: {e}")),
                (None, "triage") => shipped_status(catalog, against.as_ref()),
                (None, _) => Err(format!("no {file} (decisions install --catalogs {catalog})")),
            };
            let wired = if name == "hook" { hook_wired } else { found.is_some() };
            Consumer { name, wired, status }
        })
        .collect();
    let ledger = leo.as_deref().and_then(|l| {
        let path = decisions::ledger::ledger_path(l);
        path.is_file().then(|| decisions::ledger::count_rows(&path).unwrap_or((0, 0)))
    });
    let judgments = std::env::current_dir().ok().and_then(|cwd| {
        let path = decisions::judgment::judgment_path(&env, &cwd);
        let (rows, skipped) = path.is_file().then(|| decisions::judgment::count(&path).ok())??;
        Some((path, rows, skipped))
    });
    let mut facts = Facts {
        payload,
        config_path,
        config,
        provider,
        source,
        descriptor,
        descriptor_problems,
        key_set,
        catalogs,
        agents,
        consumers,
        ledger,
        judgments,
        missing: Vec::new(),
    };
    facts.missing = missing(&facts);
    facts
}

/// What keeps every wired consumer from reaching a model.
fn missing(f: &Facts) -> Vec<String> {
    let mut missing = Vec::new();
    if let ConfigFile::Malformed { path, .. } = &f.config {
        missing.push(format!("{} is malformed", path.display()));
    }
    match &f.descriptor {
        _ if f.provider == decisions::NONE => missing.push(format!(
            "no provider configured (decisions install --provider NAME, or {})",
            decisions::PROVIDER_ENV
        )),
        Err(m) => missing.push(m.clone()),
        Ok(d) => {
            missing.extend(f.descriptor_problems.iter().cloned());
            if let (Some(false), Some(var)) = (f.key_set, &d.auth_env) {
                missing.push(format!("{var} is not set"));
            }
        }
    }
    for a in &f.agents {
        for w in &a.wired {
            if let Err(e) = &w.runs {
                missing.push(format!(
                    "the {} hook in {} runs what cannot run: {e} (decisions install --agent {} writes it again)",
                    a.agent.name(),
                    w.path.display(),
                    a.agent.name()
                ));
            }
            missing.extend(w.blockers.iter().cloned());
        }
        missing.extend(a.unreadable.iter().cloned());
    }
    for c in f.consumers.iter().filter(|c| c.wired) {
        if let Err(e) = &c.status {
            missing.push(format!("{} cannot ask: {e}", c.name));
        }
    }
    for (name, status) in &f.catalogs {
        let a_consumers = CONSUMERS.iter().any(|(_, c)| format!("{c}.json") == *name);
        if let (Err(_), false) = (status, a_consumers) {
            missing.push(format!("catalog {name} is not valid for \"{}\"", f.provider));
        }
    }
    if !f.consumers.iter().any(|c| c.wired) && !f.catalogs.iter().any(|(_, s)| s.is_ok()) {
        missing.push(
            "nothing would ask: no agent runs the hook and the project has no catalog (decisions install --agent claude-code, or --catalogs routing)"
                .into(),
        );
    }
    missing
}

/// Each agent's hook, in the project's settings and the user's.
fn agents(project: Option<&Path>, env: &Env) -> Vec<AgentHook> {
    Agent::ALL
        .iter()
        .map(|&agent| {
            let mut hook = AgentHook { agent, wired: Vec::new(), unreadable: Vec::new(), server: None };
            if let Some(project) = project {
                hook.server = server(agent, project);
            }
            let scopes: &[Scope] = if project.is_some() { &[Scope::Project, Scope::User] } else { &[Scope::User] };
            for &scope in scopes {
                let place = match Place::read(agent, scope, project.unwrap_or(Path::new("")), env) {
                    Ok(p) => p,
                    Err(e) => {
                        hook.unreadable.push(e.to_string());
                        continue;
                    }
                };
                if let Some(text) = &place.text {
                    for w in decisions::agent::settings::misfiled(text, agent) {
                        let events: Vec<&str> = agent.events().iter().map(|e| e.name()).collect();
                        hook.unreadable.push(format!(
                            "the {} hook in {} is filed under \"{}\", an event {} never sends ({}), so it never runs: move it under one of those, or delete it and run decisions install --agent {}",
                            agent.name(),
                            place.path.display(),
                            decisions::escape::terminal(&w.event),
                            agent.title(),
                            events.join(", "),
                            agent.name()
                        ));
                    }
                }
                match place.wired() {
                    Ok(found) => hook.wired.extend(found.into_iter().map(|w| {
                        let runs = our_program(&w.command, agent)
                            .map_or_else(|| Err(format!("{} is not a decisions command", w.command)), |p| runnable(&p));
                        let mut at = WiredAt {
                            path: place.path.clone(),
                            scope,
                            event: w.event,
                            command: w.command,
                            runs,
                            notes: Vec::new(),
                            blockers: Vec::new(),
                            warnings: Vec::new(),
                        };
                        check(agent, &mut at, project.unwrap_or(Path::new("")), env);
                        at
                    })),
                    Err(e) => hook.unreadable.push(e.to_string()),
                }
            }
            hook
        })
        .collect()
}

/// Our MCP server as an agent's project settings register it: none when they do not.
fn server(agent: Agent, project: &Path) -> Option<Result<Server, String>> {
    let place = match Place::read_mcp(agent, project) {
        Ok(place) => place?,
        Err(e) => return Some(Err(e.to_string())),
    };
    let text = place.text?;
    match decisions::agent::settings::mcp_registered(&text, agent, &place.path) {
        Ok(None) => None,
        Ok(Some(entry)) => {
            let runs = if entry.args.iter().map(String::as_str).eq(decisions::agent::settings::MCP_ARGS.iter().copied())
            {
                runnable(&entry.command)
            } else {
                Err(format!("it runs `{} {}`, not `decisions mcp`", entry.command, entry.args.join(" ")))
            };
            Some(Ok((place.path, runs)))
        }
        Err(e) => Some(Err(e.to_string())),
    }
}

/// What the agent itself will make of our entry: whether it runs it at all.
fn check(agent: Agent, at: &mut WiredAt, project: &Path, env: &Env) {
    use crate::wiring::{ASKS_FIRST, CODEX_TRUST_ROUTES, COPILOT_RUNS_CLAUDE};
    if decisions::agent::HookEvent::parse(&at.event).is_some_and(|e| e.asks_first()) {
        at.warnings.push(ASKS_FIRST.to_string());
    }
    match agent {
        Agent::Codex => {
            if at.scope == Scope::Project {
                let level = crate::wiring::codex_project_trust(project, env);
                if level.as_deref() != Some("trusted") {
                    at.blockers.push(format!(
                        "Codex does not trust the project {} ({}), so it never loads {}: trust it when Codex asks on start, or add [projects.\"{}\"] trust_level = \"trusted\" to {}, or wire the hook with --scope user",
                        project.display(),
                        level.map_or("no trust_level".to_string(), |l| format!("trust_level \"{l}\"")),
                        at.path.display(),
                        project.display(),
                        crate::wiring::codex_config(env).display()
                    ));
                    return;
                }
            }
            match crate::codex::list(project) {
                Err(crate::codex::CodexError::NotInstalled) => at.blockers.push(format!(
                    "cannot tell whether Codex trusts the hook in {}: no codex binary on PATH to ask (codex app-server)",
                    at.path.display()
                )),
                Err(e) => at.blockers.push(format!("cannot tell whether Codex trusts the hook in {}: {e}", at.path.display())),
                Ok(listed) => match crate::codex::ours(&listed, &at.path, &at.command).map(|h| h.trust.as_str()) {
                    Some("trusted" | "managed") => at.notes.push("Codex trusts it".into()),
                    Some("modified") => at.blockers.push(format!(
                        "Codex trusted the hook in {} before it changed, and now skips it silently: {CODEX_TRUST_ROUTES}",
                        at.path.display()
                    )),
                    Some(_) => at.blockers.push(format!(
                        "Codex has not trusted the hook in {}, and skips it silently: {CODEX_TRUST_ROUTES}",
                        at.path.display()
                    )),
                    None => at.blockers.push(format!(
                        "Codex does not list the hook in {} among those it would run: {CODEX_TRUST_ROUTES}",
                        at.path.display()
                    )),
                },
            }
        }
        Agent::Gemini => {
            for (file, key) in crate::wiring::gemini_switched_off(project, env) {
                at.blockers.push(format!(
                    "Gemini CLI's hooks are switched off in {} ({key}), so it never runs the hook: set hooksConfig.enabled to true and take \"decisions\" out of hooksConfig.disabled",
                    file.display()
                ));
            }
        }
        Agent::Copilot if at.scope == Scope::Project => {
            let config = crate::wiring::copilot_home(env).join("config.json");
            match crate::wiring::copilot_trusts(project, env) {
                Some(true) => at.notes.push("Copilot CLI trusts the folder".into()),
                Some(false) => at.blockers.push(format!(
                    "Copilot CLI does not trust {} (not in \"trustedFolders\" of {}), so it never runs the repository's hooks: trust it when Copilot asks, or `copilot --trust-folder`, or wire the hook with --scope user",
                    project.display(),
                    config.display()
                )),
                None => at.warnings.push(format!(
                    "Copilot CLI runs a repository's hooks only in a folder it trusts, and {} lists none yet: it asks on its first start there",
                    config.display()
                )),
            }
            if crate::wiring::claude_wired_in(project, env) {
                at.warnings.push(COPILOT_RUNS_CLAUDE.to_string());
            }
        }
        _ => {}
    }
}

/// The shipped catalog a consumer falls back to, checked against the provider.
fn shipped_status(name: &str, provider: Option<&Descriptor>) -> Result<String, String> {
    let text = decisions::install::shipped(name).unwrap_or_default();
    let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    match provider.map(|p| decisions::validate_catalog(&doc, p)) {
        None | Some(Ok(_)) => Ok(format!("the shipped {name}.json (the project has none)")),
        Some(Err(es)) => {
            let problems: Vec<String> = es.iter().map(ToString::to_string).collect();
            Err(format!("the shipped {name}.json: {}", problems.join("; ")))
        }
    }
}

/// Each catalog in the project, with its question count or what is wrong with it.
fn catalogs(leo: &Path, provider: Option<&Descriptor>) -> Vec<(String, Result<usize, String>)> {
    let dir = leo.join("decisions");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json") && n != "config.json")
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let path = dir.join(&name);
            // Reading a FIFO would wait for a writer that may never come.
            let status = match path.is_file().then(|| crate::input::read_json(&path)) {
                None => Err("not a regular file".to_string()),
                Some(Err(crate::input::JsonFileError::Read(e))) => Err(format!("unreadable: {e}")),
                // The parser's own words, which name the line and column.
                Some(Err(crate::input::JsonFileError::Parse(e))) => {
                    Err(format!("not JSON at line {}, column {}: {}", e.line, e.column, e.what))
                }
                Some(Ok(doc)) => match provider {
                    None => Ok(0),
                    Some(p) => {
                        let mut problems: Vec<String> = doc.duplicates.iter().map(ToString::to_string).collect();
                        let valid = decisions::validate_catalog(&doc.value, p);
                        if let Err(es) = &valid {
                            problems.extend(es.iter().map(ToString::to_string));
                        }
                        match valid {
                            Ok(c) if problems.is_empty() => Ok(c.questions.len()),
                            _ => Err(format!(
                                "{} against \"{}\": {}",
                                crate::output::count(problems.len(), "problem"),
                                p.name,
                                problems.join("; ")
                            )),
                        }
                    }
                },
            };
            (name, status)
        })
        .collect()
}
