//! Text that came from outside (a model name, an error body, an issue title, an id), made
//! inert where it is written: on a terminal or in a log line ([`terminal`]), in a Markdown
//! report ([`markdown`]), in XML or HTML ([`xml`]), and in JSON meant to be read on a terminal
//! ([`json_text`]).
//!
//! What is shown escaped: every control character (C0 with newline and tab, DEL, C1), the
//! bidirectional controls (which reorder what a person sees), and the zero-width characters
//! (which hide text). So an answer cannot move the cursor, retitle the window, ring the bell,
//! start an OSC sequence, add a line to a report, or show one thing and say another.

use std::borrow::Cow;

/// Whether a character must never reach a reader as it is.
pub fn is_hostile(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' // bidi
            | '\u{200b}'..='\u{200d}' | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{00ad}' // zero-width
        )
}

/// How a hostile character is shown: `\x1b` up to `\xff`, `\u{202e}` beyond.
fn shown(c: char, out: &mut String) {
    let n = c as u32;
    if n <= 0xff {
        out.push_str(&format!("\\x{n:02x}"));
    } else {
        out.push_str(&format!("\\u{{{n:04x}}}"));
    }
}

/// The text with every hostile character shown escaped, on one line.
pub fn terminal(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_hostile) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_hostile(c) { shown(c, &mut out) } else { out.push(c) }
    }
    Cow::Owned(out)
}

/// The text as inert Markdown, for a table cell, a heading or a line of prose: hostile
/// characters escaped (so it stays on its line), the characters Markdown reads as structure
/// escaped (`|` cannot end a cell, `*`, `_`, `` ` ``, `[` mark nothing up), and HTML made
/// text (`<img onerror=...>` is shown, never rendered). It is always written after something
/// else on its line, so a `#` in it starts no heading.
pub fn markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in terminal(s).chars() {
        match c {
            '\\' | '|' | '`' | '*' | '_' | '[' | ']' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            c => out.push(c),
        }
    }
    out
}

/// The text as XML or HTML character data or an attribute value: hostile characters escaped
/// (most are not even legal XML), markup characters as entities.
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in terminal(s).chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Serialised JSON with every hostile character a JSON writer leaves as it is (DEL, C1, the
/// bidi and zero-width characters) written as a `\u` escape: the same JSON value, safe to show
/// on a terminal. Only characters inside strings can be hostile, and there `\u` is legal.
pub fn json_text(json: &str) -> Cow<'_, str> {
    // Printable ASCII cannot be hostile: most lines are, and a byte scan is far cheaper than
    // decoding every character.
    if json.bytes().all(|b| (0x20..0x7f).contains(&b) || b == b'\n') || !json.chars().any(is_hostile) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 8);
    for c in json.chars() {
        // A JSON writer escapes C0 itself; the newline between values is ours.
        if is_hostile(c) && c != '\n' {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str =
        "m\u{1b}]0;owned\u{7}\u{1b}[2J\n# Injected heading\u{9b}1m\u{202e}txt.exe\u{200b}<img src=x onerror=alert(1)>|";

    #[test]
    fn a_terminal_sees_no_control_no_bidi_no_zero_width() {
        let t = terminal(HOSTILE);
        assert!(!t.chars().any(is_hostile), "{t}");
        assert!(t.starts_with("m\\x1b]0;owned\\x07\\x1b[2J\\x0a# Injected"), "{t}");
        assert!(t.contains("\\x9b1m\\u{202e}txt.exe\\u{200b}"), "{t}");
        assert!(matches!(terminal("jev-1.13.0"), Cow::Borrowed(_)));
    }

    #[test]
    fn markdown_cannot_break_its_line_its_cell_or_render_html() {
        let m = markdown(HOSTILE);
        assert_eq!(m.lines().count(), 1);
        assert!(!m.contains("<img") && m.contains("&lt;img"), "{m}");
        assert!(m.ends_with("\\|") && !m.contains("\n#"), "{m}");
        assert_eq!(markdown("needs_repro *bold* [x](y)"), "needs\\_repro \\*bold\\* \\[x\\](y)");
    }

    #[test]
    fn xml_is_character_data() {
        assert_eq!(xml("<a href='x'>&\u{7}"), "&lt;a href=&#39;x&#39;&gt;&amp;\\x07");
    }

    #[test]
    fn json_stays_the_same_value_and_shows_nothing_hostile() {
        let v = serde_json::json!({"model": HOSTILE, "emoji": "\u{1f600}"});
        let text = serde_json::to_string(&v).expect("json");
        let safe = json_text(&text);
        assert!(!safe.chars().any(is_hostile), "{safe}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&safe).expect("json"), v);
    }
}
