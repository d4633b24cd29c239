//! Many states through one catalog: the batch engine.
//!
//! The seam is prepared once ([`crate::prepare`]): one catalog, one provider, one HTTP agent
//! whose connections every worker shares and keeps alive. Input is streamed line by line (a
//! JSON object a line), never loaded whole; at most `concurrency` requests are in flight; a
//! token bucket holds them to `--rate`; a 429 or 529 with `Retry-After` pauses every worker,
//! not only the one told. Each item's outcome goes to the sink as it completes, so output is
//! written in completion order, one whole line an item. A stop flag (Ctrl-C) stops dispatching;
//! what is in flight finishes within its budget. Nothing here keeps a per-item record beyond
//! 8 bytes an id (to skip ids already done, and ids seen twice).

use std::collections::{BTreeMap, HashSet};
use std::hash::{BuildHasher, Hasher};
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::answer::{Failure, FailureReason};
use crate::ask::{Decision, Prepared};
use crate::band::Band;
use crate::config::Source;
use crate::json::Ordered;
use crate::transport::Pace;

/// Requests in flight when the caller does not say.
pub const CONCURRENCY: usize = 8;

/// The failure reasons worth retrying later: congestion and the network, not the answer.
pub const TRANSIENT: [FailureReason; 4] =
    [FailureReason::RateLimit, FailureReason::Overloaded, FailureReason::Timeout, FailureReason::Transport];

/// A client-side rate: `count` requests every `per`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Requests allowed in each period.
    pub count: u32,
    /// The period.
    pub per: Duration,
}

impl std::str::FromStr for Rate {
    type Err = String;
    /// `N/s`, `N/min` (or `N/m`), `N/h`.
    fn from_str(s: &str) -> Result<Rate, String> {
        let bad = || format!("expected N/s, N/min or N/h (as 1200/min), found {s:?}");
        let (n, unit) = s.trim().split_once('/').ok_or_else(bad)?;
        let count: u32 = n.trim().parse().ok().filter(|c| *c > 0).ok_or_else(bad)?;
        let per = match unit.trim() {
            "s" | "sec" => Duration::from_secs(1),
            "m" | "min" => Duration::from_secs(60),
            "h" => Duration::from_secs(3600),
            _ => return Err(bad()),
        };
        Ok(Rate { count, per })
    }
}

/// The batch's pace: a token bucket (burst of one, so requests are evenly spaced) and the
/// shared pause. It counts the requests sent and the 429s seen.
#[derive(Debug)]
pub struct Pacer {
    interval: Option<Duration>,
    state: Mutex<(Instant, Instant)>,
    requests: AtomicU64,
    too_many: AtomicU64,
}

impl Pacer {
    /// A pacer at `rate`, or unpaced (it still counts, and still pauses on congestion).
    pub fn new(rate: Option<Rate>) -> Pacer {
        let now = Instant::now();
        Pacer {
            interval: rate.map(|r| r.per / r.count),
            state: Mutex::new((now, now)),
            requests: AtomicU64::new(0),
            too_many: AtomicU64::new(0),
        }
    }

    /// HTTP requests sent so far.
    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }

    /// 429s seen so far.
    pub fn rate_limited(&self) -> u64 {
        self.too_many.load(Ordering::Relaxed)
    }
}

impl Pacer {
    /// Reserve the next slot (not before the next token, not before a pause ends) and sleep
    /// until it, waking to look at `stop`; false when stopped first. A worker takes its item's
    /// first turn here, before the item's deadline starts, so a slow rate never eats into an
    /// answer's budget; the transport's first [`Pace::turn`] on this thread then only honours a
    /// pause.
    pub fn reserve(&self, stop: &AtomicBool) -> bool {
        let slot = self.slot(None).unwrap_or_else(Instant::now);
        loop {
            if stop.load(Ordering::Relaxed) {
                return false;
            }
            let wait = slot.saturating_duration_since(Instant::now());
            if wait.is_zero() {
                PREPAID.with(|p| p.set(true));
                return true;
            }
            std::thread::sleep(wait.min(POLL));
        }
    }

    /// Take a slot: the first free one no earlier than now, the next token, or the pause's end;
    /// None when it would come after `deadline`.
    fn slot(&self, deadline: Option<Instant>) -> Option<Instant> {
        let mut s = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (next_token, paused_until) = *s;
        let slot = Instant::now().max(next_token).max(paused_until);
        if deadline.is_some_and(|d| slot > d) {
            return None;
        }
        if let Some(i) = self.interval {
            s.0 = slot + i;
        }
        Some(slot)
    }

    fn paused_until(&self) -> Instant {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner).1
    }
}

thread_local! {
    /// Whether this thread holds a slot taken by [`Pacer::reserve`] and not yet used.
    static PREPAID: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl Pace for Pacer {
    fn turn(&self, deadline: Instant) -> bool {
        if !PREPAID.with(|p| p.replace(false)) {
            let Some(slot) = self.slot(Some(deadline)) else { return false };
            std::thread::sleep(slot.saturating_duration_since(Instant::now()));
        }
        // A pause that began while this caller waited holds it too.
        if let Some(more) = self.paused_until().checked_duration_since(Instant::now()) {
            if Instant::now() + more > deadline {
                return false;
            }
            std::thread::sleep(more);
        }
        self.requests.fetch_add(1, Ordering::Relaxed);
        true
    }

    fn congested(&self, status: u16, wait: Duration) {
        if status == 429 {
            self.too_many.fetch_add(1, Ordering::Relaxed);
        }
        let mut s = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        s.1 = s.1.max(Instant::now() + wait);
    }
}

/// How the input's lines become items.
#[derive(Clone)]
pub struct Shape {
    /// The fields that may hold an item's id, first present wins; none, the line number is.
    pub id_fields: Vec<String>,
    /// Where the state comes from.
    pub state: StateOf,
}

/// Where an item's state comes from.
#[derive(Clone)]
pub enum StateOf {
    /// The whole input object.
    Whole,
    /// One field of it.
    Field(String),
    /// What a consumer makes of the object (given the line number, for its errors); an error
    /// is the item's validation failure, and nothing is asked.
    Derived(Derive),
}

/// A consumer's way from an input object to its state.
pub type Derive = Arc<dyn Fn(usize, &Map<String, Value>) -> Result<Value, String> + Send + Sync>;

impl std::fmt::Debug for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match &self.state {
            StateOf::Whole => "the whole object".to_string(),
            StateOf::Field(field) => format!("field {field:?}"),
            StateOf::Derived(_) => "derived".to_string(),
        };
        f.debug_struct("Shape").field("id_fields", &self.id_fields).field("state", &state).finish()
    }
}

impl Default for Shape {
    fn default() -> Self {
        Shape { id_fields: vec!["id".into()], state: StateOf::Whole }
    }
}

/// One input item.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Its 1-based line in the input.
    pub line: usize,
    /// Its id: the id field's value, else the line number; `"line N"` for a line that is not a
    /// JSON object.
    pub id: Value,
    /// The state to ask about, or why the line gives none (naming the line).
    pub state: Result<Value, String>,
    /// The whole input object, for consumers that read more of it.
    pub input: Value,
}

impl Shape {
    /// Read one input line.
    pub fn item(&self, line: usize, text: &str) -> Item {
        let parsed: Result<Value, String> =
            serde_json::from_str(text).map_err(|e| format!("input line {line}: not JSON: {e}"));
        let (id, state, input) = match parsed {
            Err(e) => (unread(line), Err(e), Value::Null),
            Ok(Value::Object(obj)) => {
                let id = self.id_fields.iter().find_map(|f| obj.get(f).filter(|v| !v.is_null()));
                let state = match &self.state {
                    StateOf::Whole => Ok(Value::Object(obj.clone())),
                    StateOf::Field(f) => match obj.get(f) {
                        Some(v) if !v.is_null() => Ok(v.clone()),
                        _ => Err(format!("input line {line}: no \"{f}\" field to ask about")),
                    },
                    StateOf::Derived(make) => make(line, &obj),
                };
                (id.cloned().unwrap_or(json!(line)), state, Value::Object(obj))
            }
            Ok(other) => (unread(line), Err(format!("input line {line}: not a JSON object")), other),
        };
        Item { line, id, state, input }
    }
}

/// The id of a line that is not a JSON object: `"line N"`, which no numeric id in the input
/// can collide with (a bare line number could, and the real item would be skipped as a repeat).
fn unread(line: usize) -> Value {
    json!(format!("line {line}"))
}

/// The input as JSON lines: a JSON array (as `gh ... --json` prints) is streamed element by
/// element, one line each, never loaded whole; anything else is taken to be JSON lines already.
/// An array that breaks off is a read error naming where.
pub fn json_lines(mut input: impl BufRead + Send + 'static) -> std::io::Result<Box<dyn BufRead + Send>> {
    // Look past leading whitespace without losing it: JSON lines keep their line numbers.
    let mut prefix = Vec::new();
    let first = loop {
        let buf = input.fill_buf()?;
        let Some(&b) = buf.first() else { break None };
        if !b.is_ascii_whitespace() {
            break Some(b);
        }
        prefix.push(b);
        input.consume(1);
    };
    if first != Some(b'[') {
        return Ok(Box::new(std::io::Read::chain(std::io::Cursor::new(prefix), input)));
    }
    let (tx, rx) = mpsc::sync_channel::<std::io::Result<Vec<u8>>>(64);
    std::thread::spawn(move || {
        let mut de = serde_json::Deserializer::from_reader(input);
        let each = Elements(|v: Value| {
            let mut line = serde_json::to_vec(&v).unwrap_or_default();
            line.push(b'\n');
            tx.send(Ok(line)).is_ok()
        });
        if let Err(e) = serde::Deserializer::deserialize_seq(&mut de, each).and_then(|()| de.end()) {
            let _ = tx.send(Err(std::io::Error::new(std::io::ErrorKind::InvalidData, format!("the input array: {e}"))));
        }
    });
    Ok(Box::new(std::io::BufReader::new(Chunks { rx, chunk: Vec::new(), at: 0 })))
}

/// A visitor that hands each element of an array to a function, until it says stop.
struct Elements<F>(F);

impl<'de, F: FnMut(Value) -> bool> serde::de::Visitor<'de> for Elements<F> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an array of objects")
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        while let Some(v) = seq.next_element::<Value>()? {
            if !(self.0)(v) {
                break;
            }
        }
        Ok(())
    }
}

/// Bytes arriving in chunks over a channel, read as one stream.
struct Chunks {
    rx: mpsc::Receiver<std::io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    at: usize,
}

impl std::io::Read for Chunks {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.chunk.len() {
            match self.rx.recv() {
                Ok(next) => (self.chunk, self.at) = (next?, 0),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

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
}

impl Outcome {
    /// Whether every failure in it is transient (worth retrying), and there is one.
    pub fn transient(&self) -> bool {
        let failures: Vec<FailureReason> =
            self.decision.answers.iter().filter_map(|(_, r)| r.as_ref().err().map(|f| f.reason)).collect();
        !failures.is_empty() && failures.iter().all(|r| TRANSIENT.contains(r))
    }

    /// Whether `--resume` asks it again: a transient failure, or never asked.
    pub fn retry(&self) -> bool {
        self.transient() || !self.asked
    }

    /// The output line: `{"id", "usable", "answers", "bands"}`, with `"transient": true` for an
    /// item that failed for a transient reason and `"asked": false` for one never put to the
    /// provider: `--resume` asks both again.
    pub fn line(&self) -> Value {
        let answers: Vec<(String, Value)> = self
            .decision
            .answers
            .iter()
            .map(|(q, r)| {
                let v = match r {
                    Ok(a) => serde_json::to_value(a),
                    Err(f) => serde_json::to_value(f),
                };
                (q.clone(), v.unwrap_or(Value::Null))
            })
            .collect();
        let mut m = Map::new();
        m.insert("id".into(), self.item.id.clone());
        m.insert("usable".into(), json!(self.decision.usable));
        m.insert("answers".into(), serde_json::to_value(Ordered(&answers)).unwrap_or_default());
        m.insert("bands".into(), serde_json::to_value(Ordered(&self.decision.bands)).unwrap_or_default());
        if self.transient() {
            m.insert("transient".into(), json!(true));
        }
        if !self.asked {
            m.insert("asked".into(), json!(false));
        }
        Value::Object(m)
    }
}

/// A run's figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Items read from the input (including those skipped).
    pub items: u64,
    /// Items skipped as already done (`--resume`).
    pub skipped: u64,
    /// Items skipped because their id came earlier in this input (one line an id, always).
    pub duplicates: u64,
    /// Items that got an answer to every question.
    pub answered: u64,
    /// Items whose decision was usable (every answer in the act band).
    pub usable: u64,
    /// Failures by reason, over every question of every item.
    pub failures: BTreeMap<String, u64>,
    /// Items `--resume` would ask again: failed for a transient reason, or never asked.
    pub retry: u64,
    /// Items dispatched, not counting skipped ones.
    pub asked: u64,
    /// Seconds from start to end.
    pub elapsed_s: f64,
    /// Items completed a second.
    pub throughput: f64,
    /// HTTP requests sent (retries included).
    pub http_requests: u64,
    /// 429 answers seen.
    pub rate_limited: u64,
    /// Whether a stop (Ctrl-C) ended the run early.
    pub interrupted: bool,
}

impl Summary {
    fn count(&mut self, o: &Outcome) {
        self.asked += 1;
        if o.decision.answers.iter().all(|(_, r)| r.is_ok()) {
            self.answered += 1;
        }
        if o.decision.usable {
            self.usable += 1;
        }
        if o.retry() {
            self.retry += 1;
        }
        for (_, r) in &o.decision.answers {
            if let Err(f) = r {
                *self.failures.entry(f.reason.to_string()).or_default() += 1;
            }
        }
    }

    /// The one line a run ends with.
    pub fn line(&self) -> String {
        let mut head = format!("{} item{}", self.items, if self.items == 1 { "" } else { "s" });
        if self.skipped > 0 {
            head.push_str(&format!(" ({} already done)", self.skipped));
        }
        if self.duplicates > 0 {
            head.push_str(&format!(" ({} with a repeated id, skipped)", self.duplicates));
        }
        let failures = if self.failures.is_empty() {
            "no failures".to_string()
        } else {
            let parts: Vec<String> = self.failures.iter().map(|(r, n)| format!("{r} {n}")).collect();
            format!("failed questions: {}", parts.join(", "))
        };
        format!(
            "{head}: {} answered, {} usable, {failures}, {} to retry with --resume; {:.1}s, {:.1} items/s, {} HTTP requests, {} 429s{}",
            self.answered,
            self.usable,
            self.retry,
            self.elapsed_s,
            self.throughput,
            self.http_requests,
            self.rate_limited,
            if self.interrupted { "; interrupted: --resume continues it" } else { "" }
        )
    }
}

/// The ids to leave alone, kept as 64-bit hashes of their JSON text (8 bytes an id).
#[derive(Debug, Default)]
pub struct Done(HashSet<u64>);

impl Done {
    fn key(id: &Value) -> u64 {
        let mut h =
            std::hash::BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().build_hasher();
        h.write(id.to_string().as_bytes());
        h.finish()
    }

    /// Mark an id done; false when it already was.
    pub fn insert(&mut self, id: &Value) -> bool {
        self.0.insert(Done::key(id))
    }

    /// Whether an id is done.
    pub fn contains(&self, id: &Value) -> bool {
        self.0.contains(&Done::key(id))
    }

    /// How many ids.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// No ids.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// How the engine runs.
pub struct Options<'a> {
    /// How lines become items.
    pub shape: Shape,
    /// Requests in flight at once.
    pub concurrency: usize,
    /// The shared pace (its rate, its pause, its counts).
    pub pacer: Arc<Pacer>,
    /// Ids already done: skipped.
    pub done: Done,
    /// Set to stop dispatching.
    pub stop: &'a AtomicBool,
}

/// Run every item of `input` through `prepared` (or, when the seam could not be prepared, give
/// each item that failure without a call). `sink` gets each outcome as it completes, on the
/// caller's thread; an error from it stops the run and is returned. `progress` is told after
/// each item.
///
/// The input is read on a thread of its own that the run does not wait for once stopped: a
/// reader blocked on a terminal or an idle pipe cannot hold up Ctrl-C. On a stop, each worker
/// finishes the request it has in flight and takes no other; items already read but not
/// dispatched are left for `--resume`.
pub fn run(
    prepared: Result<&Prepared, &Decision<()>>,
    input: impl BufRead + Send + 'static,
    opts: Options<'_>,
    mut sink: impl FnMut(Outcome) -> std::io::Result<()>,
    mut progress: impl FnMut(&Summary),
) -> std::io::Result<Summary> {
    let started = Instant::now();
    let mut summary = Summary::default();
    let concurrency = opts.concurrency.max(1);
    let stop = opts.stop;
    let (work_tx, work_rx) = mpsc::sync_channel::<Item>(concurrency);
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::sync_channel::<Outcome>(concurrency * 2);
    let counts = Arc::new(ReadCounts::default());
    let reader = {
        let (counts, shape, done) = (Arc::clone(&counts), opts.shape.clone(), opts.done);
        std::thread::spawn(move || counts.read(input, &shape, &done, &work_tx))
    };
    let mut result = Ok(());
    std::thread::scope(|s| {
        // The workers: one prepared seam, one agent, one pace.
        for _ in 0..concurrency {
            let (work_rx, done_tx, pacer) = (&work_rx, done_tx.clone(), &opts.pacer);
            s.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let next = work_rx.lock().unwrap_or_else(std::sync::PoisonError::into_inner).recv_timeout(POLL);
                    let item = match next {
                        Ok(item) => item,
                        Err(mpsc::RecvTimeoutError::Timeout) => continue,
                        Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    };
                    // An item that asks nobody takes no turn.
                    if item.state.is_ok() && prepared.is_ok() && !pacer.reserve(stop) {
                        break;
                    }
                    let started = Instant::now();
                    let decision = decide(prepared, &item);
                    let took = started.elapsed();
                    PREPAID.with(|p| p.set(false));
                    let asked = prepared.is_ok() || item.state.is_err();
                    if done_tx.send(Outcome { item, decision, asked, took }).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        // The caller's thread: the sink, in completion order.
        for outcome in done_rx {
            summary.count(&outcome);
            if let Err(e) = sink(outcome) {
                stop.store(true, Ordering::Relaxed);
                result = Err(e);
                break;
            }
            counts.fill(&mut summary);
            progress(&summary);
        }
    });
    result?;
    summary.interrupted = stop.load(Ordering::Relaxed);
    if !summary.interrupted {
        // Every worker saw the channel close, so the reader has returned.
        if let Ok(Err(e)) = reader.join() {
            return Err(e);
        }
    }
    counts.fill(&mut summary);
    summary.elapsed_s = started.elapsed().as_secs_f64();
    summary.throughput = if summary.elapsed_s > 0.0 { summary.asked as f64 / summary.elapsed_s } else { 0.0 };
    summary.http_requests = opts.pacer.requests();
    summary.rate_limited = opts.pacer.rate_limited();
    Ok(summary)
}

/// How often an idle worker looks at the stop flag.
const POLL: Duration = Duration::from_millis(50);

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

    /// Stream the input's lines to the workers, skipping what is done or seen.
    fn read(
        &self,
        mut input: impl BufRead,
        shape: &Shape,
        done: &Done,
        work: &mpsc::SyncSender<Item>,
    ) -> std::io::Result<()> {
        let (mut buf, mut seen) = (Vec::new(), Done::default());
        for n in 1.. {
            buf.clear();
            if input.read_until(b'\n', &mut buf)? == 0 {
                break;
            }
            let item = match std::str::from_utf8(&buf) {
                Ok(text) if text.trim().is_empty() => continue,
                Ok(text) => shape.item(n, text),
                Err(e) => Item {
                    line: n,
                    id: unread(n),
                    state: Err(format!("input line {n}: not UTF-8 text ({e})")),
                    input: Value::Null,
                },
            };
            self.items.fetch_add(1, Ordering::Relaxed);
            if done.contains(&item.id) {
                self.skipped.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            if !seen.insert(&item.id) {
                self.duplicates.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            if work.send(item).is_err() {
                break; // the workers stopped
            }
        }
        Ok(())
    }
}

/// One item's decision: asked, or failed without a call.
fn decide(prepared: Result<&Prepared, &Decision<()>>, item: &Item) -> Decision<()> {
    match (&item.state, prepared) {
        (Ok(state), Ok(p)) => p.ask(state, ()),
        (Ok(_), Err(failed)) => failed.clone(),
        (Err(why), Ok(p)) => invalid(p.provider(), p.source(), p.questions(), why),
        (Err(why), Err(failed)) => {
            let questions: Vec<String> = failed.answers.iter().map(|(q, _)| q.clone()).collect();
            invalid(&failed.provider, failed.source, &questions, why)
        }
    }
}

/// An input line that gives no state: a validation failure for each question, naming the line.
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

/// Read an earlier run's output: the ids with a final outcome (every line neither transient
/// nor unasked), and the lines to keep (the final ones, in order). Lines that do not parse (a
/// torn tail) are dropped: they were never a record.
pub fn finished(output: &str) -> (Done, Vec<String>) {
    let mut done = Done::default();
    let mut keep = Vec::new();
    for line in output.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else { continue };
        let retry = v.get("transient") == Some(&json!(true)) || v.get("asked") == Some(&json!(false));
        let (Some(id), false) = (v.get("id"), retry) else { continue };
        if done.insert(id) {
            keep.push(line.to_string());
        }
    }
    (done, keep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_parse_as_people_write_them() {
        assert_eq!("1200/min".parse::<Rate>(), Ok(Rate { count: 1200, per: Duration::from_secs(60) }));
        assert_eq!("20/s".parse::<Rate>(), Ok(Rate { count: 20, per: Duration::from_secs(1) }));
        assert!("0/s".parse::<Rate>().is_err() && "fast".parse::<Rate>().is_err() && "5/day".parse::<Rate>().is_err());
    }

    #[test]
    fn the_pacer_spaces_requests_and_pauses_everyone_on_congestion() {
        let p = Pacer::new(Some(Rate { count: 100, per: Duration::from_secs(1) }));
        let far = Instant::now() + Duration::from_secs(5);
        let t = Instant::now();
        for _ in 0..5 {
            assert!(p.turn(far));
        }
        assert!(t.elapsed() >= Duration::from_millis(35), "{:?}", t.elapsed());
        p.congested(429, Duration::from_millis(80));
        let t = Instant::now();
        assert!(p.turn(far));
        assert!(t.elapsed() >= Duration::from_millis(60), "{:?}", t.elapsed());
        assert_eq!((p.requests(), p.rate_limited()), (6, 1));
        // A turn that cannot come before the deadline is refused at once.
        p.congested(529, Duration::from_secs(10));
        assert!(!p.turn(Instant::now() + Duration::from_millis(10)));
    }

    #[test]
    fn lines_become_items_by_their_id_and_state_fields() {
        let shape = Shape { id_fields: vec!["id".into(), "number".into()], state: StateOf::Field("issue".into()) };
        let item = shape.item(3, r#"{"number": 42, "issue": {"title": "t"}}"#);
        assert_eq!((item.id, item.state), (json!(42), Ok(json!({"title": "t"}))));
        let bare = Shape::default().item(7, r#"{"title": "t"}"#);
        assert_eq!((bare.id, bare.state), (json!(7), Ok(json!({"title": "t"}))));
        assert!(shape.item(9, "{oops").state.err().is_some_and(|e| e.starts_with("input line 9: not JSON")));
        assert!(shape.item(9, "[1]").state.is_err());
        assert!(shape.item(9, r#"{"number": 1}"#).state.err().is_some_and(|e| e.contains("no \"issue\" field")));
    }

    #[test]
    fn an_array_is_streamed_as_lines_and_lines_pass_through() {
        let read = |text: &'static str| -> Vec<String> {
            json_lines(std::io::Cursor::new(text)).expect("test").lines().map(|l| l.expect("test")).collect()
        };
        assert_eq!(
            read(" \n[{\"number\": 1}, {\"number\": 2,\n \"title\": \"x\"}]\n"),
            [r#"{"number":1}"#, r#"{"number":2,"title":"x"}"#]
        );
        assert_eq!(read("\n{\"id\": 1}\nnot json\n"), ["", "{\"id\": 1}", "not json"]);
        let broken = json_lines(std::io::Cursor::new("[{\"a\": 1}, {\"b\":")).expect("test");
        let lines: Vec<std::io::Result<String>> = broken.lines().collect();
        assert_eq!(lines[0].as_ref().expect("test"), r#"{"a":1}"#);
        assert!(lines[1].as_ref().is_err_and(|e| e.to_string().starts_with("the input array: EOF")), "{lines:?}");
    }

    #[test]
    fn an_earlier_output_gives_the_final_ids_and_drops_transient_and_torn_lines() {
        let out = "{\"id\":1,\"usable\":true}\n{\"id\":2,\"transient\":true}\n{\"id\":3,\"usable\":false}\n{\"id\":1,\"usable\":true}\n{\"id\":5,\"asked\":false}\n{\"id\":4,\"us";
        let (done, keep) = finished(out);
        assert!(done.contains(&json!(1)) && done.contains(&json!(3)));
        assert!(!done.contains(&json!(2)) && !done.contains(&json!(4)) && !done.contains(&json!(5)));
        assert_eq!(keep, ["{\"id\":1,\"usable\":true}", "{\"id\":3,\"usable\":false}"]);
    }
}
