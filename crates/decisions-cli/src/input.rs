//! Files a person names on the command line: read as given (a pipe included, for a while), and
//! JSON that says where it is not JSON.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::exit::CliError;

/// A catalog argument is a path when it names a file, has a separator or ends in `.json`;
/// otherwise it is a name resolved to `<leo-dir>/decisions/<name>.json`.
pub fn catalog_arg(arg: &str) -> decisions::CatalogRef {
    match catalog_name(arg) {
        Some(name) => decisions::CatalogRef::Name(name.to_string()),
        None => decisions::CatalogRef::Path(PathBuf::from(arg)),
    }
}

/// The catalog name an argument gives, when it is a name rather than a path.
pub fn catalog_name(arg: &str) -> Option<&str> {
    let path_like = Path::new(arg).is_file() || arg.contains(std::path::MAIN_SEPARATOR) || arg.contains('/');
    (!path_like && !arg.ends_with(".json")).then_some(arg)
}

/// Why a JSON file could not be had.
#[derive(Debug)]
pub enum JsonFileError {
    /// It could not be read.
    Read(std::io::Error),
    /// It is not JSON.
    Parse(NotJson),
}

/// Where and why a text is not JSON: shown `source:line:column: not JSON: what`.
#[derive(Debug)]
pub struct NotJson {
    /// What was read (a path, a flag).
    pub source: String,
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1.
    pub column: usize,
    /// What the parser said.
    pub what: String,
}

impl std::fmt::Display for NotJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}: not JSON: {}", self.source, self.line, self.column, self.what)
    }
}

impl std::fmt::Display for JsonFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JsonFileError::Read(e) => write!(f, "{e}"),
            JsonFileError::Parse(m) => write!(f, "{m}"),
        }
    }
}

/// Parse JSON text, naming the source, line and column when it is not JSON.
pub fn parse_json(text: &str, source: &str) -> Result<Value, JsonFileError> {
    serde_json::from_str(text).map_err(|e| {
        let what = e.to_string();
        let what = what.split(" at line ").next().unwrap_or(&what).to_string();
        JsonFileError::Parse(NotJson { source: source.to_string(), line: e.line(), column: e.column(), what })
    })
}

// The bound on a document read whole (a card, a catalog, a findings file, a state). (Not a
// `///` comment: it would become the help text of every command that flattens it.)
#[derive(Debug, Clone, clap::Args)]
pub struct DocArgs {
    /// The largest document (card, catalog, findings, state) read whole, in bytes; a larger one is refused
    #[arg(long, value_name = "BYTES", default_value_t = decisions::file::DEFAULT_DOCUMENT_MAX, global = true)]
    pub document_max: u64,
}

impl DocArgs {
    /// Keep the bound for every document this command reads.
    pub fn apply(&self) {
        decisions::file::set_document_max(self.document_max);
    }
}

/// How long a command waits for a file a person named to deliver (a pipe with no writer).
pub const INPUT_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Read a JSON file a person named, with the keys its text repeats. A pipe is read as given,
/// but only for [`INPUT_WAIT`].
pub fn read_json(path: &Path) -> Result<decisions::json::Document, JsonFileError> {
    let bytes =
        decisions::file::read_input(path, std::time::Instant::now() + INPUT_WAIT).map_err(JsonFileError::Read)?;
    let text = String::from_utf8_lossy(&bytes);
    let value = parse_json(&text, &path.display().to_string())?;
    Ok(decisions::json::Document { value, duplicates: decisions::json::duplicate_keys(&text) })
}

/// Read a text file a person named (a pipe included, for [`INPUT_WAIT`]); `-` is standard input.
pub fn read_text(path: &Path, flag: &str) -> anyhow::Result<String> {
    let bytes = if path.as_os_str() == "-" {
        let max = decisions::file::document_max();
        let read = decisions::file::within(std::time::Instant::now() + INPUT_WAIT, move || {
            decisions::file::read_at_most(std::io::stdin(), max)
        });
        read.unwrap_or_else(|| Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "nothing arrived in time")))
    } else {
        decisions::file::read_input(path, std::time::Instant::now() + INPUT_WAIT)
    };
    let bytes = bytes.map_err(|e| CliError::usage(format!("{flag} {}: {e}", path.display())))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
