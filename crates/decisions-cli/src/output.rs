//! What commands print: JSON data on stdout, counts that read right, warnings on stderr.

use std::path::Path;

use anyhow::Context;

/// `n` and a noun, its plural when `n` is not 1: "1 problem", "3 problems".
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// Say on stderr how many lines of a JSONL file could not be read.
pub fn warn_skipped(skipped: usize, path: &Path) {
    if skipped > 0 {
        eprintln!("warning: skipped {} in {}", count(skipped, "unreadable line"), path.display());
    }
}

/// Print a JSON value on stdout, pretty when asked, with every character a terminal would act
/// on written as a `\u` escape (the same JSON value).
pub fn print_json(v: &impl serde::Serialize, pretty: bool) -> anyhow::Result<()> {
    let text = if pretty { serde_json::to_string_pretty(v) } else { serde_json::to_string(v) };
    println!("{}", decisions::escape::json_text(&text.context("serialising output")?));
    Ok(())
}
