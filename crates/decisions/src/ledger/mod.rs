//! The calibration ledger: what the model decided, what happened next, and which bars the
//! evidence supports.
//!
//! `<leo-dir>/decisions/ledger.jsonl`, append-only, two kinds of row joined by `id`:
//! `{"kind":"decision","id","ts","consumer","question","provider","model","confidence","certainty","band","acted","v"}`
//! and `{"kind":"outcome","id","ts","correct":true|false|null,"note"?,"v"}`. An outcome never
//! rewrites its decision; when several outcomes name one decision, the latest counts. `"v"` is
//! the row's format ([`FORMAT`]; a row without one is 1.0): rows of a newer minor are read, their
//! unknown fields ignored; a newer major is skipped; no row is appended after a newer one.

mod propose;
mod report;

use std::borrow::Cow;
use std::collections::BTreeMap;

use std::hash::BuildHasher;

use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

use crate::answer::{Answer, certainty_of};
use crate::band::Band;
use crate::jsonl::{self, Format, Versioning};

/// The format this build writes and reads.
pub const FORMAT: Format = Format { major: 1, minor: 0 };

pub use propose::{MIN_SAMPLE, Proposal, ProposalStatus, display_bar, propose_file, propose_thresholds};
pub use report::{Bin, CalibrationReport, calibration_report, reliability_svg, report_file};

/// One ledger row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Row {
    /// What the model decided.
    Decision(DecisionRow),
    /// What happened next.
    Outcome(OutcomeRow),
}

/// A decision a consumer recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DecisionRow {
    /// Joins the decision to its outcomes.
    pub id: String,
    /// When it was recorded (UTC, RFC 3339).
    pub ts: String,
    /// Who asked: `routing`, `permission`, ...
    pub consumer: String,
    /// The question id.
    pub question: String,
    /// The provider that answered.
    pub provider: String,
    /// The model that answered.
    pub model: String,
    /// The answer's confidence (none for a noul).
    pub confidence: Option<f64>,
    /// The gating scalar the band was drawn from.
    pub certainty: Option<f64>,
    /// The band that fired.
    pub band: Band,
    /// Whether the consumer acted on the answer.
    pub acted: bool,
}

impl DecisionRow {
    /// A decision row with a fresh id, stamped now: the one place a row is made.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        consumer: &str,
        question: &str,
        provider: &str,
        model: &str,
        confidence: Option<f64>,
        certainty: Option<f64>,
        band: Band,
        acted: bool,
    ) -> DecisionRow {
        DecisionRow {
            id: new_id(),
            ts: now_ts(),
            consumer: consumer.to_string(),
            question: question.to_string(),
            provider: provider.to_string(),
            model: model.to_string(),
            confidence,
            certainty,
            band,
            acted,
        }
    }

    /// The row for a consumer's answer to one question: who answered, its confidence, and the
    /// certainty its band was drawn from.
    pub fn for_answer(consumer: &str, question: &str, answer: &Answer, band: Band, acted: bool) -> DecisionRow {
        let certainty = certainty_of(answer);
        DecisionRow::new(consumer, question, &answer.provider, &answer.model, answer.confidence, certainty, band, acted)
    }
}

impl OutcomeRow {
    /// The outcome of decision `id`, stamped now.
    pub fn new(id: &str, correct: Option<bool>, note: Option<String>) -> OutcomeRow {
        OutcomeRow { id: id.to_string(), ts: now_ts(), correct, note }
    }
}

impl Row {
    /// The id that joins a decision to its outcomes.
    pub fn id(&self) -> &str {
        match self {
            Row::Decision(d) => &d.id,
            Row::Outcome(o) => &o.id,
        }
    }
}

/// The outcome of a decision, arriving turns after it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutcomeRow {
    /// The decision's id.
    pub id: String,
    /// When it was recorded.
    pub ts: String,
    /// Whether the decision was right; `None` when it cannot be known.
    pub correct: Option<bool>,
    /// What a person said about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Rows read from a ledger and how many lines were skipped.
pub type LedgerRead = jsonl::Records<Row>;

/// Why the ledger could not be read or written.
#[derive(Debug, thiserror::Error)]
#[error("ledger {path}: {source}")]
pub struct LedgerError {
    /// The ledger file.
    pub path: PathBuf,
    /// What went wrong.
    #[source]
    pub source: std::io::Error,
}

/// The calibration ledger of a leo dir.
pub fn ledger_path(leo_dir: &Path) -> PathBuf {
    leo_dir.join("decisions").join("ledger.jsonl")
}

/// Append one row: one complete line, under an advisory lock. The file is created here and
/// nowhere else.
pub fn append_row(path: &Path, row: &Row) -> Result<(), LedgerError> {
    jsonl::append_line(path, row, Versioning::Stated(FORMAT))
        .map_err(|source| LedgerError { path: path.to_path_buf(), source })
}

/// Append rows in one write, by `deadline`, through `gate` (see [`crate::file::write_within`]):
/// all land or none does.
pub fn append_rows(
    path: &Path,
    rows: &[Row],
    deadline: std::time::Instant,
    gate: &crate::file::Gate,
) -> Result<(), LedgerError> {
    jsonl::append_lines(path, rows, Versioning::Stated(FORMAT), deadline, gate)
        .map_err(|source| LedgerError { path: path.to_path_buf(), source })
}

/// Read every row; torn and unparsable lines are skipped and counted. A missing file is empty.
pub fn read_ledger(path: &Path) -> Result<LedgerRead, LedgerError> {
    jsonl::read(path, FORMAT).map_err(|source| LedgerError { path: path.to_path_buf(), source })
}

/// Why an outcome was not recorded.
#[derive(Debug, thiserror::Error)]
pub enum OutcomeError {
    /// No decision row has this id: an outcome for it would join nothing.
    #[error("no decision with id \"{id}\" in {}", path.display())]
    UnknownId {
        /// The id asked for.
        id: String,
        /// The ledger searched.
        path: PathBuf,
    },
    /// The ledger could not be read or written.
    #[error(transparent)]
    Ledger(#[from] LedgerError),
}

/// Append the outcome of a recorded decision: refused, with nothing written, when the ledger
/// holds no decision with that id. Returns the decision it settled.
pub fn record_outcome(
    path: &Path,
    id: &str,
    correct: Option<bool>,
    note: Option<String>,
) -> Result<DecisionRow, OutcomeError> {
    let Some(decision) = find_decision(path, id)? else {
        return Err(OutcomeError::UnknownId { id: id.to_string(), path: path.to_path_buf() });
    };
    append_row(path, &Row::Outcome(OutcomeRow::new(id, correct, note)))?;
    Ok(decision)
}

/// Whether the ledger holds a decision row with this id.
pub fn has_decision(path: &Path, id: &str) -> Result<bool, LedgerError> {
    Ok(find_decision(path, id)?.is_some())
}

/// The decision row with this id, if the ledger holds one. The file is read on every core, and
/// only the lines that contain the id are parsed.
pub fn find_decision(path: &Path, id: &str) -> Result<Option<DecisionRow>, LedgerError> {
    let bytes = jsonl::read_bytes(path)
        .map(Option::unwrap_or_default)
        .map_err(|source| LedgerError { path: path.to_path_buf(), source })?;
    // An id with escapes in its JSON form is looked for in every line.
    let quoted = serde_json::to_string(id).unwrap_or_default();
    let needle = memchr::memmem::Finder::new(if quoted.contains('\\') { "" } else { id });
    let found = jsonl::par_lines(&bytes, |chunk| {
        jsonl::lines(chunk).filter(|line| needle.find(line).is_some()).find_map(|line| {
            match serde_json::from_slice::<Row>(line) {
                Ok(Row::Decision(d)) if d.id == id => Some(d),
                _ => None,
            }
        })
    });
    Ok(found.into_iter().flatten().next())
}

/// How many rows the ledger holds and how many lines were skipped. A missing file is empty.
pub fn count_rows(path: &Path) -> Result<(usize, usize), LedgerError> {
    with_file(path, |chunks| chunks.iter().map(Vec::len).sum())
}

/// A row's id, as a consumer returns it for whoever learns the outcome.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RowId(pub String);

impl std::fmt::Display for RowId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A fresh row id.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Now, in UTC, to the second: `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now_ts() -> String {
    jiff::Timestamp::now().strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// What proposals and reports read of a row, borrowed from the ledger's bytes where it can be.
enum Entry<'a> {
    Decision {
        id: Cow<'a, str>,
        ts: Cow<'a, str>,
        consumer: Cow<'a, str>,
        provider: Cow<'a, str>,
        question: Cow<'a, str>,
        certainty: Option<f64>,
    },
    Outcome {
        id: Cow<'a, str>,
        correct: Option<bool>,
    },
}

impl<'a> From<&'a Row> for Entry<'a> {
    fn from(row: &'a Row) -> Self {
        match row {
            Row::Decision(d) => Entry::Decision {
                id: Cow::Borrowed(&d.id),
                ts: Cow::Borrowed(&d.ts),
                consumer: Cow::Borrowed(&d.consumer),
                provider: Cow::Borrowed(&d.provider),
                question: Cow::Borrowed(&d.question),
                certainty: d.certainty,
            },
            Row::Outcome(o) => Entry::Outcome { id: Cow::Borrowed(&o.id), correct: o.correct },
        }
    }
}

/// A row as it sits in the file: the fields read are borrowed, the rest only checked present,
/// so a line parses here exactly when it parses as a [`Row`].
#[derive(Deserialize)]
struct Line<'a> {
    #[serde(borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(borrow)]
    ts: Cow<'a, str>,
    // Not `Option<Cow>`: serde borrows only a bare `Cow<str>`. Missing reads as empty.
    #[serde(borrow, default)]
    provider: Cow<'a, str>,
    #[serde(borrow, default)]
    question: Cow<'a, str>,
    // Borrowed, and told apart from an empty one when missing.
    #[serde(borrow, default = "absent")]
    consumer: Cow<'a, str>,
    model: Option<IgnoredAny>,
    #[serde(default)]
    certainty: Option<f64>,
    band: Option<Band>,
    acted: Option<bool>,
    #[serde(default)]
    correct: Option<bool>,
    #[serde(borrow, default)]
    v: Option<Cow<'a, str>>,
}

impl<'a> Line<'a> {
    fn entry(self) -> Option<Entry<'a>> {
        if !FORMAT.reads(self.v.as_deref()) {
            return None;
        }
        match &*self.kind {
            "decision" => {
                let complete =
                    self.consumer != ABSENT && self.model.is_some() && self.band.is_some() && self.acted.is_some();
                complete.then_some(())?;
                Some(Entry::Decision {
                    id: self.id,
                    ts: self.ts,
                    consumer: self.consumer,
                    provider: self.provider,
                    question: self.question,
                    certainty: self.certainty,
                })
            }
            "outcome" => Some(Entry::Outcome { id: self.id, correct: self.correct }),
            _ => None,
        }
    }
}

/// What a missing `consumer` reads as: no consumer is named so.
const ABSENT: &str = "\u{0}absent";

fn absent() -> Cow<'static, str> {
    Cow::Borrowed(ABSENT)
}

/// Every decision with a known outcome (its latest), in file order, as `(ts, consumer,
/// correct)`: read on every core through the ledger's fast reader, not its full typed parse.
/// A missing file holds none.
pub fn known_outcomes(path: &Path, mut f: impl FnMut(&str, &str, bool)) -> Result<usize, LedgerError> {
    let (_, skipped) = with_file(path, |chunks| {
        let mut latest: FxHashMap<&str, Option<bool>> = FxHashMap::default();
        for e in chunks.iter().flatten() {
            if let Entry::Outcome { id, correct } = e {
                latest.insert(id, *correct);
            }
        }
        for e in chunks.iter().flatten() {
            if let Entry::Decision { id, ts, consumer, .. } = e
                && let Some(Some(correct)) = latest.get(&**id)
            {
                f(ts, consumer, *correct);
            }
        }
    })?;
    Ok(skipped)
}

/// Parse a ledger's bytes on every core: the entries in file order (one list per chunk, left
/// unjoined to spare a copy), and the lines skipped.
fn scan(bytes: &[u8]) -> (Vec<Vec<Entry<'_>>>, usize) {
    let parts = jsonl::par_lines(bytes, |chunk| {
        let mut entries = Vec::new();
        let mut skipped = 0;
        for line in jsonl::lines(chunk) {
            match serde_json::from_slice::<Line>(line).ok().and_then(Line::entry) {
                Some(e) => entries.push(e),
                None => skipped += 1,
            }
        }
        (entries, skipped)
    });
    let skipped = parts.iter().map(|(_, s)| s).sum();
    (parts.into_iter().map(|(e, _)| e).collect(), skipped)
}

/// Read a ledger file on every core and hand its entries to `f`; also returns how many lines
/// were skipped. A missing file is empty.
fn with_file<T>(path: &Path, f: impl FnOnce(&[Vec<Entry>]) -> T) -> Result<(T, usize), LedgerError> {
    let bytes = jsonl::read_bytes(path)
        .map(Option::unwrap_or_default)
        .map_err(|source| LedgerError { path: path.to_path_buf(), source })?;
    let (entries, skipped) = scan(&bytes);
    Ok((f(&entries), skipped))
}

/// Certainty and correctness of every decision with a known outcome (the latest outcome
/// counts), grouped by provider and question. Groups with no known outcome are kept, empty.
///
/// The join runs on every core: worker `w` of `n` owns the ids whose hash is `w` mod `n`, and
/// walks the entries in file order, so the latest outcome still wins.
fn samples<'a>(chunks: &'a [Vec<Entry<'a>>]) -> BTreeMap<(&'a str, &'a str), Vec<(f64, bool)>> {
    let entries = || chunks.iter().flatten();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8);
    let workers = if entries().count() < 100_000 { 1 } else { workers };
    let owns = |id: &str, w: usize| workers == 1 || (rustc_hash::FxBuildHasher.hash_one(id) as usize) % workers == w;
    let join = |w: usize| {
        let mut outcomes: FxHashMap<&str, Option<bool>> = FxHashMap::default();
        for e in entries() {
            if let Entry::Outcome { id, correct } = e
                && owns(id, w)
            {
                outcomes.insert(id, *correct);
            }
        }
        let mut groups: FxHashMap<(&str, &str), Vec<(f64, bool)>> = FxHashMap::default();
        for e in entries() {
            let Entry::Decision { id, provider, question, certainty, .. } = e else { continue };
            if !owns(id, w) {
                continue;
            }
            let group = groups.entry((&**provider, &**question)).or_default();
            if let (Some(c), Some(Some(ok))) = (certainty.filter(|c| c.is_finite()), outcomes.get(&**id)) {
                group.push((c, *ok));
            }
        }
        groups
    };
    let parts: Vec<_> = if workers == 1 {
        vec![join(0)]
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..workers).map(|w| s.spawn(move || join(w))).collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
        })
    };
    let mut merged: BTreeMap<(&str, &str), Vec<(f64, bool)>> = BTreeMap::new();
    for part in parts {
        for (key, mut samples) in part {
            merged.entry(key).or_default().append(&mut samples);
        }
    }
    merged
}
