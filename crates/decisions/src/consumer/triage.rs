//! Triage of an issue queue: each issue asked the shipped `triage.json` (`kind`, `severity`,
//! `needs_repro`) on the batch engine, and placed. An issue whose three answers are all in the
//! act band is classified: its bucket is its `kind`, its severity the nearest level with the
//! catalog's label, and `needs_repro` a flag; a confident `noise` is the noise bucket. Any
//! answer at the floor or in the escalate band ("kept, not acted on unattended"), and any
//! failure, sends the issue to human review, with why and the model's suggestion. The report
//! ([`Report`]) is built from the output lines, so a resumed run reports on all of it.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::answer::{AnswerValue, certainty_of};
use crate::ask::Decision;
use crate::band::Band;
use crate::contract::{Catalog, QuestionKind};
use crate::escape::markdown;
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

/// The state for one issue: `{"item": {"title", "body"}}`, the body clipped to [`BODY_MAX`]
/// characters. The id is not part of it: it says nothing about the issue. An input object
/// with neither a title nor a body has nothing to triage.
pub fn state(line: usize, issue: &Map<String, Value>) -> Result<Value, String> {
    let text = |field: &str, max: usize| match issue.get(field) {
        None | Some(Value::Null) => Ok(String::new()),
        // The first `max` characters, as the earlier build's `body.slice(0, 4000)`.
        Some(Value::String(s)) => Ok(s.char_indices().nth(max).map_or(s.as_str(), |(i, _)| &s[..i]).to_string()),
        Some(other) => Err(format!("input line {line}: \"{field}\" is {}, not text", kind_of(other))),
    };
    let (title, body) = (text("title", TITLE_MAX)?, text("body", BODY_MAX)?);
    if title.trim().is_empty() && body.trim().is_empty() {
        return Err(format!("input line {line}: no \"title\" or \"body\" to triage"));
    }
    Ok(json!({"item": {"title": title, "body": body}}))
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

/// The triage fields one output line carries beside the batch engine's.
pub fn extend(line: &mut Value, title: &str, placement: &Placement) {
    line["title"] = json!(clip(title, TITLE_MAX));
    line["triage"] = serde_json::to_value(placement).unwrap_or_default();
}

/// One issue in the report.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    /// Its id.
    pub id: Value,
    /// Its title.
    pub title: String,
    /// Where it went.
    #[serde(flatten)]
    pub placement: Placement,
    /// Every answer (with its probabilities) or failure, by question.
    pub answers: Value,
    /// Each question's band.
    pub bands: Value,
    /// The calibration-ledger row ids, by question: record an outcome against them.
    pub recorded: Value,
}

/// The report over a run's output lines.
#[derive(Debug, Default, Serialize)]
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
    /// Issues sent to human review.
    pub human_review: Vec<Entry>,
    /// Classified issues by kind (not noise), each ranked by severity.
    pub buckets: Vec<(String, Vec<Entry>)>,
    /// Confident noise.
    pub noise: Vec<Entry>,
}

impl Report {
    /// Add one output line (one that is not a triage line is ignored).
    pub fn add(&mut self, line: &Value) {
        let Some(placement) = line.get("triage").and_then(|t| Placement::deserialize(t).ok()) else { return };
        self.items += 1;
        let answers = line.get("answers").cloned().unwrap_or(Value::Null);
        if self.model.is_none() {
            let answered = answers.as_object().into_iter().flatten().map(|(_, a)| a).find(|a| a["ok"] == json!(true));
            if let Some(a) = answered {
                self.provider = a["provider"].as_str().map(String::from);
                self.model = a["model"].as_str().map(String::from);
            }
        }
        let entry = Entry {
            id: line.get("id").cloned().unwrap_or(Value::Null),
            title: line.get("title").and_then(Value::as_str).unwrap_or_default().to_string(),
            placement,
            answers,
            bands: line.get("bands").cloned().unwrap_or(Value::Null),
            recorded: line.get("recorded").cloned().unwrap_or(json!({})),
        };
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
    pub fn rank(&mut self, catalog: Option<&Catalog>) {
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

    /// The report as Markdown: counts first, then human review, then each bucket as a table
    /// ranked by severity, then noise.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
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
                    cell(&id_text(&e.id)),
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
                    cell(&id_text(&e.id)),
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
                out.push_str(&format!("| {} | {} |\n", cell(&id_text(&e.id)), cell(&e.title)));
            }
        }
        out
    }

    /// The report as JSON: the same content, with every answer's probabilities, the provider
    /// and model, and the ledger row ids.
    pub fn json(&self) -> Value {
        let buckets: Map<String, Value> =
            self.buckets.iter().map(|(k, e)| (k.clone(), serde_json::to_value(e).unwrap_or_default())).collect();
        let mut counts = Map::new();
        counts.insert("items".into(), json!(self.items));
        counts.insert("classified".into(), json!(self.classified()));
        counts.insert("noise".into(), json!(self.noise.len()));
        counts.insert("human_review".into(), json!(self.human_review.len()));
        counts.insert("by_kind".into(), self.buckets.iter().map(|(k, e)| (k.clone(), json!(e.len()))).collect());
        json!({
            "provider": self.provider,
            "model": self.model,
            "no_provider": self.no_provider,
            "unprepared": self.unprepared,
            "counts": counts,
            "human_review": self.human_review,
            "buckets": buckets,
            "noise": self.noise,
        })
    }
}

/// "1 issue", "3 issues".
fn issues(n: usize) -> String {
    if n == 1 { "1 issue".into() } else { format!("{n} issues") }
}

/// Ids in the order a maintainer reads them: numbers by value, before text.
fn by_id(a: &Value, b: &Value) -> std::cmp::Ordering {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => id_text(a).cmp(&id_text(b)),
    }
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
        let s = state(1, &obj(json!({"id": 1, "title": "Crash", "body": long}))).expect("test");
        assert_eq!(s["item"]["title"], "Crash");
        assert_eq!(s["item"]["body"].as_str().expect("test").chars().count(), BODY_MAX);
        assert!(s["item"].get("id").is_none());
        assert_eq!(state(3, &obj(json!({"id": 1}))), Err("input line 3: no \"title\" or \"body\" to triage".into()));
        assert_eq!(state(4, &obj(json!({"title": 5}))), Err("input line 4: \"title\" is a number, not text".into()));
        assert!(state(5, &obj(json!({"title": "t", "body": null}))).is_ok());
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
