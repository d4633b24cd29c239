//! JSON read strictly: serde reads a repeated object key last-wins, silently. A reviewed file
//! or a provider's answer with a key twice is a mistake a person must see, so the text is
//! scanned for repeats, each reported with where it is.

use std::collections::HashSet;

use serde::ser::{Serialize, SerializeMap, Serializer};

/// Pairs written as a JSON object, in their order: answers in the order asked, options in the
/// catalog's order.
pub struct Ordered<'a, K, V>(pub &'a [(K, V)]);

impl<K: Serialize, V: Serialize> Serialize for Ordered<'_, K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// A JSON document as read from text: the value, and the keys the text repeats (each a
/// mistake to report: serde kept only the last).
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The JSON value.
    pub value: serde_json::Value,
    /// Keys the text repeats; none for a value built in memory.
    pub duplicates: Vec<DuplicateKey>,
}

impl Document {
    /// Parse JSON text and find its repeated keys.
    pub fn parse(text: &str) -> Result<Document, serde_json::Error> {
        let value = serde_json::from_str(text)?;
        Ok(Document { value, duplicates: duplicate_keys(text) })
    }
}

impl From<serde_json::Value> for Document {
    fn from(value: serde_json::Value) -> Self {
        Document { value, duplicates: Vec::new() }
    }
}

/// A key that appears twice in one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// The object holding it, as a JSON pointer (`""` for the top level).
    pub at: String,
    /// The repeated key.
    pub key: String,
    /// The 1-based line of its second appearance.
    pub line: usize,
}

impl DuplicateKey {
    /// The path of the object as segments.
    pub fn segments(&self) -> Vec<String> {
        self.at.split('/').skip(1).map(|s| s.replace("~1", "/").replace("~0", "~")).collect()
    }
}

impl std::fmt::Display for DuplicateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A key or a path may be megabytes long: each is quoted clipped.
        let at = if self.at.is_empty() { "the top level".to_string() } else { crate::secret::clip(&self.at, 200) };
        write!(
            f,
            "line {}: duplicate key \"{}\" in {at} (the second would silently replace the first)",
            self.line,
            crate::secret::clip(&self.key, 80)
        )
    }
}

struct Frame {
    object: bool,
    keys: HashSet<String>,
    /// The current member's key (object) or element index (array).
    key: String,
    index: usize,
    expect_key: bool,
}

/// Every repeated key in a JSON text, in the order met. The text should already parse; a text
/// that does not is scanned as far as it makes sense and never panics.
pub fn duplicate_keys(text: &str) -> Vec<DuplicateKey> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => line += 1,
            b'{' | b'[' => {
                let object = bytes[i] == b'{';
                stack.push(Frame { object, keys: HashSet::new(), key: String::new(), index: 0, expect_key: object });
            }
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(top) = stack.last_mut() {
                    if top.object {
                        top.expect_key = true;
                    } else {
                        top.index += 1;
                    }
                }
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                let end = (i + 1).min(bytes.len());
                if let Some(top) = stack.last_mut().filter(|t| t.object && t.expect_key) {
                    let raw = &text[start..end];
                    let key = serde_json::from_str::<String>(raw).unwrap_or_else(|_| raw.to_string());
                    top.expect_key = false;
                    if !top.keys.insert(key.clone()) {
                        let at = pointer(&stack[..stack.len() - 1]);
                        found.push(DuplicateKey { at, key: key.clone(), line });
                    }
                    if let Some(top) = stack.last_mut() {
                        top.key = key;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// The pointer of the object on top of `parents`' path: each parent contributes its current
/// member key or element index.
fn pointer(parents: &[Frame]) -> String {
    parents
        .iter()
        .map(|f| {
            let seg = if f.object { f.key.replace('~', "~0").replace('/', "~1") } else { f.index.to_string() };
            format!("/{seg}")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_repeats_no_findings() {
        assert_eq!(duplicate_keys(r#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}"#), []);
    }

    #[test]
    fn a_repeat_is_named_with_its_object_and_line() {
        let text = "{\n \"answers\": {\n  \"effort\": {\"type\": \"choice\"},\n  \"effort\": {}\n }\n}";
        let found = duplicate_keys(text);
        assert_eq!(found, [DuplicateKey { at: "/answers".into(), key: "effort".into(), line: 4 }]);
        assert_eq!(found[0].segments(), ["answers"]);
        assert!(found[0].to_string().starts_with("line 4: duplicate key \"effort\" in /answers"));
    }

    #[test]
    fn repeats_deep_in_arrays_and_escaped_keys_are_found() {
        let text = r#"{"x": [0, {"p": {"a\/b": 1, "a/b": 2, "\u0071": 1, "q": 2}}]}"#;
        let found = duplicate_keys(text);
        assert_eq!(
            found.iter().map(|d| (d.at.as_str(), d.key.as_str())).collect::<Vec<_>>(),
            [("/x/1/p", "a/b"), ("/x/1/p", "q")]
        );
        assert_eq!(found[0].segments(), ["x", "1", "p"]);
    }

    #[test]
    fn strings_holding_braces_and_quotes_are_not_structure() {
        assert_eq!(duplicate_keys(r#"{"a": "}{\"a\":", "b": "[", "c": 1}"#), []);
        assert_eq!(duplicate_keys(r#"{"a": 1, "a": 2}"#).len(), 1);
    }

    #[test]
    fn broken_text_never_panics() {
        for text in ["{\"a", "}}]]", "\"\\", "{\"a\":1,\"a\"", "[[[{", "{\"\\u12"] {
            let _ = duplicate_keys(text);
        }
    }
}
