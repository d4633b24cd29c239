//! What every command that asks the seam shares: the project, its config, the provider flag
//! and the budget.

use std::path::{Path, PathBuf};

use crate::exit::CliError;

/// The `.leopold` directory: the flag's, else `$LEOPOLD_PROJECT_DIR/.leopold`, else the
/// nearest above the working directory.
pub fn leo_dir(flag: Option<PathBuf>) -> Option<PathBuf> {
    flag.or_else(|| {
        let named = decisions::Env::Process.get(decisions::PROJECT_ENV);
        decisions::leo_dir_for(named.as_deref(), std::env::current_dir().ok().as_deref())
    })
}

/// The project's config file, for commands that resolve a provider.
pub fn project_config(leo: Option<&Path>) -> decisions::ConfigFile {
    leo.map_or(decisions::ConfigFile::Missing, decisions::load_config)
}

/// The project's config file, read by `deadline` (a stalled mount reads as malformed).
pub fn project_config_by(leo: Option<&Path>, deadline: std::time::Instant) -> decisions::ConfigFile {
    let Some(leo) = leo.map(Path::to_path_buf) else { return decisions::ConfigFile::Missing };
    let path = decisions::config_path(&leo);
    decisions::file::within(deadline, move || decisions::load_config(&leo))
        .unwrap_or(decisions::ConfigFile::Malformed { path, error: "it could not be read in time".into() })
}

/// An explicit `--provider` must name something: a descriptor in config.json or a built-in.
/// A typo is a usage error (exit 64), never a silent fallback to no provider.
pub fn explicit_provider(flag: Option<&str>, config: &decisions::ConfigFile) -> anyhow::Result<()> {
    let Some(name) = flag else { return Ok(()) };
    match decisions::descriptor_for(name, config) {
        Err(decisions::DescriptorLookup::Missing { .. }) => {
            let mut known: Vec<String> = decisions::known_names().map(String::from).collect();
            if let Some(c) = config.config() {
                known.extend(c.providers.keys().filter(|k| !known.contains(k)).cloned().collect::<Vec<_>>());
            }
            Err(CliError::usage(format!("--provider: unknown provider \"{name}\""))
                .hint(format!("known providers: {}", known.join(", ")))
                .into())
        }
        _ => Ok(()),
    }
}

/// A budget in milliseconds, for `--timeout-ms`: a whole number, at least 1.
pub fn positive_ms(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(0) => Err("must be at least 1 ms".into()),
        Ok(ms) => Ok(ms),
        Err(_) => Err(format!("expected a whole number of milliseconds, found {s:?}")),
    }
}

// The flags every command that asks the seam shares. (A `///` comment here would become the
// help text of every command that flattens it.)
#[derive(Debug, Clone, clap::Args)]
pub struct SeamArgs {
    /// The project's .leopold directory [default: the nearest above the working directory]
    #[arg(long, value_name = "DIR")]
    pub leo_dir: Option<PathBuf>,
    /// Use this provider, outranking config.json and LEOPOLD_DECISIONS_PROVIDER
    #[arg(long, value_name = "NAME")]
    pub provider: Option<String>,
    /// Each ask's budget in milliseconds [default: the provider's timeout_ms]
    #[arg(long, value_name = "N", value_parser = positive_ms)]
    pub timeout_ms: Option<u64>,
}

impl SeamArgs {
    /// The seam request these flags make: the project's config read once (by the budget), a
    /// typoed provider refused as a usage error.
    pub fn request(&self) -> anyhow::Result<decisions::Request<'static>> {
        let started = std::time::Instant::now();
        let leo_dir = leo_dir(self.leo_dir.clone());
        let config =
            project_config_by(leo_dir.as_deref(), after(started, self.timeout_ms.unwrap_or(decisions::READ_BUDGET_MS)));
        explicit_provider(self.provider.as_deref(), &config)?;
        Ok(decisions::Request {
            leo_dir,
            config: Some(config),
            provider: self.provider.clone().map(decisions::ProviderChoice::Name),
            timeout_ms: self.timeout_ms,
            ..decisions::Request::default()
        })
    }
}

/// The name a person most likely meant by `typed`, for a "did you mean": the nearest within
/// about a third of its length in edits (at least one), or one that begins the other.
pub fn nearest<'a>(typed: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let bound = typed.chars().count().div_ceil(3).max(1);
    known
        .into_iter()
        .filter(|k| *k != typed)
        .map(|k| {
            let prefix = k.starts_with(typed) || typed.starts_with(k);
            (if prefix { 0 } else { strsim::damerau_levenshtein(typed, k) }, k)
        })
        .filter(|(d, _)| *d <= bound)
        .min()
        .map(|(_, k)| k)
}

/// The catalog names a project holds: `<leo>/decisions/*.json` but its config.
pub fn catalog_names(leo: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(leo.join("decisions")) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".json").map(String::from))
        .filter(|n| n != "config")
        .collect();
    names.sort();
    names
}

/// A queue's catalog and questions, checked before its first line is read: a catalog that
/// cannot be had, or a question it does not hold, is a usage error naming the flag, with the
/// nearest name when there is one (a typo must not become a failure line an item).
pub fn check_catalog(request: &decisions::Request<'_>, catalog_flag: &str, questions_flag: &str) -> anyhow::Result<()> {
    let by = std::time::Instant::now() + crate::input::INPUT_WAIT;
    let doc = match decisions::load_catalog(request.catalog.as_ref(), request.leo_dir.as_deref(), by) {
        Ok(doc) => doc,
        Err(e) => {
            let mut err = CliError::usage(format!("--catalog {catalog_flag}: {e}"));
            if let (Some(decisions::CatalogRef::Name(name)), Some(leo)) = (&request.catalog, &request.leo_dir) {
                let names = catalog_names(leo);
                if let Some(near) = nearest(name, names.iter().map(String::as_str)) {
                    err = err.hint(format!("did you mean --catalog {near}?"));
                } else if !names.is_empty() {
                    err = err.hint(format!("the project's catalogs: {}", names.join(", ")));
                }
            }
            return Err(err.into());
        }
    };
    let known: Vec<&str> = doc
        .value
        .get("questions")
        .and_then(|q| q.as_object())
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    for q in &request.questions {
        if known.contains(&q.as_str()) {
            continue;
        }
        let list = format!("its questions: {}", known.join(", "));
        let hint = match nearest(q, known.iter().copied()) {
            Some(near) => format!("did you mean {questions_flag} {near}? {list}"),
            None => list,
        };
        return Err(CliError::usage(format!("{questions_flag} {q}: catalog {catalog_flag} has no such question"))
            .hint(hint)
            .into());
    }
    Ok(())
}

/// `ms` after `start`; a budget too large to add is as good as none.
pub fn after(start: std::time::Instant, ms: u64) -> std::time::Instant {
    start.checked_add(std::time::Duration::from_millis(ms)).unwrap_or(start + std::time::Duration::from_secs(86_400))
}
