//! The judgment ledger: what a human decided on a Decision Card, searchable and recalled into
//! the next card as similar past decisions.
//!
//! JSONL, one `judgment-ledger.v1` record a line, keys in the order
//! `id, project, decided_at, question, answer, rationale, card_ref, tags`. It is the Harness's
//! format, whose schema is closed (`additionalProperties: false`), so a 1.0 record carries those
//! eight keys and nothing else: no `"v"` (absent is 1.0 to every reader); a later version may
//! add it. Default path
//! `<root>/.claude/state/judgment-ledger.jsonl`, or `HARNESS_JUDGMENT_LEDGER`. Every read path
//! filters by project; results are capped at [`MAX_RESULTS`].

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use memchr::memmem::Finder;

use serde::{Deserialize, Serialize};

use crate::config::Env;
use crate::jsonl::{self, Format, Versioning};

/// The format this build writes and reads. A 1.0 record states no `"v"`; a later one would.
pub const FORMAT: Format = Format { major: 1, minor: 0 };

mod card;
pub use card::{CONFIDENCES, CardProblem, NewCardError, NotAnOption, card_problems, chosen_option, new_card};

/// The most results a search or recall returns.
pub const MAX_RESULTS: usize = 3;
/// Recall summaries longer than this many characters are cut.
pub const SUMMARY_MAX: usize = 120;
/// Where a cut summary is cut, before its "...".
pub const SUMMARY_CUT: usize = 117;

/// One human judgment. Fields a newer build adds are ignored on read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judgment {
    /// Unique id (a UUID when the caller gives none).
    pub id: String,
    /// The project the judgment belongs to; every read filters by it.
    pub project: String,
    /// When it was decided, `YYYY-MM-DDTHH:MM:SSZ`.
    pub decided_at: String,
    /// The question the card asked.
    pub question: String,
    /// What the human decided.
    pub answer: String,
    /// Why (may be empty).
    pub rationale: String,
    /// The card it was decided on.
    pub card_ref: String,
    /// Free tags.
    pub tags: Vec<String>,
}

/// A past decision as a Decision Card shows it in `similar_past_decisions`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recall {
    /// The question, cut to [`SUMMARY_MAX`] characters.
    pub summary: String,
    /// The answer.
    pub decision: String,
    /// The rationale, or `recorded`.
    pub outcome: String,
    /// When it was decided.
    pub decided_at: String,
    /// `judgment-ledger:<id>`.
    pub mem_id: String,
}

/// A judgment that breaks the record schema.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("judgment record: {field} must be a non-empty string")]
pub struct JudgmentError {
    /// The field to fix.
    pub field: &'static str,
}

impl Judgment {
    /// Check the record against `judgment-ledger.v1`: the required strings are non-empty.
    pub fn validate(&self) -> Result<(), Vec<JudgmentError>> {
        let required = [
            ("id", &self.id),
            ("project", &self.project),
            ("decided_at", &self.decided_at),
            ("question", &self.question),
            ("answer", &self.answer),
            ("card_ref", &self.card_ref),
        ];
        let errs: Vec<JudgmentError> =
            required.iter().filter(|(_, v)| v.trim().is_empty()).map(|(field, _)| JudgmentError { field }).collect();
        if errs.is_empty() { Ok(()) } else { Err(errs) }
    }

    /// The judgment as a card's `similar_past_decisions` item.
    pub fn recall(&self) -> Recall {
        Recall {
            summary: summary(&self.question),
            decision: self.answer.clone(),
            outcome: if self.rationale.is_empty() { "recorded".into() } else { self.rationale.clone() },
            decided_at: self.decided_at.clone(),
            mem_id: format!("judgment-ledger:{}", self.id),
        }
    }
}

/// A question cut to 117 characters plus `...` when it is over 120; characters, never bytes.
pub fn summary(question: &str) -> String {
    if question.chars().count() > SUMMARY_MAX {
        let cut: String = question.chars().take(SUMMARY_CUT).collect();
        format!("{cut}...")
    } else {
        question.to_string()
    }
}

/// The ledger file: `HARNESS_JUDGMENT_LEDGER`, else `<root>/.claude/state/judgment-ledger.jsonl`
/// with the root from `HARNESS_PROJECT_ROOT`, `PROJECT_ROOT`, the git top level above `cwd`, or
/// `cwd`.
pub fn judgment_path(env: &Env, cwd: &Path) -> PathBuf {
    if let Some(p) = env.get("HARNESS_JUDGMENT_LEDGER") {
        return PathBuf::from(p);
    }
    let root = env
        .get("HARNESS_PROJECT_ROOT")
        .or_else(|| env.get("PROJECT_ROOT"))
        .map(PathBuf::from)
        .or_else(|| crate::project::git_root(cwd))
        .unwrap_or_else(|| cwd.to_path_buf());
    root.join(".claude").join("state").join("judgment-ledger.jsonl")
}

/// Append one judgment, after checking it.
pub fn append_judgment(path: &Path, judgment: &Judgment) -> Result<(), AppendError> {
    judgment.validate().map_err(AppendError::Invalid)?;
    jsonl::append_line(path, judgment, Versioning::PastFirst(FORMAT))
        .map_err(|e| AppendError::Io(path.to_path_buf(), e))
}

/// Why a judgment was not appended.
#[derive(Debug, thiserror::Error)]
pub enum AppendError {
    /// The record breaks the schema: the caller must fix it.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<JudgmentError>),
    /// The ledger could not be written: callers fail open.
    #[error("{0}: {1}")]
    Io(PathBuf, #[source] std::io::Error),
}

/// The project's judgments that match `query`, best first, at most [`MAX_RESULTS`].
///
/// Score 10 when the whole lowercased query is a substring of the question, answer or
/// rationale; else one point per query token of two or more characters found in them, and one
/// more when it is found in a tag. Score 0 is dropped; ties go to the newest, then to the
/// earlier line. An empty query gives the project's newest judgments. Also returns how many
/// lines were skipped. The file is read on every core.
pub fn search(path: &Path, project: &str, query: &str) -> std::io::Result<(Vec<Judgment>, usize)> {
    let Some(bytes) = jsonl::read_bytes(path)? else { return Ok((Vec::new(), 0)) };
    let query = query.trim().to_lowercase();
    let whole = Finder::new(query.as_bytes());
    let tokens: Vec<Finder> =
        query.split_whitespace().filter(|t| t.chars().count() >= 2).map(|t| Finder::new(t.as_bytes())).collect();
    // A line that does not contain the project as JSON writes it cannot be the project's,
    // unless it uses \u escapes; those lines are always parsed.
    let ascii_query = query.is_ascii();
    let quoted = serde_json::to_string(project).unwrap_or_default();
    let needle = Finder::new(quoted.as_bytes());
    let escape = Finder::new(b"\\u");
    let parts = jsonl::par_lines(&bytes, |chunk| {
        let mut best: Vec<(u32, Judgment)> = Vec::new();
        let mut skipped = 0;
        let mut scratch = Scratch::default();
        for line in jsonl::lines(chunk) {
            if needle.find(line).is_none() && escape.find(line).is_none() {
                continue;
            }
            // A bound on the line's score from its raw text, lowercased: the fields are in it,
            // so a token absent from the line is absent from every field. Lines that cannot
            // score, or cannot beat the current third, are never parsed.
            if !query.is_empty()
                && let Some(raw) = scratch.lower_line(line, ascii_query)
            {
                // Split at the tags array as this crate writes it, so a token counts once in
                // the text and once in the tags; without that split, twice anywhere.
                let last = |at: usize| memchr::memmem::find(&raw[at..], b"\":").is_none();
                let (text, tags) = match memchr::memmem::find(raw, b"\"tags\":[") {
                    Some(at) if last(at + 8) => (&raw[..at], &raw[at..]),
                    _ => (raw, raw),
                };
                let bound = if whole.find(text).is_some() {
                    10
                } else {
                    tokens.iter().map(|t| t.find(text).is_some() as u32 + t.find(tags).is_some() as u32).sum()
                };
                match best.last().filter(|_| best.len() >= MAX_RESULTS) {
                    None if bound == 0 => continue,
                    // To enter a full list it must beat the third: a higher score, or the same
                    // score and a newer date (an equal date loses to the earlier line).
                    Some((worst, _)) if bound < *worst => continue,
                    Some((worst, w))
                        if bound == *worst && date_of(line).is_some_and(|d| d <= w.decided_at.as_str()) =>
                    {
                        continue;
                    }
                    _ => {}
                }
            }
            // Tags borrow when they carry no escapes; a line whose tags do is read again, owned.
            let owned;
            let view = match serde_json::from_slice::<View>(line) {
                Ok(v) => v,
                Err(_) => match stored(line) {
                    Some(j) => {
                        owned = j;
                        View::of(&owned)
                    }
                    None => {
                        skipped += 1;
                        continue;
                    }
                },
            };
            if !FORMAT.reads(view.v) {
                skipped += 1;
                continue;
            }
            if view.project != project {
                continue;
            }
            let score = if query.is_empty() { 1 } else { scratch.score(&view, &whole, &tokens) };
            if score > 0 && ranks(score, &view.decided_at, &best) {
                best.push((score, view.owned()));
                rank(&mut best);
            }
        }
        (best, skipped)
    });
    let skipped = parts.iter().map(|(_, s)| s).sum();
    let mut best: Vec<(u32, Judgment)> = parts.into_iter().flat_map(|(b, _)| b).collect();
    rank(&mut best);
    Ok((best.into_iter().map(|(_, j)| j).collect(), skipped))
}

/// The `decided_at` of a line as this crate writes it (compact, unescaped), without parsing.
fn date_of(line: &[u8]) -> Option<&str> {
    const KEY: &[u8] = b"\"decided_at\":\"";
    let start = memchr::memmem::find(line, KEY)? + KEY.len();
    let len = memchr::memchr(b'"', &line[start..])?;
    std::str::from_utf8(&line[start..start + len]).ok()
}

/// Whether a candidate would enter a full top list.
fn ranks(score: u32, decided_at: &str, best: &[(u32, Judgment)]) -> bool {
    best.len() < MAX_RESULTS || best.last().is_some_and(|(s, j)| (score, decided_at) > (*s, j.decided_at.as_str()))
}

/// Best first; a stable sort keeps file order among full ties.
fn rank(best: &mut Vec<(u32, Judgment)>) {
    best.sort_by(|(sa, a), (sb, b)| sb.cmp(sa).then_with(|| b.decided_at.cmp(&a.decided_at)));
    best.truncate(MAX_RESULTS);
}

/// How many records the ledger holds and how many lines did not parse (a missing file has
/// none). The file is read on every core.
pub fn count(path: &Path) -> std::io::Result<(usize, usize)> {
    let Some(bytes) = jsonl::read_bytes(path)? else { return Ok((0, 0)) };
    let parts = jsonl::par_lines(&bytes, |chunk| {
        jsonl::lines(chunk).fold((0, 0), |(ok, bad), line| match stored(line) {
            Some(_) => (ok + 1, bad),
            None => (ok, bad + 1),
        })
    });
    Ok(parts.into_iter().fold((0, 0), |(a, b), (c, d)| (a + c, b + d)))
}

/// Past judgments similar to `question`, as a card shows them.
pub fn recall(path: &Path, project: &str, question: &str) -> std::io::Result<(Vec<Recall>, usize)> {
    let (found, skipped) = search(path, project, question)?;
    Ok((found.iter().map(Judgment::recall).collect(), skipped))
}

/// A record as a reader of [`FORMAT`] takes it, owned: `None` for a line that does not parse or
/// a record of another major version.
fn stored(line: &[u8]) -> Option<Judgment> {
    #[derive(Deserialize)]
    struct Stored {
        #[serde(flatten)]
        judgment: Judgment,
        #[serde(default)]
        v: Option<String>,
    }
    let s = serde_json::from_slice::<Stored>(line).ok()?;
    FORMAT.reads(s.v.as_deref()).then_some(s.judgment)
}

/// A record as it sits in the file, its strings borrowed where they carry no escapes.
#[derive(Deserialize)]
struct View<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(borrow)]
    project: Cow<'a, str>,
    #[serde(borrow)]
    decided_at: Cow<'a, str>,
    #[serde(borrow)]
    question: Cow<'a, str>,
    #[serde(borrow)]
    answer: Cow<'a, str>,
    #[serde(borrow)]
    rationale: Cow<'a, str>,
    #[serde(borrow)]
    card_ref: Cow<'a, str>,
    #[serde(borrow)]
    tags: Vec<&'a str>,
    #[serde(borrow, default)]
    v: Option<&'a str>,
}

impl<'a> View<'a> {
    fn of(j: &'a Judgment) -> View<'a> {
        View {
            id: Cow::Borrowed(&j.id),
            project: Cow::Borrowed(&j.project),
            decided_at: Cow::Borrowed(&j.decided_at),
            question: Cow::Borrowed(&j.question),
            answer: Cow::Borrowed(&j.answer),
            rationale: Cow::Borrowed(&j.rationale),
            card_ref: Cow::Borrowed(&j.card_ref),
            tags: j.tags.iter().map(String::as_str).collect(),
            v: None,
        }
    }

    fn owned(&self) -> Judgment {
        Judgment {
            id: self.id.to_string(),
            project: self.project.to_string(),
            decided_at: self.decided_at.to_string(),
            question: self.question.to_string(),
            answer: self.answer.to_string(),
            rationale: self.rationale.to_string(),
            card_ref: self.card_ref.to_string(),
            tags: self.tags.iter().map(|t| t.to_string()).collect(),
        }
    }
}

/// Reused lowercase buffers, so scoring a record allocates nothing for ASCII text.
#[derive(Default)]
struct Scratch {
    fields: [String; 3],
    tag: String,
    line: String,
}

impl Scratch {
    /// The raw line lowercased, when that is exact: no JSON escapes, valid UTF-8. For an
    /// ASCII query, lowercasing the ASCII bytes alone finds every match, unless the line holds
    /// one of the two characters whose lowercase is ASCII (U+0130, U+212A).
    fn lower_line(&mut self, line: &[u8], ascii_query: bool) -> Option<&[u8]> {
        if memchr::memchr(b'\\', line).is_some() {
            return None;
        }
        let odd = |pat: &[u8]| memchr::memmem::find(line, pat).is_some();
        self.line.clear();
        if ascii_query && !odd("\u{130}".as_bytes()) && !odd("\u{212a}".as_bytes()) {
            let mut bytes = std::mem::take(&mut self.line).into_bytes();
            bytes.extend(line.iter().map(u8::to_ascii_lowercase));
            // ASCII lowercasing keeps every multi-byte sequence as it was.
            self.line = String::from_utf8(bytes).ok()?;
        } else {
            lower_into(&mut self.line, std::str::from_utf8(line).ok()?);
        }
        Some(self.line.as_bytes())
    }

    fn score(&mut self, j: &View, query: &Finder, tokens: &[Finder]) -> u32 {
        for (buf, text) in self.fields.iter_mut().zip([&j.question, &j.answer, &j.rationale]) {
            lower_into(buf, text);
        }
        let found = |f: &Finder, hay: &str| f.find(hay.as_bytes()).is_some();
        if self.fields.iter().any(|f| found(query, f)) {
            return 10;
        }
        let mut score = 0;
        for t in tokens {
            if self.fields.iter().any(|f| found(t, f)) {
                score += 1;
            }
            for tag in &j.tags {
                lower_into(&mut self.tag, tag);
                if found(t, &self.tag) {
                    score += 1;
                    break;
                }
            }
        }
        score
    }
}

fn lower_into(buf: &mut String, text: &str) {
    buf.clear();
    if text.is_ascii() {
        buf.extend(text.bytes().map(|b| b.to_ascii_lowercase() as char));
    } else {
        buf.push_str(&text.to_lowercase());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn j(id: &str, project: &str, at: &str, question: &str, answer: &str, rationale: &str, tags: &[&str]) -> Judgment {
        Judgment {
            id: id.into(),
            project: project.into(),
            decided_at: at.into(),
            question: question.into(),
            answer: answer.into(),
            rationale: rationale.into(),
            card_ref: "cards/1.json".into(),
            tags: tags.iter().map(|t| t.to_string()).collect(),
        }
    }

    fn ledger(records: &[Judgment]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("j.jsonl");
        for r in records {
            append_judgment(&path, r).unwrap_or_else(|e| panic!("{e}"));
        }
        (dir, path)
    }

    fn ids(found: &[Judgment]) -> Vec<&str> {
        found.iter().map(|j| j.id.as_str()).collect()
    }

    #[test]
    fn a_whole_query_substring_outranks_token_hits() {
        let (_d, path) = ledger(&[
            j("a", "p", "2026-01-01T00:00:00Z", "Use Postgres for the queue?", "yes", "", &[]),
            j("b", "p", "2026-01-02T00:00:00Z", "Queue on redis or postgres", "redis", "", &["queue"]),
            j("c", "p", "2026-01-03T00:00:00Z", "Unrelated", "no", "", &[]),
        ]);
        let (found, _) = search(&path, "p", "postgres for the queue").unwrap_or_default();
        assert_eq!(ids(&found), ["a", "b"]);
    }

    #[test]
    fn tags_add_a_point_and_ties_go_to_the_newest() {
        let (_d, path) = ledger(&[
            j("old", "p", "2026-01-01T00:00:00Z", "cache layer", "x", "", &[]),
            j("new", "p", "2026-02-01T00:00:00Z", "cache policy", "x", "", &[]),
            j("tagged", "p", "2026-01-15T00:00:00Z", "cache size", "x", "", &["cache"]),
        ]);
        let (found, _) = search(&path, "p", "cache x").unwrap_or_default();
        // tagged: cache(1+1) x(1) = 3; new, old: 2 each, newest first.
        assert_eq!(ids(&found), ["tagged", "new", "old"]);
    }

    #[test]
    fn one_character_tokens_and_zero_scores_are_dropped() {
        let (_d, path) = ledger(&[j("a", "p", "2026-01-01T00:00:00Z", "a b c", "d", "", &[])]);
        assert!(search(&path, "p", "a z").unwrap_or_default().0.is_empty());
    }

    #[test]
    fn every_read_is_scoped_to_the_project() {
        let (_d, path) = ledger(&[
            j("mine", "p", "2026-01-01T00:00:00Z", "deploy on friday?", "no", "", &[]),
            j("theirs", "q", "2026-01-02T00:00:00Z", "deploy on friday?", "yes", "", &[]),
            j("prefix", "p2", "2026-01-02T00:00:00Z", "deploy on friday?", "yes", "", &[]),
        ]);
        assert_eq!(ids(&search(&path, "p", "deploy").unwrap_or_default().0), ["mine"]);
        assert_eq!(recall(&path, "q", "deploy on friday?").unwrap_or_default().0.len(), 1);
    }

    #[test]
    fn at_most_three_results_and_an_empty_query_gives_the_newest() {
        let records: Vec<Judgment> = (0..6)
            .map(|i| j(&i.to_string(), "p", &format!("2026-01-0{}T00:00:00Z", i + 1), "q", "a", "", &[]))
            .collect();
        let (_d, path) = ledger(&records);
        assert_eq!(ids(&search(&path, "p", "").unwrap_or_default().0), ["5", "4", "3"]);
        assert_eq!(search(&path, "p", "q").unwrap_or_default().0.len(), 3);
    }

    #[test]
    fn records_written_with_unicode_escapes_are_found() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("j.jsonl");
        // Python's json.dumps escapes non-ASCII: the project never appears verbatim.
        let line = r#"{"id":"x","project":"\u30d7\u30ed","decided_at":"2026-01-01T00:00:00Z","question":"\u30c7\u30d7\u30ed\u30a4","answer":"\u306f\u3044","rationale":"","card_ref":"c","tags":[]}"#;
        std::fs::write(&path, format!("{line}\n")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ids(&search(&path, "プロ", "デプロイ").unwrap_or_default().0), ["x"]);
    }

    #[test]
    fn records_with_escaped_tags_are_found() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("j.jsonl");
        let line = r#"{"id":"x","project":"p","decided_at":"t","question":"q","answer":"a","rationale":"","card_ref":"c","tags":["say \"hi\""]}"#;
        std::fs::write(&path, format!("{line}\n")).unwrap_or_else(|e| panic!("{e}"));
        let (found, skipped) = search(&path, "p", "hi").unwrap_or_default();
        assert_eq!((ids(&found), skipped), (vec!["x"], 0));
        assert_eq!(found[0].tags, ["say \"hi\""]);
    }

    /// The ranking as the earlier tool specified it, computed the slow way: parse everything.
    fn reference(records: &[Judgment], project: &str, query: &str) -> Vec<String> {
        let q = query.trim().to_lowercase();
        let tokens: Vec<&str> = q.split_whitespace().filter(|t| t.chars().count() >= 2).collect();
        let mut scored: Vec<(u32, &Judgment)> = records
            .iter()
            .filter(|j| j.project == project)
            .map(|j| {
                let fields = [j.question.to_lowercase(), j.answer.to_lowercase(), j.rationale.to_lowercase()];
                let score = if q.is_empty() {
                    1
                } else if fields.iter().any(|f| f.contains(&q)) {
                    10
                } else {
                    tokens
                        .iter()
                        .map(|t| {
                            fields.iter().any(|f| f.contains(t)) as u32
                                + j.tags.iter().any(|g| g.to_lowercase().contains(t)) as u32
                        })
                        .sum()
                };
                (score, j)
            })
            .filter(|(s, _)| *s > 0)
            .collect();
        scored.sort_by(|(sa, a), (sb, b)| sb.cmp(sa).then_with(|| b.decided_at.cmp(&a.decided_at)));
        scored.into_iter().take(MAX_RESULTS).map(|(_, j)| j.id.clone()).collect()
    }

    #[test]
    fn the_fast_search_ranks_exactly_as_the_slow_reference() {
        let words = [
            "Release",
            "release",
            "STORAGE",
            "storage",
            "移行",
            "リリース",
            "say \"hi\"",
            "Ωmega",
            "ΣΙΣ",
            "cache",
            "q",
            "\u{212a}elvin",
            "\u{130}stanbul",
        ];
        let mut seed: u64 = 0x1234_5678_9abc_def1;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut records = Vec::new();
        // Over 1 MiB, so the file is searched in one chunk per core and the chunks merged.
        for i in 0..6000 {
            let mut text = |k: usize| (0..k).map(|_| words[next(words.len())]).collect::<Vec<_>>().join(" ");
            let (question, answer, rationale, tag) = (text(4), text(1), text(2), text(1));
            records.push(j(
                &format!("r{i}"),
                ["p", "q", "プロ"][next(3)],
                &format!("2026-0{}-1{}T00:00:00Z", 1 + next(9), next(10)),
                &question,
                &answer,
                &rationale,
                &[&tag],
            ));
        }
        let (_d, path) = ledger(&records);
        assert!(std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0) > 1 << 20);
        for query in [
            "release storage",
            "RELEASE",
            "移行 cache",
            "say \"hi\"",
            "ςισ",
            "ωmega release",
            "",
            "q",
            "zzz",
            "kelvin",
            "i\u{307}stanbul cache",
        ] {
            for project in ["p", "プロ"] {
                let (found, _) = search(&path, project, query).unwrap_or_default();
                assert_eq!(ids(&found), reference(&records, project, query), "{project} / {query:?}");
            }
        }
    }

    #[test]
    fn records_written_in_another_key_order_are_ranked_the_same() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("j.jsonl");
        let line = r#"{"tags":["ops"],"question":"Rotate the keys?","id":"x","project":"p","decided_at":"t","answer":"yes","rationale":"","card_ref":"c"}"#;
        std::fs::write(&path, format!("{line}\n")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ids(&search(&path, "p", "rotate ops").unwrap_or_default().0), ["x"]);
    }

    #[test]
    fn recall_cuts_summaries_by_characters_never_splitting_one() {
        let long: String = "判".repeat(130);
        let exact: String = "断".repeat(120);
        assert_eq!(summary(&exact), exact);
        let cut = summary(&long);
        assert_eq!(cut.chars().count(), 120);
        assert!(cut.ends_with("...") && cut.starts_with(&"判".repeat(117)));
        let r = j("id1", "p", "t", &long, "yes", "", &[]).recall();
        assert_eq!(
            (r.outcome.as_str(), r.mem_id.as_str(), r.decision.as_str()),
            ("recorded", "judgment-ledger:id1", "yes")
        );
    }

    #[test]
    fn an_invalid_record_is_refused_and_nothing_is_written() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("j.jsonl");
        let bad = j("a", "", "t", "q", " ", "", &[]);
        let err = append_judgment(&path, &bad).err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(
            err,
            "judgment record: project must be a non-empty string; judgment record: answer must be a non-empty string"
        );
        assert!(!path.exists());
    }

    #[test]
    fn the_path_follows_the_environment_then_the_git_root() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let nested = dir.path().join("a/b");
        std::fs::create_dir_all(&nested).unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir_all(dir.path().join(".git")).unwrap_or_else(|e| panic!("{e}"));
        let env = |vars: &[(&str, &str)]| Env::Map(vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect());
        assert_eq!(
            judgment_path(&env(&[("HARNESS_JUDGMENT_LEDGER", "/x/l.jsonl")]), &nested),
            PathBuf::from("/x/l.jsonl")
        );
        assert_eq!(
            judgment_path(&env(&[("PROJECT_ROOT", "/r"), ("HARNESS_PROJECT_ROOT", "/h")]), &nested),
            PathBuf::from("/h/.claude/state/judgment-ledger.jsonl")
        );
        assert_eq!(
            judgment_path(&env(&[("PROJECT_ROOT", "/r")]), &nested),
            PathBuf::from("/r/.claude/state/judgment-ledger.jsonl")
        );
        assert_eq!(judgment_path(&env(&[]), &nested), dir.path().join(".claude/state/judgment-ledger.jsonl"));
    }
}
