//! Triage of an issue queue: each issue asked the shipped `triage.json` (`kind`, `severity`,
//! `needs_repro`) on the batch engine, and placed. An issue whose three answers are all in the
//! act band is classified: its bucket is its `kind`, its severity the nearest level with the
//! catalog's label, and `needs_repro` a flag; a confident `noise` is the noise bucket. Any
//! answer at the floor or in the escalate band ("kept, not acted on unattended"), and any
//! failure, sends the issue to human review, with why and the model's suggestion. The report
//! ([`Report`]) is built from the output lines, so a resumed run reports on all of it.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::Recorder;
use crate::answer::{AnswerValue, certainty_of};
use crate::ask::{Decision, Prepared};
use crate::band::Band;
use crate::contract::{Catalog, QuestionKind};
use crate::escape::markdown;
use crate::run::input::Records;
use crate::run::output::OutputLine;
use crate::run::summary::Summary;
use crate::run::{self, Finished, RunError};
use crate::secret::clip;

/// The catalog triage asks from.
pub const CATALOG: &str = "triage";
/// Its questions, in the order asked.
pub const QUESTIONS: [&str; 3] = ["kind", "severity", "needs_repro"];
/// The consumer's name in the calibration ledger.
pub const CONSUMER: &str = "triage";
/// An issue body's length in the state, in characters.
pub const BODY_MAX: usize = 4000;
/// An issue title's length in the state, in characters.
pub const TITLE_MAX: usize = 300;
/// The bucket a confident `noise` answer puts an issue in.
pub const NOISE: &str = "noise";

/// The state for one issue: `{"item": {"title", "body"}}`, the title clipped to [`TITLE_MAX`]
/// characters and the body to [`BODY_MAX`]. The id is not part of it: it says nothing about the
/// issue. An input object with neither a title nor a body has nothing to triage.
pub fn state(issue: &Map<String, Value>) -> Result<Value, NoIssue> {
    let text = |field: &'static str, max: usize| match issue.get(field) {
        None | Some(Value::Null) => Ok(String::new()),
        // The first `max` characters, as the earlier build's `body.slice(0, 4000)`.
        Some(Value::String(s)) => Ok(s.char_indices().nth(max).map_or(s.as_str(), |(i, _)| &s[..i]).to_string()),
        Some(other) => Err(NoIssue::NotText { field, kind: kind_of(other) }),
    };
    let (title, body) = (text("title", TITLE_MAX)?, text("body", BODY_MAX)?);
    if title.trim().is_empty() && body.trim().is_empty() {
        return Err(NoIssue::Empty);
    }
    Ok(json!({"item": {"title": title, "body": body}}))
}

/// Why an input object is no issue to triage.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoIssue {
    /// A field that must be text is not.
    #[error("\"{field}\" is {kind}, not text")]
    NotText {
        /// The field.
        field: &'static str,
        /// What it is.
        kind: &'static str,
    },
    /// Neither a title nor a body.
    #[error("no \"title\" or \"body\" to triage")]
    Empty,
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
        Value::Null | Value::String(_) => "text",
    }
}

/// A severity level with the catalog's label for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Severity {
    /// The score rounded to the nearest level.
    pub level: u32,
    /// The level's label: the catalog's description up to its first colon.
    pub label: String,
    /// The probability-weighted score.
    pub score: f64,
}

/// Where an issue goes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "bucket", rename_all = "snake_case")]
pub enum Placement {
    /// All three answers in the act band: a kind's bucket (or noise).
    Classified {
        /// The `kind` answer: the bucket.
        kind: String,
        /// The severity.
        severity: Severity,
        /// Whether a maintainer must ask for a reproduction first.
        needs_repro: bool,
    },
    /// Not placed unattended.
    HumanReview {
        /// One reason a question: its band and certainty, or its failure.
        why: Vec<String>,
        /// What the model said, when it said anything.
        suggestion: Option<String>,
    },
}

/// Place one issue from its decision. `catalog` gives the severity labels.
pub fn place(decision: &Decision<()>, catalog: Option<&Catalog>) -> Placement {
    let mut why = Vec::new();
    let mut said = Vec::new();
    let (mut kind, mut severity, mut needs_repro) = (None, None, None);
    for q in QUESTIONS {
        let band = decision.band(q).unwrap_or(Band::Floor);
        match decision.answer(q) {
            None => why.push((q.to_string(), "not asked".to_string())),
            Some(Err(f)) => {
                let detail = f.detail.as_ref().map(|d| format!(" ({d})")).unwrap_or_default();
                why.push((q.to_string(), format!("{}{detail}", f.reason)));
            }
            Some(Ok(a)) => {
                let certainty = certainty_of(a);
                if band != Band::Act {
                    let c = certainty.map_or("none, estimated".to_string(), |c| format!("{c:.2}"));
                    why.push((q.to_string(), format!("{} (certainty {c})", band.as_str())));
                }
                match &a.value {
                    AnswerValue::Choice(c) => {
                        said.push(format!("{q} {c}"));
                        kind = Some(c.clone());
                    }
                    AnswerValue::Score { score, .. } => {
                        let s = severity_of(*score, catalog);
                        said.push(format!("{q} {} {} ({score:.2})", s.level, s.label));
                        severity = Some(s);
                    }
                    AnswerValue::Noul(p) => {
                        said.push(format!("{q} {} (p {p:.2})", if *p >= 0.5 { "yes" } else { "no" }));
                        needs_repro = Some(*p >= 0.5);
                    }
                }
            }
        }
    }
    match (why.is_empty(), kind, severity, needs_repro) {
        (true, Some(kind), Some(severity), Some(needs_repro)) => Placement::Classified { kind, severity, needs_repro },
        _ => Placement::HumanReview { why: grouped(why), suggestion: (!said.is_empty()).then(|| said.join(", ")) },
    }
}

/// `question: reason` lines, questions with the same reason on one line (a bad input line
/// fails every question the same way).
fn grouped(why: Vec<(String, String)>) -> Vec<String> {
    let mut lines: Vec<(Vec<String>, String)> = Vec::new();
    for (q, reason) in why {
        match lines.iter_mut().find(|(_, r)| *r == reason) {
            Some((qs, _)) => qs.push(q),
            None => lines.push((vec![q], reason)),
        }
    }
    lines.into_iter().map(|(qs, reason)| format!("{}: {reason}", qs.join(", "))).collect()
}

/// The nearest level to a score, with the catalog's label for it.
pub fn severity_of(score: f64, catalog: Option<&Catalog>) -> Severity {
    let levels = match catalog.and_then(|c| c.question("severity")).map(|q| &q.kind) {
        Some(QuestionKind::Score { levels }) => levels.as_slice(),
        _ => &[],
    };
    let top = levels.len().saturating_sub(1) as f64;
    let level = if score.is_finite() { score.round().clamp(0.0, top.max(0.0)) as u32 } else { 0 };
    let label = levels.get(level as usize).map(label_of).unwrap_or_else(|| format!("level {level}"));
    Severity { level, label, score }
}

/// A level's label: its description (`what`, or the string itself) up to the first colon.
fn label_of(level: &Value) -> String {
    let what = level.get("what").or(Some(level)).and_then(Value::as_str).unwrap_or_default();
    let head = what.split_once(':').map_or(what, |(h, _)| h).trim();
    if head.is_empty() { "unlabelled".into() } else { clip(head, 40) }
}

/// The triage fields one output line carries beside the engine's: the title, where it went.
pub fn extend(line: &mut OutputLine, title: &str, placement: &Placement) {
    line.extra.insert("title".into(), json!(clip(title, TITLE_MAX)));
    line.extra.insert("triage".into(), serde_json::to_value(placement).unwrap_or_default());
}

/// One issue in the report: what the report shows of it, and where its line is in the run's
/// output, read again for the JSON report's answers. Nothing else of a line is held.
#[derive(Debug, Clone)]
struct Entry {
    id: String,
    title: String,
    placement: Placement,
    at: u64,
}

/// The report over a run's output, built in one streaming pass: the buckets hold ids, ranks
/// and titles only.
#[derive(Debug, Default)]
pub struct Report {
    /// The provider that answered.
    pub provider: Option<String>,
    /// The model that answered.
    pub model: Option<String>,
    /// No provider was configured, so nothing was asked.
    pub no_provider: bool,
    /// Why nothing was asked in this run, when the seam could not be prepared (no provider,
    /// no key, no catalog).
    pub unprepared: Option<String>,
    /// Issues read.
    pub items: usize,
    /// What happened to the run, when the report is not the whole story: the first line of
    /// the report (see [`Report::describe`]).
    pub status: Option<String>,
    /// The first failure the run met, for a report where nothing was answered.
    pub first_failure: Option<String>,
    /// The run's figures (the JSON report's `run`): set by [`Report::describe`].
    pub run: Option<Summary>,
    human_review: Vec<Entry>,
    buckets: Vec<(String, Vec<Entry>)>,
    noise: Vec<Entry>,
}

/// A run's output read for its report, line by line.
pub trait Lines {
    /// Each line with its byte offset, in order.
    fn each(&mut self, f: &mut dyn FnMut(u64, &[u8])) -> std::io::Result<()>;
    /// The line at an offset.
    fn at(&mut self, offset: u64) -> std::io::Result<Vec<u8>>;
}

impl<R: std::io::Read + std::io::Seek> Lines for R {
    fn each(&mut self, f: &mut dyn FnMut(u64, &[u8])) -> std::io::Result<()> {
        use std::io::BufRead;
        self.seek(std::io::SeekFrom::Start(0))?;
        let mut reader = std::io::BufReader::with_capacity(1 << 16, &mut *self);
        let mut at = 0u64;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let n = reader.read_until(b'\n', &mut buf)?;
            if n == 0 {
                return Ok(());
            }
            f(at, &buf);
            at += n as u64;
        }
    }

    fn at(&mut self, offset: u64) -> std::io::Result<Vec<u8>> {
        use std::io::BufRead;
        self.seek(std::io::SeekFrom::Start(offset))?;
        let mut buf = Vec::new();
        std::io::BufReader::new(&mut *self).read_until(b'\n', &mut buf)?;
        Ok(buf)
    }
}

impl Report {
    /// Read a run's output into the report: one pass, the triage lines placed, torn and foreign
    /// lines skipped. The buckets are ranked (see [`Report::rank`]).
    pub fn read(lines: &mut dyn Lines, catalog: Option<&Catalog>) -> std::io::Result<Report> {
        let mut report = Report::default();
        lines.each(&mut |at, raw| {
            if let Some(line) = crate::run::output::read_line(raw) {
                report.add(&line, at);
            }
        })?;
        report.rank(catalog);
        Ok(report)
    }

    /// Add one output line (one that is not a triage line is ignored).
    fn add(&mut self, line: &OutputLine, at: u64) {
        let Some(placement) = line.extra.get("triage").and_then(|t| Placement::deserialize(t).ok()) else { return };
        self.items += 1;
        if self.model.is_none() {
            let answered = line.answers.values().find(|a| a["ok"] == json!(true));
            if let Some(a) = answered {
                self.provider = a["provider"].as_str().map(String::from);
                self.model = a["model"].as_str().map(String::from);
            }
        }
        let id = line.id.as_ref().map_or_else(|| format!("record {}", line.record), |i| id_text(&i.value()));
        let title = line.extra.get("title").and_then(Value::as_str).unwrap_or_default().to_string();
        let entry = Entry { id, title, placement, at };
        match &entry.placement {
            Placement::HumanReview { .. } => self.human_review.push(entry),
            Placement::Classified { kind, .. } if kind == NOISE => self.noise.push(entry),
            Placement::Classified { kind, .. } => match self.buckets.iter_mut().find(|(k, _)| k == kind) {
                Some((_, entries)) => entries.push(entry),
                None => self.buckets.push((kind.clone(), vec![entry])),
            },
        }
    }

    /// Order the buckets as the catalog lists the kinds, and each bucket by severity, highest
    /// first (then by score, then by id); human review and noise by id.
    fn rank(&mut self, catalog: Option<&Catalog>) {
        let order: Vec<String> = match catalog.and_then(|c| c.question("kind")).map(|q| &q.kind) {
            Some(k @ QuestionKind::Choice { .. }) => k.outcomes(),
            _ => Vec::new(),
        };
        let at = |k: &str| order.iter().position(|o| o == k).unwrap_or(order.len());
        self.buckets.sort_by(|(a, _), (b, _)| at(a).cmp(&at(b)).then(a.cmp(b)));
        for (_, entries) in &mut self.buckets {
            entries.sort_by(|a, b| {
                let key = |e: &Entry| match &e.placement {
                    Placement::Classified { severity, .. } => (severity.level, severity.score),
                    Placement::HumanReview { .. } => (0, 0.0),
                };
                let (ka, kb) = (key(a), key(b));
                kb.0.cmp(&ka.0).then(kb.1.total_cmp(&ka.1)).then_with(|| by_id(&a.id, &b.id))
            });
        }
        self.human_review.sort_by(|a, b| by_id(&a.id, &b.id));
        self.noise.sort_by(|a, b| by_id(&a.id, &b.id));
    }

    /// Issues classified into a kind's bucket.
    pub fn classified(&self) -> usize {
        self.buckets.iter().map(|(_, e)| e.len()).sum()
    }

    /// Issues sent to human review.
    pub fn in_review(&self) -> usize {
        self.human_review.len()
    }

    /// Say first what happened to the run, when the report is not the whole story: a run
    /// stopped or interrupted is a partial report; a run where nothing was answered says why
    /// (a run that could not be prepared already says so).
    pub fn describe(&mut self, summary: &Summary) {
        self.run = Some(summary.clone());
        let left = summary.not_asked();
        let resume = if summary.resumable {
            "; run it again with --resume to continue it"
        } else {
            "; without --output there is nothing to resume from"
        };
        let partial = |what: &str| {
            format!(
                "Partial report: the run {what} after {} issues; {left} read and not asked are not in it{resume}.",
                summary.asked + summary.skipped + summary.duplicates,
            )
        };
        self.status = match (&summary.halt, summary.interrupted) {
            (Some(why), _) => Some(partial(&format!("stopped ({why})"))),
            (None, true) => Some(partial("was interrupted")),
            (None, false) if summary.nothing_answered() && !self.no_provider && self.unprepared.is_none() => {
                Some(format!(
                    "Nothing was answered ({}): {} of {} in human review. Run decisions doctor --probe to see why.",
                    self.first_failure.as_deref().unwrap_or("every question failed"),
                    self.human_review.len(),
                    issues(self.items)
                ))
            }
            _ => None,
        };
    }

    /// Issues in the noise bucket.
    pub fn noise(&self) -> usize {
        self.noise.len()
    }

    /// The report as Markdown: counts first, then human review, then each bucket as a table
    /// ranked by severity, then noise.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        if let Some(status) = &self.status {
            out.push_str(&format!("{}\n\n", markdown(status)));
        }
        let all = format!("{} of {} in human review", self.human_review.len(), issues(self.items));
        if self.no_provider {
            out.push_str(&format!(
                "No provider is configured: {all}. Run `decisions doctor` to see what is missing.\n\n"
            ));
        } else if let Some(why) = &self.unprepared {
            out.push_str(&format!(
                "Nothing was asked ({}): {all}. Fix it and run again with --resume.\n\n",
                markdown(why)
            ));
        }
        out.push_str("# Triage report\n\n");
        let kinds: Vec<String> = self.buckets.iter().map(|(k, e)| format!("{} {}", e.len(), markdown(k))).collect();
        out.push_str(&format!(
            "{}: {} classified{}, {} noise, {} for human review.",
            issues(self.items),
            self.classified(),
            if kinds.is_empty() { String::new() } else { format!(" ({})", kinds.join(", ")) },
            self.noise.len(),
            self.human_review.len()
        ));
        if let (Some(p), Some(m)) = (&self.provider, &self.model) {
            out.push_str(&format!(" Answered by {}, model {}.", markdown(p), markdown(m)));
        }
        out.push_str("\n\n");
        out.push_str(&format!("## Human review ({})\n\n", self.human_review.len()));
        if self.human_review.is_empty() {
            out.push_str("None.\n\n");
        } else {
            out.push_str("| id | title | why | suggestion |\n|---|---|---|---|\n");
            for e in &self.human_review {
                let Placement::HumanReview { why, suggestion } = &e.placement else { continue };
                out.push_str(&format!(
                    "| {} | {} | {} | {} |\n",
                    cell(&e.id),
                    cell(&e.title),
                    cell(&why.join("; ")),
                    cell(suggestion.as_deref().unwrap_or("-"))
                ));
            }
            out.push('\n');
        }
        for (kind, entries) in &self.buckets {
            out.push_str(&format!(
                "## {} ({})\n\n| id | severity | title | needs repro |\n|---|---|---|---|\n",
                markdown(kind),
                entries.len()
            ));
            for e in entries {
                let Placement::Classified { severity, needs_repro, .. } = &e.placement else { continue };
                out.push_str(&format!(
                    "| {} | {} {} | {} | {} |\n",
                    cell(&e.id),
                    severity.level,
                    cell(&severity.label),
                    cell(&e.title),
                    if *needs_repro { "yes" } else { "" }
                ));
            }
            out.push('\n');
        }
        out.push_str(&format!("## Noise ({})\n\n", self.noise.len()));
        if self.noise.is_empty() {
            out.push_str("None.\n");
        } else {
            out.push_str("| id | title |\n|---|---|\n");
            for e in &self.noise {
                out.push_str(&format!("| {} | {} |\n", cell(&e.id), cell(&e.title)));
            }
        }
        out
    }

    /// Write the report as JSON, pretty, one entry at a time: every answer (with its
    /// probabilities), the bands and the ledger row ids come from each entry's line in the
    /// output, read again, so nothing of them is held.
    pub fn write_json(&self, lines: &mut dyn Lines, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let counts = json!({
            "items": self.items, "classified": self.classified(), "noise": self.noise.len(),
            "human_review": self.human_review.len(),
            "by_kind": self.buckets.iter().map(|(k, e)| (k.clone(), json!(e.len()))).collect::<Map<String, Value>>(),
        });
        let head = json!({"status": self.status, "provider": self.provider, "model": self.model,
            "no_provider": self.no_provider, "unprepared": self.unprepared, "counts": counts, "run": self.run});
        let head = serde_json::to_string_pretty(&head).map_err(std::io::Error::other)?;
        // The head's members, then the lists, each entry written as it is read back.
        let members = head.trim_end().strip_suffix('}').unwrap_or(&head).trim_end();
        out.write_all(crate::escape::json_text(members).as_bytes())?;
        out.write_all(b",\n  \"human_review\": ")?;
        self.write_list(&self.human_review, lines, out, "  ")?;
        out.write_all(b",\n  \"buckets\": {")?;
        for (i, (kind, entries)) in self.buckets.iter().enumerate() {
            let name = serde_json::to_string(kind).map_err(std::io::Error::other)?;
            let sep = if i == 0 { "" } else { "," };
            out.write_all(format!("{sep}\n    {}: ", crate::escape::json_text(&name)).as_bytes())?;
            self.write_list(entries, lines, out, "    ")?;
        }
        out.write_all(if self.buckets.is_empty() { b"}".as_slice() } else { b"\n  }".as_slice() })?;
        out.write_all(b",\n  \"noise\": ")?;
        self.write_list(&self.noise, lines, out, "  ")?;
        out.write_all(b"\n}\n")
    }

    /// One list of entries, an entry a line.
    fn write_list(
        &self,
        entries: &[Entry],
        lines: &mut dyn Lines,
        out: &mut dyn std::io::Write,
        indent: &str,
    ) -> std::io::Result<()> {
        if entries.is_empty() {
            return out.write_all(b"[]");
        }
        out.write_all(b"[")?;
        for (i, e) in entries.iter().enumerate() {
            let text = serde_json::to_string(&self.entry_json(e, lines)?).map_err(std::io::Error::other)?;
            let sep = if i == 0 { "" } else { "," };
            out.write_all(format!("{sep}\n{indent}  {}", crate::escape::json_text(&text)).as_bytes())?;
        }
        out.write_all(format!("\n{indent}]").as_bytes())
    }

    fn entry_json(&self, e: &Entry, lines: &mut dyn Lines) -> std::io::Result<Value> {
        let raw = lines.at(e.at)?;
        let line = crate::run::output::read_line(&raw);
        let mut v = json!({"id": line.as_ref().and_then(|l| l.id.as_ref()).map(|i| i.value()), "title": e.title});
        if let Ok(Value::Object(p)) = serde_json::to_value(&e.placement)
            && let Some(o) = v.as_object_mut()
        {
            o.extend(p);
        }
        if let Some(l) = line {
            v["answers"] = Value::Object(l.answers);
            v["bands"] = Value::Object(l.bands);
            v["recorded"] = recorded_list(l.extra.get("recorded"));
        }
        Ok(v)
    }
}

/// The ledger row ids a line records, as one shape: `[{question, id}]` (a line written before
/// that shape had `{question: id}`).
pub fn recorded_list(v: Option<&Value>) -> Value {
    match v {
        Some(Value::Object(by_question)) => {
            Value::Array(by_question.iter().map(|(q, id)| json!({"question": q, "id": id})).collect())
        }
        Some(list @ Value::Array(_)) => list.clone(),
        _ => json!([]),
    }
}

/// What a triage run did: the engine's figures and the report over the whole output.
#[derive(Debug)]
pub struct Triaged {
    /// The run's figures.
    pub summary: Summary,
    /// The report, over every issue the output holds (a resumed run's earlier ones too).
    pub report: Report,
}

/// Triage an issue queue: each record asked the catalog's three questions on the run engine,
/// placed, written to `out` (with the ledger rows `recorder` writes), and the report read back
/// from `out` in one streaming pass.
pub fn run(
    prepared: Result<&Prepared, &Decision<()>>,
    records: Records,
    opts: run::Options<'_>,
    out: &mut (impl std::io::Write + Lines),
    mut recorder: Option<&mut Recorder>,
    progress: impl FnMut(&Summary),
) -> Result<Triaged, RunError> {
    let catalog = prepared.ok().map(|p| p.catalog().clone());
    let mut first_failure = None;
    let summary = run::run(
        prepared,
        records,
        opts,
        |finished| {
            let line = match finished {
                Finished::Outcome(o) => {
                    if first_failure.is_none() {
                        first_failure = o.decision.answers.iter().find_map(|(_, r)| {
                            let f = r.as_ref().err()?;
                            Some(format!("{}: {}", f.reason, f.detail.clone().unwrap_or_default()))
                        });
                    }
                    let mut line = o.line(false);
                    let title = o.item.input.get("title").and_then(Value::as_str).unwrap_or_default();
                    extend(&mut line, title, &place(&o.decision, catalog.as_ref()));
                    if let Some(r) = recorder.as_deref_mut() {
                        line.extra.insert("recorded".into(), json!(r.record(&o.decision)));
                    }
                    line
                }
                Finished::Repeat(item) => Finished::repeat_line(&item),
            };
            let mut text = line.to_text().into_bytes();
            text.push(b'\n');
            out.write_all(&text)
        },
        progress,
    )?;
    out.flush().map_err(RunError::Sink)?;
    let failure = prepared.err().and_then(|failed| failed.answers.iter().find_map(|(_, r)| r.clone().err()));
    let mut report = Report::read(out, catalog.as_ref()).map_err(RunError::Sink)?;
    report.no_provider = failure.as_ref().is_some_and(|f| f.reason == crate::answer::FailureReason::NoProvider);
    report.unprepared = failure.map(|f| f.detail.unwrap_or_else(|| f.reason.to_string()));
    report.first_failure = first_failure;
    Ok(Triaged { summary, report })
}

/// Ids in the order a maintainer reads them: numbers by value, before text.
fn by_id(a: &str, b: &str) -> std::cmp::Ordering {
    let num = |s: &str| s.strip_prefix('#').and_then(|n| n.parse::<f64>().ok());
    match (num(a), num(b)) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.cmp(b),
    }
}

/// "1 issue", "3 issues".
fn issues(n: usize) -> String {
    if n == 1 { "1 issue".into() } else { format!("{n} issues") }
}

/// An id as a maintainer writes it: `#12` for an issue number, else as given.
fn id_text(id: &Value) -> String {
    match id {
        Value::Number(n) => format!("#{n}"),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Text safe in a Markdown table cell: clipped, then inert (one line, no markup, no HTML).
fn cell(text: &str) -> String {
    markdown(&clip(text.trim(), 120))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_is_title_and_a_clipped_body_and_says_what_is_missing() {
        let obj = |v: Value| v.as_object().cloned().expect("test");
        let long = "x".repeat(BODY_MAX + 50);
        let s = state(&obj(json!({"id": 1, "title": "Crash", "body": long}))).expect("test");
        assert_eq!(s["item"]["title"], "Crash");
        assert_eq!(s["item"]["body"].as_str().expect("test").chars().count(), BODY_MAX);
        assert!(s["item"].get("id").is_none());
        assert_eq!(state(&obj(json!({"id": 1}))), Err(NoIssue::Empty));
        assert_eq!(
            state(&obj(json!({"title": 5}))).map_err(|e| e.to_string()),
            Err("\"title\" is a number, not text".into())
        );
        assert!(state(&obj(json!({"title": "t", "body": null}))).is_ok());
    }

    #[test]
    fn a_label_is_the_description_up_to_its_colon() {
        assert_eq!(label_of(&json!({"what": "Critical: data loss"})), "Critical");
        assert_eq!(label_of(&json!("Minor")), "Minor");
        assert_eq!(label_of(&json!({})), "unlabelled");
        assert_eq!(severity_of(2.6, None), Severity { level: 0, label: "level 0".into(), score: 2.6 });
    }

    #[test]
    fn cells_stay_in_their_table() {
        assert_eq!(cell("a | b\nc"), "a \\| b\\\\x0ac", "the newline shown, its backslash escaped for Markdown");
        assert_eq!(id_text(&json!(12)), "#12");
        assert_eq!(id_text(&json!("GH-3")), "GH-3");
    }
}
