//! Review refinement: a panel of reviewers (lenses) each returns findings; the deterministic
//! path parses each review ([`parse_review`], failing closed) and unions them, deduplicating
//! on file and issue ([`union_reviews`]). [`refine_reviews`] then asks, through the shipped
//! `review.json`, whether two findings are one defect (`same_defect`) and whether a finding is
//! a defect at all (`is_defect`). It fails closed both ways: merging and demoting each need a
//! confident answer in the act band; anything else leaves the panel's blocking set as it was.
//! Merges are transitive (findings join groups, each keeping its earliest wording), nothing the
//! model removed vanishes (the result lists `merged` and `demoted`), and the finding that says
//! a reviewer returned nothing parseable is never merged or demoted.

use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{Recorded, record};
use crate::answer::{Answer, AnswerValue};
use crate::ask::{CatalogRef, Prepared, Request, prepare};
use crate::band::Band;
use crate::event::Event;
use crate::ledger::DecisionRow;

/// The catalog review refinement asks from.
pub const CATALOG: &str = "review";
/// Whether two findings are one defect.
pub const SAME_DEFECT: &str = "same_defect";
/// Whether a finding is a defect rather than a preference.
pub const IS_DEFECT: &str = "is_defect";
/// The consumer's name in the calibration ledger.
pub const CONSUMER: &str = "review";
/// Above this many pairs, merging is skipped and the result says so.
pub const MAX_PAIRS: usize = 300;
/// Requests in flight at once.
pub const CONCURRENCY: usize = 8;
/// A summary's length, in characters.
pub const SUMMARY_MAX: usize = 300;
/// The issue of the finding that stands for a review nobody could read: fail closed.
pub const UNPARSEABLE: &str = "reviewer returned no parseable verdict";

/// A reviewer's angle on an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lens {
    /// Does it do what it says, correctly.
    Correctness,
    /// Can it be abused.
    Security,
    /// Does it actually run, end to end.
    DoesItWork,
    /// Does it meet the item's stated scenarios.
    Conformance,
}

/// The panel for an item: correctness always; security when the item is critical or its diff
/// touches something sensitive; does-it-work when critical; conformance when it has scenarios.
pub fn lenses_for(critical: bool, sensitive: bool, has_scenarios: bool) -> Vec<Lens> {
    let mut panel = match (critical, sensitive) {
        (true, _) => vec![Lens::Correctness, Lens::Security, Lens::DoesItWork],
        (false, true) => vec![Lens::Correctness, Lens::Security],
        (false, false) => vec![Lens::Correctness],
    };
    if has_scenarios {
        panel.push(Lens::Conformance);
    }
    panel
}

/// Whether a `git diff --stat` touches something sensitive. No word boundaries, as the earlier
/// build: `src/auth/` and `.env.example` both count.
pub fn diff_is_sensitive(diff_stat: &str) -> bool {
    static SENSITIVE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)(auth|login|session|password|credential|secret|token|oauth|jwt|crypto|encrypt|sign|security|permission|access|rbac|billing|payment|checkout|stripe|\.env)")
            .unwrap_or_else(|e| unreachable!("{e}"))
    });
    SENSITIVE.is_match(diff_stat)
}

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// It gates: the item is not done until it is fixed.
    Blocking,
    /// It does not gate, and is dropped from the result.
    Minor,
}

/// One finding of a review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// The file it is about (`?` when the reviewer named none).
    pub file: String,
    /// What is wrong.
    pub issue: String,
    /// Whether it gates.
    pub severity: Severity,
}

impl Finding {
    /// The finding that says a reviewer returned nothing parseable.
    pub fn unparseable() -> Finding {
        Finding { file: "?".into(), issue: UNPARSEABLE.into(), severity: Severity::Blocking }
    }

    fn is_unparseable(&self) -> bool {
        self.file == "?" && self.issue == UNPARSEABLE
    }
}

/// A review: its blocking findings, and whether there are none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewResult {
    /// No blocking finding.
    pub ok: bool,
    /// The findings that gate.
    pub blocking: Vec<Finding>,
    /// The reviewer's summary, at most [`SUMMARY_MAX`] characters.
    pub summary: String,
}

/// Read a reviewer's raw output: the JSON in a fenced block, else from the first `{` to the
/// last `}`; `{"summary", "findings": [{"file", "issue", "severity"}]}` (an array named
/// `blocking` is read too). Only blocking findings are kept. Anything unreadable fails closed:
/// one blocking finding saying so.
pub fn parse_review(text: &str) -> ReviewResult {
    let fenced = text.split("```").nth(1).map(|block| block.strip_prefix("json").unwrap_or(block));
    let braced = || text.find('{').zip(text.rfind('}')).filter(|(a, b)| a < b).map(|(a, b)| &text[a..=b]);
    let parsed = fenced
        .and_then(|f| serde_json::from_str::<Value>(f.trim()).ok())
        .or_else(|| braced().and_then(|b| serde_json::from_str::<Value>(b).ok()));
    let lists: Vec<&Vec<Value>> = ["findings", "blocking"]
        .iter()
        .filter_map(|k| parsed.as_ref().and_then(|v| v.get(*k)).and_then(Value::as_array))
        .collect();
    let Some(review) = parsed.as_ref().filter(|_| !lists.is_empty()) else {
        return ReviewResult {
            ok: false,
            blocking: vec![Finding::unparseable()],
            summary: "unparseable review".into(),
        };
    };
    let blocking: Vec<Finding> = lists
        .into_iter()
        .flatten()
        .filter_map(|f| {
            let issue = f.get("issue")?.as_str()?.to_string();
            let file = match f.get("file") {
                None | Some(Value::Null) => "?".to_string(),
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
            };
            let severity = if f.get("severity").and_then(Value::as_str) == Some("blocking") {
                Severity::Blocking
            } else {
                Severity::Minor
            };
            Some(Finding { file, issue, severity })
        })
        .filter(|f| f.severity == Severity::Blocking)
        .collect();
    let summary = review.get("summary").and_then(Value::as_str).unwrap_or_default();
    ReviewResult { ok: blocking.is_empty(), blocking, summary: clip_plain(summary) }
}

/// A summary cut to [`SUMMARY_MAX`] characters (no ellipsis, as the earlier build cut it).
fn clip_plain(s: &str) -> String {
    s.chars().take(SUMMARY_MAX).collect()
}

/// The panel's union: every blocking finding once, deduplicated on file and issue (case
/// insensitive), the first occurrence kept in lens order; the summaries joined.
pub fn union_reviews(results: &[ReviewResult]) -> ReviewResult {
    let mut seen = std::collections::HashSet::new();
    let blocking: Vec<Finding> = results
        .iter()
        .flat_map(|r| r.blocking.iter())
        .filter(|f| seen.insert(format!("{}::{}", f.file, f.issue).to_lowercase()))
        .cloned()
        .collect();
    let summaries: Vec<&str> = results.iter().map(|r| r.summary.as_str()).filter(|s| !s.is_empty()).collect();
    ReviewResult { ok: blocking.is_empty(), blocking, summary: clip_plain(&summaries.join(" | ")) }
}

/// A refinement request.
pub struct RefineRequest<'a> {
    /// How to reach the seam: catalog (default `review`), leo dir, config, provider, budget,
    /// environment. Its questions and states are review's own.
    pub seam: Request<'a>,
    /// Above this many pairs, merging is skipped ([`MAX_PAIRS`]).
    pub max_pairs: usize,
    /// Requests in flight at once ([`CONCURRENCY`]).
    pub concurrency: usize,
    /// Whether to append decision rows to the calibration ledger.
    pub record: bool,
}

/// Findings merged into one: the earliest wording kept, the others folded into it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Merge {
    /// The finding that stands for the group.
    pub kept: Finding,
    /// The findings folded into it.
    pub folded: Vec<Finding>,
}

/// A refined panel.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Refined {
    /// No blocking finding left.
    pub ok: bool,
    /// What still gates.
    pub blocking: Vec<Finding>,
    /// The panel's summary, with what refinement did.
    pub summary: String,
    /// Findings merged into one, for a person to audit.
    pub merged: Vec<Merge>,
    /// Findings a confident answer called a preference, for a person to audit.
    pub demoted: Vec<Finding>,
    /// Why merging was skipped, when it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merging_skipped: Option<String>,
    /// The calibration-ledger rows written, one per answered question.
    pub recorded: Vec<Recorded>,
    /// The seam's events, call by call.
    pub events: Vec<Event>,
    /// Why the rows could not be written, when they could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ledger_error: Option<String>,
}

impl Refined {
    fn unchanged(base: &ReviewResult, events: Vec<Event>) -> Refined {
        Refined {
            ok: base.ok,
            blocking: base.blocking.clone(),
            summary: base.summary.clone(),
            merged: Vec::new(),
            demoted: Vec::new(),
            merging_skipped: None,
            recorded: Vec::new(),
            events,
            ledger_error: None,
        }
    }
}

/// One answered question: what the ledger keeps of it.
struct Asked {
    order: usize,
    question: &'static str,
    answer: Option<Answer>,
    band: Band,
    acted: bool,
    events: Vec<Event>,
}

/// Groups of findings, joined transitively; each group's root is its earliest finding.
struct Groups(Vec<usize>);

impl Groups {
    fn root(&mut self, mut i: usize) -> usize {
        while self.0[i] != i {
            self.0[i] = self.0[self.0[i]];
            i = self.0[i];
        }
        i
    }

    /// Join two groups; false when they already were one.
    fn join(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra == rb {
            return false;
        }
        let (keep, fold) = if ra < rb { (ra, rb) } else { (rb, ra) };
        self.0[fold] = keep;
        true
    }
}

/// Refine a panel's union. Never fails: every failure leaves the blocking set as it was.
pub fn refine_reviews(base: &ReviewResult, req: &RefineRequest<'_>) -> Refined {
    // A clean panel: nothing to ask.
    if base.blocking.is_empty() {
        return Refined::unchanged(base, Vec::new());
    }
    let mut seam = req.seam.clone();
    seam.questions = vec![SAME_DEFECT.into(), IS_DEFECT.into()];
    if seam.catalog.is_none() {
        seam.catalog = Some(CatalogRef::Name(CATALOG.into()));
    }
    // Nothing to ask with: one failure a question, not one a pair.
    let prepared = match prepare(&seam) {
        Ok(p) => p,
        Err(failed) => return Refined::unchanged(base, failed.events),
    };
    let findings = &base.blocking;
    let candidates: Vec<usize> = (0..findings.len()).filter(|&i| !findings[i].is_unparseable()).collect();
    let concurrency = req.concurrency.max(1);
    let mut asked: Vec<Asked> = Vec::new();
    let groups = Mutex::new(Groups((0..findings.len()).collect()));

    // 1. Merge: the bound is checked before any pair is made, and pairs are made one at a time
    // as workers take them, so memory stays linear in the findings whatever the panel's size.
    // A pair is asked only while it can still change a group.
    let c = candidates.len();
    let pair_count = c.saturating_mul(c.saturating_sub(1)) / 2;
    let merging_skipped = if pair_count > req.max_pairs {
        Some(format!(
            "{c} findings make {pair_count} pairs, more than the bound of {}: no findings were merged",
            req.max_pairs
        ))
    } else {
        let pairs = (0..c).flat_map(|a| (a + 1..c).map(move |b| (a, b))).map(|(a, b)| (candidates[a], candidates[b]));
        asked.extend(run_bounded(pairs, concurrency, |k, (i, j)| {
            {
                let mut g = groups.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if g.root(i) == g.root(j) {
                    return None;
                }
            }
            let state = json!({"a": findings[i], "b": findings[j]});
            let (answer, band, events) = one(&prepared, SAME_DEFECT, &state);
            let same = band == Band::Act && answer.as_ref().is_some_and(|a| noul(a) >= 0.5);
            let acted = same && groups.lock().unwrap_or_else(std::sync::PoisonError::into_inner).join(i, j);
            Some(Asked { order: k, question: SAME_DEFECT, answer, band, acted, events })
        }));
        None
    };
    let mut parents = groups.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    let roots: Vec<usize> = candidates.iter().copied().filter(|&i| parents.root(i) == i).collect();

    // 2. Demote: each group's finding, asked whether it is a defect at all.
    let first = pair_count.min(req.max_pairs);
    let mut demote_asked = run_bounded(roots.iter().copied(), concurrency, |k, root| {
        let state = json!({"finding": findings[root]});
        let (answer, band, events) = one(&prepared, IS_DEFECT, &state);
        let preference = band == Band::Act && answer.as_ref().is_some_and(|a| noul(a) < 0.5);
        Some(Asked { order: first + k, question: IS_DEFECT, answer, band, acted: preference, events })
    });
    demote_asked.sort_by_key(|a| a.order);
    let demoted_roots: std::collections::BTreeSet<usize> =
        roots.iter().zip(&demote_asked).filter(|(_, a)| a.acted).map(|(&r, _)| r).collect();
    asked.extend(demote_asked);
    asked.sort_by_key(|a| a.order);

    let blocking: Vec<Finding> = (0..findings.len())
        .filter(|&i| findings[i].is_unparseable() || (parents.root(i) == i && !demoted_roots.contains(&i)))
        .map(|i| findings[i].clone())
        .collect();
    // Each group's folded findings, gathered in one pass.
    let mut folded_into: std::collections::BTreeMap<usize, Vec<Finding>> = std::collections::BTreeMap::new();
    for &i in &candidates {
        let r = parents.root(i);
        if r != i {
            folded_into.entry(r).or_default().push(findings[i].clone());
        }
    }
    let merged: Vec<Merge> =
        folded_into.into_iter().map(|(r, folded)| Merge { kept: findings[r].clone(), folded }).collect();
    let demoted: Vec<Finding> = demoted_roots.iter().map(|&r| findings[r].clone()).collect();
    let folded: usize = merged.iter().map(|m| m.folded.len()).sum();
    let mut notes = Vec::new();
    if folded > 0 {
        notes.push(format!("{folded} duplicate finding{} merged", if folded == 1 { "" } else { "s" }));
    }
    if !demoted.is_empty() {
        let n = demoted.len();
        notes.push(format!("{n} style-only finding{} demoted", if n == 1 { "" } else { "s" }));
    }
    let summary =
        if notes.is_empty() { base.summary.clone() } else { format!("{} [{}]", base.summary, notes.join("; ")) };

    let (recorded, ledger_error) = if req.record {
        let rows: Vec<DecisionRow> = asked
            .iter()
            .filter_map(|a| Some(DecisionRow::for_answer(CONSUMER, a.question, a.answer.as_ref()?, a.band, a.acted)))
            .collect();
        record(seam.leo_dir.as_deref(), rows, std::time::Instant::now())
    } else {
        (Vec::new(), None)
    };
    Refined {
        ok: blocking.is_empty(),
        blocking,
        summary,
        merged,
        demoted,
        merging_skipped,
        recorded,
        events: asked.into_iter().flat_map(|a| a.events).collect(),
        ledger_error,
    }
}

/// Ask one question about one state: the answer, the band it fell in, the call's events.
fn one(prepared: &Prepared, question: &'static str, state: &Value) -> (Option<Answer>, Band, Vec<Event>) {
    let decision = prepared.ask_only(&[question], state, ());
    // The seam's band: the symmetric act bar over the contract's certainty (an estimated
    // answer has none, so it is floor).
    let band = decision.band(question).unwrap_or(Band::Floor);
    let answer = match decision.answer(question) {
        Some(Ok(a)) => Some(a.clone()),
        _ => None,
    };
    (answer, band, decision.events)
}

/// Run `task(k, item)` for each item (the k-th) with at most `concurrency` at once, taking
/// items from the iterator one at a time as workers free up; the results in no order.
fn run_bounded<I: Send, T: Send>(
    items: impl Iterator<Item = I> + Send,
    concurrency: usize,
    task: impl Fn(usize, I) -> Option<T> + Sync,
) -> Vec<T> {
    let workers = items.size_hint().1.map_or(concurrency, |n| n.min(concurrency));
    let items = Mutex::new(items.enumerate());
    let out = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let next = items.lock().unwrap_or_else(std::sync::PoisonError::into_inner).next();
                    let Some((k, item)) = next else { break };
                    if let Some(r) = task(k, item) {
                        out.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(r);
                    }
                }
            });
        }
    });
    out.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn noul(a: &Answer) -> f64 {
    match a.value {
        AnswerValue::Noul(p) => p,
        _ => 0.5,
    }
}
