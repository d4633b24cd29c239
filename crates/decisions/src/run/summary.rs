//! A run's figures, and the line it ends with.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::run::Outcome;

/// A run's figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Items read from the input (including those skipped).
    pub items: u64,
    /// Items skipped as already done (`--resume`).
    pub skipped: u64,
    /// Items skipped because their id came earlier in this input: each has a line saying so.
    pub duplicates: u64,
    /// Items that got an answer to every question.
    pub answered: u64,
    /// Questions answered, over every item.
    pub answers: u64,
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
    /// Why the run stopped itself early: the provider asked for a pause past the bound, or
    /// refused the first items for a reason of its own.
    pub halt: Option<String>,
    /// The rate the run was paced at when it ended, in requests a second (the ceiling it was
    /// given, or what it learned from the provider); none when it never needed one.
    pub rate: Option<f64>,
    /// Whether the lines went to a file `--resume` can continue.
    #[serde(skip)]
    pub resumable: bool,
}

impl Summary {
    pub(crate) fn count(&mut self, o: &Outcome) {
        self.asked += 1;
        if o.decision.answers.iter().all(|(_, r)| r.is_ok()) {
            self.answered += 1;
        }
        self.answers += o.decision.answers.iter().filter(|(_, r)| r.is_ok()).count() as u64;
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
        let plural = |n: u64, noun: &str| if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") };
        let mut head = plural(self.items, "item");
        if self.skipped > 0 {
            head.push_str(&format!(" ({} already done)", self.skipped));
        }
        if self.duplicates > 0 {
            head.push_str(&format!(" ({} with a repeated id, skipped)", self.duplicates));
        }
        let failures = if self.failures.is_empty() {
            "no failures".to_string()
        } else {
            format!("failed questions: {}", by_reason(&self.failures))
        };
        let retry = if self.resumable {
            format!("{} to retry with --resume", self.retry)
        } else {
            format!("{} transient or unasked", self.retry)
        };
        let paced = match self.rate {
            Some(r) => format!(", paced at {r:.1}/s at the end"),
            None => String::new(),
        };
        let ended = match (&self.halt, self.interrupted) {
            (Some(why), _) => self.left_note(&format!("stopped: {why}")),
            (None, true) => self.left_note("interrupted"),
            (None, false) if self.nothing_answered() => "; nothing was answered".to_string(),
            (None, false) => String::new(),
        };
        format!(
            "{head}: {} answered, {} usable, {failures}, {retry}; {:.1}s, {:.1} items/s, {} HTTP requests, {} 429s{paced}{ended}",
            self.answered, self.usable, self.elapsed_s, self.throughput, self.http_requests, self.rate_limited,
        )
    }

    /// Items were asked and not one question of one of them was answered.
    pub fn nothing_answered(&self) -> bool {
        self.asked > 0 && self.answers == 0
    }

    /// Items read and never dispatched when the run ended early.
    pub fn not_asked(&self) -> u64 {
        self.items.saturating_sub(self.asked + self.skipped + self.duplicates)
    }

    fn left_note(&self, what: &str) -> String {
        let left = self.not_asked();
        let resume = if self.resumable { "; --resume continues it" } else { "" };
        format!("; {what}; {left} read and not asked{resume}")
    }
}

/// Counts by reason as a person reads them: `timeout 2, transport 1`.
pub fn by_reason(counts: &BTreeMap<String, u64>) -> String {
    counts.iter().map(|(r, n)| format!("{r} {n}")).collect::<Vec<_>>().join(", ")
}
