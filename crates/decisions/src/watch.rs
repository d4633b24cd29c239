//! The meters `decisions watch` shows, from the project's event log (every rotated file with
//! it) and, where outcomes exist, the calibration ledger.
//!
//! Per consumer, and per provider/model inside it: **calls** (`decision_asked`), **decide**
//! p50/p95/max (`elapsed_ms` of `decision_answered`), **fallback** (`decision_failed` as a share
//! of `decision_answered` + `decision_failed`), failures by reason, retries and 429s
//! (`decision_retry`), the bands that fired per question. For the hook (`permission`) also:
//! commands judged, denied, fell back (by reason), skipped (with the reasons), timeouts, the last
//! five denials. Where
//! the ledger has outcomes for the consumer: decisions with a known outcome and the share
//! correct.
//!
//! **Absent, not zeroed** (the specification's rule): a provider that never asked has no row, a
//! consumer with no row is left out, and a log where nothing asked says so in one line.
//!
//! The log is read on every core, a chunk a thread, each folding its lines into meters that are
//! then merged in file order; a line that is torn or not an event is counted and skipped.

use std::borrow::Cow;
use std::collections::{BTreeMap, VecDeque};
use std::path::Path;

use serde::{Deserialize, Serialize};

/// Which lines count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Lines at or after this timestamp (`2026-11-30`, `2026-11-30T06:00:00Z`): timestamps
    /// compare as text.
    pub since: Option<String>,
    /// Only this consumer.
    pub consumer: Option<String>,
    /// One set of meters a UTC day.
    pub by_day: bool,
}

/// Everything `watch` shows.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Meters {
    /// Lines read, over every file of the log.
    pub lines: u64,
    /// Lines skipped: torn, not JSON, or not an event.
    pub skipped: u64,
    /// The meters of each period: one, `all`, or one a UTC day.
    pub periods: BTreeMap<String, Period>,
    /// Calls and fallbacks a bucket of time, oldest first, for the chart: (bucket start,
    /// calls, failures).
    pub series: Vec<(String, u64, u64)>,
    /// Times the hook stood aside, by reason (also when nothing was asked).
    pub stood_aside: BTreeMap<String, u64>,
    /// Fallbacks where no provider was asked (none configured, no key), by reason.
    pub unasked: BTreeMap<String, u64>,
}

/// The meters of one period.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Period {
    /// Each consumer that logged anything.
    pub consumers: BTreeMap<String, Consumer>,
}

/// One consumer's meters.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Consumer {
    /// Each provider/model that was asked (`provider model`).
    pub providers: BTreeMap<String, Provider>,
    /// The hook's own counts, for `permission`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook: Option<Hook>,
    /// Decisions of this consumer with a known outcome in the ledger, and how many were right.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<Outcomes>,
    /// Runs of many items that ended (`run_finished`), and items in them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs: Option<Runs>,
    /// Failures of a provider never asked (none configured, no key): the fallback ran.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub unasked: BTreeMap<String, u64>,
    /// Events for a provider before any ask of it in a chunk, attributed at merge.
    #[serde(skip)]
    pending: BTreeMap<String, Provider>,
    /// The row (`provider model`) last asked of each provider, for the events that do not
    /// name the model.
    #[serde(skip)]
    last_model: BTreeMap<String, String>,
}

/// One provider/model's meters.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Provider {
    /// `decision_asked` events.
    pub calls: u64,
    /// `decision_answered` events (one a question).
    pub answered: u64,
    /// `decision_failed` events (one a question).
    pub failed: u64,
    /// Decide time in milliseconds of each answer; the percentiles are read from it.
    #[serde(skip)]
    decide_ms: Vec<u64>,
    /// Decide time p50, p95 and max, in milliseconds.
    pub decide_ms_p50: Option<u64>,
    /// See `decide_ms_p50`.
    pub decide_ms_p95: Option<u64>,
    /// See `decide_ms_p50`.
    pub decide_ms_max: Option<u64>,
    /// `failed / (answered + failed)`.
    pub fallback: Option<f64>,
    /// Failures by reason.
    pub failures: BTreeMap<String, u64>,
    /// `decision_retry` events.
    pub retries: u64,
    /// Retries for a 429.
    pub too_many: u64,
    /// The bands that fired, per question: `act`, `escalate`, `floor`.
    pub bands: BTreeMap<String, BTreeMap<String, u64>>,
}

/// The permission hook's own counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Hook {
    /// Commands put to the model (`decision_asked`).
    pub judged: u64,
    /// Commands the semantic axis denied.
    pub denied: u64,
    /// Times the hook stood aside, by reason.
    pub skipped: BTreeMap<String, u64>,
    /// Commands judged whose answer was not usable, so the agent's own flow decided
    /// (`decision_timeout`, the earlier hook's name for every such outcome), by reason: a band
    /// below act (`floor band`, `escalate band`), `timeout`, `unreachable` (an outage), or the
    /// failure the provider answered with (`auth`, `malformed`, ...).
    pub fell_back: BTreeMap<String, u64>,
    /// Of those, the times no decision came within the budget (a failure or the hook's own
    /// deadline).
    pub timeouts: u64,
    /// Of those, the times the provider could not be reached at all (a refused or failed
    /// connection): an outage, not a slow provider.
    pub outages: u64,
    /// The last five denials, newest last.
    pub last_denials: VecDeque<Denial>,
}

/// One denial.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Denial {
    /// When.
    pub ts: String,
    /// The command, as logged.
    pub command: String,
    /// Its score.
    pub score: f64,
}

/// Outcomes from the ledger.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Outcomes {
    /// Decisions with a known outcome.
    pub known: u64,
    /// Of them, correct.
    pub correct: u64,
    /// `correct / known`.
    pub share_correct: Option<f64>,
}

/// Runs of many items.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Runs {
    /// Runs that ended.
    pub runs: u64,
    /// Items read in them.
    pub items: u64,
    /// Items answered.
    pub answered: u64,
    /// Runs that stopped early (a pause past the bound, a refusal) or were interrupted.
    pub stopped: u64,
}

/// What the meters read of a line, borrowed from the log's bytes.
#[derive(Deserialize)]
struct Line<'a> {
    #[serde(borrow)]
    ts: Cow<'a, str>,
    #[serde(borrow, default)]
    consumer: Option<Cow<'a, str>>,
    #[serde(borrow)]
    event: Cow<'a, str>,
    #[serde(borrow, default)]
    provider: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    model: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    question: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    reason: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    cause: Option<Cow<'a, str>>,
    #[serde(default)]
    elapsed_ms: Option<u64>,
    #[serde(borrow, default)]
    threshold_fired: Option<Cow<'a, str>>,
    #[serde(default)]
    status: Option<u16>,
    #[serde(borrow, default)]
    command: Option<Cow<'a, str>>,
    #[serde(default)]
    score: Option<f64>,
    #[serde(default)]
    items: Option<u64>,
    #[serde(default)]
    answered: Option<u64>,
    #[serde(default)]
    interrupted: Option<bool>,
    #[serde(borrow, default)]
    stopped: Option<Cow<'a, str>>,
}

/// The hook's consumer name.
pub const HOOK: &str = "permission";
/// A line without `consumer` was written by the hook, before lines named theirs.
const UNNAMED: &str = HOOK;

/// The chart's buckets: an hour each, by its `YYYY-MM-DDTHH` prefix.
const BUCKET: usize = 13;

/// Read the project's meters: every file of the event log, and the ledger's outcomes.
pub fn read(leo: &Path, filter: &Filter) -> std::io::Result<Meters> {
    let mut reader = Reader::new(leo, filter.clone());
    reader.refresh()?;
    Ok(reader.meters())
}

/// The meters kept up to date as the log grows: only what was appended is read, and a log
/// rotated or truncated under it is read again from the start.
pub struct Reader {
    leo: std::path::PathBuf,
    filter: Filter,
    raw: Meters,
    /// The live log's identity and how far it was read.
    live: Option<(u64, u64, u64)>,
    /// The rotated files' identities, when they were read.
    rotated: Vec<(u64, u64)>,
    /// The ledger's outcomes, and the identity of the ledger they were read from.
    outcomes: Option<(Option<LedgerId>, Tally)>,
}

/// A file's device, inode, length and modification time.
type LedgerId = (u64, u64, u64, i64, i64);

impl Reader {
    /// A reader of `leo`'s log; nothing is read until [`Reader::refresh`].
    pub fn new(leo: &Path, filter: Filter) -> Reader {
        Reader {
            leo: leo.to_path_buf(),
            filter,
            raw: Meters::default(),
            live: None,
            rotated: Vec::new(),
            outcomes: None,
        }
    }

    /// Read what is new; whether anything was.
    pub fn refresh(&mut self) -> std::io::Result<bool> {
        use std::os::unix::fs::MetadataExt;
        let live_path = crate::event::log_path(&self.leo);
        let files = crate::event::log_files(&self.leo);
        let id = |p: &Path| std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino(), m.len()));
        let rotated: Vec<(u64, u64)> =
            files.iter().filter(|p| **p != live_path).filter_map(|p| id(p).map(|(d, i, _)| (d, i))).collect();
        let live = id(&live_path);
        let same_file =
            matches!((self.live, live), (Some((d, i, at)), Some((d2, i2, len))) if d == d2 && i == i2 && len >= at);
        if same_file && rotated == self.rotated {
            let (d, i, at) = self.live.unwrap_or_default();
            let len = live.map_or(at, |(_, _, l)| l);
            if len == at {
                return Ok(false);
            }
            let bytes = read_from(&live_path, at)?;
            // Up to the last whole line: a line still being written is read next time.
            let whole = memchr::memrchr(b'\n', &bytes).map_or(0, |e| e + 1);
            self.raw.merge(from_bytes(&bytes[..whole], &self.filter));
            self.live = Some((d, i, at + whole as u64));
            return Ok(whole > 0);
        }
        // First read, or the files changed under us: everything again, oldest first.
        let mut raw = Meters::default();
        let mut at = 0;
        for path in &files {
            if let Some(bytes) = crate::jsonl::read_bytes(path)? {
                let whole =
                    if *path == live_path { memchr::memrchr(b'\n', &bytes).map_or(0, |e| e + 1) } else { bytes.len() };
                raw.merge(from_bytes(&bytes[..whole], &self.filter));
                if *path == live_path {
                    at = whole as u64;
                }
            }
        }
        self.raw = raw;
        self.live = live.map(|(d, i, _)| (d, i, at));
        self.rotated = rotated;
        Ok(true)
    }

    /// The meters as they stand: the ledger's outcomes joined, what never asked left out.
    /// The ledger is read again only when it changed since the last look.
    pub fn meters(&mut self) -> Meters {
        use std::os::unix::fs::MetadataExt;
        let path = crate::ledger::ledger_path(&self.leo);
        let id = std::fs::metadata(&path).ok().map(|m| (m.dev(), m.ino(), m.len(), m.mtime(), m.mtime_nsec()));
        if self.outcomes.as_ref().is_none_or(|(seen, _)| *seen != id) {
            self.outcomes = Some((id, tally(&path, &self.filter)));
        }
        let mut meters = self.raw.clone();
        if let Some((_, tally)) = &self.outcomes {
            meters.add_outcomes(tally);
        }
        meters.finish();
        meters
    }
}

/// Decisions with a known outcome, and how many were right, by period and consumer.
type Tally = BTreeMap<(String, String), (u64, u64)>;

/// The ledger's outcomes as the filter counts them: each decision's latest outcome, read by
/// the ledger's fast reader.
fn tally(path: &Path, filter: &Filter) -> Tally {
    let mut tally = Tally::new();
    let _ = crate::ledger::known_outcomes(path, |ts, consumer, correct| {
        if filter.since.as_deref().is_some_and(|s| ts < s) || filter.consumer.as_deref().is_some_and(|c| c != consumer)
        {
            return;
        }
        let period = if filter.by_day { ts.get(..10).unwrap_or("?") } else { "all" };
        let t = tally.entry((period.to_string(), consumer.to_string())).or_default();
        t.0 += 1;
        t.1 += u64::from(correct);
    });
    tally
}

/// The bytes of a file from `at` on.
fn read_from(path: &Path, at: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Read, Seek};
    let mut file = crate::file::open_for_read(path)?;
    file.seek(std::io::SeekFrom::Start(at))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Fold a log's bytes into meters, a chunk a core.
pub fn from_bytes(bytes: &[u8], filter: &Filter) -> Meters {
    let parts = crate::jsonl::par_lines(bytes, |chunk| {
        let mut m = Meters::default();
        for line in chunk.split(|b| *b == b'\n') {
            if !line.iter().all(u8::is_ascii_whitespace) {
                m.add_line(line, filter);
            }
        }
        m
    });
    let mut meters = Meters::default();
    for part in parts {
        meters.merge(part);
    }
    meters
}

impl Meters {
    /// Fold one line in.
    pub fn add_line(&mut self, raw: &[u8], filter: &Filter) {
        let Ok(line) = serde_json::from_slice::<Line<'_>>(raw) else {
            self.lines += 1;
            self.skipped += 1;
            return;
        };
        // A line before the window is not read as far as the meters go: `lines` counts the
        // window's (and what could not be placed in time: torn or not events).
        let before = filter.since.as_deref().is_some_and(|since| *line.ts < *since);
        if !line.event.starts_with("decision_")
            && !matches!(&*line.event, "route_decided" | "review_refined" | "run_finished")
        {
            self.lines += u64::from(!before);
            self.skipped += u64::from(!before);
            return;
        }
        if before {
            return;
        }
        self.lines += 1;
        let consumer = line.consumer.as_deref().unwrap_or(UNNAMED);
        if filter.consumer.as_deref().is_some_and(|c| c != consumer) {
            return;
        }
        let period = if filter.by_day { line.ts.get(..10).unwrap_or("?") } else { "all" };
        let c = entry(&mut entry(&mut self.periods, period).consumers, consumer);
        let provider = line.provider.as_deref().unwrap_or("none");
        let bucket = line.ts.get(..BUCKET).unwrap_or("?");
        match &*line.event {
            "decision_asked" => {
                c.asked_model(provider, line.model.as_deref().unwrap_or("?"));
                c.row(provider).calls += 1;
                if consumer == HOOK {
                    c.hook.get_or_insert_with(Hook::default).judged += 1;
                }
                self.chart(bucket, 1, 0);
            }
            "decision_answered" => {
                if let Some(model) = &line.model {
                    c.asked_model(provider, model);
                }
                let row = c.row(provider);
                row.answered += 1;
                row.decide_ms.extend(line.elapsed_ms);
                if let (Some(q), Some(band)) = (&line.question, &line.threshold_fired) {
                    *entry(entry(&mut row.bands, q), band) += 1;
                }
            }
            "decision_failed" => {
                let reason = line.reason.as_deref().unwrap_or("?");
                let asked = c.last_model.contains_key(provider) || c.pending.contains_key(provider);
                if provider == "none" || (!asked && matches!(reason, "no_provider" | "auth" | "no_catalog")) {
                    *entry(&mut c.unasked, reason) += 1;
                } else {
                    let row = c.row(provider);
                    row.failed += 1;
                    *entry(&mut row.failures, reason) += 1;
                }
                self.chart(bucket, 0, 1);
            }
            "decision_retry" => {
                let row = c.row(provider);
                row.retries += 1;
                row.too_many += u64::from(line.status == Some(429));
            }
            "decision_denied" => {
                let hook = c.hook.get_or_insert_with(Hook::default);
                hook.denied += 1;
                let command = line.command.as_deref().unwrap_or("").to_string();
                hook.last_denials.push_back(Denial {
                    ts: line.ts.to_string(),
                    command,
                    score: line.score.unwrap_or(0.0),
                });
                if hook.last_denials.len() > 5 {
                    hook.last_denials.pop_front();
                }
            }
            "decision_skipped" => {
                let reason = line.reason.as_deref().map_or("?".to_string(), skip_reason);
                *c.hook.get_or_insert_with(Hook::default).skipped.entry(reason).or_default() += 1;
            }
            "decision_timeout" => {
                let reason = fallback_reason(line.reason.as_deref().unwrap_or("?"), line.cause.as_deref());
                let hook = c.hook.get_or_insert_with(Hook::default);
                hook.timeouts += u64::from(reason == "timeout");
                hook.outages += u64::from(reason == "unreachable");
                *hook.fell_back.entry(reason).or_default() += 1;
            }
            "run_finished" => {
                let runs = c.runs.get_or_insert_with(Runs::default);
                runs.runs += 1;
                runs.items += line.items.unwrap_or(0);
                runs.answered += line.answered.unwrap_or(0);
                runs.stopped += u64::from(line.interrupted == Some(true) || line.stopped.is_some());
            }
            _ => {}
        }
    }

    fn chart(&mut self, bucket: &str, calls: u64, failed: u64) {
        match self.series.last_mut() {
            Some((b, c, f)) if b == bucket => {
                *c += calls;
                *f += failed;
            }
            _ => {
                // Lines are in time order within a file; a bucket seen before is found again.
                match self.series.iter_mut().rev().find(|(b, _, _)| b == bucket) {
                    Some((_, c, f)) => {
                        *c += calls;
                        *f += failed;
                    }
                    None => self.series.push((bucket.to_string(), calls, failed)),
                }
            }
        }
    }

    /// Add what a later part of the log holds.
    pub fn merge(&mut self, later: Meters) {
        self.lines += later.lines;
        self.skipped += later.skipped;
        for (name, period) in later.periods {
            let mine = self.periods.entry(name).or_default();
            for (consumer, c) in period.consumers {
                mine.consumers.entry(consumer).or_default().merge(c);
            }
        }
        for (b, calls, failed) in later.series {
            self.chart(&b, calls, failed);
        }
        self.series.sort_by(|a, b| a.0.cmp(&b.0));
    }

    fn add_outcomes(&mut self, tally: &Tally) {
        for ((period, consumer), (known, correct)) in tally {
            // Only where the consumer left meters: the ledger alone is `ledger report`'s.
            let Some(c) = self.periods.get_mut(period).and_then(|p| p.consumers.get_mut(consumer)) else { continue };
            let o = c.outcomes.get_or_insert_with(Outcomes::default);
            o.known += known;
            o.correct += correct;
        }
    }

    /// Compute the derived figures and leave out what never asked.
    fn finish(&mut self) {
        self.stood_aside = self.stood_aside_by_reason();
        for c in self.periods.values().flat_map(|p| p.consumers.values()) {
            for (r, n) in &c.unasked {
                *self.unasked.entry(r.clone()).or_default() += n;
            }
        }
        for period in self.periods.values_mut() {
            for c in period.consumers.values_mut() {
                let pending = std::mem::take(&mut c.pending);
                for (provider, stats) in pending {
                    let key = c.key(&provider);
                    c.providers.entry(key).or_default().add(stats);
                }
                c.providers.retain(|_, p| p.calls > 0);
                for p in c.providers.values_mut() {
                    p.derive();
                }
                if let Some(o) = &mut c.outcomes {
                    o.share_correct = (o.known > 0).then(|| o.correct as f64 / o.known as f64);
                }
            }
            period.consumers.retain(|_, c| !c.providers.is_empty());
        }
        self.periods.retain(|_, p| !p.consumers.is_empty());
    }

    /// The last `n` hours of the chart, up to the newest hour with a line, hours without
    /// lines as zeros.
    pub fn hourly(&self, n: usize) -> Vec<(String, u64, u64)> {
        let parse = |b: &str| jiff::civil::DateTime::strptime("%Y-%m-%dT%H:%M", format!("{b}:00")).ok();
        let Some(last) = self.series.last().and_then(|(b, _, _)| parse(b)) else { return Vec::new() };
        let by: BTreeMap<&str, (u64, u64)> = self.series.iter().map(|(b, c, f)| (b.as_str(), (*c, *f))).collect();
        let first = self.series.first().and_then(|(b, _, _)| parse(b)).unwrap_or(last);
        let mut out = Vec::new();
        let mut at = last;
        while out.len() < n && at >= first {
            let key = at.strftime("%Y-%m-%dT%H").to_string();
            let (c, f) = by.get(key.as_str()).copied().unwrap_or((0, 0));
            out.push((key, c, f));
            match at.checked_sub(jiff::SignedDuration::from_hours(1)) {
                Ok(prev) => at = prev,
                Err(_) => break,
            }
        }
        out.reverse();
        out
    }

    /// Whether any provider was asked at all.
    pub fn asked(&self) -> bool {
        self.periods.values().flat_map(|p| p.consumers.values()).any(|c| !c.providers.is_empty())
    }

    fn stood_aside_by_reason(&self) -> BTreeMap<String, u64> {
        let mut out = BTreeMap::new();
        for c in self.periods.values().filter_map(|p| p.consumers.get(HOOK)) {
            for (r, n) in c.hook.iter().flat_map(|h| h.skipped.iter()) {
                *out.entry(r.clone()).or_default() += n;
            }
        }
        out
    }
}

impl Consumer {
    /// The row of a provider: keyed by the model last asked of it. An event before any ask
    /// in this part of the log waits for the merge to learn its model.
    fn row(&mut self, provider: &str) -> &mut Provider {
        match self.last_model.get(provider) {
            Some(key) => entry(&mut self.providers, key),
            None => entry(&mut self.pending, provider),
        }
    }

    /// A provider was asked for `model`: its later events are that row's.
    fn asked_model(&mut self, provider: &str, model: &str) {
        let key_is = |k: &String| k.len() == provider.len() + 1 + model.len() && k.ends_with(model);
        if !self.last_model.get(provider).is_some_and(key_is) {
            self.last_model.insert(provider.to_string(), format!("{provider} {model}"));
        }
    }

    fn key(&self, provider: &str) -> String {
        self.last_model.get(provider).cloned().unwrap_or_else(|| format!("{provider} ?"))
    }

    fn merge(&mut self, later: Consumer) {
        for (provider, stats) in later.pending {
            if self.last_model.contains_key(&provider) {
                let key = self.key(&provider);
                self.providers.entry(key).or_default().add(stats);
            } else {
                self.pending.entry(provider).or_default().add(stats);
            }
        }
        for (key, stats) in later.providers {
            self.providers.entry(key).or_default().add(stats);
        }
        self.last_model.extend(later.last_model);
        if let Some(h) = later.hook {
            let mine = self.hook.get_or_insert_with(Hook::default);
            mine.judged += h.judged;
            mine.denied += h.denied;
            mine.timeouts += h.timeouts;
            mine.outages += h.outages;
            for (r, n) in h.fell_back {
                *mine.fell_back.entry(r).or_default() += n;
            }
            for (r, n) in h.skipped {
                *mine.skipped.entry(r).or_default() += n;
            }
            mine.last_denials.extend(h.last_denials);
            while mine.last_denials.len() > 5 {
                mine.last_denials.pop_front();
            }
        }
        if let Some(r) = later.runs {
            let mine = self.runs.get_or_insert_with(Runs::default);
            mine.runs += r.runs;
            mine.items += r.items;
            mine.answered += r.answered;
            mine.stopped += r.stopped;
        }
        for (r, n) in later.unasked {
            *self.unasked.entry(r).or_default() += n;
        }
    }
}

impl Provider {
    fn add(&mut self, o: Provider) {
        self.calls += o.calls;
        self.answered += o.answered;
        self.failed += o.failed;
        self.decide_ms.extend(o.decide_ms);
        for (r, n) in o.failures {
            *self.failures.entry(r).or_default() += n;
        }
        self.retries += o.retries;
        self.too_many += o.too_many;
        for (q, bands) in o.bands {
            let mine = self.bands.entry(q).or_default();
            for (b, n) in bands {
                *mine.entry(b).or_default() += n;
            }
        }
    }

    fn derive(&mut self) {
        self.decide_ms.sort_unstable();
        let at = |p: f64| -> Option<u64> {
            let n = self.decide_ms.len();
            (n > 0).then(|| self.decide_ms[((p * n as f64).ceil() as usize).clamp(1, n) - 1])
        };
        (self.decide_ms_p50, self.decide_ms_p95, self.decide_ms_max) =
            (at(0.5), at(0.95), self.decide_ms.last().copied());
        let outcomes = self.answered + self.failed;
        self.fallback = (outcomes > 0).then(|| self.failed as f64 / outcomes as f64);
    }
}

/// A map's value for `key`, made when missing: no key is allocated for a line whose key is
/// already there (most lines).
fn entry<'m, V: Default>(map: &'m mut BTreeMap<String, V>, key: &str) -> &'m mut V {
    if !map.contains_key(key) {
        map.insert(key.to_owned(), V::default());
    }
    map.get_mut(key).expect("the key was just inserted")
}

/// Why the hook fell back, as a meter counts it: the band an answer fell in (`floor band`),
/// `timeout` for a failure or a budget that ran out in time, `unreachable` for a provider that
/// could not be reached, else the failure's reason. The event's `cause` says which; a line
/// written before it did is read by its reason.
fn fallback_reason(reason: &str, cause: Option<&str>) -> String {
    match cause {
        Some("timeout") => return "timeout".into(),
        Some("unreachable") => return "unreachable".into(),
        Some("failed") => return skip_reason(reason),
        _ => {}
    }
    if reason.starts_with(&format!("transport: {}", crate::transport::NO_RESPONSE)) {
        return "unreachable".into();
    }
    if let Some((_, rest)) = reason.split_once("fell in the ")
        && let Some(band) = rest.strip_suffix(" band")
    {
        return format!("{band} band");
    }
    if reason.starts_with("no decision within") {
        return "timeout".into();
    }
    skip_reason(reason)
}

/// A skip reason as a meter counts it: the words before any quoted input.
fn skip_reason(reason: &str) -> String {
    let cut = reason.find([':', '(', '"']).unwrap_or(reason.len());
    reason[..cut].trim().to_string()
}

/// `1h`, `24h`, `7d`, `30m` as a timestamp that far back from now; a date or timestamp as it
/// is. None for anything else.
pub fn since(arg: &str) -> Option<String> {
    let arg = arg.trim();
    let (n, unit) = arg.split_at(arg.find(|c: char| !c.is_ascii_digit()).unwrap_or(arg.len()));
    let secs = match (n.parse::<i64>().ok(), unit) {
        (Some(n), "m" | "min") => Some(n * 60),
        (Some(n), "h") => Some(n * 3600),
        (Some(n), "d") => Some(n * 86_400),
        _ => None,
    };
    if let Some(secs) = secs {
        let at = jiff::Timestamp::now().checked_sub(jiff::SignedDuration::from_secs(secs)).ok()?;
        return Some(at.strftime("%Y-%m-%dT%H:%M:%SZ").to_string());
    }
    let is_date = arg.len() >= 10
        && arg.as_bytes()[4] == b'-'
        && arg.as_bytes()[7] == b'-'
        && arg[..4].bytes().chain(arg[5..7].bytes()).chain(arg[8..10].bytes()).all(|b| b.is_ascii_digit());
    is_date.then(|| arg.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(ts: &str) -> String {
        format!(
            "{{\"ts\":\"{ts}\",\"consumer\":\"route\",\"event\":\"decision_asked\",\"provider\":\"jev\",\"model\":\"m\",\"questions\":[\"effort\"],\"source\":\"config\"}}\n"
        )
    }

    fn calls(reader: &mut Reader) -> u64 {
        let m = reader.meters();
        m.periods.get("all").and_then(|p| p.consumers.get("route")).map_or(0, |c| c.providers["jev m"].calls)
    }

    fn append(path: &Path, text: &str) {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path).expect("open");
        f.write_all(text.as_bytes()).expect("write");
    }

    #[test]
    fn the_reader_follows_the_log_across_appends_a_torn_tail_rotation_and_truncation() {
        let dir = tempfile::tempdir().expect("tmp");
        let leo = dir.path();
        let log = crate::event::log_path(leo);
        append(&log, &asked("2026-11-30T09:00:00Z"));
        let mut reader = Reader::new(leo, Filter::default());
        assert!(reader.refresh().expect("read"));
        assert_eq!(calls(&mut reader), 1);
        assert!(!reader.refresh().expect("read"), "nothing new: nothing to redraw");
        // A line still being written is read once it is whole.
        let line = asked("2026-11-30T09:01:00Z");
        let (head, tail) = line.split_at(40);
        append(&log, head);
        assert!(!reader.refresh().expect("read"));
        assert_eq!(calls(&mut reader), 1);
        append(&log, tail);
        assert!(reader.refresh().expect("read"));
        assert_eq!(calls(&mut reader), 2);
        // Rotation: the log becomes events.1.jsonl and a new one starts.
        std::fs::rename(&log, leo.join("events.1.jsonl")).expect("rotate");
        append(&log, &asked("2026-11-30T09:02:00Z"));
        assert!(reader.refresh().expect("read"));
        assert_eq!(calls(&mut reader), 3, "the rotated file and the new one");
        // Truncation: the log is emptied and written again, shorter.
        std::fs::write(&log, "").expect("truncate");
        assert!(reader.refresh().expect("read"));
        assert_eq!(calls(&mut reader), 2, "only what is left");
        append(&log, &asked("2026-11-30T09:03:00Z"));
        assert!(reader.refresh().expect("read"));
        assert_eq!(calls(&mut reader), 3);
    }

    #[test]
    fn an_outcome_recorded_while_watching_is_joined_at_the_next_look() {
        let dir = tempfile::tempdir().expect("tmp");
        let leo = dir.path();
        append(&crate::event::log_path(leo), &asked("2026-11-30T09:00:00Z").replace("\"route\"", "\"routing\""));
        let ledger = crate::ledger::ledger_path(leo);
        std::fs::create_dir_all(ledger.parent().expect("a parent")).expect("mkdir");
        append(
            &ledger,
            "{\"kind\":\"decision\",\"id\":\"r1\",\"ts\":\"2026-11-30T09:00:00Z\",\"consumer\":\"routing\",\"question\":\"effort\",\"provider\":\"jev\",\"model\":\"m\",\"confidence\":0.9,\"certainty\":0.9,\"band\":\"act\",\"acted\":true,\"v\":\"1.0\"}\n",
        );
        let mut reader = Reader::new(leo, Filter::default());
        reader.refresh().expect("read");
        let known = |m: &Meters| m.periods["all"].consumers["routing"].outcomes.as_ref().map(|o| (o.known, o.correct));
        assert_eq!(known(&reader.meters()), None, "no outcome yet");
        append(
            &ledger,
            "{\"kind\":\"outcome\",\"id\":\"r1\",\"ts\":\"2026-11-30T10:00:00Z\",\"correct\":true,\"v\":\"1.0\"}\n",
        );
        assert_eq!(known(&reader.meters()), Some((1, 1)), "the ledger changed: read again");
    }
}
