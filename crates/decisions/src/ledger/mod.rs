//! The calibration ledger: what the model decided, what happened next, and which bars the
//! evidence supports.
//!
//! `<leo-dir>/decisions/ledger.jsonl`, append-only, two kinds of row joined by `id`:
//! `{"kind":"decision","id","ts","consumer","question","provider","model","confidence","certainty","band","acted"}`
//! and `{"kind":"outcome","id","ts","correct":true|false|null,"note"?}`. An outcome never rewrites
//! its decision; when several outcomes name one decision, the latest counts.

mod propose;
mod report;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::band::Band;
use crate::jsonl;

pub use propose::{MIN_SAMPLE, Proposal, ProposalStatus, display_bar, propose_thresholds};
pub use report::{Bin, CalibrationReport, calibration_report, reliability_svg};

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
    jsonl::append_line(path, row).map_err(|source| LedgerError { path: path.to_path_buf(), source })
}

/// Read every row; torn and unparsable lines are skipped and counted. A missing file is empty.
pub fn read_ledger(path: &Path) -> Result<LedgerRead, LedgerError> {
    jsonl::read(path).map_err(|source| LedgerError { path: path.to_path_buf(), source })
}

/// A fresh row id.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Now, in UTC, to the second: `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now_ts() -> String {
    jiff::Timestamp::now().strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}
