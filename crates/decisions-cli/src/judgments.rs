//! The judgment ledger fails open: what `judgment` and `card` share of it.

use decisions::judgment::{AppendError, Judgment, append_judgment, card_problems, recall};
use serde_json::{Value, json};

/// Append, failing open: a schema violation is the caller's to fix (exit 1), an I/O failure is
/// reported and skipped (exit 0).
pub fn append_fail_open(path: &std::path::Path, judgment: &Judgment) -> anyhow::Result<u8> {
    match append_judgment(path, judgment) {
        Ok(()) => {
            crate::output::print_json(judgment, false)?;
            Ok(crate::exit::OK)
        }
        Err(e @ AppendError::Invalid(_)) => Err(crate::exit::CliError::fail(e.to_string()).into()),
        Err(e @ AppendError::Io(..)) => {
            eprintln!("warning: append skipped: {e}");
            Ok(crate::exit::OK)
        }
    }
}

/// Search, failing open to no matches.
pub fn search_fail_open(path: &std::path::Path, project: &str, query: &str) -> Vec<Judgment> {
    fail_open(path, "search", decisions::judgment::search(path, project, query))
}

/// Recall, failing open to no similar decisions.
pub fn recall_fail_open(path: &std::path::Path, project: &str, question: &str) -> Vec<decisions::judgment::Recall> {
    fail_open(path, "recall", recall(path, project, question))
}

/// A read of the ledger, its unreadable lines said on stderr; one that failed is said in one
/// line, and finds nothing.
fn fail_open<T>(path: &std::path::Path, what: &str, read: std::io::Result<(Vec<T>, usize)>) -> Vec<T> {
    match read {
        Ok((found, skipped)) => {
            crate::output::warn_skipped(skipped, path);
            found
        }
        Err(e) => {
            eprintln!("warning: {what} skipped: {}: {e}", path.display());
            Vec::new()
        }
    }
}

/// Every way a card repeats a key or breaks judgment-card.v1, each naming where.
pub fn problems(card: &decisions::json::Document) -> Vec<String> {
    let mut found: Vec<String> = card.duplicates.iter().map(ToString::to_string).collect();
    found.extend(card_problems(&card.value).iter().map(ToString::to_string));
    found
}

/// What `card validate --json` prints: whether the card is valid, and every problem.
pub fn validation(problems: &[String]) -> Value {
    json!({"valid": problems.is_empty(), "problems": problems})
}

/// A valid card with `similar_past_decisions` filled from the ledger at `path` (the project's
/// at most 3, as `judgment recall` ranks them), or what breaks the filled card.
pub fn recall_into(mut card: Value, path: &std::path::Path, project: &str) -> Result<Value, String> {
    let question = card["question"].as_str().unwrap_or_default().to_string();
    card["similar_past_decisions"] = json!(recall_fail_open(path, project, &question));
    let after: Vec<String> = card_problems(&card).iter().map(ToString::to_string).collect();
    if !after.is_empty() {
        return Err(format!("the filled card breaks judgment-card.v1: {}", after.join("; ")));
    }
    Ok(card)
}
