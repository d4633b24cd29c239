//! Plan-item routing: how much verification effort an item deserves, and whether it is
//! critical (a second reviewer, the full gate).
//!
//! The deterministic path is [`classify_item`]: four keyword rules over the item's wording,
//! the earlier build's, with its dead stems and missing plurals fixed. [`route`] lets a provider
//! move that verdict through the shipped `routing.json`, judging structured evidence
//! ([`gather_evidence`]: the paths the item names that exist, how many other files mention
//! each, a charter excerpt) rather than the wording. Effort moves on the bar for the direction
//! it pushes (`act_raise` up, `act_lower` down); `irreversible` sets `critical` on the raise
//! bar and clears it on the lower one; `cosmetic` only ever lowers effort to `low`, and never
//! while the item is critical. With no provider, no catalog, any failure, or answers short of
//! their bars, the verdict is the classifier's, field for field.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use regex::Regex;
use serde::{Deserialize, Serialize};

use super::{Recorded, record};
use crate::answer::{Answer, AnswerValue, certainty_of};
use crate::ask::{CatalogRef, Request, prepare};
use crate::band::{Band, Direction, band_of};
use crate::event::Event;
use crate::ledger::DecisionRow;

/// The catalog routing asks from.
pub const CATALOG: &str = "routing";
/// The questions, asked in one call, applied in this order.
pub const QUESTIONS: [&str; 3] = ["effort", "irreversible", "cosmetic"];
/// How much of the charter the evidence carries, in characters.
pub const CHARTER_MAX: usize = 2000;
/// How long the default reference probe may walk the repository.
pub const PROBE_BUDGET: Duration = Duration::from_secs(2);
/// Files larger than this are not searched for references.
pub const PROBE_FILE_MAX: u64 = 1 << 20;
/// The consumer's name in the calibration ledger.
pub const CONSUMER: &str = "routing";

/// How much verification an item deserves, least first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Effort {
    /// Read the diff once.
    Low,
    /// A contained change, covered by its module's tests.
    Medium,
    /// Across modules or an interface: the full gate.
    High,
    /// A subsystem rewrite, a migration, concurrency, security or persistence.
    Xhigh,
    /// Hard to walk back, or reaching the whole project.
    Max,
}

impl Effort {
    /// Every level, least first.
    pub const ALL: [Effort; 5] = [Effort::Low, Effort::Medium, Effort::High, Effort::Xhigh, Effort::Max];

    /// The level as it is written.
    pub fn as_str(self) -> &'static str {
        match self {
            Effort::Low => "low",
            Effort::Medium => "medium",
            Effort::High => "high",
            Effort::Xhigh => "xhigh",
            Effort::Max => "max",
        }
    }

    /// The level a catalog option names.
    pub fn parse(s: &str) -> Option<Effort> {
        Effort::ALL.into_iter().find(|e| e.as_str() == s)
    }
}

/// A routing verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ItemClass {
    /// How much verification the item deserves.
    pub effort: Effort,
    /// Whether it needs a second reviewer.
    pub critical: bool,
    /// Why, in words a reader can check: the rule that fired, or who moved it and from what.
    pub reason: String,
    /// The paths the item names that exist in the repository (only when a provider decided).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
}

/// The words that make an item critical. The earlier build's list, with its stems reaching
/// their words (`migrat`, `destruct`) and its nouns their plurals and inflections.
const CRITICAL_WORDS: &str = r"billing|payments?|invoices?|charges?|checkouts?|subscriptions?|stripe|paywalls?|auth|authn|authz|authenticat(?:e|es|ed|ing|ion|ions)|authori[sz](?:e|es|ed|ing|ation|ations)|logins?|signups?|sessions?|passwords?|credentials?|secrets?|tokens?|api[\s-]?keys?|oauth|jwts?|crypto|encrypt(?:s|ed|ing|ion)?|decrypt(?:s|ed|ing|ion)?|signing|security|permissions?|access[\s-]?control|rbac|migrat(?:e|es|ed|ing|ion|ions)?|schemas?|ddl|drop\s+table|databases?|destruct(?:ive|ion)?|irreversible|delet(?:e|es|ed|ing|ion|ions)|deploy(?:s|ed|ing|ment|ments)?|releas(?:e|es|ed|ing)|production|infra|terraform|kubernetes|dns";
/// The critical words whose mistakes are sharpest: max effort.
const SHARP_WORDS: &str = r"migrat(?:e|es|ed|ing|ion|ions)?|schemas?|ddl|drop\s+table|irreversible|destruct(?:ive|ion)?|payments?|billing|crypto|security|auth|authenticat(?:e|es|ed|ing|ion|ions)|authori[sz](?:e|es|ed|ing|ation|ations)";
/// The words of a cosmetic item.
const TRIVIAL_WORDS: &str = r"typo|rename|renaming|comment|comments|docs?|readme|changelog|format|formatting|lint|whitespace|wording|copy[\s-]?edit|label|spelling|punctuation|bump\s+version";
/// A charter that says the project is high-risk.
const HIGH_RISK_WORDS: &str = r"high[\s-]?risk|security[\s-]?critical|handles?\s+(?:money|payments?|pii|secrets?)";

/// Whole words, as the earlier build's JS regexes read them: ASCII word boundaries, `\s` every
/// Unicode space, and case-insensitive the way JS `/i` without `u` is, folding ASCII letters
/// only. So the text is matched with its ASCII letters lowercased ([`folded`]) against
/// lowercase patterns: the same matches, and plain literals a hook-speed command compiles in
/// a fraction of the time a case-insensitive alternation takes.
fn words(alternatives: &str) -> Regex {
    let alternatives = alternatives.replace(r"\s", r"(?u:\s)");
    Regex::new(&format!(r"(?-u)\b(?:{alternatives})\b")).unwrap_or_else(|e| unreachable!("{e}"))
}

/// The text as the patterns see it: ASCII letters lowercased, everything else as it is.
fn folded(text: &str) -> String {
    text.to_ascii_lowercase()
}

/// Work that destroys what a revert cannot bring back, in the words people write it with: a
/// verb of destruction and its object with words between ("drop the users table", "truncate the
/// audit log table", "wipe the staging volumes"), and the phrases that need no object (`rm -rf`,
/// force pushes, history rewrites). Critical and sharp, like `drop table` always was.
const DESTROY_VERBS: &str = r"drop(?:s|ped|ping)?|truncat(?:e|es|ed|ing)|delet(?:e|es|ed|ing)|purg(?:e|es|ed|ing)|wip(?:e|es|ed|ing)|destroy(?:s|ed|ing)?|eras(?:e|es|ed|ing)|nuk(?:e|es|ed|ing)|remov(?:e|es|ed|ing)|decommission(?:s|ed|ing)?|tear(?:s|ing)?\s+down|tore\s+down|torn\s+down";
/// What those verbs destroy: data (records, rows, users, accounts), schemas, history and
/// infrastructure.
const DESTROY_OBJECTS: &str = r"tables?|databases?|dbs?|schemas?|collections?|keyspaces?|partitions?|buckets?|volumes?|disks?|clusters?|snapshots?|backups?|branch(?:es)?|repos?|repositor(?:y|ies)|history|histories|records?|rows?|data|datasets?|users?|accounts?|customers?|tenants?|entries|messages|emails|orders|transactions|profiles?|archives?";
/// Words that make a `branch` a branch of code, not of a repository ("remove the dead branch").
const CODE_BRANCH: [&str; 9] = ["dead", "else", "unreachable", "if", "match", "switch", "case", "default", "code"];
/// Phrases that are irreversible on their own.
const IRREVERSIBLE_PHRASES: &str = r"rm\s+-(?:rf|fr|r\s+-f|f\s+-r)|force[\s-]?push(?:es|ed|ing)?|push\s+(?:-f|--force(?:-with-lease)?)|filter-branch|filter-repo|reset\s+--hard|history\s+rewrit(?:e|es|ing)|rewrit(?:e|es|ing|ten)\s+(?:the\s+|git\s+|our\s+|its\s+|their\s+)*(?:git\s+)?history|rewrote\s+(?:the\s+|git\s+)*history";
/// How many words may stand between a verb of destruction and its object.
const DESTROY_GAP: usize = 4;
/// Words that end the reach of a verb: what follows is not its object ("remove the border
/// from the table").
const DESTROY_STOPS: [&str; 11] = ["from", "in", "into", "on", "onto", "to", "for", "with", "at", "by", "than"];

static CRITICAL: LazyLock<Regex> = LazyLock::new(|| words(CRITICAL_WORDS));
static DESTROY_VERB: LazyLock<Regex> = LazyLock::new(|| words(DESTROY_VERBS));
static DESTROY_OBJECT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!("^(?:{DESTROY_OBJECTS})$")).unwrap_or_else(|e| unreachable!("{e}")));
static IRREVERSIBLE: LazyLock<Regex> = LazyLock::new(|| words(IRREVERSIBLE_PHRASES));

/// Whether folded text names irreversible destruction (see [`DESTROY_VERBS`]).
fn irreversible(text: &str) -> bool {
    if IRREVERSIBLE.is_match(text) {
        return true;
    }
    DESTROY_VERB.find_iter(text).any(|verb| {
        let mut code = false;
        for (i, raw) in text[verb.end()..].split_whitespace().take(DESTROY_GAP + 1).enumerate() {
            let word = raw.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '_' && c != '-');
            if DESTROY_OBJECT.is_match(word) && !(code && word.starts_with("branch")) {
                return true;
            }
            code |= CODE_BRANCH.contains(&word);
            // A clause ends at punctuation, and a preposition starts another object.
            let ends = raw.ends_with(['.', ',', ';', ':', '!', '?', ')']);
            if ends || DESTROY_STOPS.contains(&word) || i == DESTROY_GAP {
                return false;
            }
        }
        false
    })
}
static SHARP: LazyLock<Regex> = LazyLock::new(|| words(SHARP_WORDS));
static TRIVIAL: LazyLock<Regex> = LazyLock::new(|| words(TRIVIAL_WORDS));
static HIGH_RISK: LazyLock<Regex> = LazyLock::new(|| words(HIGH_RISK_WORDS));

/// The deterministic verdict: the first rule that matches, in order.
///
/// 1. a risk keyword: critical, `high` effort (`max` for a sharp one);
/// 2. a charter that flags the project high-risk: `low` if the item is trivial, else `high`;
/// 3. a trivial item: `low`;
/// 4. otherwise `medium`.
pub fn classify_item(item: &str, charter: &str) -> ItemClass {
    // Trimmed as JS trims: Unicode white space and the byte-order mark.
    let text = folded(item.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}'));
    let text = text.as_str();
    let charter = folded(charter);
    let charter = charter.as_str();
    let verdict =
        |effort, critical, reason: &str| ItemClass { effort, critical, reason: reason.into(), files: Vec::new() };
    let destroys = irreversible(text);
    // A verb of destruction on cosmetic text ("delete trailing whitespace in the README") is
    // an ordinary edit: when it is the only risk word and the item is cosmetic, it is not one.
    let cosmetic_delete = !destroys
        && TRIVIAL.is_match(text)
        && CRITICAL
            .find_iter(text)
            .all(|m| DESTROY_VERB.find_at(text, m.start()).is_some_and(|v| v.start() == m.start()));
    if destroys || (CRITICAL.is_match(text) && !cosmetic_delete) {
        return if destroys || SHARP.is_match(text) {
            verdict(Effort::Max, true, "critical: matches risk keyword (sharp edge \u{2192} max effort)")
        } else {
            verdict(Effort::High, true, "critical: matches risk keyword")
        };
    }
    if !charter.trim().is_empty() && HIGH_RISK.is_match(charter) {
        return if TRIVIAL.is_match(text) {
            verdict(Effort::Low, false, "trivial item (charter high-risk, but cosmetic)")
        } else {
            verdict(Effort::High, false, "charter flags the project high-risk")
        };
    }
    if TRIVIAL.is_match(text) {
        return verdict(Effort::Low, false, "trivial: cosmetic / low blast radius");
    }
    verdict(Effort::Medium, false, "default: ordinary change")
}

/// The state the provider judges: structured evidence, counted by code.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    /// The plan item, as written.
    pub item: String,
    /// The paths the item names that exist under the repository root, sorted.
    pub files: Vec<String>,
    /// For each path, how many other files in the repository mention it.
    pub references: BTreeMap<String, usize>,
    /// When the reference walk stopped before the whole repository: counts are lower bounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub references_incomplete: Option<String>,
    /// The charter's first [`CHARTER_MAX`] characters.
    pub charter_excerpt: String,
}

/// How many other files mention each path.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct References {
    /// Path to the number of other files that mention it.
    pub counts: BTreeMap<String, usize>,
    /// Set when the walk stopped early, saying why: the counts are lower bounds.
    pub incomplete: Option<String>,
}

/// Counts references to paths. The default walks the repository; tests inject counts.
pub trait Probe: Sync {
    /// How many other files mention each of `paths`.
    fn references(&self, paths: &[String]) -> References;
}

/// The default probe: walks the repository as ripgrep does (honouring `.gitignore`, skipping
/// hidden files), skips binary files and files over [`PROBE_FILE_MAX`], and stops at its time
/// budget, saying so.
#[derive(Debug, Clone)]
pub struct RepoProbe {
    /// The repository root.
    pub root: PathBuf,
    /// How long the walk may take.
    pub budget: Duration,
}

impl RepoProbe {
    /// A probe of `root` with the default budget.
    pub fn new(root: impl Into<PathBuf>) -> RepoProbe {
        RepoProbe { root: root.into(), budget: PROBE_BUDGET }
    }
}

impl Probe for RepoProbe {
    fn references(&self, paths: &[String]) -> References {
        let mut out = References { counts: paths.iter().map(|p| (p.clone(), 0)).collect(), incomplete: None };
        if paths.is_empty() {
            return out;
        }
        // The walk runs on a thread of its own: whatever a file does (a FIFO that appears mid
        // walk, a mount that stalls a read), the answer comes at the budget with what was
        // counted by then.
        let walk = Arc::new(Walk {
            counts: paths.iter().map(|_| AtomicUsize::new(0)).collect(),
            read: AtomicUsize::new(0),
            stopped: AtomicBool::new(false),
            skipped: std::sync::Mutex::new(BTreeMap::new()),
        });
        let deadline = Instant::now() + self.budget;
        let (theirs, root, owned) = (Arc::clone(&walk), self.root.clone(), paths.to_vec());
        let finished = crate::file::within(deadline + WALK_SETTLE, move || theirs.run(&root, &owned, deadline));
        if finished.is_none() {
            walk.stopped.store(true, Ordering::Relaxed);
        }
        for (p, c) in paths.iter().zip(&walk.counts) {
            out.counts.insert(p.clone(), c.load(Ordering::Relaxed));
        }
        let mut why = Vec::new();
        if walk.stopped.load(Ordering::Relaxed) {
            why.push(format!(
                "the reference walk stopped at its {} ms budget after {} files",
                self.budget.as_millis(),
                walk.read.load(Ordering::Relaxed)
            ));
        }
        let skipped = walk.skipped.lock().map(|s| s.clone()).unwrap_or_default();
        if !skipped.is_empty() {
            let n: usize = skipped.values().sum();
            let reasons: Vec<String> = skipped.iter().map(|(r, k)| format!("{r}: {k}")).collect();
            let what = if n == 1 { "entry" } else { "entries" };
            why.push(format!("the reference walk could not read {n} {what} ({})", reasons.join(", ")));
        }
        if !why.is_empty() {
            out.incomplete = Some(format!("{}; counts are lower bounds", why.join("; ")));
        }
        out
    }
}

/// How long past its budget the walk is waited for before its counts are taken as they stand.
const WALK_SETTLE: Duration = Duration::from_millis(50);

/// One reference walk's counts, shared with the thread that walks.
struct Walk {
    counts: Vec<AtomicUsize>,
    read: AtomicUsize,
    stopped: AtomicBool,
    /// Entries the walk could not open or read, by why: each makes the counts lower bounds.
    skipped: std::sync::Mutex<BTreeMap<String, usize>>,
}

impl Walk {
    fn run(&self, root: &Path, paths: &[String], deadline: Instant) {
        let Ok(finder) = aho_corasick::AhoCorasick::new(paths) else { return };
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
        let walker = ignore::WalkBuilder::new(root).threads(threads).build_parallel();
        walker.run(|| {
            let finder = &finder;
            Box::new(move |entry| {
                if self.stopped.load(Ordering::Relaxed) || Instant::now() > deadline {
                    self.stopped.store(true, Ordering::Relaxed);
                    return ignore::WalkState::Quit;
                }
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(e) => {
                        self.skip(e.io_error().map_or_else(|| e.to_string(), io_why));
                        return ignore::WalkState::Continue;
                    }
                };
                if entry.file_type().is_some_and(|t| t.is_file()) {
                    self.count(finder, root, paths, entry.path());
                }
                ignore::WalkState::Continue
            })
        });
    }

    /// Count the paths one file mentions. The file is opened without blocking and read only if
    /// it is still a regular file (it may have become a FIFO since the walk listed it), and
    /// never past [`PROBE_FILE_MAX`].
    fn count(&self, finder: &aho_corasick::AhoCorasick, root: &Path, paths: &[String], path: &Path) {
        let file = match crate::file::open_for_read(path) {
            Ok(f) => f,
            // One that stopped being a regular file since it was listed is not a source.
            Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => return,
            Err(e) => return self.skip(io_why(&e)),
        };
        match file.metadata() {
            Ok(m) if m.len() > PROBE_FILE_MAX => return,
            Ok(_) => {}
            Err(e) => return self.skip(io_why(&e)),
        }
        let mut bytes = Vec::new();
        if let Err(e) = std::io::Read::read_to_end(&mut std::io::Read::take(file, PROBE_FILE_MAX + 1), &mut bytes) {
            return self.skip(io_why(&e));
        }
        if bytes.len() as u64 > PROBE_FILE_MAX {
            return;
        }
        self.read.fetch_add(1, Ordering::Relaxed);
        if memchr::memchr(0, &bytes[..bytes.len().min(8192)]).is_some() {
            return; // binary
        }
        let own = path.strip_prefix(root).ok().map(|p| p.to_string_lossy().replace('\\', "/"));
        let mut seen = BTreeSet::new();
        for m in finder.find_overlapping_iter(&bytes) {
            if mentions(&bytes, m.start(), m.end()) {
                seen.insert(m.pattern().as_usize());
            }
        }
        for i in seen {
            if own.as_deref() != Some(paths[i].as_str()) {
                self.counts[i].fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

impl Walk {
    fn skip(&self, why: String) {
        if let Ok(mut s) = self.skipped.lock() {
            *s.entry(why).or_default() += 1;
        }
    }
}

/// What an I/O error says, without its error number: "File name too long".
fn io_why(e: &std::io::Error) -> String {
    let said = e.to_string();
    said.split(" (os error").next().unwrap_or(&said).to_string()
}

/// Whether `text[start..end]` is a mention of the path, not part of a longer one: nothing
/// path-like touches it on either side, except a leading `./`. So `src/retry.rs` is mentioned
/// by `./src/retry.rs` and by "see src/retry.rs.", but not by `xsrc/retry.rs` or
/// `src/retry.rs.bak`.
fn mentions(text: &[u8], start: usize, end: usize) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let free = |at: usize| at == 0 || !(word(text[at - 1]) || matches!(text[at - 1], b'.' | b'/'));
    let before_ok = match start.checked_sub(1).map(|i| text[i]) {
        Some(b'/') => text[..start].ends_with(b"./") && free(start - 2),
        _ => free(start),
    };
    let after_ok = match text.get(end) {
        None => true,
        Some(b'.') => !text.get(end + 1).is_some_and(|b| word(*b)),
        Some(b) => !word(*b) && *b != b'/',
    };
    before_ok && after_ok
}

static BACKTICKED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"`([^`\s]+\.[A-Za-z0-9]{1,6})`").unwrap_or_else(|e| unreachable!("{e}")));
static BARE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:\A|[\s(])([A-Za-z0-9_./-]+/[A-Za-z0-9_.-]+\.[A-Za-z0-9]{1,6})")
        .unwrap_or_else(|e| unreachable!("{e}"))
});

/// The paths an item names (backticked, or bare `dir/file.ext`) that exist under `root`,
/// sorted: never absolute, never through `..`, never a link that leads out of the root.
pub fn named_paths(item: &str, root: &Path) -> Vec<String> {
    let named = BACKTICKED.captures_iter(item).chain(BARE.captures_iter(item)).filter_map(|c| c.get(1));
    let candidates: Vec<String> = named.map(|m| m.as_str().to_string()).collect();
    existing(candidates, root)
}

/// The candidates that are files or directories inside `root`, each written one way
/// (`./src//a.rs` is `src/a.rs`), sorted and deduplicated. The root itself (`.`) names no file.
fn existing(candidates: impl IntoIterator<Item = String>, root: &Path) -> Vec<String> {
    let Ok(real_root) = root.canonicalize() else { return Vec::new() };
    let kept: BTreeSet<String> = candidates
        .into_iter()
        .filter_map(|p| normalised(&p))
        .filter(|p| root.join(p).canonicalize().is_ok_and(|real| real.starts_with(&real_root) && real != real_root))
        .collect();
    kept.into_iter().collect()
}

/// A relative path written one way: its names joined by `/`, without `.` or empty parts; none
/// for an absolute path, one through `..`, or one that names only the root.
fn normalised(p: &str) -> Option<String> {
    let path = Path::new(p);
    let mut names = Vec::new();
    for c in path.components() {
        match c {
            std::path::Component::Normal(n) => names.push(n.to_str()?),
            std::path::Component::CurDir => {}
            _ => return None,
        }
    }
    (!names.is_empty()).then(|| names.join("/"))
}

/// The evidence for an item: the named paths that exist (or `files`, filtered the same way),
/// their reference counts, and the charter's first [`CHARTER_MAX`] characters.
pub fn gather_evidence(
    item: &str,
    charter: &str,
    root: &Path,
    files: Option<&[String]>,
    probe: &dyn Probe,
) -> Evidence {
    let files = match files {
        Some(given) => existing(given.iter().cloned(), root),
        None => named_paths(item, root),
    };
    let refs = probe.references(&files);
    Evidence {
        item: item.to_string(),
        references: refs.counts,
        references_incomplete: refs.incomplete,
        files,
        charter_excerpt: charter.chars().take(CHARTER_MAX).collect(),
    }
}

/// What decided a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DecidedBy {
    /// The keyword rules: nothing the provider said moved it.
    Classifier,
    /// A confident answer moved it.
    Provider,
}

/// A routing request.
pub struct RouteRequest<'a> {
    /// The plan item's text.
    pub item: String,
    /// The project charter (may be empty).
    pub charter: String,
    /// The repository the item's paths are relative to.
    pub repo_root: PathBuf,
    /// The paths to judge, instead of those the item names (filtered the same way).
    pub files: Option<Vec<String>>,
    /// The reference probe; `None` walks `repo_root` with [`RepoProbe`].
    pub probe: Option<&'a dyn Probe>,
    /// How to reach the seam: catalog (default `routing`), leo dir, config, provider, budget,
    /// environment. Its questions and state are routing's own.
    pub seam: Request<'a>,
    /// Whether to append decision rows to the calibration ledger.
    pub record: bool,
}

/// A routing outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Routed {
    /// The verdict.
    pub verdict: ItemClass,
    /// Whether the classifier's verdict stood or a provider moved it.
    pub decided_by: DecidedBy,
    /// The calibration-ledger rows written, one per answered question.
    pub recorded: Vec<Recorded>,
    /// The seam's events.
    pub events: Vec<Event>,
    /// The evidence sent, when a provider was asked.
    pub evidence: Option<Evidence>,
    /// Why the rows could not be written, when they could not; the verdict is unaffected.
    pub ledger_error: Option<String>,
}

impl Routed {
    /// What `decisions route` prints: the verdict's fields, `decided_by`, `recorded` and the
    /// seam's `events`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut out = serde_json::to_value(&self.verdict).unwrap_or_default();
        out["decided_by"] = serde_json::json!(self.decided_by);
        out["recorded"] = serde_json::json!(self.recorded);
        out["events"] = serde_json::json!(self.events);
        out
    }
}

/// Route a plan item. Never fails: every failure is the classifier's verdict.
pub fn route(req: &RouteRequest<'_>) -> Routed {
    let fallback = classify_item(&req.item, &req.charter);
    let mut seam = req.seam.clone();
    seam.questions = QUESTIONS.iter().map(|q| q.to_string()).collect();
    if seam.catalog.is_none() {
        seam.catalog = Some(CatalogRef::Name(CATALOG.into()));
    }
    let classifier = |events: Vec<Event>| Routed {
        verdict: fallback.clone(),
        decided_by: DecidedBy::Classifier,
        recorded: Vec::new(),
        events,
        evidence: None,
        ledger_error: None,
    };
    // Nothing to ask (no catalog, no provider, an invalid one, no key): no walk, no network.
    let prepared = match prepare(&seam) {
        Ok(p) => p,
        Err(failed) => return classifier(failed.events),
    };
    let walker;
    let probe: &dyn Probe = match req.probe {
        Some(p) => p,
        None => {
            walker = RepoProbe::new(&req.repo_root);
            &walker
        }
    };
    let evidence = gather_evidence(&req.item, &req.charter, &req.repo_root, req.files.as_deref(), probe);
    let state = serde_json::to_value(&evidence).unwrap_or_default();
    let decision = prepared.ask(&state, ());
    let answer = |q: &str| match decision.answer(q) {
        Some(Ok(a)) => Some(a),
        _ => None,
    };
    let bars = |q: &str| prepared.catalog().question(q).map(|q| q.thresholds);

    let mut effort = fallback.effort;
    let mut critical = fallback.critical;
    let mut why: Vec<String> = Vec::new();
    // Per answered question: the band actually used for its direction, and whether it moved.
    let mut used: BTreeMap<&str, (Band, bool)> = BTreeMap::new();

    // 1. effort, on the bar for the direction it pushes; an answer that agrees moves nothing.
    if let (Some(a), Some(t)) = (answer("effort"), bars("effort")) {
        let proposed = match &a.value {
            AnswerValue::Choice(c) => Effort::parse(c),
            _ => None,
        };
        let direction = proposed.and_then(|p| direction(p > fallback.effort, p < fallback.effort));
        let band = band_of(&t, certainty_of(a), direction);
        let moved = band == Band::Act && proposed.is_some_and(|p| p != effort);
        if let (true, Some(p)) = (moved, proposed) {
            why.push(format!("effort {}->{}", effort.as_str(), p.as_str()));
            effort = p;
        }
        used.insert("effort", (band, moved));
    }
    // 2. irreversible sets critical on the raise bar and clears it on the lower one.
    if let (Some(a), Some(t)) = (answer("irreversible"), bars("irreversible")) {
        let yes = noul(a) >= 0.5;
        let band = band_of(&t, certainty_of(a), direction(yes && !critical, !yes && critical));
        let moved = band == Band::Act && yes != critical;
        if moved {
            why.push(format!("critical {critical}->{yes}"));
            critical = yes;
        }
        used.insert("irreversible", (band, moved));
    }
    // 3. cosmetic only ever lowers, to low, and never what is critical now.
    if let (Some(a), Some(t)) = (answer("cosmetic"), bars("cosmetic")) {
        let band = band_of(&t, certainty_of(a), Some(Direction::Lower));
        let moved = !critical && band == Band::Act && noul(a) >= 0.5 && effort != Effort::Low;
        if moved {
            why.push(format!("cosmetic: effort {}->low", effort.as_str()));
            effort = Effort::Low;
        }
        used.insert("cosmetic", (band, moved));
    }

    // The ledger: one row per answered question, with the band used and whether it acted.
    let (recorded, ledger_error) = if req.record {
        let rows: Vec<DecisionRow> = QUESTIONS
            .iter()
            .filter_map(|q| {
                let (band, acted) = used.get(q)?;
                Some(DecisionRow::for_answer(CONSUMER, q, answer(q)?, *band, *acted))
            })
            .collect();
        record(seam.leo_dir.as_deref(), rows, decision.deadline)
    } else {
        (Vec::new(), None)
    };

    if why.is_empty() {
        return Routed { recorded, ledger_error, evidence: Some(evidence), ..classifier(decision.events) };
    }
    let model = QUESTIONS.iter().find_map(|q| answer(q)).map_or(decision.provider.as_str(), |a| a.model.as_str());
    let verdict = ItemClass {
        effort,
        critical,
        reason: format!("{}/{model}: {} (was: {})", decision.provider, why.join(", "), fallback.reason),
        files: evidence.files.clone(),
    };
    Routed {
        verdict,
        decided_by: DecidedBy::Provider,
        recorded,
        events: decision.events,
        evidence: Some(evidence),
        ledger_error,
    }
}

/// The direction a move would go: up, down, or none.
fn direction(raise: bool, lower: bool) -> Option<Direction> {
    match (raise, lower) {
        (true, _) => Some(Direction::Raise),
        (_, true) => Some(Direction::Lower),
        _ => None,
    }
}

fn noul(a: &Answer) -> f64 {
    match a.value {
        AnswerValue::Noul(p) => p,
        _ => 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mention_is_the_path_itself_not_part_of_a_longer_one() {
        let at = |text: &str| {
            let start = text.find("src/a.rs").expect("in text");
            mentions(text.as_bytes(), start, start + "src/a.rs".len())
        };
        for yes in ["src/a.rs", "see src/a.rs.", "`src/a.rs`", "./src/a.rs", "(src/a.rs)", "\"src/a.rs\","] {
            assert!(at(yes), "{yes}");
        }
        for no in ["xsrc/a.rs", "src/a.rs.bak", "lib/src/a.rs", "../src/a.rs", "src/a.rsx", "src/a.rs/b"] {
            assert!(!at(no), "{no}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_where_the_walk_listed_a_file_is_skipped_at_once() {
        let dir = tempfile::tempdir().expect("tmp");
        let fifo = dir.path().join("f.txt");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()));
        let walk = Walk {
            counts: vec![AtomicUsize::new(0)],
            read: AtomicUsize::new(0),
            stopped: AtomicBool::new(false),
            skipped: std::sync::Mutex::new(BTreeMap::new()),
        };
        let finder = aho_corasick::AhoCorasick::new(["x"]).expect("finder");
        let (tx, rx) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || {
            walk.count(&finder, Path::new("/"), &["x".to_string()], &path);
            let _ = tx.send(walk.read.load(Ordering::Relaxed));
        });
        assert_eq!(rx.recv_timeout(Duration::from_secs(2)), Ok(0), "opened without blocking, and not read");
    }
}
