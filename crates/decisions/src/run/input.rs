//! A run's input: records (JSON lines, or the elements of one JSON array, streamed), each held
//! to a length bound, and the items they become (an id that is its exact JSON text, a state,
//! the whole object for a consumer that reads more of it).
//!
//! The format is decided from the whole first value: input whose first line is one complete
//! array with nothing after it, or whose first value is an array that does not end on its
//! first line (`jq .` output), is an array; anything else, a first line that is an array
//! included, is JSON lines. An array element is one item whatever it holds: elements are cut
//! by a scanner that counts brackets without recursing, so one nested ten thousand deep is one
//! item that fails, never the end of the input.

use std::collections::BTreeMap;
use std::io::{BufRead, Read};
use std::path::Path;
use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The longest record read whole by default: a longer one is a failure line of its own, and
/// reading goes on at the next.
pub const RECORD_MAX: usize = 16 << 20;

/// How the input is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Decide from the first value.
    Auto,
    /// A JSON object a line.
    Lines,
    /// One JSON array of objects.
    Array,
}

/// Where a record is in the input: its line (JSON lines) or its element (an array), from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A line of JSON lines.
    Line(usize),
    /// An element of an array.
    Element(usize),
}

impl Place {
    /// Its number, from 1: the output line's `record`.
    pub fn n(self) -> usize {
        match self {
            Place::Line(n) | Place::Element(n) => n,
        }
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Line(n) => write!(f, "line {n}"),
            Place::Element(n) => write!(f, "element {n}"),
        }
    }
}

/// One record of the input: where it is and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Its line or element.
    pub at: Place,
    /// The record's bytes, or how long it was when it passed the bound.
    pub bytes: Result<Vec<u8>, usize>,
}

/// Why an input could not be read on.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// Reading failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// An array that breaks off or holds something no JSON value has.
    #[error("the input array, after element {after}: {what}")]
    Array {
        /// The last whole element.
        after: usize,
        /// What was wrong.
        what: &'static str,
    },
}

/// The records of an input, in order.
pub struct Records {
    reader: Box<dyn BufRead + Send>,
    array: bool,
    max: usize,
    n: usize,
    ended: bool,
    skipping: bool,
}

impl Records {
    /// Read `reader` as `layout`, each record held to `max` bytes.
    pub fn new(mut reader: Box<dyn BufRead + Send>, layout: Layout, max: usize) -> Result<Records, InputError> {
        let array = match layout {
            Layout::Lines => false,
            Layout::Array => {
                skip_ws(&mut reader)?;
                expect_open(&mut reader)?;
                true
            }
            Layout::Auto => {
                let (array, first) = detect(&mut reader, max)?;
                reader = Box::new(std::io::Cursor::new(first).chain(reader));
                if array {
                    skip_ws(&mut reader)?;
                    expect_open(&mut reader)?;
                }
                array
            }
        };
        Ok(Records { reader, array, max, n: 0, ended: false, skipping: false })
    }

    fn next_line(&mut self) -> Result<Option<Record>, InputError> {
        // A record past the bound was reported when it passed it: its rest is skipped first.
        if self.skipping {
            self.skipping = !self.skip_line()?;
            if self.skipping {
                return Ok(None);
            }
        }
        loop {
            let mut bytes = Vec::new();
            let mut got = false;
            loop {
                let buf = self.reader.fill_buf()?;
                if buf.is_empty() {
                    break;
                }
                got = true;
                let (take, done) = match memchr::memchr(b'\n', buf) {
                    Some(i) => (i + 1, true),
                    None => (buf.len(), false),
                };
                if bytes.len() + take > self.max + 1 {
                    // Past the bound: one failure now, whatever follows; memory stays bounded.
                    let read = bytes.len() + take;
                    self.reader.consume(take);
                    self.n += 1;
                    self.skipping = !done;
                    return Ok(Some(Record { at: Place::Line(self.n), bytes: Err(read) }));
                }
                bytes.extend_from_slice(&buf[..take]);
                self.reader.consume(take);
                if done {
                    break;
                }
            }
            if !got {
                return Ok(None);
            }
            self.n += 1;
            if bytes.last() == Some(&b'\n') {
                bytes.pop();
            }
            if bytes.len() > self.max {
                return Ok(Some(Record { at: Place::Line(self.n), bytes: Err(bytes.len()) }));
            }
            if bytes.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            return Ok(Some(Record { at: Place::Line(self.n), bytes: Ok(bytes) }));
        }
    }

    /// Discard up to and including the next newline; false when the input ended first.
    fn skip_line(&mut self) -> std::io::Result<bool> {
        loop {
            let buf = self.reader.fill_buf()?;
            if buf.is_empty() {
                return Ok(false);
            }
            match memchr::memchr(b'\n', buf) {
                Some(i) => {
                    self.reader.consume(i + 1);
                    return Ok(true);
                }
                None => {
                    let len = buf.len();
                    self.reader.consume(len);
                }
            }
        }
    }

    fn next_element(&mut self) -> Result<Option<Record>, InputError> {
        skip_ws(&mut self.reader)?;
        match peek(&mut self.reader)? {
            None => return Err(InputError::Array { after: self.n, what: "the array ends without its `]`" }),
            Some(b']') => {
                self.reader.consume(1);
                self.ended = true;
                // Nothing but space may follow: text after the array is no record, and never
                // silently dropped.
                skip_ws(&mut self.reader)?;
                if peek(&mut self.reader)?.is_some() {
                    return Err(InputError::Array { after: self.n, what: "text follows the array's closing `]`" });
                }
                return Ok(None);
            }
            Some(b',') if self.n > 0 => {
                self.reader.consume(1);
                skip_ws(&mut self.reader)?;
            }
            _ => {}
        }
        let mut scan = Scan::default();
        let mut bytes = Vec::new();
        let mut len = 0usize;
        loop {
            let buf = self.reader.fill_buf()?;
            if buf.is_empty() {
                return Err(InputError::Array { after: self.n, what: "the array ends inside an element" });
            }
            let (take, end) = scan.feed(buf);
            if scan.broken {
                return Err(InputError::Array { after: self.n, what: "a `]` or `}` closes nothing" });
            }
            len += take;
            if len <= self.max {
                bytes.extend_from_slice(&buf[..take]);
            }
            self.reader.consume(take);
            if end {
                break;
            }
        }
        self.n += 1;
        let bytes = if len > self.max { Err(len) } else { Ok(bytes) };
        Ok(Some(Record { at: Place::Element(self.n), bytes }))
    }
}

impl Iterator for Records {
    type Item = Result<Record, InputError>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.ended {
            return None;
        }
        let next = if self.array { self.next_element() } else { self.next_line() };
        match next {
            Ok(Some(r)) => Some(Ok(r)),
            Ok(None) => {
                self.ended = true;
                None
            }
            Err(e) => {
                self.ended = true;
                Some(Err(e))
            }
        }
    }
}

fn peek(r: &mut dyn BufRead) -> std::io::Result<Option<u8>> {
    Ok(r.fill_buf()?.first().copied())
}

fn skip_ws(r: &mut dyn BufRead) -> std::io::Result<()> {
    loop {
        let buf = r.fill_buf()?;
        let n = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if n == 0 {
            return Ok(());
        }
        r.consume(n);
    }
}

fn expect_open(r: &mut dyn BufRead) -> Result<(), InputError> {
    match peek(r)? {
        Some(b'[') => {
            r.consume(1);
            Ok(())
        }
        _ => Err(InputError::Array { after: 0, what: "it does not start with `[`" }),
    }
}

/// Whether the input is an array, from its first value; returns the bytes read to decide,
/// which the caller reads again. An array spanning more than its first line is an array; a
/// first line that is a whole array is one only when nothing follows it.
fn detect(r: &mut Box<dyn BufRead + Send>, max: usize) -> std::io::Result<(bool, Vec<u8>)> {
    let mut first = Vec::new();
    // Leading blank space is kept: JSON lines keep their line numbers.
    loop {
        let buf = r.fill_buf()?;
        let n = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
        first.extend_from_slice(&buf[..n]);
        r.consume(n);
        if n == 0 {
            break;
        }
    }
    if peek(r.as_mut())? != Some(b'[') {
        return Ok((false, first));
    }
    // The first line, up to the bound: does the array end on it?
    let mut scan = Scan::default();
    let mut ended = false;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let line_end = memchr::memchr(b'\n', buf);
        let upto = line_end.map_or(buf.len(), |i| i + 1);
        let (took, end) = scan.feed(&buf[..upto]);
        if end {
            ended = true;
        }
        let take = if end { took } else { upto };
        first.extend_from_slice(&buf[..take]);
        r.consume(take);
        if end || line_end.is_some() || first.len() > max {
            break;
        }
    }
    if !ended {
        return Ok((true, first)); // an array spanning lines (or past the bound): stream it
    }
    // A whole array on the first line: an array input only when nothing but space follows.
    let mut rest = Vec::new();
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            first.extend_from_slice(&rest);
            return Ok((true, first));
        }
        let n = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
        rest.extend_from_slice(&buf[..n]);
        if n < buf.len() {
            r.consume(n);
            first.extend_from_slice(&rest);
            return Ok((false, first));
        }
        r.consume(n);
    }
}

/// A scanner that finds where one JSON value ends, counting brackets, never recursing.
#[derive(Default)]
struct Scan {
    depth: usize,
    in_string: bool,
    escaped: bool,
    started: bool,
    scalar: bool,
    broken: bool,
}

impl Scan {
    /// Feed bytes; how many belong to the value, and whether it ended within them. A scalar
    /// ends before the `,`, `]` or space that follows it.
    fn feed(&mut self, buf: &[u8]) -> (usize, bool) {
        for (i, &b) in buf.iter().enumerate() {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                    if self.depth == 0 {
                        return (i + 1, true);
                    }
                }
                continue;
            }
            if self.scalar && self.depth == 0 && matches!(b, b',' | b']' | b'}')
                || self.scalar && b.is_ascii_whitespace()
            {
                return (i, true);
            }
            match b {
                b'"' => {
                    self.in_string = true;
                    self.started = true;
                }
                b'[' | b'{' => {
                    self.depth += 1;
                    self.started = true;
                }
                b']' | b'}' => {
                    if self.depth == 0 {
                        self.broken = true;
                        return (i, false);
                    }
                    self.depth -= 1;
                    if self.depth == 0 {
                        return (i + 1, true);
                    }
                }
                b if b.is_ascii_whitespace() => {}
                _ if self.depth == 0 => {
                    self.scalar = true;
                    self.started = true;
                }
                _ => {}
            }
        }
        (buf.len(), false)
    }
}

/// Open an input: a file, or standard input for `-`. For a regular file holding JSON lines the
/// total (its line count, for a progress bar) comes too.
pub fn open(path: &Path, layout: Layout, max: usize) -> Result<(Records, Option<u64>), InputError> {
    if path.as_os_str() == "-" {
        let reader: Box<dyn BufRead + Send> = Box::new(std::io::BufReader::new(std::io::stdin()));
        return Ok((Records::new(reader, layout, max)?, None));
    }
    let file = std::fs::File::open(path)?;
    let regular = file.metadata().is_ok_and(|m| m.is_file());
    let reader: Box<dyn BufRead + Send> = Box::new(std::io::BufReader::with_capacity(1 << 16, file));
    let records = Records::new(reader, layout, max)?;
    let total = (regular && !records.array).then(|| count_lines(path).ok()).flatten();
    Ok((records, total))
}

fn count_lines(path: &Path) -> std::io::Result<u64> {
    let mut reader = std::io::BufReader::with_capacity(1 << 16, std::fs::File::open(path)?);
    let mut n = 0;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(n);
        }
        n += memchr::memchr_iter(b'\n', buf).count() as u64;
        let len = buf.len();
        reader.consume(len);
    }
}

/// An item's id: its JSON value as the input wrote it (a number's digits, never read as a
/// float), so `18446744073709551617` and `...618` stay two ids. Whitespace between the tokens
/// of an array or object id is not part of its value and is dropped: `[1,\t2]` and `[1, 2]`
/// are one id, written `[1,2]`, and an output line stays one line of JSON.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ItemId(String);

impl ItemId {
    /// An id from its JSON text (which must be valid JSON: a raw value the parser took).
    pub fn from_json(text: &str) -> ItemId {
        let text = text.trim();
        if !text.starts_with(['[', '{']) {
            return ItemId(text.to_string());
        }
        let (mut out, mut in_string, mut escaped) = (String::with_capacity(text.len()), false, false);
        for c in text.chars() {
            if in_string {
                (escaped, in_string) = (!escaped && c == '\\', escaped || c != '"');
            } else if matches!(c, ' ' | '\t' | '\n' | '\r') {
                continue;
            } else {
                in_string = c == '"';
            }
            out.push(c);
        }
        ItemId(out)
    }

    /// The JSON text.
    pub fn json(&self) -> &str {
        &self.0
    }

    /// The id as a JSON value (a number read as `serde_json` reads it): for display only.
    pub fn value(&self) -> Value {
        serde_json::from_str(&self.0).unwrap_or(Value::Null)
    }
}

impl serde::Serialize for ItemId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match RawValue::from_string(self.0.clone()) {
            Ok(raw) => raw.serialize(s),
            Err(_) => s.serialize_none(),
        }
    }
}

/// What identifies an item for `--resume` and repeats: its id when the input gives one, else
/// its record number, which no id can collide with (they are told apart by kind).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Key {
    /// The id field's JSON text.
    Id(ItemId),
    /// The record number of an item with no id.
    Line(usize),
}

/// Why a record gives nothing to ask about.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    /// It is not JSON (the parser's words).
    #[error("input {at}: not JSON: {what}")]
    NotJson {
        /// Where the record is.
        at: Place,
        /// What the parser said.
        what: String,
    },
    /// It is JSON, but not an object.
    #[error("input {at}: not a JSON object")]
    NotObject {
        /// Where the record is.
        at: Place,
    },
    /// It is not UTF-8.
    #[error("input {at}: not UTF-8 text")]
    NotUtf8 {
        /// Where the record is.
        at: Place,
    },
    /// It is longer than the bound.
    #[error("input {at}: longer than the {max}-byte bound (--record-max; {bytes} bytes read before it was cut)")]
    TooLong {
        /// Where the record is.
        at: Place,
        /// Its length.
        bytes: usize,
        /// The bound.
        max: usize,
    },
    /// A field the state comes from is missing.
    #[error("input {at}: no \"{field}\" field to ask about")]
    NoField {
        /// Where the record is.
        at: Place,
        /// The field.
        field: String,
    },
    /// What a consumer found wrong with it.
    #[error("input {at}: {why}")]
    Consumer {
        /// Where the record is.
        at: Place,
        /// Why, in the consumer's words.
        why: String,
    },
}

/// Why a consumer's object gives no state, in words that follow `input line N: `.
pub type NoState = Box<dyn std::error::Error + Send + Sync>;

/// A consumer's way from an input object to its state.
pub type Derive = Arc<dyn Fn(&Map<String, Value>) -> Result<Value, NoState> + Send + Sync>;

/// Where an item's state comes from.
#[derive(Clone)]
pub enum StateOf {
    /// The whole input object.
    Whole,
    /// One field of it.
    Field(String),
    /// What a consumer makes of the object.
    Derived(Derive),
}

/// How records become items.
#[derive(Clone)]
pub struct Shape {
    /// The fields that may hold an item's id, first present wins; none, the record number is.
    pub id_fields: Vec<String>,
    /// Where the state comes from.
    pub state: StateOf,
    /// The record bound, for the message of a record past it.
    pub max: usize,
}

impl std::fmt::Debug for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match &self.state {
            StateOf::Whole => "the whole object".to_string(),
            StateOf::Field(field) => format!("field {field:?}"),
            StateOf::Derived(_) => "derived".to_string(),
        };
        f.debug_struct("Shape").field("id_fields", &self.id_fields).field("state", &state).finish()
    }
}

impl Default for Shape {
    fn default() -> Self {
        Shape { id_fields: vec!["id".into()], state: StateOf::Whole, max: RECORD_MAX }
    }
}

/// One input item.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Its record number in the input (its line, or its element).
    pub record: usize,
    /// Its id, when the input gives one.
    pub id: Option<ItemId>,
    /// The state to ask about, or why the record gives none.
    pub state: Result<Value, Invalid>,
    /// The whole input object, for consumers that read more of it (null when it is none).
    pub input: Value,
}

impl Item {
    /// What identifies it: its id, else its record number.
    pub fn key(&self) -> Key {
        match &self.id {
            Some(id) => Key::Id(id.clone()),
            None => Key::Line(self.record),
        }
    }
}

impl Shape {
    /// Make an item of one record.
    pub fn item(&self, record: &Record) -> Item {
        let (at, n) = (record.at, record.at.n());
        let bad = |state: Invalid| Item { record: n, id: None, state: Err(state), input: Value::Null };
        let bytes = match &record.bytes {
            Ok(b) => b,
            Err(bytes) => return bad(Invalid::TooLong { at, bytes: *bytes, max: self.max }),
        };
        let Ok(text) = std::str::from_utf8(bytes) else { return bad(Invalid::NotUtf8 { at }) };
        let obj = match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(obj)) => obj,
            Ok(other) => return Item { record: n, id: None, state: Err(Invalid::NotObject { at }), input: other },
            Err(e) => {
                let what = e.to_string();
                let what = what.split(" at line ").next().unwrap_or(&what).to_string();
                return bad(Invalid::NotJson { at, what });
            }
        };
        // The id as written: the object's top-level fields read again, raw.
        let id = raw_fields(text).and_then(|raw| {
            self.id_fields
                .iter()
                .find_map(|f| raw.get(f.as_str()).filter(|v| v.get().trim() != "null"))
                .map(|v| ItemId::from_json(v.get()))
        });
        let state = match &self.state {
            StateOf::Whole => Ok(Value::Object(obj.clone())),
            StateOf::Field(f) => match obj.get(f) {
                Some(v) if !v.is_null() => Ok(v.clone()),
                _ => Err(Invalid::NoField { at, field: f.clone() }),
            },
            StateOf::Derived(make) => make(&obj).map_err(|why| Invalid::Consumer { at, why: why.to_string() }),
        };
        Item { record: n, id, state, input: Value::Object(obj) }
    }
}

/// An object's top-level fields as the text wrote them.
fn raw_fields(text: &str) -> Option<BTreeMap<String, Box<RawValue>>> {
    serde_json::from_str(text).ok()
}

/// Read a whole input into items (for tests and small inputs).
pub fn items(text: &str, shape: &Shape) -> Result<Vec<Item>, InputError> {
    let reader: Box<dyn BufRead + Send> = Box::new(std::io::Cursor::new(text.as_bytes().to_vec()));
    Records::new(reader, Layout::Auto, shape.max)?.map(|r| r.map(|r| shape.item(&r))).collect()
}

/// Read the rest of a reader, for a caller that wants it whole.
pub fn read_all(mut r: impl Read) -> std::io::Result<Vec<u8>> {
    let mut v = Vec::new();
    r.read_to_end(&mut v)?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compound_id_is_its_value_whatever_its_whitespace() {
        let id = ItemId::from_json("[1,\t2,\r\n {\"a b\" : \"x\\\" y\"}]");
        assert_eq!(id.json(), "[1,2,{\"a b\":\"x\\\" y\"}]");
        assert_eq!(ItemId::from_json(" 18446744073709551617 ").json(), "18446744073709551617");
        assert_eq!(ItemId::from_json("\"a  b\"").json(), "\"a  b\"");
        assert_eq!(ItemId::from_json("[1, 2]"), ItemId::from_json("[1,\n2]"));
    }

    fn records(text: &str, max: usize) -> Vec<Result<Record, String>> {
        let reader: Box<dyn BufRead + Send> = Box::new(std::io::Cursor::new(text.as_bytes().to_vec()));
        match Records::new(reader, Layout::Auto, max) {
            Ok(rs) => rs.map(|r| r.map_err(|e| e.to_string())).collect(),
            Err(e) => vec![Err(e.to_string())],
        }
    }

    fn texts(text: &str) -> Vec<String> {
        records(text, RECORD_MAX)
            .into_iter()
            .map(|r| {
                r.map(|r| String::from_utf8(r.bytes.unwrap_or_default()).unwrap_or_default()).unwrap_or_else(|e| e)
            })
            .collect()
    }

    #[test]
    fn an_array_is_streamed_as_elements_and_lines_pass_through() {
        assert_eq!(
            texts(" \n[{\"number\": 1}, {\"number\": 2,\n \"title\": \"x\"}]\n"),
            ["{\"number\": 1}", "{\"number\": 2,\n \"title\": \"x\"}"]
        );
        assert_eq!(texts("\n{\"id\": 1}\nnot json\n"), ["{\"id\": 1}", "not json"]);
        assert_eq!(texts("[{\"a\": \"]\\\"[\"}, 3, \"s\", null]"), ["{\"a\": \"]\\\"[\"}", "3", "\"s\"", "null"]);
        let broken = texts("[{\"a\": 1}, {\"b\":");
        assert_eq!(broken[0], "{\"a\": 1}");
        assert!(broken[1].starts_with("the input array, after element 1"), "{broken:?}");
    }

    #[test]
    fn a_jsonl_file_whose_first_line_is_an_array_is_jsonl() {
        // A first line `[1]` once made the whole file an array that broke off at line 2.
        assert_eq!(texts("[1, 2]\n{\"id\": 1}\n"), ["[1, 2]", "{\"id\": 1}"]);
        assert_eq!(texts("[{\"id\": 1}, {\"id\": 2}]\n\n"), ["{\"id\": 1}", "{\"id\": 2}"], "a one-line array alone");
        assert_eq!(texts("[\n  {\"id\": 1},\n  {\"id\": 2}\n]\n"), ["{\"id\": 1}", "{\"id\": 2}"], "jq's pretty array");
    }

    #[test]
    fn a_record_past_the_bound_is_one_failure_and_reading_goes_on() {
        let long = format!("{{\"id\": 1, \"pad\": \"{}\"}}\n{{\"id\": 2}}\n", "x".repeat(100));
        let rs = records(&long, 50);
        assert!(matches!(&rs[0], Ok(Record { at: Place::Line(1), bytes: Err(len) }) if *len > 50), "{rs:?}");
        assert!(matches!(&rs[1], Ok(Record { at: Place::Line(2), bytes: Ok(_) })), "{rs:?}");
        let arr = format!("[{{\"pad\": \"{}\"}}, {{\"id\": 2}}]", "y".repeat(100));
        let rs = records(&arr, 50);
        assert!(
            matches!(&rs[0], Ok(Record { at: Place::Element(1), bytes: Err(_) }))
                && matches!(&rs[1], Ok(Record { at: Place::Element(2), bytes: Ok(_) })),
            "{rs:?}"
        );
    }

    #[test]
    fn one_deeply_nested_element_is_one_item_not_the_end_of_the_array() {
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let text = format!("[{{\"id\": 1}}, {deep}, {{\"id\": 3}}]");
        let items = items(&text, &Shape::default()).expect("read");
        assert_eq!(items.len(), 3);
        assert!(items[1].state.is_err() && items[2].state.is_ok(), "{:?}", items[2]);
    }

    #[test]
    fn an_id_is_its_exact_json_text_and_a_missing_id_is_keyed_by_its_line() {
        let text = "{\"id\": 18446744073709551617}\n{\"id\": 18446744073709551618}\n{\"id\": 3}\n{\"x\": 1}\n";
        let items = items(text, &Shape::default()).expect("read");
        assert_eq!(items[0].id.as_ref().map(ItemId::json), Some("18446744073709551617"));
        assert_ne!(items[0].key(), items[1].key());
        assert_eq!(items[3].id, None);
        assert_eq!(items[3].key(), Key::Line(4));
        assert_ne!(items[2].key(), Key::Line(3), "{{\"id\": 3}} on line 1 and a line without id never collide");
        #[derive(serde::Serialize)]
        struct Line<'a> {
            id: &'a Option<ItemId>,
        }
        let ser = serde_json::to_string(&Line { id: &items[0].id }).expect("serialises");
        assert_eq!(ser, "{\"id\":18446744073709551617}", "written back as it was read");
    }
}
