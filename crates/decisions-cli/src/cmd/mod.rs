//! One file per subcommand; this module holds the command tree, exit codes and the helpers
//! the subcommands share.

mod ask;
mod batch;
mod card;
mod doctor;
mod eval;
mod hook;
mod install;
mod judgment;
mod ledger;
mod providers;
mod remove;
mod review;
mod route;
mod schema;
mod status;
mod triage;
mod validate;

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Parser, Subcommand};
use serde_json::Value;

/// Ask a model typed questions with a deterministic fallback, and keep the contract honest
#[derive(Debug, Parser)]
#[command(name = "decisions", version, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Each subcommand's arguments are built only when it is the one run: a hook pays for `hook`.
/// So the short lines the command list shows are here; each `Args` carries its full help.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
enum Command {
    /// Ask a catalog's questions about a state; print the decision as one JSON object
    Ask(ask::Args),
    /// Check a catalog against the contract and a provider
    Validate(validate::Args),
    /// Print the catalog JSON Schema
    Schema(schema::Args),
    /// Print the provider templates
    Providers(providers::Args),
    /// Record decisions and outcomes, propose bars, report calibration
    Ledger(ledger::Args),
    /// Append, search and recall human judgments
    Judgment(judgment::Args),
    /// Validate Decision Cards, recall past decisions into them, record answers
    Card(card::Args),
    /// Install the payload and seed the project's config
    Install(install::Args),
    /// Remove the payload; project files stay
    Remove(remove::Args),
    /// Print the active provider and the catalogs on one line
    Status(status::Args),
    /// Report what is installed and configured, one row a fact
    Doctor(doctor::Args),
    /// Answer an agent's permission hook: deny a destructive shell command, else stay silent
    Hook(hook::Args),
    /// Route a plan item: how much verification effort it deserves, and whether it is critical
    Route(route::Args),
    /// Union a review panel's findings, and refine them: merge duplicates, demote preferences
    Review(review::Args),
    /// Triage an issue queue: bucket each issue by kind and severity, or send it to human review
    Triage(triage::Args),
    /// Ask a catalog's questions about every line of a JSONL input, many at a time
    Batch(batch::Args),
    /// Evaluate a provider on labelled states: accuracy, calibration, and the bars the evidence supports
    Eval(eval::Args),
}

/// Run the parsed command; `Ok` carries the exit code.
pub fn run(cli: Cli) -> anyhow::Result<u8> {
    match cli.command {
        Command::Ask(a) => ask::run(a),
        Command::Validate(a) => validate::run(a),
        Command::Schema(a) => schema::run(a),
        Command::Providers(a) => providers::run(a),
        Command::Ledger(a) => ledger::run(a),
        Command::Judgment(a) => judgment::run(a),
        Command::Card(a) => card::run(a),
        Command::Install(a) => install::run(a),
        Command::Remove(a) => remove::run(a),
        Command::Status(a) => status::run(a),
        Command::Doctor(a) => doctor::run(a),
        Command::Hook(a) => hook::run(a),
        Command::Batch(a) => batch::run(a),
        Command::Eval(a) => eval::run(a),
        Command::Route(a) => route::run(a),
        Command::Review(a) => review::run(a),
        Command::Triage(a) => triage::run(a),
    }
}

/// Exit codes, in one place. The rule: 64 when the command could not get or use what it was
/// given (a bad flag or value, a file named on the command line that is missing, unreadable or
/// not delivered in time, `ask`'s state or `--schema` that is not JSON); 1 when what it was
/// given was read and found wrong (a catalog or card that does not validate), when an explicit
/// write failed, or when a run could not do its work.
pub mod exit {
    /// Success, and every decision outcome of `ask`, `hook`, `route` and `review`.
    pub const OK: u8 = 0;
    /// What was given was read and found wrong, an explicit write failed, or a run could not
    /// do its work.
    pub const FAIL: u8 = 1;
    /// A usage error: bad flags or values, or a named file that cannot be had.
    pub const USAGE: u8 = 64;
    /// Standard output was closed by its reader (`| head`): 128 + SIGPIPE, as a shell expects.
    pub const BROKEN_PIPE: u8 = 141;

    /// The exit code an error maps to: a [`super::CliError`]'s own, else `FAIL`.
    pub fn code_of(e: &anyhow::Error) -> u8 {
        e.chain().find_map(|c| c.downcast_ref::<super::CliError>()).map_or(FAIL, |c| c.code)
    }
}

/// Whether an error is a write to a reader that went away.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

/// An error with its exit code and an optional hint.
#[derive(Debug)]
pub struct CliError {
    /// The exit code.
    pub code: u8,
    /// What went wrong, naming the thing to fix.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
}

impl CliError {
    /// A usage error (exit 64).
    pub fn usage(message: impl Into<String>) -> Self {
        CliError { code: exit::USAGE, message: message.into(), hint: None }
    }

    /// A checked failure (exit 1).
    pub fn fail(message: impl Into<String>) -> Self {
        CliError { code: exit::FAIL, message: message.into(), hint: None }
    }

    /// Attach a hint.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

/// The hint an error chain carries, if any.
pub fn hint_of(e: &anyhow::Error) -> Option<String> {
    e.chain().find_map(|c| c.downcast_ref::<CliError>()).and_then(|c| c.hint.clone())
}

/// The `.leopold` directory: the flag's, else `$LEOPOLD_PROJECT_DIR/.leopold`, else the
/// nearest above the working directory.
pub fn leo_dir(flag: Option<PathBuf>) -> Option<PathBuf> {
    flag.or_else(|| {
        let named = decisions::Env::Process.get(decisions::PROJECT_ENV);
        decisions::leo_dir_for(named.as_deref(), std::env::current_dir().ok().as_deref())
    })
}

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

/// Read a text file a person named (a pipe included, for [`INPUT_WAIT`]); `-` is standard input.
pub fn read_text(path: &Path, flag: &str) -> anyhow::Result<String> {
    let bytes = if path.as_os_str() == "-" {
        let read = decisions::file::within(std::time::Instant::now() + INPUT_WAIT, || {
            let mut b = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut b).map(|_| b)
        });
        read.unwrap_or_else(|| Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "nothing arrived in time")))
    } else {
        decisions::file::read_input(path, std::time::Instant::now() + INPUT_WAIT)
    };
    let bytes = bytes.map_err(|e| CliError::usage(format!("{flag} {}: {e}", path.display())))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Requests in flight at once, for `--concurrency`: 1 to 256.
pub fn concurrency(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n),
        _ => Err(format!("expected a whole number from 1 to 256, found {s:?}")),
    }
}

/// `n` and a noun, its plural when `n` is not 1: "1 problem", "3 problems".
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// `ms` after `start`; a budget too large to add is as good as none.
pub fn after(start: std::time::Instant, ms: u64) -> std::time::Instant {
    start.checked_add(std::time::Duration::from_millis(ms)).unwrap_or(start + std::time::Duration::from_secs(86_400))
}

/// Say on stderr how many lines of a JSONL file could not be read.
pub fn warn_skipped(skipped: usize, path: &Path) {
    if skipped > 0 {
        eprintln!("warning: skipped {} in {}", count(skipped, "unreadable line"), path.display());
    }
}

/// Print a JSON value on stdout, pretty when asked, with every character a terminal would act
/// on written as a `\u` escape (the same JSON value).
pub fn print_json(v: &impl serde::Serialize, pretty: bool) -> anyhow::Result<()> {
    let text = if pretty { serde_json::to_string_pretty(v) } else { serde_json::to_string(v) };
    println!("{}", decisions::escape::json_text(&text.context("serialising output")?));
    Ok(())
}
