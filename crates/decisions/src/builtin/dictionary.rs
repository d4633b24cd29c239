//! What tldr-pages says each program does, in a few words: the words of each page's one-line
//! description (`Overwrite files to securely delete data.` is `overwrite file securely delete
//! data`), keyed by the page's command (`shred`, `git push`, `doctl compute droplet`). A call
//! whose program, or program and subcommand, has a page gets those words as features, so the
//! model can judge a program it has no labelled row of by what its page says it does.
//!
//! The list is built from `model/data/tldr-examples.jsonl` (CC BY 4.0, the tldr-pages team and
//! contributors) by `train`, sorted, one `key<TAB>words` line each, and embedded.

use serde_json::Value;

/// The embedded list.
static LIST: &str = include_str!("tldr.txt");

/// Words that say nothing of what a program does.
const STOP: [&str; 52] = [
    "the",
    "and",
    "for",
    "with",
    "from",
    "into",
    "that",
    "this",
    "your",
    "you",
    "are",
    "its",
    "all",
    "any",
    "can",
    "not",
    "using",
    "used",
    "use",
    "via",
    "more",
    "information",
    "such",
    "other",
    "one",
    "which",
    "when",
    "their",
    "than",
    "also",
    "over",
    "between",
    "both",
    "each",
    "like",
    "tool",
    "utility",
    "command",
    "commands",
    "line",
    "program",
    "programs",
    "based",
    "see",
    "alias",
    "well",
    "way",
    "some",
    "given",
    "without",
    "has",
    "have",
];

/// The words of a description, as the model sees them: lowercase, three letters or more, no
/// stop words, a plural `s` taken off.
pub fn words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 3)
        .map(str::to_ascii_lowercase)
        .filter(|w| !STOP.contains(&w.as_str()))
        .map(|w| if w.len() > 4 && w.ends_with('s') && !w.ends_with("ss") { w[..w.len() - 1].to_string() } else { w })
        .collect();
    out.dedup();
    out.truncate(10);
    out
}

/// The words of the page for `key` (`git push`), if there is one.
pub fn about(key: &str) -> Option<&'static str> {
    lookup(LIST, key)
}

/// Binary search of sorted `key<TAB>words` lines.
fn lookup<'a>(list: &'a str, key: &str) -> Option<&'a str> {
    let bytes = list.as_bytes();
    let (mut lo, mut hi) = (0usize, bytes.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        // The start of the line holding `mid`.
        let start = bytes[..mid].iter().rposition(|b| *b == b'\n').map_or(0, |p| p + 1);
        let end = bytes[start..].iter().position(|b| *b == b'\n').map_or(bytes.len(), |p| start + p);
        let line = &list[start..end];
        let (k, words) = line.split_once('\t').unwrap_or((line, ""));
        match k.cmp(key) {
            std::cmp::Ordering::Equal => return Some(words),
            std::cmp::Ordering::Less => lo = end + 1,
            std::cmp::Ordering::Greater => hi = start,
        }
    }
    None
}

/// The list from tldr-pages' rows: each page's description words, an alias page
/// ("This command is an alias of `docker container rm`.") taking its target's.
pub fn build(rows: &[Value]) -> String {
    let mut about: std::collections::BTreeMap<String, String> = std::collections::BTreeMap::new();
    for r in rows {
        let (Some(tool), Some(text)) = (r.get("tool").and_then(Value::as_str), r.get("about").and_then(Value::as_str))
        else {
            continue;
        };
        let key = tool.to_ascii_lowercase();
        if key.contains('\t') || key.contains('\n') {
            continue;
        }
        // The first platform listed wins (common, then linux, then osx, as the file is ordered).
        about.entry(key).or_insert_with(|| text.to_string());
    }
    let resolved: std::collections::BTreeMap<&String, String> = about
        .iter()
        .map(|(k, text)| {
            let mut text = text.as_str();
            for _ in 0..4 {
                let Some(target) = alias_of(text) else { break };
                match about.get(&target) {
                    Some(t) => text = t,
                    None => break,
                }
            }
            (k, words(text).join(" "))
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    resolved.iter().map(|(k, w)| format!("{k}\t{w}\n")).collect()
}

/// The page an alias page names: `This command is an alias of `docker container rm`.`
fn alias_of(text: &str) -> Option<String> {
    let rest = text.split_once("alias of `")?.1;
    let target = rest.split('`').next()?;
    let words: Vec<&str> = target.split_whitespace().take_while(|w| !w.starts_with('-')).collect();
    (!words.is_empty()).then(|| words.join(" ").to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_found_by_their_command_and_aliases_take_their_targets_words() {
        let rows: Vec<Value> = [
            ("shred", "Overwrite files to securely delete data."),
            ("docker container rm", "Remove containers."),
            ("docker rm", "This command is an alias of `docker container rm`."),
            ("ls", "List directory contents."),
        ]
        .iter()
        .map(|(t, a)| serde_json::json!({"tool": t, "about": a}))
        .collect();
        let list = build(&rows);
        assert_eq!(lookup(&list, "shred"), Some("overwrite file securely delete data"));
        assert_eq!(lookup(&list, "docker rm"), Some("remove container"));
        assert_eq!(lookup(&list, "ls"), Some("list directory content"));
        assert_eq!(lookup(&list, "lsx"), None);
        assert_eq!(lookup(&list, "a"), None);
    }
}
