//! Events: the trail every ask leaves, returned with the result, what each consumer adds, and
//! the project's event log they go to. The seam writes no log itself; a caller appends lines
//! ([`lines_of`]: `{"ts", "consumer", "event", ...its fields, "item"?, "session"?,
//! "agent_id"?}`) to `.leopold/events.jsonl` ([`append`], or a [`Logger`] for a run of many
//! items), which rotates past [`ROTATE_AT`] to `events.1.jsonl` .. `events.3.jsonl`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::answer::{FailureReason, Probabilities};
use crate::band::Band;
use crate::config::Source;

/// One event of an ask, as the caller would append it to its event log.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A provider was engaged with a set of typed questions.
    DecisionAsked {
        /// The provider engaged.
        provider: String,
        /// The model asked for.
        model: String,
        /// The question ids asked.
        questions: Vec<String>,
        /// Where the provider was configured.
        source: Source,
    },
    /// The provider was congested (429/503/529): backing off and retrying.
    DecisionRetry {
        /// The provider.
        provider: String,
        /// The attempt that failed, counting from 1.
        attempt: u32,
        /// How long the seam waits before the next attempt.
        delay_ms: u64,
        /// The HTTP status that caused the retry.
        status: u16,
        /// Where the provider was configured.
        source: Source,
    },
    /// A typed answer with the band that fired.
    DecisionAnswered {
        /// The provider.
        provider: String,
        /// The model that answered.
        model: String,
        /// The question id.
        question: String,
        /// The distribution; absent for a noul.
        #[serde(skip_serializing_if = "Option::is_none")]
        probabilities: Option<Probabilities>,
        /// The answer's confidence.
        confidence: Option<f64>,
        /// The gating scalar.
        certainty: Option<f64>,
        /// The band the certainty fell in.
        threshold_fired: Band,
        /// Milliseconds from the start of the ask.
        elapsed_ms: u64,
        /// Where the provider was configured.
        source: Source,
    },
    /// One question failed; the consumer used its deterministic path.
    DecisionFailed {
        /// The provider.
        provider: String,
        /// The question id.
        question: String,
        /// Why.
        reason: FailureReason,
        /// What a human needs to know.
        #[serde(skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
        /// Milliseconds from the start of the ask, only when a call was made.
        #[serde(skip_serializing_if = "Option::is_none")]
        elapsed_ms: Option<u64>,
        /// Where the provider was configured.
        source: Source,
    },
    /// The hook was not asked to judge: not a shell command, not a permission event, or input
    /// it could not read. Written by the hook.
    DecisionSkipped {
        /// Why, quoting at most a clip of what the agent sent.
        reason: String,
    },
    /// The semantic axis turned the agent's allow into a deny. Written by the hook.
    DecisionDenied {
        /// The command, clipped.
        command: String,
        /// The score it got.
        score: f64,
        /// The question that scored it.
        question: String,
    },
    /// The seam gave nothing usable in the hook's budget, so the agent's own flow goes on.
    /// Written by the hook.
    DecisionTimeout {
        /// Why: the failure, the band, or the budget that ran out.
        reason: String,
        /// Which kind of fallback it was: `timeout`, `unreachable`, `failed` or `band`
        /// ([`crate::consumer::permission::Cause`]).
        cause: String,
        /// The command, clipped, when the input was read.
        #[serde(skip_serializing_if = "Option::is_none")]
        command: Option<String>,
    },
    /// `route` routed a plan item. Written by `decisions route`.
    RouteDecided {
        /// The effort it routed to.
        effort: String,
        /// Whether it needs a second reviewer.
        critical: bool,
        /// `classifier` or `provider`.
        decided_by: String,
    },
    /// `review refine` refined a panel. Written by `decisions review refine`.
    ReviewRefined {
        /// Blocking findings left.
        blocking: usize,
        /// Findings merged away.
        merged: usize,
        /// Findings demoted to preferences.
        demoted: usize,
        /// Why merging was skipped, when it was.
        #[serde(skip_serializing_if = "Option::is_none")]
        merging_skipped: Option<String>,
    },
    /// A run of many items (`batch`, `triage`, `eval`) ended. Written by the command.
    RunFinished {
        /// Items read.
        items: u64,
        /// Items dispatched.
        asked: u64,
        /// Items with every question answered.
        answered: u64,
        /// Items whose decision was usable.
        usable: u64,
        /// Items `--resume` would ask again.
        retry: u64,
        /// Milliseconds the run took.
        elapsed_ms: u64,
        /// Why it stopped early, when it did.
        #[serde(skip_serializing_if = "Option::is_none")]
        stopped: Option<String>,
        /// Whether Ctrl-C ended it.
        interrupted: bool,
    },
}

impl Event {
    /// The event's name as it is written.
    pub fn name(&self) -> &'static str {
        match self {
            Event::DecisionAsked { .. } => "decision_asked",
            Event::DecisionRetry { .. } => "decision_retry",
            Event::DecisionAnswered { .. } => "decision_answered",
            Event::DecisionFailed { .. } => "decision_failed",
            Event::DecisionSkipped { .. } => "decision_skipped",
            Event::DecisionDenied { .. } => "decision_denied",
            Event::DecisionTimeout { .. } => "decision_timeout",
            Event::RouteDecided { .. } => "route_decided",
            Event::ReviewRefined { .. } => "review_refined",
            Event::RunFinished { .. } => "run_finished",
        }
    }
}

/// The event log's file name under `.leopold`.
pub const LOG: &str = "events.jsonl";
/// Past this size the log is rotated before the next write.
pub const ROTATE_AT: u64 = 64 << 20;
/// Rotated logs kept: `events.1.jsonl` (the newest) to `events.3.jsonl`.
pub const KEEP: usize = 3;
/// The longest an item id is logged.
const ITEM_MAX: usize = 200;

/// The project's event log.
pub fn log_path(leo: &Path) -> PathBuf {
    leo.join(LOG)
}

/// Every file of the log, the oldest first: `events.3.jsonl` .. `events.1.jsonl`, then
/// `events.jsonl`; those that exist.
pub fn log_files(leo: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = (1..=KEEP).rev().map(|n| rotated(leo, n)).collect();
    files.push(log_path(leo));
    files.into_iter().filter(|p| p.exists()).collect()
}

fn rotated(leo: &Path, n: usize) -> PathBuf {
    leo.join(format!("events.{n}.jsonl"))
}

/// An item id for a log line: its text, clipped, with nothing a terminal acts on.
pub fn item_label(id: &str) -> String {
    crate::secret::clip(id, ITEM_MAX)
}

/// Serialize log lines for one write: each a whole line, inert on a terminal.
pub fn lines_of(
    consumer: &str,
    events: &[Event],
    item: Option<&str>,
    session: Option<&str>,
    agent_id: Option<&str>,
) -> Vec<u8> {
    let mut out = Vec::new();
    write_lines(&mut out, &crate::ledger::now_ts(), consumer, events, [item, session, agent_id]);
    out
}

/// Append the lines of `events` to `out`, stamped `ts`; `ends` are the item, session and agent
/// id fields. Each line is spliced from the event's own JSON (`#[serde(flatten)]` would buffer
/// every field, and a run writes two lines an item), and made inert only when it needs it.
fn write_lines(out: &mut Vec<u8>, ts: &str, consumer: &str, events: &[Event], ends: [Option<&str>; 3]) {
    let quoted = |out: &mut Vec<u8>, s: &str| {
        let _ = serde_json::to_writer(&mut *out, s);
    };
    for event in events {
        let start = out.len();
        out.extend_from_slice(b"{\"ts\":");
        quoted(out, ts);
        out.extend_from_slice(b",\"consumer\":");
        quoted(out, consumer);
        let body = out.len();
        if serde_json::to_writer(&mut *out, event).is_err() {
            out.truncate(start);
            continue;
        }
        // The event's `{` becomes the `,` after the consumer; its `}` is dropped.
        out[body] = b',';
        out.pop();
        let [item, session, agent_id] = ends;
        if let Some(v) = item {
            out.extend_from_slice(b",\"item\":");
            quoted(out, &item_label(v));
        }
        for (key, value) in [(&b",\"session\":"[..], session), (b",\"agent_id\":", agent_id)] {
            if let Some(v) = value {
                out.extend_from_slice(key);
                quoted(out, v);
            }
        }
        out.push(b'}');
        if let Ok(line) = std::str::from_utf8(&out[start..])
            && let std::borrow::Cow::Owned(safe) = crate::escape::json_text(line)
        {
            out.truncate(start);
            out.extend_from_slice(safe.as_bytes());
        }
        out.push(b'\n');
    }
}

/// Append whole lines to the project's log by `deadline`, rotating it first when it is past
/// [`ROTATE_AT`]. A log that cannot be written in time (a held lock, a FIFO, a stalled mount)
/// is an error for the caller to report; it never blocks past the deadline.
pub fn append(leo: &Path, bytes: Vec<u8>, deadline: Instant) -> std::io::Result<()> {
    if bytes.is_empty() {
        return Ok(());
    }
    let leo = leo.to_path_buf();
    crate::file::write_within(deadline, SETTLE, move |gate| append_here(&leo, &bytes, deadline, gate))
}

/// [`append`] on the calling thread, through `gate`: the lock is waited for until `deadline`,
/// and a path that is not a regular file is refused without blocking, but a stalled disk
/// stalls the caller. For a thread some other thread waits for with
/// [`crate::file::await_write`], as the hook's worker is.
pub fn append_here(leo: &Path, bytes: &[u8], deadline: Instant, gate: &crate::file::Gate) -> std::io::Result<()> {
    if bytes.is_empty() {
        return Ok(());
    }
    let path = log_path(leo);
    rotate(leo, &path, deadline, gate)?;
    crate::file::append(&path, bytes, deadline, gate, &crate::file::any_last_line)
}

/// How long a write that began just before the deadline is waited for.
pub const SETTLE: Duration = Duration::from_millis(50);

/// Rotate the log when it is past [`ROTATE_AT`], under its lock: `events.2` becomes `events.3`
/// (the old `events.3` goes), `events.1` becomes `events.2`, the log `events.1`. A writer that
/// waited on the lock of a log already rotated finds another file at the path and leaves it.
fn rotate(leo: &Path, path: &Path, deadline: Instant, gate: &crate::file::Gate) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_file() && m.len() > ROTATE_AT => {}
        _ => return Ok(()),
    }
    let file = crate::file::open_for_read(path)?;
    crate::file::lock_by(&file, deadline, gate)?;
    let still = {
        use std::os::unix::fs::MetadataExt;
        let (held, now) = (file.metadata()?, std::fs::metadata(path)?);
        held.ino() == now.ino() && held.dev() == now.dev() && now.len() > ROTATE_AT
    };
    if still {
        for n in (1..KEEP).rev() {
            let from = rotated(leo, n);
            if from.exists() {
                std::fs::rename(&from, rotated(leo, n + 1))?;
            }
        }
        std::fs::rename(path, rotated(leo, 1))?;
    }
    let _ = file.unlock();
    Ok(())
}

/// A run's event log writer: lines are handed over without waiting and written in batches on a
/// thread of its own, so a slow, locked or full log never slows the run; what it could not
/// write is counted and said at the end.
pub struct Logger {
    tx: Option<std::sync::mpsc::SyncSender<(Vec<Event>, Option<String>)>>,
    done: std::sync::mpsc::Receiver<(u64, Option<String>)>,
    dropped: std::sync::atomic::AtomicU64,
}

/// Lines a [`Logger`] holds before it drops what it is handed.
const QUEUE: usize = 4096;
/// How often a [`Logger`] writes what it holds.
const FLUSH: Duration = Duration::from_millis(250);
/// Each batch's deadline.
const BATCH_WAIT: Duration = Duration::from_secs(2);

impl Logger {
    /// A writer of `consumer`'s lines to `leo`'s log.
    pub fn start(leo: &Path, consumer: &str) -> Logger {
        let (tx, rx) = std::sync::mpsc::sync_channel::<(Vec<Event>, Option<String>)>(QUEUE);
        let consumer = consumer.to_string();
        let (done_tx, done) = std::sync::mpsc::channel();
        let leo = leo.to_path_buf();
        std::thread::spawn(move || {
            let (mut failed, mut first) = (0u64, None::<String>);
            let (mut batch, mut held, mut last) = (Vec::<u8>::new(), 0u64, Instant::now());
            // The timestamp, formatted once a second.
            let mut ts = (u64::MAX, String::new());
            loop {
                let mut ended = false;
                match rx.recv_timeout(FLUSH.saturating_sub(last.elapsed())) {
                    Ok((events, item)) => {
                        held += events.len() as u64;
                        let second = std::time::SystemTime::now()
                            .duration_since(std::time::UNIX_EPOCH)
                            .map_or(0, |d| d.as_secs());
                        if second != ts.0 {
                            ts = (second, crate::ledger::now_ts());
                        }
                        write_lines(&mut batch, &ts.1, &consumer, &events, [item.as_deref(), None, None]);
                        if batch.len() < 1 << 20 && last.elapsed() < FLUSH {
                            continue;
                        }
                    }
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => ended = true,
                }
                // Written on this thread, which nothing waits for (`finish` waits by its
                // deadline), into one buffer kept for the run.
                if !batch.is_empty() {
                    let gate = crate::file::Gate::default();
                    if let Err(e) = append_here(&leo, &batch, Instant::now() + BATCH_WAIT, &gate) {
                        failed += held;
                        first.get_or_insert_with(|| format!("{}: {e}", log_path(&leo).display()));
                    }
                    batch.clear();
                }
                (held, last) = (0, Instant::now());
                if ended {
                    let _ = done_tx.send((failed, first));
                    return;
                }
            }
        });
        Logger { tx: Some(tx), done, dropped: std::sync::atomic::AtomicU64::new(0) }
    }

    /// Hand over one item's events (its id, when it belongs to one): they are serialized and
    /// written on the writer's thread. When the writer is this far behind, they are dropped
    /// and counted instead of waited for.
    pub fn send(&self, events: Vec<Event>, item: Option<String>) {
        if events.is_empty() {
            return;
        }
        let n = events.len() as u64;
        if let Some(tx) = &self.tx
            && tx.try_send((events, item)).is_err()
        {
            self.dropped.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Write what is left, waiting for it until `deadline`; what could not be logged, said
    /// for a person, when something could not.
    pub fn finish(mut self, deadline: Instant) -> Option<String> {
        drop(self.tx.take());
        let dropped = self.dropped.load(std::sync::atomic::Ordering::Relaxed);
        match self.done.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok((0, _)) if dropped == 0 => None,
            Ok((failed, why)) => {
                let n = failed + dropped;
                let events = if n == 1 { "1 event".to_string() } else { format!("{n} events") };
                Some(format!("{events} not logged: {}", why.unwrap_or_else(|| "the log could not keep up".into())))
            }
            Err(_) => {
                Some("the last events may not be logged: the log could not be written in the time allowed".into())
            }
        }
    }
}
