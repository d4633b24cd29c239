//! `decisions doctor`: what is installed and configured, one row a fact, and whether the hook
//! or `ask` could reach a model as configured (`ready`, else `not ready` naming each missing
//! piece, and exit 1). With nothing installed and nothing configured it prints nothing and
//! exits 0: a capability nobody opted into is absent, not degraded. Catalogs are named with
//! whether they parse and validate, never shown; the key variable is reported set or not,
//! never read out.

use std::path::{Path, PathBuf};

use decisions::install::{PAYLOAD_FILES, payload_dir};
use decisions::{ConfigFile, Env, Source};

use super::exit;

/// Report the payload, the active provider, the key variable, the catalogs and the ledgers
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The project's .leopold directory [default: the nearest above the working directory]
    #[arg(long, value_name = "DIR")]
    leo_dir: Option<PathBuf>,
}

/// What doctor and status report.
pub struct Facts {
    pub payload: Option<PathBuf>,
    pub config_path: Option<PathBuf>,
    pub config: ConfigFile,
    pub provider: String,
    pub source: Source,
    pub descriptor: Result<decisions::Descriptor, String>,
    pub descriptor_problems: Vec<String>,
    pub key_set: Option<bool>,
    pub catalogs: Vec<(String, Result<usize, String>)>,
    pub ledger: Option<(usize, usize)>,
    pub judgments: Option<(PathBuf, usize, usize)>,
    /// What keeps the active provider from being asked: empty when ready.
    pub missing: Vec<String>,
}

impl Facts {
    /// Nothing installed and nothing configured: no rows at all.
    pub fn absent(&self) -> bool {
        self.payload.is_none() && matches!(self.config, ConfigFile::Missing) && self.source == Source::None
    }
}

pub fn gather(leo_dir: Option<PathBuf>) -> Facts {
    let env = Env::Process;
    let leo = super::leo_dir(leo_dir);
    let dir = payload_dir(&env);
    let payload = PAYLOAD_FILES.iter().any(|f| dir.join(f).is_file()).then_some(dir);
    let config = super::project_config(leo.as_deref());
    let config_path = leo.as_deref().map(decisions::config_path);
    let (provider, source) = decisions::resolve_name(None, &config, &env);
    let descriptor = match decisions::descriptor_for(&provider, &config) {
        Ok(d) => Ok(d),
        Err(e) => Err(e.to_string()),
    };
    let live = descriptor.as_ref().ok().filter(|d| d.name != decisions::NONE);
    let descriptor_problems: Vec<String> = live
        .map(|d| decisions::validate_descriptor(d).err().unwrap_or_default().iter().map(ToString::to_string).collect())
        .unwrap_or_default();
    // A keyless endpoint needs none: its key counts as set.
    let key_set = live.map(|d| d.auth_env.as_ref().is_none_or(|var| env.get(var).is_some()));
    let against = descriptor.clone().ok().or_else(|| decisions::builtin(decisions::NONE));
    let catalogs = leo.as_deref().map(|l| catalogs(l, against.as_ref())).unwrap_or_default();
    let ledger = leo.as_deref().and_then(|l| {
        let path = decisions::ledger::ledger_path(l);
        path.is_file().then(|| decisions::ledger::count_rows(&path).unwrap_or((0, 0)))
    });
    let judgments = std::env::current_dir().ok().and_then(|cwd| {
        let path = decisions::judgment::judgment_path(&env, &cwd);
        let (rows, skipped) = path.is_file().then(|| decisions::judgment::count(&path).ok())??;
        Some((path, rows, skipped))
    });
    let mut missing = Vec::new();
    if let ConfigFile::Malformed { path, .. } = &config {
        missing.push(format!("{} is malformed", path.display()));
    }
    match &descriptor {
        _ if provider == decisions::NONE => missing.push(format!(
            "no provider configured (decisions install --provider NAME, or {})",
            decisions::PROVIDER_ENV
        )),
        Err(m) => missing.push(m.clone()),
        Ok(d) => {
            missing.extend(descriptor_problems.iter().cloned());
            if let (Some(false), Some(var)) = (key_set, &d.auth_env) {
                missing.push(format!("{var} is not set"));
            }
            for (name, status) in &catalogs {
                if status.is_err() {
                    missing.push(format!("catalog {name} is not valid for \"{}\"", d.name));
                }
            }
        }
    }
    Facts {
        payload,
        config_path,
        config,
        provider,
        source,
        descriptor,
        descriptor_problems,
        key_set,
        catalogs,
        ledger,
        judgments,
        missing,
    }
}

impl Facts {
    /// `ready`, or `not ready: ` and each missing piece.
    pub fn readiness(&self) -> String {
        if self.missing.is_empty() {
            format!("ready: {} can be asked", self.provider)
        } else {
            format!("not ready: {}", self.missing.join("; "))
        }
    }
}

/// Each catalog in the project, with its question count or what is wrong with it.
fn catalogs(leo: &Path, provider: Option<&decisions::Descriptor>) -> Vec<(String, Result<usize, String>)> {
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
            let status = match path.is_file().then(|| super::read_json(&path)) {
                None => Err("not a regular file".to_string()),
                Some(Err(super::JsonFileError::Read(e))) => Err(format!("unreadable: {e}")),
                // The parser's own words, which name the line and column.
                Some(Err(super::JsonFileError::Parse(e))) => {
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
                                super::count(problems.len(), "problem"),
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

pub fn run(args: Args) -> anyhow::Result<u8> {
    let f = gather(args.leo_dir);
    if f.absent() {
        return Ok(exit::OK);
    }
    // Every value may quote a file or a server: shown inert.
    let row = |k: &str, v: String| println!("decisions {k:<12} {}", decisions::escape::terminal(&v));
    row("payload", f.payload.as_ref().map_or("not installed".into(), |d| format!("{} (installed)", d.display())));
    if let (ConfigFile::Malformed { path, error }, _) = (&f.config, ()) {
        row("config", format!("{} is malformed, so it configures no provider: {error}", path.display()));
    } else if let Some(p) = f.config_path.as_ref().filter(|_| matches!(f.config, ConfigFile::Loaded(_))) {
        row("config", p.display().to_string());
    }
    row("provider", format!("{} (source: {})", f.provider, f.source));
    match &f.descriptor {
        Ok(d) if d.name != decisions::NONE => {
            row("calibration", decisions::calibration_label(d).to_string());
            row("endpoint", if d.endpoint.is_empty() { "(not set)".into() } else { d.endpoint.clone() });
            row("model", if d.model.is_empty() { "(not pinned)".into() } else { d.model.clone() });
            match &d.auth_env {
                Some(var) => {
                    row("key", format!("{var} {}", if f.key_set == Some(true) { "is set" } else { "is not set" }))
                }
                None => row("key", "none needed (no auth_env: no Authorization header is sent)".into()),
            }
            for p in &f.descriptor_problems {
                row("descriptor", p.clone());
            }
        }
        Ok(_) => {}
        Err(m) => row("descriptor", m.clone()),
    }
    for (name, status) in &f.catalogs {
        row(
            "catalog",
            match status {
                Ok(n) => format!("{name}: ok, {}", super::count(*n, "question")),
                Err(e) => format!("{name}: {e}"),
            },
        );
    }
    let unreadable = |n: usize| if n > 0 { format!(", {n} unreadable") } else { String::new() };
    if let Some((rows, skipped)) = f.ledger {
        row("ledger", format!("{}{}", super::count(rows, "row"), unreadable(skipped)));
    }
    if let Some((path, rows, skipped)) = &f.judgments {
        row("judgments", format!("{}{} ({})", super::count(*rows, "row"), unreadable(*skipped), path.display()));
    }
    row("readiness", f.readiness());
    Ok(if f.missing.is_empty() { exit::OK } else { exit::FAIL })
}
