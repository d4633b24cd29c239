//! `decisions ask`: the shell seam. Every decision outcome exits 0 with one JSON object on
//! stdout; only usage errors exit 64.

use std::path::PathBuf;
use std::time::Instant;

use decisions::{ProviderChoice, Request};
use serde_json::Value;

use crate::exit;
use crate::exit::CliError;
use crate::input::JsonFileError;

/// Ask a catalog's questions about a state; print {provider, source, usable, answers, bands, events}
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("state_input").required(true))]
pub struct Args {
    /// Catalog file, or a name resolved to <leo-dir>/decisions/<name>.json
    #[arg(long, value_name = "NAME|PATH")]
    catalog: String,
    /// Question ids to ask, comma-separated
    #[arg(long, value_name = "a,b", value_delimiter = ',', required = true)]
    questions: Vec<String>,
    /// Read the state from this JSON file ("-" for standard input)
    #[arg(long, value_name = "FILE", group = "state_input")]
    state_file: Option<PathBuf>,
    /// The state as inline JSON
    #[arg(long, value_name = "JSON", group = "state_input")]
    state: Option<String>,
    /// The project's .leopold directory [default: the nearest above the working directory]
    #[arg(long, value_name = "DIR")]
    leo_dir: Option<PathBuf>,
    /// The whole ask's budget in milliseconds [default: the provider's timeout_ms]
    #[arg(long, value_name = "N", value_parser = crate::seam::positive_ms)]
    timeout_ms: Option<u64>,
    /// Use this provider, outranking config.json and LEOPOLD_DECISIONS_PROVIDER
    #[arg(long, value_name = "NAME")]
    provider: Option<String>,
    /// Also check the catalog against this JSON Schema file
    #[arg(long, value_name = "PATH")]
    schema: Option<PathBuf>,
    /// Append a calibration-ledger decision row per answered question for this consumer, and
    /// print each row's id under "recorded"
    #[arg(long, value_name = "CONSUMER")]
    record: Option<String>,
    /// Append the ask's events to the project's .leopold/events.jsonl for this consumer (the
    /// seam itself never writes the log)
    #[arg(long, value_name = "CONSUMER")]
    log: Option<String>,
    #[command(flatten)]
    doc: crate::input::DocArgs,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    args.doc.apply();
    let started = Instant::now();
    let read_by = crate::seam::after(started, args.timeout_ms.unwrap_or(decisions::READ_BUDGET_MS));
    let questions: Vec<String> =
        args.questions.iter().map(|q| q.trim().to_string()).filter(|q| !q.is_empty()).collect();
    if questions.is_empty() {
        return Err(CliError::usage("--questions: give at least one question id").into());
    }
    let state = read_state(&args, read_by)?;
    let schema = match &args.schema {
        Some(path) => load_schema(path)?,
        None => Schema::Contract,
    };
    let check = |doc: &Value| -> Vec<String> { schema.problems(doc) };
    let leo_dir = crate::seam::leo_dir(args.leo_dir);
    let config = crate::seam::project_config_by(leo_dir.as_deref(), read_by);
    crate::seam::explicit_provider(args.provider.as_deref(), &config)?;
    let request = Request {
        catalog: Some(crate::input::catalog_arg(&args.catalog)),
        questions,
        state,
        leo_dir: leo_dir.clone(),
        config: Some(config),
        provider: args.provider.map(ProviderChoice::Name),
        timeout_ms: args.timeout_ms,
        catalog_check: Some(&check),
        ..Request::default()
    };
    let decision = decisions::ask(&request, ());
    // A missing catalog stays the no_catalog outcome (hooks rely on exit 0); a near name the
    // project holds is pointed out on stderr.
    if let (Some(leo), Some(name)) = (&leo_dir, crate::input::catalog_name(&args.catalog))
        && decision
            .answers
            .iter()
            .any(|(_, r)| r.as_ref().is_err_and(|f| f.reason == decisions::FailureReason::NoCatalog))
    {
        let names = crate::seam::catalog_names(leo);
        if let Some(near) = crate::seam::nearest(name, names.iter().map(String::as_str)) {
            eprintln!(
                "{}",
                decisions::escape::terminal(&format!("hint: no catalog \"{name}\"; did you mean --catalog {near}?"))
            );
        }
    }
    if let (Some(consumer), Some(leo)) = (&args.log, leo_dir.as_deref().filter(|l| l.is_dir())) {
        crate::log::write(
            Some(leo),
            consumer,
            &decision.events,
            decision.deadline.max(Instant::now()) + crate::log::GRACE,
        );
    }
    match &args.record {
        None => crate::output::print_json(&decision, false)?,
        Some(consumer) => {
            let mut out = serde_json::to_value(&decision)?;
            out["recorded"] = serde_json::to_value(record(&decision, consumer, leo_dir.as_deref()))?;
            crate::output::print_json(&out, false)?;
        }
    }
    Ok(exit::OK)
}

/// Append a decision row per answered question, all in one write, by the ask's deadline plus
/// the grace; `[{question, id}]`, as every command says it. A ledger that cannot be written in
/// time (a held lock, a FIFO, a full disk, a stalled mount) is reported in one line on stderr,
/// no id is printed for it, and the decision stands.
fn record(
    decision: &decisions::Decision<()>,
    consumer: &str,
    leo_dir: Option<&std::path::Path>,
) -> Vec<decisions::consumer::Recorded> {
    let rows = decisions::consumer::rows_of(consumer, decision);
    let (recorded, error) = decisions::consumer::record(leo_dir, rows, decision.deadline);
    if let Some(e) = error {
        eprintln!("warning: not recorded: {e}");
    }
    recorded
}

/// The state, read by `deadline` from wherever it comes: standard input or a path may be a
/// pipe that never delivers.
fn read_state(args: &Args, deadline: Instant) -> anyhow::Result<Value> {
    let path = args.state_file.clone().unwrap_or_default();
    let (text, source) = if let Some(inline) = &args.state {
        (inline.clone(), "--state".to_string())
    } else if path.as_os_str() == "-" {
        let max = decisions::file::document_max();
        let read = decisions::file::within(deadline, move || {
            decisions::file::read_at_most(std::io::stdin(), max).map(|b| String::from_utf8_lossy(&b).into_owned())
        });
        let text = read
            .unwrap_or_else(|| Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "nothing arrived in time")))
            .map_err(|e| CliError::usage(format!("--state-file -: cannot read standard input: {e}")))?;
        (text, "<stdin>".to_string())
    } else {
        let bytes = decisions::file::read_input(&path, deadline)
            .map_err(|e| CliError::usage(format!("--state-file {}: {e}", path.display())))?;
        (String::from_utf8_lossy(&bytes).into_owned(), path.display().to_string())
    };
    let state = crate::input::parse_json(&text, &source).map_err(|e| CliError::usage(e.to_string()))?;
    if state.is_null() {
        return Err(CliError::usage(format!("{source}: the state must be a string, object or array, not null")).into());
    }
    Ok(state)
}

/// What `--schema` checks a catalog against beside the contract.
enum Schema {
    /// The catalog schema this build generates (`decisions schema`), or none given: the
    /// contract validator already enforces every rule of it.
    Contract,
    /// Any other JSON Schema, checked as written.
    #[cfg(feature = "jsonschema")]
    Other(PathBuf, Box<jsonschema::Validator>),
}

impl Schema {
    fn problems(&self, doc: &Value) -> Vec<String> {
        match self {
            Schema::Contract => {
                let _ = doc;
                Vec::new()
            }
            #[cfg(feature = "jsonschema")]
            Schema::Other(path, validator) => validator
                .iter_errors(doc)
                .map(|e| format!("schema {}: {}: {e}", path.display(), location(&e.instance_path().to_string())))
                .collect(),
        }
    }
}

#[cfg(feature = "jsonschema")]
fn location(pointer: &str) -> &str {
    if pointer.is_empty() { "/" } else { pointer }
}

fn load_schema(path: &std::path::Path) -> anyhow::Result<Schema> {
    let doc = crate::input::read_json(path).map_err(|e| match e {
        JsonFileError::Read(e) => CliError::usage(format!("--schema {}: {e}", path.display())),
        JsonFileError::Parse(m) => CliError::usage(format!("--schema {m}")),
    })?;
    if doc.value == decisions::catalog_schema() {
        return Ok(Schema::Contract);
    }
    #[cfg(feature = "jsonschema")]
    {
        let validator = jsonschema::validator_for(&doc.value)
            .map_err(|e| CliError::usage(format!("--schema {}: not a usable JSON Schema: {e}", path.display())))?;
        Ok(Schema::Other(path.to_path_buf(), Box::new(validator)))
    }
    #[cfg(not(feature = "jsonschema"))]
    Err(CliError::usage(format!(
        "--schema {}: this build checks only the catalog schema it generates (`decisions schema`), which the contract validator already enforces",
        path.display()
    ))
    .hint("rebuild with `--features jsonschema` to check a catalog against another JSON Schema")
    .into())
}
