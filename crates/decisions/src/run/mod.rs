//! Many states through one catalog: the run engine under `decisions batch`, `triage` and
//! `eval` (`consumer::triage::run`, `eval::run`).
//!
//! - [`input`]: records (JSON lines, or one JSON array streamed element by element), each held
//!   to a bound, and the [`input::Item`]s they become, each id its exact JSON text;
//! - [`pace`]: the client-side rate and the pause every worker honours on congestion;
//! - [`output`]: the typed, versioned [`output::OutputLine`] and the output file, created new
//!   and locked for the run's life;
//! - [`resume`]: continuing a run from its output, the tail repaired, no item written twice;
//! - [`summary`]: a run's figures.
//!
//! The seam is prepared once ([`crate::prepare`]): one catalog, one provider, one HTTP agent
//! whose connections every worker shares and keeps alive. At most `concurrency` requests are in
//! flight; each item's outcome goes to the sink as it completes, on the caller's thread, so
//! output is written in completion order, one whole line an item. A stop flag (Ctrl-C) stops
//! dispatching; what is in flight finishes within its budget.

pub mod input;
pub mod output;
pub mod pace;
pub mod resume;
pub mod summary;

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::answer::{Failure, FailureReason};
use crate::ask::{Decision, Prepared};
use crate::band::Band;
use crate::config::Source;
use crate::run::input::{InputError, Item, Key, Records, Shape};
use crate::run::output::OutputLine;
use crate::run::pace::{POLL, Pacer};
use crate::run::resume::Done;
use crate::run::summary::Summary;

/// Requests in flight when the caller does not say.
pub const CONCURRENCY: usize = 8;

/// The failure reasons worth retrying later: congestion and the network, not the answer.
pub const TRANSIENT: [FailureReason; 4] =
    [FailureReason::RateLimit, FailureReason::Overloaded, FailureReason::Timeout, FailureReason::Transport];

/// The failure reasons that are the provider's, not the item's: on the first items, before any
/// was answered, they stop the run instead of failing every item the same way.
pub const PROVIDER_WIDE: [FailureReason; 3] =
    [FailureReason::Auth, FailureReason::Unsupported, FailureReason::Validation];

/// What became of one item.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The item.
    pub item: Item,
    /// The seam's decision about it.
    pub decision: Decision<()>,
    /// Whether it was put to the provider: false when the seam could not be prepared (no
    /// provider, no key, no catalog), so `--resume` asks it again once that is fixed.
    pub asked: bool,
    /// How long its ask took, from its turn to its decision.
    pub took: Duration,
    /// It failed as the run's first items did, for a reason of the provider's (a key it
    /// refuses, a request it cannot serve) before any item was answered: the run stopped, and
    /// `--resume` asks it again once that is fixed.
    pub refused: bool,
}

impl Outcome {
    /// Whether every failure in it is transient (worth retrying), and there is one.
    pub fn transient(&self) -> bool {
        let failures: Vec<FailureReason> =
            self.decision.answers.iter().filter_map(|(_, r)| r.as_ref().err().map(|f| f.reason)).collect();
        !failures.is_empty() && failures.iter().all(|r| TRANSIENT.contains(r))
    }

    /// Whether `--resume` asks it again: a transient failure, a refusal that stopped the run,
    /// or never asked.
    pub fn retry(&self) -> bool {
        self.transient() || self.refused || !self.asked
    }

    /// The output line. A score's legend is the catalog's and is left out (it repeated the
    /// catalog on every line) unless `verbose`.
    pub fn line(&self, verbose: bool) -> OutputLine {
        let mut line = OutputLine::new(self.item.id.clone(), self.item.record);
        line.usable = self.decision.usable;
        for (q, r) in &self.decision.answers {
            let mut v = match r {
                Ok(a) => serde_json::to_value(a),
                Err(f) => serde_json::to_value(f),
            }
            .unwrap_or(Value::Null);
            if !verbose && let Some(o) = v.as_object_mut() {
                o.remove("legend");
            }
            line.answers.insert(q.clone(), v);
        }
        for (q, b) in &self.decision.bands {
            line.bands.insert(q.clone(), Value::String(b.as_str().into()));
        }
        line.transient = self.transient() || self.refused;
        line.asked = self.asked;
        line
    }
}

/// What the engine hands the sink: an item's outcome, or a repeat of an id already in the
/// input, which was not asked and gets a line saying so.
#[derive(Debug)]
pub enum Finished {
    /// An item was decided.
    Outcome(Box<Outcome>),
    /// An item whose id came earlier in this input.
    Repeat(Item),
}

impl Finished {
    /// A repeat's line: `skipped`, never asked, never retried. (Which record first gave the id
    /// is not kept: a set of 8-byte hashes is what a million ids cost, a map to their records
    /// twice that.)
    pub fn repeat_line(item: &Item) -> OutputLine {
        let mut line = OutputLine::new(item.id.clone(), item.record);
        line.skipped = Some("repeat: an earlier record of the input has this id; this one is not asked".into());
        line
    }
}

/// How the engine runs.
pub struct Options<'a> {
    /// How records become items.
    pub shape: Shape,
    /// Requests in flight at once.
    pub concurrency: usize,
    /// The run's pace: its rate, its pause, its counts. The engine is its one holder.
    pub pacer: Arc<Pacer>,
    /// Items already done: skipped.
    pub done: Done,
    /// Set to stop dispatching.
    pub stop: &'a AtomicBool,
    /// Told of each outcome as it completes, on the caller's thread, before the sink, and
    /// handed its events (the event log's writer keeps them without a copy; the sink then
    /// gets the outcome without its events).
    pub observe: Option<&'a Observe<'a>>,
}

/// What [`Options::observe`] is: told of an outcome, and handed its events.
pub type Observe<'a> = dyn Fn(&Outcome, Vec<crate::event::Event>) + 'a;

/// Why a run stopped before its input ended.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The input could not be read on.
    #[error("the input: {0}")]
    Input(#[from] InputError),
    /// The sink (the output) failed.
    #[error("{0}")]
    Sink(std::io::Error),
}

enum Work {
    Ask(Item),
    Repeat(Item),
}

/// Run every item of `records` through `prepared` (or, when the seam could not be prepared,
/// give each item that failure without a call). `sink` gets each finished item as it completes,
/// on the caller's thread; an error from it stops the run and is returned. `progress` is told
/// after each.
///
/// The input is read on a thread of its own that the run does not wait for once stopped: a
/// reader blocked on a terminal or an idle pipe cannot hold up Ctrl-C. On a stop, each worker
/// finishes the request it has in flight and takes no other; items already read but not
/// dispatched are left for `--resume`. The run also stops itself, the same way, when the
/// provider asks for a pause past the pacer's bound, or refuses the first items for a reason of
/// its own ([`PROVIDER_WIDE`]); [`Summary::halt`] says which.
pub fn run(
    prepared: Result<&Prepared, &Decision<()>>,
    records: Records,
    opts: Options<'_>,
    mut sink: impl FnMut(Finished) -> std::io::Result<()>,
    mut progress: impl FnMut(&Summary),
) -> Result<Summary, RunError> {
    let started = Instant::now();
    let mut summary = Summary::default();
    let concurrency = opts.concurrency.max(1);
    let stop = opts.stop;
    let answered_any = AtomicBool::new(false);
    let refusal: Mutex<Option<String>> = Mutex::new(None);
    let refused = AtomicBool::new(false);
    let ended = || stop.load(Ordering::Relaxed) || refused.load(Ordering::Relaxed) || opts.pacer.halted();
    let (work_tx, work_rx) = mpsc::sync_channel::<Work>(concurrency);
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::sync_channel::<Finished>(concurrency * 2);
    let counts = Arc::new(ReadCounts::default());
    let reader = {
        let (counts, shape, done) = (Arc::clone(&counts), opts.shape.clone(), opts.done);
        std::thread::spawn(move || counts.read(records, &shape, done, &work_tx))
    };
    let mut result = Ok(());
    std::thread::scope(|s| {
        // The workers: one prepared seam, one agent, one pace.
        for _ in 0..concurrency {
            let (work_rx, done_tx, pacer) = (&work_rx, done_tx.clone(), &opts.pacer);
            let (ended, answered_any, refusal, refused) = (&ended, &answered_any, &refusal, &refused);
            s.spawn(move || {
                while !ended() {
                    let next = work_rx.lock().unwrap_or_else(std::sync::PoisonError::into_inner).recv_timeout(POLL);
                    let item = match next {
                        Ok(Work::Ask(item)) => item,
                        Ok(Work::Repeat(item)) => {
                            if done_tx.send(Finished::Repeat(item)).is_err() {
                                break;
                            }
                            continue;
                        }
                        Err(mpsc::RecvTimeoutError::Timeout) => continue,
                        Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    };
                    let (decision, took) = match (&item.state, prepared) {
                        (Ok(state), Ok(p)) => {
                            // The item's first turn comes before its deadline starts.
                            let Some(turn) = pacer.turn_for_item(stop) else { break };
                            let started = Instant::now();
                            (p.ask_paced(state, &turn, ()), started.elapsed())
                        }
                        _ => (decide_without_asking(prepared, &item), Duration::ZERO),
                    };
                    let asked = prepared.is_ok() || item.state.is_err();
                    let mut outcome = Outcome { item, decision, asked, took, refused: false };
                    if asked && outcome.item.state.is_ok() {
                        let answers = &outcome.decision.answers;
                        if answers.iter().any(|(_, r)| r.is_ok()) {
                            answered_any.store(true, Ordering::Relaxed);
                        } else if !answered_any.load(Ordering::Relaxed)
                            && let Some(f) = answers
                                .iter()
                                .find_map(|(_, r)| r.as_ref().err().filter(|f| PROVIDER_WIDE.contains(&f.reason)))
                        {
                            outcome.refused = true;
                            let why = format!("{}: {}", f.reason, f.detail.clone().unwrap_or_default());
                            refusal.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get_or_insert(why);
                            refused.store(true, Ordering::Relaxed);
                        }
                    }
                    if done_tx.send(Finished::Outcome(Box::new(outcome))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        // The caller's thread: the sink, in completion order.
        for mut finished in done_rx {
            if let Finished::Outcome(o) = &mut finished {
                summary.count(o);
                if let Some(observe) = opts.observe {
                    let events = std::mem::take(&mut o.decision.events);
                    observe(o, events);
                }
            }
            if let Err(e) = sink(finished) {
                stop.store(true, Ordering::Relaxed);
                result = Err(RunError::Sink(e));
                break;
            }
            counts.fill(&mut summary);
            progress(&summary);
        }
    });
    result?;
    summary.interrupted = stop.load(Ordering::Relaxed);
    summary.halt = opts.pacer.halt().map(|h| h.to_string()).or_else(|| {
        let refused = refusal.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
        refused.map(|why| format!("the provider refused the first items ({why}); nothing more was asked"))
    });
    if !summary.interrupted && summary.halt.is_none() {
        // Every worker saw the channel close, so the reader has returned.
        if let Ok(Err(e)) = reader.join() {
            return Err(RunError::Input(e));
        }
    }
    counts.fill(&mut summary);
    summary.elapsed_s = started.elapsed().as_secs_f64();
    summary.throughput = if summary.elapsed_s > 0.0 { summary.asked as f64 / summary.elapsed_s } else { 0.0 };
    // The pace grants every ask a turn; only a provider over HTTP turns them into requests.
    summary.http_requests = if prepared.is_ok_and(Prepared::over_http) { opts.pacer.requests() } else { 0 };
    summary.rate_limited = opts.pacer.rate_limited();
    summary.rate = opts.pacer.measured_rate();
    Ok(summary)
}

/// What the reader has read: items, and those skipped.
#[derive(Debug, Default)]
struct ReadCounts {
    items: AtomicU64,
    skipped: AtomicU64,
    duplicates: AtomicU64,
}

impl ReadCounts {
    fn fill(&self, summary: &mut Summary) {
        summary.items = self.items.load(Ordering::Relaxed);
        summary.skipped = self.skipped.load(Ordering::Relaxed);
        summary.duplicates = self.duplicates.load(Ordering::Relaxed);
    }

    /// Stream the input's items to the workers, skipping what is done; a repeat of an id seen
    /// earlier in this input goes on as a repeat, to get its line (once, whatever the resumes).
    /// Ids are told apart by a 64-bit hash of their exact text (8 bytes an item, however long
    /// the id).
    fn read(
        &self,
        records: Records,
        shape: &Shape,
        mut done: Done,
        work: &mpsc::SyncSender<Work>,
    ) -> Result<(), InputError> {
        let mut seen: HashSet<u64> = HashSet::new();
        for record in records {
            let item = shape.item(&record?);
            self.items.fetch_add(1, Ordering::Relaxed);
            let key = item.key();
            let repeat = matches!(key, Key::Id(_)) && !seen.insert(seen_hash(&key));
            let next = if repeat {
                self.duplicates.fetch_add(1, Ordering::Relaxed);
                if !done.insert_repeat(item.record) {
                    continue; // its line is written
                }
                Work::Repeat(item)
            } else if done.contains(&key) {
                self.skipped.fetch_add(1, Ordering::Relaxed);
                continue;
            } else {
                Work::Ask(item)
            };
            if work.send(next).is_err() {
                break; // the workers stopped
            }
        }
        Ok(())
    }
}

fn seen_hash(key: &Key) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::hash::BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().build_hasher();
    if let Key::Id(id) = key {
        h.write(id.json().as_bytes());
    }
    h.finish()
}

/// An item's decision when nothing is asked: the seam's failure, or the record's own.
fn decide_without_asking(prepared: Result<&Prepared, &Decision<()>>, item: &Item) -> Decision<()> {
    match (&item.state, prepared) {
        (Ok(_), Err(failed)) => failed.clone(),
        (Err(why), Ok(p)) => invalid(p.provider(), p.source(), p.questions(), &why.to_string()),
        (Err(why), Err(failed)) => {
            let questions: Vec<String> = failed.answers.iter().map(|(q, _)| q.clone()).collect();
            invalid(&failed.provider, failed.source, &questions, &why.to_string())
        }
        (Ok(state), Ok(p)) => p.ask(state, ()),
    }
}

/// A record that gives no state: a validation failure for each question, naming the record.
fn invalid(provider: &str, source: Source, questions: &[String], why: &str) -> Decision<()> {
    let failure = Failure::new(FailureReason::Validation, provider, why);
    Decision {
        provider: provider.into(),
        source,
        usable: false,
        deadline: Instant::now(),
        answers: questions.iter().map(|q| (q.clone(), Err(failure.clone()))).collect(),
        bands: questions.iter().map(|q| (q.clone(), Band::Floor)).collect(),
        events: Vec::new(),
        fallback: (),
    }
}
