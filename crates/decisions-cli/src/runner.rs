//! What `batch`, `triage` and `eval` share around the library's run engine: the flags of a run,
//! the signals that stop it, the progress bar, and the summary line. The engine itself, the
//! input, the output file and resuming are the library's (`decisions::run`).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use decisions::run::input::{Layout, RECORD_MAX, Records, Shape};
use decisions::run::output::{OutputError, OutputFile};
use decisions::run::pace::{MAX_PAUSE, Pacer, Rate};
use decisions::run::resume::{Done, resume};
use decisions::run::summary::Summary;
use decisions::run::{CONCURRENCY, Options};

use crate::exit::{self, CliError};

/// Exit code of a run that Ctrl-C (or SIGTERM) stopped.
pub const INTERRUPTED: u8 = 130;

// How a run over many items goes: where its output goes, how fast, how its input is read.
// (Not a `///` comment: it would become the help text of every command that flattens it.)
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Write one result line an item to this file, which --resume continues
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub pace: PaceArgs,
    /// Continue the run in --output: skip every item with a final line, ask the rest again
    #[arg(long, requires = "output")]
    pub resume: bool,
    /// The longest input record read whole, in bytes; a longer one is a failure line of its own
    #[arg(long, value_name = "BYTES", default_value_t = RECORD_MAX)]
    pub record_max: usize,
    /// How the input is laid out: auto (from its first value), lines, or array
    #[arg(long, value_name = "LAYOUT", default_value = "auto", value_parser = layout)]
    pub layout: Layout,
    /// Keep each score answer's legend (the catalog's) on every output line
    #[arg(long)]
    pub verbose: bool,
}

// How fast a run asks: what `eval` shares with `batch` and `triage`.
#[derive(Debug, Clone, clap::Args)]
pub struct PaceArgs {
    /// Requests in flight at once
    #[arg(long, value_name = "N", default_value_t = CONCURRENCY, value_parser = concurrency)]
    pub concurrency: usize,
    /// At most this many requests (a ceiling: a 429 slows the run below it): N/s, N/min or N/h
    #[arg(long, value_name = "N/min")]
    pub rate: Option<Rate>,
    /// The longest pause (Retry-After) the provider may ask for before the run stops, leaving the rest for --resume
    #[arg(long, value_name = "SECONDS", default_value_t = MAX_PAUSE.as_secs(), value_parser = clap::value_parser!(u64).range(1..))]
    pub max_pause: u64,
}

impl PaceArgs {
    /// The run's one pacer.
    pub fn pacer(&self) -> Arc<Pacer> {
        Arc::new(Pacer::with_max_pause(self.rate, std::time::Duration::from_secs(self.max_pause)))
    }
}

/// Requests in flight at once, for `--concurrency`: 1 to 256.
pub fn concurrency(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n),
        _ => Err(format!("expected a whole number from 1 to 256, found {s:?}")),
    }
}

fn layout(s: &str) -> Result<Layout, String> {
    match s {
        "auto" => Ok(Layout::Auto),
        "lines" | "jsonl" => Ok(Layout::Lines),
        "array" => Ok(Layout::Array),
        _ => Err(format!("expected auto, lines or array, found {s:?}")),
    }
}

/// Open the input (`-` is standard input), and for a file of lines its total.
pub fn open_input(path: &Path, layout: Layout, record_max: usize) -> anyhow::Result<(Records, Option<u64>)> {
    decisions::run::input::open(path, layout, record_max)
        .map_err(|e| CliError::usage(format!("--input {}: {e}", path.display())).into())
}

/// A seam the provider cannot serve (a catalog it cannot take, a question kind it does not
/// speak, a descriptor that breaks a rule) is a usage error before the first line is read;
/// no provider, or no key, is not: each item's line says so and `--resume` asks it later.
pub fn usable_seam(prepared: &Result<decisions::Prepared, decisions::Decision<()>>) -> anyhow::Result<()> {
    let Err(failed) = prepared else { return Ok(()) };
    let Some(f) = failed.answers.iter().find_map(|(_, r)| r.as_ref().err()) else { return Ok(()) };
    match f.reason {
        decisions::FailureReason::Validation | decisions::FailureReason::Unsupported => Err(CliError::usage(format!(
            "provider \"{}\" cannot be asked this: {}: {}",
            failed.provider,
            f.reason,
            f.detail.clone().unwrap_or_default()
        ))
        .hint("decisions doctor shows what the provider supports; docs/contract.md says what a catalog may hold")
        .into()),
        _ => Ok(()),
    }
}

/// The run's output file: created new (locked for the run), or with `--resume` continued, the
/// items it already holds a final line for done. None without `--output`. An output that
/// cannot be had (its directory missing or read-only, not a regular file, held by another run,
/// the `--input` file itself) is a usage error (64) before anything is asked, as every named
/// file that cannot be had is.
pub fn open_output(run: &RunArgs, input: &Path) -> anyhow::Result<(Option<OutputFile>, Done)> {
    let Some(path) = &run.output else { return Ok((None, Done::default())) };
    if same_file(path, input) {
        return Err(CliError::usage(format!(
            "--output {} is the --input file: a run cannot write its results over what it reads",
            path.display()
        ))
        .hint("name another file for --output")
        .into());
    }
    let opened = if run.resume {
        resume(path).map(|(file, done, found)| {
            if found.torn {
                eprintln!("note: {}: its last line was cut off mid-write; it is asked again", path.display());
            }
            (Some(file), done)
        })
    } else {
        OutputFile::create(path).map(|f| (Some(f), Done::default()))
    };
    opened.map_err(|e| match e {
        e @ OutputError::Exists(_) => {
            CliError::usage(e.to_string()).hint("pass --resume to continue that run, or name another file").into()
        }
        e => CliError::usage(e.to_string()).into(),
    })
}

/// Whether two paths name one file (`-`, standard input, names none).
fn same_file(a: &Path, b: &Path) -> bool {
    if b.as_os_str() == "-" {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return (x.dev(), x.ino()) == (y.dev(), y.ino());
        }
    }
    matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// The engine's options from the flags: one pacer for the whole run.
pub fn options<'a>(pace: &PaceArgs, shape: Shape, done: Done, stop: &'a AtomicBool) -> Options<'a> {
    Options { shape, concurrency: pace.concurrency, pacer: pace.pacer(), done, stop, observe: None }
}

/// The stop flag Ctrl-C and SIGTERM set: the first stops dispatching; a second one, while the
/// run winds down, ends it at once.
pub fn stop_on_signals() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let _ = signal_hook::flag::register_conditional_shutdown(signal, i32::from(INTERRUPTED), Arc::clone(&stop));
        let _ = signal_hook::flag::register(signal, Arc::clone(&stop));
    }
    stop
}

/// A progress bar on stderr when it is a terminal: done (of the total, for a file), rate, ETA,
/// failures by reason. Off a terminal, nothing until the summary.
pub struct Bar(Option<indicatif::ProgressBar>);

impl Bar {
    /// A bar for a run of `total` items (unknown: a spinner).
    pub fn new(total: Option<u64>) -> Bar {
        if !std::io::stderr().is_terminal() {
            return Bar(None);
        }
        let bar = match total {
            Some(n) => indicatif::ProgressBar::new(n),
            None => indicatif::ProgressBar::new_spinner(),
        };
        let template =
            if total.is_some() { "{bar:30} {pos}/{len} {msg} ETA {eta}" } else { "{spinner} {pos} items {msg}" };
        if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        Bar(Some(bar))
    }

    /// Show where the run is.
    pub fn show(&self, s: &Summary) {
        let Some(bar) = &self.0 else { return };
        bar.set_position(s.asked + s.skipped + s.duplicates);
        let rate = s.asked as f64 / bar.elapsed().as_secs_f64().max(1e-3);
        let mut message = format!("{rate:.0} items/s");
        if !s.failures.is_empty() {
            message.push_str(&format!(", failed: {}", decisions::run::summary::by_reason(&s.failures)));
        }
        bar.set_message(message);
    }

    /// Clear it for the summary.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// What a run that failed says, and its exit code (a reader that went away stays a broken pipe).
pub fn failed(e: decisions::run::RunError) -> anyhow::Error {
    match e {
        decisions::run::RunError::Sink(io) if io.kind() == std::io::ErrorKind::BrokenPipe => io.into(),
        e => CliError::fail(format!("the run stopped: {e}")).into(),
    }
}

/// Print the summary line on stderr and give the run's exit code: 130 when Ctrl-C stopped it,
/// 1 when the run stopped itself (a pause past the bound, a provider that refused it) or when
/// items were asked and not one question was answered.
pub fn finish(summary: &mut Summary, resumable: bool) -> u8 {
    summary.resumable = resumable;
    eprintln!("{}", decisions::escape::terminal(&summary.line()));
    match (summary.interrupted, &summary.halt) {
        (true, _) => INTERRUPTED,
        (false, Some(_)) => exit::FAIL,
        (false, None) if summary.nothing_answered() => exit::FAIL,
        (false, None) => exit::OK,
    }
}
