//! The project's event log, as every consumer command writes it: the seam's events and one
//! outcome event of the command's own, each line naming its consumer, clipped and redacted as
//! the seam made them, written by the command's deadline (a held lock or a FIFO never stalls a
//! consumer). `--no-log` turns it off. A run of many items hands its lines to a writer thread
//! (`decisions::event::Logger`) so the log never slows the run.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use decisions::Event;
use decisions::run::Outcome;
use decisions::run::summary::Summary;

/// How long a command that has answered waits for its log lines to be written.
pub const GRACE: Duration = Duration::from_millis(250);

// Whether to log (not a `///` comment: it would become the help text of every command that
// flattens it).
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct LogArgs {
    /// Do not append this command's events to the project's .leopold/events.jsonl
    #[arg(long)]
    pub no_log: bool,
}

/// Where the log goes: the project's `.leopold`, when there is one and logging is on.
pub fn target(leo: Option<&Path>, args: LogArgs) -> Option<PathBuf> {
    leo.filter(|l| !args.no_log && l.is_dir()).map(Path::to_path_buf)
}

/// Append one command's events, by `deadline`; a log that cannot be written in time is said in
/// one line on stderr and changes nothing else.
pub fn write(leo: Option<&Path>, consumer: &str, events: &[Event], deadline: Instant) {
    write_from(leo, consumer, events, (None, None), deadline);
}

/// [`write`] for an agent's call: each line also names its `(session, agent_id)`.
pub fn write_from(
    leo: Option<&Path>,
    consumer: &str,
    events: &[Event],
    (session, agent_id): (Option<&str>, Option<&str>),
    deadline: Instant,
) {
    let Some(leo) = leo else { return };
    let bytes = decisions::event::lines_of(consumer, events, None, session, agent_id);
    if let Err(e) = decisions::event::append(leo, bytes, deadline) {
        not_logged(leo, events.len(), &e);
    }
}

/// Say on stderr, in one line, that `n` events could not be logged in `leo`, and why.
pub fn not_logged(leo: &Path, n: usize, e: &std::io::Error) {
    let path = decisions::event::log_path(leo);
    eprintln!(
        "decisions: {} not logged to {}: {e}",
        crate::output::count(n, "event"),
        decisions::escape::terminal(&path.display().to_string())
    );
}

/// A run's log: each item's events as it finishes, and the run's own at the end.
pub struct RunLog {
    logger: Option<decisions::event::Logger>,
}

impl RunLog {
    /// The log of a run for `consumer` into `leo` (none: nothing is logged).
    pub fn start(leo: Option<&Path>, consumer: &str) -> RunLog {
        RunLog { logger: leo.map(|l| decisions::event::Logger::start(l, consumer)) }
    }

    /// One item's events, named by its id (or its record).
    pub fn outcome(&self, o: &Outcome, events: Vec<Event>) {
        let Some(logger) = &self.logger else { return };
        if events.is_empty() {
            return;
        }
        let item = o.item.id.as_ref().map_or_else(|| format!("record {}", o.item.record), |id| id.json().to_string());
        logger.send(events, Some(item));
    }

    /// The run's end: its `run_finished` line, then what is left written by a short deadline.
    pub fn finish(self, summary: &Summary) {
        let Some(logger) = self.logger else { return };
        let event = Event::RunFinished {
            items: summary.items,
            asked: summary.asked,
            answered: summary.answered,
            usable: summary.usable,
            retry: summary.retry,
            elapsed_ms: (summary.elapsed_s * 1000.0) as u64,
            stopped: summary.halt.clone(),
            interrupted: summary.interrupted,
        };
        logger.send(vec![event], None);
        if let Some(problem) = logger.finish(Instant::now() + Duration::from_secs(2)) {
            eprintln!("warning: {}", decisions::escape::terminal(&problem));
        }
    }
}
