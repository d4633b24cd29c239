//! Provider resolution: an explicit choice, then the project's `config.json`, then
//! `LEOPOLD_DECISIONS_PROVIDER`, then none. Every resolved provider knows its [`Source`].
//! Where the project's files are is [`crate::project`]'s business.
//!
//! `<leo-dir>/decisions/config.json`: `{"version", "provider", "providers": {name: descriptor}}`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::descriptor::{Descriptor, NONE, builtin};
use crate::project::{config_path, read_project_file};
use crate::schema::CONTRACT_VERSION;

/// The environment variable that names the provider when config.json does not.
pub const PROVIDER_ENV: &str = "LEOPOLD_DECISIONS_PROVIDER";

/// Where the active provider was configured, declared in precedence order: the first that
/// names a provider wins, so a lower value outranks a higher one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The caller named it.
    Explicit,
    /// The project's config.json.
    Config,
    /// `LEOPOLD_DECISIONS_PROVIDER`.
    Env,
    /// Nothing configured.
    None,
}

impl Source {
    /// The source as it is written in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Explicit => "explicit",
            Source::Config => "config",
            Source::Env => "env",
            Source::None => "none",
        }
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where environment variables are read from: the process, or a fixed map (tests, embedding).
#[derive(Debug, Clone, Default)]
pub enum Env {
    /// The process environment, read at call time.
    #[default]
    Process,
    /// A fixed set of variables; nothing else is visible.
    Map(BTreeMap<String, String>),
}

impl Env {
    /// A variable's value; an empty value counts as unset.
    pub fn get(&self, name: &str) -> Option<String> {
        let v = match self {
            Env::Process => std::env::var(name).ok(),
            Env::Map(m) => m.get(name).cloned(),
        };
        v.filter(|v| !v.is_empty())
    }
}

/// A project's `config.json`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The contract version.
    pub version: String,
    /// The active provider's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// Descriptors that override the built-in ones by name.
    #[serde(default)]
    pub providers: serde_json::Map<String, serde_json::Value>,
}

/// What reading config.json found.
#[derive(Debug, Clone, PartialEq)]
pub enum ConfigFile {
    /// No config.json.
    Missing,
    /// A config.json that does not parse; it resolves to no provider, never to an error.
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: String,
    },
    /// A config.json that parses.
    Loaded(Config),
}

impl ConfigFile {
    /// The config, when it parsed.
    pub fn config(&self) -> Option<&Config> {
        match self {
            ConfigFile::Loaded(c) => Some(c),
            _ => None,
        }
    }
}

/// Read `<leo-dir>/decisions/config.json`.
pub fn load_config(leo_dir: &Path) -> ConfigFile {
    let path = config_path(leo_dir);
    match read_project_file(&path) {
        Ok(text) => parse_config(&text, path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => ConfigFile::Missing,
        Err(e) => ConfigFile::Malformed { path, error: e.to_string() },
    }
}

/// Parse config.json text read from `path`: a version this build knows, no unknown field, no
/// repeated key.
pub fn parse_config(text: &str, path: PathBuf) -> ConfigFile {
    match serde_json::from_str::<Config>(text) {
        Ok(_) if let Some(dup) = crate::json::duplicate_keys(text).first() => {
            ConfigFile::Malformed { path, error: dup.to_string() }
        }
        Ok(c) if c.version == CONTRACT_VERSION => ConfigFile::Loaded(c),
        Ok(c) => ConfigFile::Malformed {
            path,
            error: format!("version must be \"{CONTRACT_VERSION}\", found \"{}\"", c.version),
        },
        Err(e) => ConfigFile::Malformed { path, error: e.to_string() },
    }
}

/// The name of the active provider and where it came from. `none` when nothing is configured.
pub fn resolve_name(explicit: Option<&str>, config: &ConfigFile, env: &Env) -> (String, Source) {
    if let Some(name) = explicit {
        return (name.to_string(), Source::Explicit);
    }
    if let Some(name) = config.config().and_then(|c| c.provider.clone()) {
        return (name, Source::Config);
    }
    if let Some(name) = env.get(PROVIDER_ENV) {
        return (name, Source::Env);
    }
    (NONE.to_string(), Source::None)
}

/// The descriptor for a name: the project's own when config.json has one, else the built-in.
pub fn descriptor_for(name: &str, config: &ConfigFile) -> Result<Descriptor, DescriptorLookup> {
    if let Some(raw) = config.config().and_then(|c| c.providers.get(name)) {
        return serde_json::from_value::<Descriptor>(raw.clone())
            .map_err(|e| DescriptorLookup::Unparsable { name: name.to_string(), error: e.to_string() });
    }
    builtin(name).ok_or_else(|| DescriptorLookup::Missing { name: name.to_string() })
}

/// Why no descriptor could be had for a name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DescriptorLookup {
    /// No descriptor by that name, in config.json or built in: no provider.
    #[error("no descriptor for provider \"{name}\"")]
    Missing {
        /// The name asked for.
        name: String,
    },
    /// config.json has one, but it does not parse: a validation failure a person must fix.
    #[error("descriptor for provider \"{name}\" in config.json: {error}")]
    Unparsable {
        /// The provider.
        name: String,
        /// What the parser said.
        error: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_order_by_precedence_and_print_as_written() {
        let mut all = [Source::None, Source::Env, Source::Explicit, Source::Config];
        all.sort();
        assert_eq!(all, [Source::Explicit, Source::Config, Source::Env, Source::None]);
        assert_eq!(all.map(|s| s.to_string()), ["explicit", "config", "env", "none"]);
    }
}
