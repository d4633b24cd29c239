//! The key: read from the environment at call time, printed as `[redacted]`, sent in one header.
//!
//! Anything a server sends back is redacted before it is read, clipped or shown: the whole key
//! and every fragment of it at least [`FRAGMENT_MIN`] bytes long, so a key a server split in
//! two, or one that a clip could have cut, never survives in part. A key shorter than that is
//! too short to tell from ordinary text inside an answer; it is redacted where it stands whole
//! in a detail or a model name.

use serde_json::Value;

/// The shortest run of the key's bytes that counts as a fragment of it.
pub const FRAGMENT_MIN: usize = 8;
/// What stands where the key (or a fragment of it) was.
pub const REDACTED: &str = "[redacted]";

/// The key. It prints as `[redacted]` and is only read out for the Authorization header.
pub(crate) struct SecretKey {
    value: String,
    windows: Option<aho_corasick::AhoCorasick>,
}

impl SecretKey {
    pub(crate) fn new(value: String) -> Self {
        let windows = (value.len() >= FRAGMENT_MIN)
            .then(|| {
                let bytes = value.as_bytes();
                let mut pieces: Vec<&[u8]> = bytes.windows(FRAGMENT_MIN).collect();
                pieces.sort_unstable();
                pieces.dedup();
                aho_corasick::AhoCorasick::new(pieces).ok()
            })
            .flatten();
        SecretKey { value, windows }
    }

    /// No key: the provider takes none, and no Authorization header is sent.
    pub(crate) fn is_empty(&self) -> bool {
        self.value.is_empty()
    }

    /// The value, for the one header that carries it.
    pub(crate) fn expose(&self) -> &str {
        &self.value
    }

    /// `text` with the key and every fragment of it replaced by `[redacted]`.
    pub(crate) fn redact(&self, text: &str) -> String {
        let Some(ac) = &self.windows else {
            return if self.value.is_empty() { text.to_string() } else { text.replace(&self.value, REDACTED) };
        };
        // Every fragment of at least FRAGMENT_MIN bytes is covered by the key's windows of
        // that width, so the union of window matches is exactly what must go.
        let mut spans: Vec<(usize, usize)> = Vec::new();
        for m in ac.find_overlapping_iter(text) {
            match spans.last_mut() {
                Some(last) if m.start() <= last.1 => last.1 = last.1.max(m.end()),
                _ => spans.push((m.start(), m.end())),
            }
        }
        if spans.is_empty() {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (start, end) in spans {
            // A key that is not ASCII may match inside a character: widen to whole characters.
            let start = floor_char(text, start).max(at);
            let end = ceil_char(text, end);
            out.push_str(&text[at..start]);
            out.push_str(REDACTED);
            at = end;
        }
        out.push_str(&text[at..]);
        out
    }

    /// Redact every string and object key of a JSON value in place.
    pub(crate) fn redact_value(&self, v: &mut Value) {
        match v {
            Value::String(s) if self.leaks(s) => *s = self.redact(s),
            Value::Array(items) => items.iter_mut().for_each(|i| self.redact_value(i)),
            Value::Object(map) => {
                if map.keys().any(|k| self.leaks(k)) {
                    let old = std::mem::take(map);
                    *map = old.into_iter().map(|(k, v)| (self.redact(&k), v)).collect();
                }
                map.values_mut().for_each(|i| self.redact_value(i));
            }
            _ => {}
        }
    }

    fn leaks(&self, text: &str) -> bool {
        self.windows.as_ref().is_some_and(|ac| ac.is_match(text))
    }
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char(s: &str, mut i: usize) -> usize {
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Every key the environment holds for the providers named, to take out of anything written:
/// an agent's input echoing a key is redacted before it is read, clipped or logged.
#[derive(Debug, Default)]
pub struct Redactor(Vec<SecretKey>);

impl Redactor {
    /// The keys held in these variables (unset or empty ones are skipped).
    pub fn from_env<'a>(env: &crate::config::Env, variables: impl IntoIterator<Item = &'a str>) -> Redactor {
        let mut r = Redactor::default();
        r.add_from_env(env, variables);
        r
    }

    /// Add the keys held in more variables.
    pub fn add_from_env<'a>(&mut self, env: &crate::config::Env, variables: impl IntoIterator<Item = &'a str>) {
        for v in variables {
            if let Some(key) = env.get(v)
                && !self.0.iter().any(|k| k.expose() == key)
            {
                self.0.push(SecretKey::new(key));
            }
        }
    }

    /// `text` with every key and every fragment of one replaced by `[redacted]`.
    pub fn redact(&self, text: &str) -> String {
        self.0.iter().fold(text.to_string(), |t, k| k.redact(&t))
    }

    /// Redact every string and object key of a JSON value in place.
    pub fn redact_value(&self, v: &mut Value) {
        self.0.iter().for_each(|k| k.redact_value(v));
    }
}

/// `s` cut to `max` characters, with `...` when it was longer. Text that may hold a key is
/// redacted before it is clipped, never after.
pub fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(REDACTED)
    }
}

impl std::fmt::Display for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(REDACTED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "sk-canary-7f3e9b21d4c8a6";

    fn key() -> SecretKey {
        SecretKey::new(KEY.into())
    }

    /// Whether any run of FRAGMENT_MIN bytes of the key is in `text`.
    fn has_fragment(text: &str) -> bool {
        KEY.as_bytes().windows(FRAGMENT_MIN).any(|w| text.as_bytes().windows(w.len()).any(|t| t == w))
    }

    #[test]
    fn secret_key_never_formats_its_value() {
        let k = key();
        assert_eq!(format!("{k} {k:?}"), "[redacted] [redacted]");
    }

    #[test]
    fn the_whole_key_and_every_long_fragment_are_redacted() {
        let k = key();
        assert_eq!(k.redact(&format!("bad key {KEY}!")), "bad key [redacted]!");
        // A server that split the key in two, or a text cut through it.
        assert_eq!(k.redact("type sk-canary-7f3: e9b21d4c8a6 end"), "type [redacted]: [redacted] end");
        assert_eq!(k.redact(&KEY[..FRAGMENT_MIN]), REDACTED);
        // Shorter runs are ordinary text.
        assert_eq!(k.redact("sk-canar"), REDACTED);
        assert_eq!(k.redact("sk-cana"), "sk-cana");
        for cut in 0..KEY.len() {
            for text in [format!("x{}", &KEY[cut..]), format!("{}y", &KEY[..cut])] {
                assert!(!has_fragment(&k.redact(&text)), "{text}");
            }
        }
    }

    #[test]
    fn redaction_keeps_other_text_and_multibyte_characters_whole() {
        let k = SecretKey::new("ключ-секрет-42".into());
        let out = k.redact("ü ключ-секрет-42 ü");
        assert_eq!(out, "ü [redacted] ü");
        assert_eq!(key().redact("nothing to see"), "nothing to see");
    }

    #[test]
    fn values_are_redacted_in_strings_and_keys() {
        let k = key();
        let mut v = serde_json::json!({"detail": format!("key {KEY}"), KEY: [KEY, 1], "ok": "fine"});
        k.redact_value(&mut v);
        assert!(!has_fragment(&v.to_string()), "{v}");
        assert_eq!(v["ok"], "fine");
        assert_eq!(v["[redacted]"][0], "[redacted]");
    }

    #[test]
    fn a_short_key_is_redacted_whole_in_text_and_left_alone_inside_answers() {
        let k = SecretKey::new("k3y".into());
        assert_eq!(k.redact("bad k3y"), "bad [redacted]");
        let mut v = serde_json::json!({"risky": "k3y"});
        k.redact_value(&mut v);
        assert_eq!(v, serde_json::json!({"risky": "k3y"}));
    }

    #[test]
    fn clip_counts_characters() {
        assert_eq!(clip("ääää", 2), "ää...");
        assert_eq!(clip("ab", 2), "ab");
    }
}
