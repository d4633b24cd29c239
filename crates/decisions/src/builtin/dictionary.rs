//! What tldr-pages says each program does, in a few words: the words of each page's one-line
//! description (`Overwrite files to securely delete data.` is `overwrite file securely delete
//! data`), keyed by the page's command (`shred`, `git push`, `doctl compute droplet`). A call
//! whose program, or program and subcommand, has a page gets those words as features, so the
//! model can judge a program it has no labelled row of by what its page says it does.
//!
//! Each page's examples say what each form of the command does: `vercel remove NAME` is
//! "Remove a deployment", `pg_restore --clean` "Clean database objects before creating them".
//! A call gets the words of the example its arguments match best ([`example`]), so the model
//! can tell a program's reading forms from its destroying ones where no row names the program.
//!
//! Both lists are built from `model/data/tldr-examples.jsonl` (CC BY 4.0, the tldr-pages team
//! and contributors) by `train`, sorted by key, and embedded: `key<TAB>words` lines in
//! `tldr.txt`, and `key<TAB>example<TAB>example...` lines in `tldr-examples.txt`, where an
//! example is its literal subcommands and flags (alternatives joined by `|`), `=`, and its words,
//! each written as the two characters that number it in `tldr-words.txt` (the examples' words,
//! sorted, each padded to the width its first line gives), a quarter of the bytes its letters and
//! a space took.

use serde_json::Value;

/// The embedded list.
static LIST: &str = include_str!("tldr.txt");
/// The embedded examples.
static EXAMPLES: &str = include_str!("tldr-examples.txt");
/// The embedded words of the examples, numbered.
static WORDS: &str = include_str!("tldr-words.txt");
/// The characters a word's number is written in: printable, and none that the lists or a shell's
/// quoting give a meaning (a tab, a newline, `=`, `|`, a space, quotes, a backslash).
const DIGITS: &[u8] = b"!#$%&()*+,-./0123456789:;<>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{}~";
/// The most literal words and flags kept of an example's command.
const EXAMPLE_LITERALS: usize = 6;
/// The most words kept of an example's description.
const EXAMPLE_WORDS: usize = 5;
/// A word of an example's description is kept only if this many examples use it: a rarer one
/// teaches the model nothing it can use for another program.
const EXAMPLE_WORD_MIN: usize = 10;

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

/// The words of the example of page `key` whose command the call's arguments match best, if
/// one matches at least as well as the page's bare command: each of its literal words the call
/// has counts 4 and each it lacks -2, each flag it has 2 and each it lacks -1; the first of the
/// best wins. `sub` is the call's subcommand when `key` names none: on a page whose examples
/// name subcommands, an example without it counts -2 more, so a subcommand no example shows
/// (`hcloud server delete`) is not read as the bare command (`hcloud`, "show available
/// commands").
pub fn example(key: &str, args: &[String], sub: Option<&str>) -> Option<String> {
    example_in(EXAMPLES, WORDS, key, args, sub)
}

/// An example's words from their numbers, joined by spaces.
fn decode(codes: &str, words: &str) -> String {
    let (width, list) = words.split_once('\n').unwrap_or(("1", ""));
    let width: usize = width.parse().unwrap_or(1);
    let digit = |b: u8| DIGITS.iter().position(|d| *d == b).unwrap_or(0);
    let mut out = String::new();
    for pair in codes.as_bytes().chunks(2) {
        let n = digit(pair[0]) * DIGITS.len() + pair.get(1).map_or(0, |b| digit(*b));
        if let Some(word) = list.get(n * width..(n + 1) * width) {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word.trim_end());
        }
    }
    out
}

/// The short flags (`n`) that the examples of page `key` spell as a dry run (`act`'s
/// `-n|--dryrun`, `wipefs`'s `-n|--no-act`): the call only says what it would do.
pub fn dry_run_shorts(key: &str) -> Vec<char> {
    dry_run_shorts_in(EXAMPLES, key)
}

fn dry_run_shorts_in(list: &str, key: &str) -> Vec<char> {
    const DRY: [&str; 8] =
        ["--dry-run", "--dryrun", "--simulate", "--no-act", "--noop", "--pretend", "--just-print", "--what-if"];
    let Some(examples) = lookup(list, key) else { return Vec::new() };
    let mut out: Vec<char> = examples
        .split('\t')
        .flat_map(|e| e.split_once('=').map_or("", |(l, _)| l).split(' '))
        .filter(|literal| literal.split('|').any(|alt| DRY.contains(&alt)))
        .flat_map(|literal| literal.split('|'))
        .filter_map(|alt| alt.strip_prefix('-').filter(|c| c.len() == 1).and_then(|c| c.chars().next()))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

fn example_in<'a>(list: &'a str, words: &str, key: &str, args: &[String], sub: Option<&str>) -> Option<String> {
    let examples = lookup(list, key)?;
    let literal_words = |example: &'a str| {
        example.split_once('=').map_or("", |(l, _)| l).split(' ').filter(|l| !l.is_empty() && !l.starts_with('-'))
    };
    let sub = sub.filter(|_| examples.split('\t').any(|e| literal_words(e).next().is_some()));
    let has = |literal: &str| {
        literal.split('|').any(|alt| {
            args.iter().any(|a| {
                let name = a.split('=').next().unwrap_or(a);
                name.eq_ignore_ascii_case(alt)
                    || (alt.len() == 2
                        && alt.starts_with('-')
                        && a.len() > 2
                        && a.starts_with('-')
                        && !a.starts_with("--")
                        && a[1..].chars().all(|c| c.is_ascii_alphabetic())
                        && a[1..].contains(&alt[1..]))
            })
        })
    };
    let mut best: Option<(i32, &'a str)> = None;
    for example in examples.split('\t') {
        let (literals, codes) = example.split_once('=').unwrap_or(("", example));
        let score: i32 = literals
            .split(' ')
            .filter(|l| !l.is_empty())
            .map(|l| match (l.starts_with('-'), has(l)) {
                (false, true) => 4,
                (false, false) => -2,
                (true, true) => 2,
                (true, false) => -1,
            })
            .sum::<i32>()
            - sub
                .filter(|s| !literal_words(example).any(|l| l.split('|').any(|alt| alt.eq_ignore_ascii_case(s))))
                .map_or(0, |_| 2);
        if score >= 0 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, codes));
        }
    }
    best.map(|(_, codes)| decode(codes, words))
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

/// The examples list from tldr-pages' rows: for each page, each example's literal words and
/// flags after the page's own words (`{{[-d|--dbname]}}` is the flag `-d|--dbname`, any other
/// placeholder nothing), and the words of its description that [`EXAMPLE_WORD_MIN`] examples
/// use (one described as "Same as above, ..." has the words of the example before it, then its
/// own); in the file's order, each distinct one once. With it, the list of those words that
/// numbers them.
pub fn build_examples(rows: &[Value]) -> (String, String) {
    let mut parsed: Vec<(String, String, Vec<String>)> = Vec::new();
    for r in rows {
        let field = |k: &str| r.get(k).and_then(Value::as_str);
        let (Some(tool), Some(command), Some(what)) = (field("tool"), field("command"), field("example")) else {
            continue;
        };
        let key = tool.to_ascii_lowercase();
        if key.contains(['\t', '\n', '=']) {
            continue;
        }
        let mut tokens = command.split_whitespace().peekable();
        if tokens.peek() == Some(&"sudo") {
            tokens.next();
        }
        if !key.split(' ').all(|w| tokens.next().is_some_and(|t| t.eq_ignore_ascii_case(w))) {
            continue;
        }
        let mut literals = Vec::new();
        for t in tokens {
            if matches!(t, "|" | "||" | "&&" | ";" | ">" | ">>" | "<") {
                break;
            }
            let t = t.trim_matches(['\'', '"']);
            if let Some(alts) = t.strip_prefix("{{[").and_then(|x| x.strip_suffix("]}}")) {
                if alts.starts_with('-') && !alts.contains([' ', '=', '{', '\t']) {
                    literals.push(alts.to_ascii_lowercase());
                }
            } else if t.starts_with('-') && t.len() > 1 {
                let name = t.split(['=', '{']).next().unwrap_or(t);
                if name.len() > 1 && !name.contains(['\t', ' ']) {
                    literals.push(name.to_ascii_lowercase());
                }
            } else if !t.contains("{{")
                && t.starts_with(|c: char| c.is_ascii_lowercase())
                && t.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | ':' | '.'))
            {
                literals.push(t.to_string());
            }
            if literals.len() == EXAMPLE_LITERALS {
                break;
            }
        }
        // "Same as above, customize username" says what the example before it does, and then how
        // this one differs: its words are that example's, then its own.
        let mut ws = words(what);
        let lower = what.trim_start().to_ascii_lowercase();
        if ["same as above", "same as the above", "as above"].iter().any(|s| lower.starts_with(s))
            && let Some((_, _, before)) = parsed.last().filter(|(k, _, _)| *k == key)
        {
            ws.retain(|w| w != "same" && w != "above");
            ws = before.iter().chain(&ws).fold(Vec::new(), |mut all, w| {
                if !all.contains(w) {
                    all.push(w.clone());
                }
                all
            });
        }
        parsed.push((key, literals.join(" "), ws));
    }
    let mut uses: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for (_, _, ws) in &parsed {
        for w in ws {
            *uses.entry(w).or_default() += 1;
        }
    }
    let kept = |ws: &[String]| -> Vec<String> {
        ws.iter().filter(|w| uses[w.as_str()] >= EXAMPLE_WORD_MIN).take(EXAMPLE_WORDS).cloned().collect()
    };
    let vocabulary: std::collections::BTreeSet<String> = parsed.iter().flat_map(|(_, _, ws)| kept(ws)).collect();
    let number: std::collections::BTreeMap<&str, usize> =
        vocabulary.iter().enumerate().map(|(n, w)| (w.as_str(), n)).collect();
    let code = |w: &str| {
        let n = number[w];
        [DIGITS[n / DIGITS.len()] as char, DIGITS[n % DIGITS.len()] as char].iter().collect::<String>()
    };
    let mut pages: std::collections::BTreeMap<&str, Vec<String>> = std::collections::BTreeMap::new();
    for (key, literals, ws) in &parsed {
        let kept = kept(ws);
        if kept.is_empty() {
            continue;
        }
        let example = format!("{literals}={}", kept.iter().map(|w| code(w)).collect::<String>());
        let page = pages.entry(key).or_default();
        if !page.contains(&example) {
            page.push(example);
        }
    }
    let width = vocabulary.iter().map(String::len).max().unwrap_or(1);
    assert!(vocabulary.len() <= DIGITS.len() * DIGITS.len(), "more example words than two digits number");
    let words = format!("{width}\n{}", vocabulary.iter().map(|w| format!("{w:width$}")).collect::<String>());
    (pages.iter().map(|(k, examples)| format!("{k}\t{}\n", examples.join("\t"))).collect(), words)
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

    /// The examples list of `(page, description, command)` rows, with `words` repeated so that
    /// each is used by EXAMPLE_WORD_MIN examples and kept.
    fn examples_list(examples: &[(&str, &str, &str)], words: &[&str]) -> (String, String) {
        let mut rows: Vec<Value> =
            examples.iter().map(|(t, e, c)| serde_json::json!({"tool": t, "example": e, "command": c})).collect();
        for _ in 0..EXAMPLE_WORD_MIN {
            rows.extend(words.iter().map(|text| serde_json::json!({"tool": "x", "example": text, "command": "x"})));
        }
        build_examples(&rows)
    }

    #[test]
    fn a_call_gets_the_words_of_the_example_its_subcommands_and_flags_match_best() {
        let (list, numbered) = examples_list(
            &[
                ("vercel", "Deploy the current directory", "vercel"),
                ("vercel", "Deploy the current directory to production", "vercel --prod"),
                ("vercel", "Remove a deployment", "vercel remove {{project_name}}"),
                (
                    "pg_restore",
                    "Restore an archive into an existing database",
                    "pg_restore {{[-d|--dbname]}} {{db}} {{f}}",
                ),
                (
                    "pg_restore",
                    "Same as above, customize username",
                    "pg_restore {{[-U|--username]}} {{user}} {{[-d|--dbname]}} {{db}} {{f}}",
                ),
                (
                    "pg_restore",
                    "Clean database objects before creating them",
                    "sudo pg_restore --clean -d {{db}} {{f}}",
                ),
                ("git push", "Send local changes to the remote", "git push"),
                ("git push", "Delete a branch on the remote", "git push {{remote}} --delete {{branch}}"),
                ("ls", "Not this page's command", "dir -la"),
            ],
            &[
                "deploy current directory production remove deployment",
                "restore archive existing database",
                "clean object creating customize username",
                "send local change remote delete branch",
            ],
        );
        let pick = |key: &str, args: &[&str]| {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            let sub = args.first().filter(|a| !key.contains(' ') && !a.starts_with(['-', '.']));
            example_in(&list, &numbered, key, &args, sub.map(String::as_str)).map(|w| &*Box::leak(w.into_boxed_str()))
        };
        assert_eq!(pick("vercel", &[]), Some("deploy current directory"));
        assert_eq!(pick("vercel", &["./site"]), Some("deploy current directory"));
        assert_eq!(pick("vercel", &["--prod", "--yes"]), Some("deploy current directory production"));
        assert_eq!(pick("vercel", &["remove", "docs", "--yes"]), Some("remove deployment"));
        assert_eq!(pick("vercel", &["promote", "--yes"]), None, "a subcommand no example shows");
        assert_eq!(pick("pg_restore", &["--dbname", "app", "a.dump"]), Some("restore archive existing database"));
        assert_eq!(pick("pg_restore", &["-cd", "app", "a.dump"]), Some("restore archive existing database"));
        assert_eq!(pick("pg_restore", &["--clean", "-d", "app", "a.dump"]), Some("clean database object creating"));
        // "Same as above" says what the example before does, and then how this one differs.
        assert_eq!(
            pick("pg_restore", &["--username", "bob", "--dbname", "app", "a.dump"]),
            Some("restore archive existing database customize")
        );
        assert_eq!(pick("git push", &["push", "origin", "--delete", "old"]), Some("delete branch remote"));
        assert_eq!(pick("git push", &["push", "origin", "main"]), Some("send local change remote"));
        assert_eq!(pick("ls", &["-la"]), None, "an example whose command is not its page's is left out");
    }

    #[test]
    fn a_short_flag_is_a_dry_run_where_the_examples_spell_it_so() {
        let (list, _) = examples_list(
            &[
                ("act", "Run the default event", "act"),
                ("act", "Run actions in dry run mode", "act {{[-n|--dryrun]}}"),
                ("act", "Run a specific job", "act {{[-j|--job]}} {{job_id}}"),
                ("wipefs", "Pretend to wipe", "wipefs --all {{[-n|--no-act]}} {{/dev/sdX}}"),
                ("sha256sum", "Verify checksums", "sha256sum {{[-c|--check]}} {{file}}"),
            ],
            &["run default event dry mode specific job pretend wipe verify checksum"],
        );
        assert_eq!(dry_run_shorts_in(&list, "act"), ['n']);
        assert_eq!(dry_run_shorts_in(&list, "wipefs"), ['n']);
        // A check is not a dry run's name, and a page with none has no such flag.
        assert!(dry_run_shorts_in(&list, "sha256sum").is_empty());
        assert!(dry_run_shorts_in(&list, "nope").is_empty());
    }
}
