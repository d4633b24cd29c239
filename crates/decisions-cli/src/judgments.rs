//! The judgment ledger fails open: what `judgment` and `card` share of it.

use decisions::judgment::{AppendError, Judgment, append_judgment, recall};

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

/// Recall, failing open to no similar decisions.
pub fn recall_fail_open(path: &std::path::Path, project: &str, question: &str) -> Vec<decisions::judgment::Recall> {
    match recall(path, project, question) {
        Ok((found, skipped)) => {
            crate::output::warn_skipped(skipped, path);
            found
        }
        Err(e) => {
            eprintln!("warning: recall skipped: {}: {e}", path.display());
            Vec::new()
        }
    }
}
