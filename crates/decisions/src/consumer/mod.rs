//! Consumers: the code that asks the seam a question whose answer changes what a run does.
//!
//! A consumer owns one catalog (the questions it asks and the bars it acts on), asks only
//! through the seam ([`crate::ask`], or a [`crate::Prepared`] one), keeps the deterministic path
//! it had before any model existed (that path is its fallback, and what it returns whenever the
//! answer is not usable), and records what it decided in the calibration ledger, returning the
//! row ids so whoever learns the outcome can record it against them. One file a consumer:
//! `permission` (the agent hook's semantic axis), `routing` (plan items), `review` (a review
//! panel's findings), `triage` (an issue queue, on the batch engine).

pub mod permission;
pub mod review;
pub mod routing;
pub mod triage;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::ask::Decision;
use crate::band::Band;
use crate::file::write_within;
use crate::ledger::{DecisionRow, Row, RowId, append_rows, ledger_path};
use crate::project::{PROJECT_ENV, leo_dir_for};

/// Time past a decision's deadline for recording its rows.
pub const RECORD_GRACE: Duration = Duration::from_millis(250);
/// How long a write that began just before the grace ran out is waited for.
const SETTLE: Duration = Duration::from_millis(50);

/// A calibration-ledger row a consumer wrote: record the outcome against its id. Every
/// command's JSON says `"recorded": [{"question", "id"}]`, one a row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Recorded {
    /// The question the row is about.
    pub question: String,
    /// The row's id, for `decisions ledger outcome --id`.
    pub id: RowId,
}

/// Records each item's decision rows for one consumer (the run engine's items, one after
/// another), and keeps what failed for the caller to say once.
#[derive(Debug)]
pub struct Recorder {
    consumer: String,
    leo: PathBuf,
    /// Items whose rows were not written.
    pub missed: u64,
    /// Why the first of them was not.
    pub first_error: Option<String>,
}

/// A recorder with no project to record in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoLedger {
    /// No `.leopold` was found or named.
    #[error("no .leopold directory found for the calibration ledger")]
    NoProject,
    /// The one named is not a directory.
    #[error("{} is not a directory", .0.display())]
    NotADirectory(PathBuf),
}

impl Recorder {
    /// A recorder for `consumer` into `leo` (the project's `.leopold`).
    pub fn new(consumer: &str, leo: Option<PathBuf>) -> Result<Recorder, NoLedger> {
        let leo = leo.ok_or(NoLedger::NoProject)?;
        if !leo.is_dir() {
            return Err(NoLedger::NotADirectory(leo));
        }
        Ok(Recorder { consumer: consumer.to_string(), leo, missed: 0, first_error: None })
    }

    /// Record one decision's rows (one per answered question); their ids.
    pub fn record(&mut self, decision: &Decision<()>) -> Vec<Recorded> {
        let (recorded, error) = record(Some(&self.leo), rows_of(&self.consumer, decision), decision.deadline);
        if let Some(e) = error {
            self.missed += 1;
            self.first_error.get_or_insert(e);
        }
        recorded
    }
}

/// A decision's rows for `consumer`: one per answered question, with its band, acted when the
/// decision was usable.
pub fn rows_of<T>(consumer: &str, decision: &Decision<T>) -> Vec<DecisionRow> {
    decision
        .answers
        .iter()
        .filter_map(|(q, r)| {
            let band = decision.band(q).unwrap_or(Band::Floor);
            Some(DecisionRow::for_answer(consumer, q, r.as_ref().ok()?, band, decision.usable))
        })
        .collect()
}

/// Append a consumer's decision rows in one write, by `deadline` plus [`RECORD_GRACE`],
/// under the project's `.leopold` (`leo_dir`, else the nearest above the working directory).
/// A ledger that cannot be written is reported, never raised: it never changes a verdict.
pub fn record(leo_dir: Option<&Path>, rows: Vec<DecisionRow>, deadline: Instant) -> (Vec<Recorded>, Option<String>) {
    if rows.is_empty() {
        return (Vec::new(), None);
    }
    let leo = leo_dir.map(Path::to_path_buf).or_else(|| {
        let named = std::env::var(PROJECT_ENV).ok();
        leo_dir_for(named.as_deref(), std::env::current_dir().ok().as_deref())
    });
    let Some(leo) = leo else {
        return (Vec::new(), Some("no .leopold directory found for the calibration ledger".into()));
    };
    let recorded: Vec<Recorded> =
        rows.iter().map(|r| Recorded { question: r.question.clone(), id: RowId(r.id.clone()) }).collect();
    let rows: Vec<Row> = rows.into_iter().map(Row::Decision).collect();
    let path = ledger_path(&leo);
    let by = deadline + RECORD_GRACE - SETTLE;
    let target = path.clone();
    match write_within(by, SETTLE, move |gate| append_rows(&target, &rows, by, gate).map_err(|e| e.source)) {
        Ok(()) => (recorded, None),
        Err(e) => (Vec::new(), Some(format!("{}: {e}", path.display()))),
    }
}
