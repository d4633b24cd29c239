//! `decisions batch`: ask one catalog's questions about every line of a JSONL input, on the
//! batch engine: one prepared seam, kept-alive connections, bounded concurrency, a client-side
//! rate, a shared pause on congestion. Output is one whole line an item, in completion order;
//! `--resume` continues a run; Ctrl-C stops dispatching, lets what is in flight finish,
//! flushes, prints the summary and exits 130.

use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use decisions::batch::{self, Done, Options, Outcome, Pacer, Rate, Shape, StateOf, Summary};
use decisions::{Decision, Prepared};
use serde_json::{Value, json};

use super::{CliError, SeamArgs, exit};

/// Exit code of a run that Ctrl-C (or SIGTERM) stopped.
pub const INTERRUPTED: u8 = 130;

/// Ask a catalog's questions about each line of a JSONL input; one output line an item, to
/// standard output unless --output
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Catalog file, or a name resolved to <leo-dir>/decisions/<name>.json
    #[arg(long, value_name = "NAME|PATH")]
    catalog: String,
    /// Question ids to ask of every item, comma-separated
    #[arg(long, value_name = "a,b", value_delimiter = ',', required = true)]
    questions: Vec<String>,
    /// The input: a JSON object a line, or one JSON array of them ("-" for standard input)
    #[arg(long, value_name = "FILE")]
    input: PathBuf,
    /// The field holding an item's id [absent: the line number]
    #[arg(long, value_name = "FIELD", default_value = "id")]
    id_field: String,
    /// The field holding the state to ask about [default: the whole object]
    #[arg(long, value_name = "FIELD")]
    state_field: Option<String>,
    #[command(flatten)]
    run: RunArgs,
    /// Append a calibration-ledger decision row per answered question for this consumer
    #[arg(long, value_name = "CONSUMER")]
    record: Option<String>,
    #[command(flatten)]
    seam: SeamArgs,
}

// How a run over many items goes: where its output goes, how fast, whether it continues one.
// (Not a `///` comment: it would become the help text of every command that flattens it.)
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Write one result line an item to this file, which --resume continues
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Requests in flight at once
    #[arg(long, value_name = "N", default_value_t = batch::CONCURRENCY, value_parser = super::concurrency)]
    pub concurrency: usize,
    /// At most this many requests, evenly spaced: N/s, N/min or N/h
    #[arg(long, value_name = "N/min")]
    pub rate: Option<Rate>,
    /// Continue the run in --output: skip every id with a final outcome, ask the rest again
    #[arg(long, requires = "output")]
    pub resume: bool,
    /// Without --output, whether the lines go to standard output (batch) or nowhere (triage,
    /// whose report is its output).
    #[arg(skip = true)]
    pub stdout: bool,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let questions: Vec<String> =
        args.questions.iter().map(|q| q.trim().to_string()).filter(|q| !q.is_empty()).collect();
    if questions.is_empty() {
        return Err(CliError::usage("--questions: give at least one question id").into());
    }
    let mut request = args.seam.request()?;
    request.catalog = Some(super::catalog_arg(&args.catalog));
    request.questions = questions;
    let mut recorder =
        match &args.record {
            Some(consumer) => Some(Recorder::new(consumer, request.leo_dir.clone()).map_err(|e| {
                CliError::usage(format!("--record: {e}")).hint("run inside a project, or pass --leo-dir")
            })?),
            None => None,
        };
    let state = args.state_field.clone().map_or(StateOf::Whole, StateOf::Field);
    let shape = Shape { id_fields: vec![args.id_field.clone()], state };
    let input = open_input(&args.input)?;
    let prepared = decisions::prepare(&request);
    let summary = go(prepared, &args.run, shape, input, |outcome, line| {
        if let Some(r) = &mut recorder {
            line["recorded"] = r.record(outcome);
        }
    })?;
    Ok(exit_of(&summary))
}

/// Writes each item's decision rows to the calibration ledger, and says once, not once an
/// item, when it cannot.
pub struct Recorder {
    consumer: String,
    leo: PathBuf,
    warned: bool,
    /// Items whose rows were not written.
    pub missed: u64,
}

impl Recorder {
    /// A recorder into `leo` (the project's `.leopold`); an error when there is none.
    pub fn new(consumer: &str, leo: Option<PathBuf>) -> Result<Recorder, String> {
        let leo = leo.ok_or("no .leopold directory found for the calibration ledger")?;
        if !leo.is_dir() {
            return Err(format!("{} is not a directory", leo.display()));
        }
        Ok(Recorder { consumer: consumer.to_string(), leo, warned: false, missed: 0 })
    }

    /// Record one item; its row ids by question.
    pub fn record(&mut self, outcome: &Outcome) -> Value {
        let (recorded, error) = record_rows(outcome, &self.consumer, Some(&self.leo));
        if let Some(e) = error {
            self.missed += 1;
            if !std::mem::replace(&mut self.warned, true) {
                eprintln!("warning: not recorded: {e}");
            }
        }
        recorded
    }
}

/// The input and, for a file, how many items it holds (counted by a pass over it).
pub struct Input {
    pub reader: Box<dyn BufRead + Send>,
    pub total: Option<u64>,
}

/// Open the input: a file, or standard input for `-`; JSON lines, or one JSON array streamed
/// element by element.
pub fn open_input(path: &Path) -> anyhow::Result<Input> {
    let fail = |e: std::io::Error| CliError::usage(format!("--input {}: {e}", path.display()));
    if path.as_os_str() == "-" {
        let reader = batch::json_lines(BufReader::new(std::io::stdin())).map_err(fail)?;
        return Ok(Input { reader, total: None });
    }
    let file = std::fs::File::open(path).map_err(fail)?;
    let regular = file.metadata().is_ok_and(|m| m.is_file());
    let reader = batch::json_lines(BufReader::with_capacity(1 << 16, file)).map_err(fail)?;
    // The total, for the progress bar: lines of a regular file (a pipe cannot be read twice);
    // an array's elements are not lines, so it gets none.
    let lines = regular.then(|| count_lines(path).ok()).flatten();
    let total = lines.filter(|_| !starts_array(path));
    Ok(Input { reader, total })
}

fn starts_array(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(path).and_then(|mut f| f.read(&mut head)).unwrap_or(0);
    head[..n].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[')
}

fn count_lines(path: &Path) -> std::io::Result<u64> {
    let mut reader = BufReader::with_capacity(1 << 16, std::fs::File::open(path)?);
    let mut n = 0;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(n);
        }
        n += buf.iter().filter(|b| **b == b'\n').count() as u64;
        let len = buf.len();
        reader.consume(len);
    }
}

/// The exit code of a run: 130 when Ctrl-C stopped it, else 0.
pub fn exit_of(summary: &Summary) -> u8 {
    if summary.interrupted { INTERRUPTED } else { exit::OK }
}

/// Run the engine over `input` with the seam `prepared` (or its failure) and write each
/// outcome's line (after `extend` adds to it) to the output; the summary goes to stderr.
/// Shared by `batch` and `triage`.
pub fn go(
    prepared: Result<Prepared, Decision<()>>,
    run: &RunArgs,
    shape: Shape,
    input: Input,
    mut extend: impl FnMut(&Outcome, &mut Value),
) -> anyhow::Result<Summary> {
    let (done, out) = output(run)?;
    let pacer = Arc::new(Pacer::new(run.rate));
    let prepared = prepared.map(|p| p.with_pace(pacer.clone()));
    let stop = Arc::new(AtomicBool::new(false));
    // The first signal stops dispatching; a second one, while the run winds down, ends it now.
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let _ = signal_hook::flag::register_conditional_shutdown(signal, i32::from(INTERRUPTED), Arc::clone(&stop));
        let _ = signal_hook::flag::register(signal, Arc::clone(&stop));
    }
    let bar = progress(input.total);
    let mut out = out;
    let options = Options { shape, concurrency: run.concurrency, pacer, done, stop: &stop };
    let summary = batch::run(
        prepared.as_ref(),
        input.reader,
        options,
        |outcome| {
            let mut line = outcome.line();
            extend(&outcome, &mut line);
            let Some(out) = &mut out else { return Ok(()) };
            let text = serde_json::to_string(&line).map_err(std::io::Error::other)?;
            // The same JSON, with nothing a terminal would act on (lines are read there too).
            let mut text = decisions::escape::json_text(&text).into_owned().into_bytes();
            text.push(b'\n');
            // One write of one whole line: a run killed at any moment leaves no torn line.
            out.write_all(&text)?;
            out.flush()
        },
        |s| {
            if let Some(bar) = &bar {
                show(bar, s);
            }
        },
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let summary = match summary {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Err(e.into()),
        Err(e) => return Err(CliError::fail(format!("the run stopped: {e}")).into()),
        Ok(s) => s,
    };
    eprintln!("{}", decisions::escape::terminal(&summary.line()));
    Ok(summary)
}

/// Where the lines go, and (with `--resume`) the ids already done. Resuming rewrites the output
/// once, keeping only the final lines (transient ones are retried, a torn tail was never a
/// record), so that no id is ever written twice; then new lines are appended.
fn output(run: &RunArgs) -> anyhow::Result<(Done, Option<Box<dyn Write + Send>>)> {
    let Some(path) = &run.output else {
        let stdout: Option<Box<dyn Write + Send>> =
            run.stdout.then(|| Box::new(std::io::stdout()) as Box<dyn Write + Send>);
        return Ok((Done::default(), stdout));
    };
    let fail = |e: std::io::Error| CliError::fail(format!("--output {}: {e}", path.display()));
    let mut done = Done::default();
    if path.exists() {
        if !run.resume {
            let e = CliError::usage(format!("--output {} exists", path.display()));
            return Err(e.hint("pass --resume to continue that run, or name another file").into());
        }
        let text = decisions::file::read_regular(path).map_err(fail)?;
        let text = String::from_utf8_lossy(&text);
        let (finished, keep) = batch::finished(&text);
        if keep.len() != text.lines().count() {
            let tmp = path.with_extension("resume-tmp");
            let body: String = keep.iter().map(|l| format!("{l}\n")).collect();
            std::fs::write(&tmp, body).and_then(|()| std::fs::rename(&tmp, path)).map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                fail(e)
            })?;
        }
        done = finished;
    }
    let file = std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(fail)?;
    Ok((done, Some(Box::new(file))))
}

/// A progress bar on stderr when it is a terminal: done (of the total, for a file), rate, ETA,
/// failures by reason. Off a terminal, nothing until the summary.
fn progress(total: Option<u64>) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = match total {
        Some(n) => indicatif::ProgressBar::new(n),
        None => indicatif::ProgressBar::new_spinner(),
    };
    let template = if total.is_some() { "{bar:30} {pos}/{len} {msg} ETA {eta}" } else { "{spinner} {pos} items {msg}" };
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    Some(bar)
}

fn show(bar: &indicatif::ProgressBar, s: &Summary) {
    bar.set_position(s.asked + s.skipped + s.duplicates);
    let rate = s.asked as f64 / bar.elapsed().as_secs_f64().max(1e-3);
    let mut message = format!("{rate:.0} items/s");
    if !s.failures.is_empty() {
        let parts: Vec<String> = s.failures.iter().map(|(r, n)| format!("{r} {n}")).collect();
        message.push_str(&format!(", failed: {}", parts.join(", ")));
    }
    bar.set_message(message);
}

/// One decision row per answered question of an item; the ids by question.
pub fn record_rows(outcome: &Outcome, consumer: &str, leo: Option<&Path>) -> (Value, Option<String>) {
    let decision = &outcome.decision;
    let rows: Vec<decisions::ledger::DecisionRow> = decision
        .answers
        .iter()
        .filter_map(|(q, r)| {
            let band = decision.band(q).unwrap_or(decisions::Band::Floor);
            Some(decisions::ledger::DecisionRow::for_answer(consumer, q, r.as_ref().ok()?, band, decision.usable))
        })
        .collect();
    let (recorded, error) = decisions::consumer::record(leo, rows, decision.deadline);
    let ids: serde_json::Map<String, Value> = recorded.into_iter().map(|r| (r.question, json!(r.id))).collect();
    (Value::Object(ids), error)
}
