//! A run's output: one [`OutputLine`] an item, typed and versioned, and the file it goes to.
//!
//! The file is created new (a path that exists is refused, so two fresh runs cannot share
//! one) and locked for the run's whole life: a second run on a held output is refused at once.
//! Each line is one `write` of one whole line, so a run killed at any moment leaves no line
//! torn but the one it was writing, which `--resume` cuts back.
//!
//! A line: `{"id"?, "record", "usable", "answers", "bands", "transient"?, "asked"?, "skipped"?,
//! <what a consumer adds>, "v": "1.0"}`. `id` is the input's id as it wrote it (absent when it
//! gave none), `record` the input record it came from (its line, or its element in an array); `transient` marks an item that failed for
//! a reason worth retrying, `asked: false` one never put to a provider, `skipped` a repeat of
//! an id the input already gave (never asked). Readers take lines of their own major version,
//! ignore fields they do not know, and read the lines written before lines carried a `"v"`.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::jsonl::Format;
use crate::run::input::ItemId;

/// The format output lines are written in.
pub const FORMAT: Format = Format { major: 1, minor: 0 };

/// One item's line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OutputLine {
    /// The input's id, as it wrote it; absent when it gave none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<ItemId>,
    /// The input record it came from.
    pub record: usize,
    /// Whether every answer was in the act band.
    pub usable: bool,
    /// Each question's answer or failure.
    pub answers: Map<String, Value>,
    /// Each question's band.
    pub bands: Map<String, Value>,
    /// It failed for a reason worth retrying: `--resume` asks it again.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub transient: bool,
    /// Whether it was put to a provider; false, `--resume` asks it again.
    #[serde(skip_serializing_if = "is_true")]
    pub asked: bool,
    /// A repeat of an id the input already gave: never asked, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// What a consumer adds (triage's `title` and `triage`, the ledger's `recorded`).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
    /// The line's format; absent when read from a line written before lines carried one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v: Option<Format>,
}

fn is_true(b: &bool) -> bool {
    *b
}

impl OutputLine {
    /// A line of the format this build writes, with nothing in it yet.
    pub fn new(id: Option<ItemId>, record: usize) -> OutputLine {
        OutputLine {
            id,
            record,
            usable: false,
            answers: Map::new(),
            bands: Map::new(),
            transient: false,
            asked: true,
            skipped: None,
            extra: Map::new(),
            v: Some(FORMAT),
        }
    }

    /// Whether `--resume` asks its item again: a transient failure, or never asked.
    pub fn retried(&self) -> bool {
        self.transient || !self.asked
    }

    /// The line's text, with nothing a terminal would act on (`\u` escapes), no newline.
    pub fn to_text(&self) -> String {
        let text = serde_json::to_string(self).unwrap_or_default();
        crate::escape::json_text(&text).into_owned()
    }
}

impl<'de> Deserialize<'de> for OutputLine {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Lines;
        impl<'de> Visitor<'de> for Lines {
            type Value = OutputLine;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an output line")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<OutputLine, A::Error> {
                let mut line = OutputLine::new(None, 0);
                line.v = None;
                while let Some(key) = m.next_key::<String>()? {
                    match key.as_str() {
                        // The id as written: a number's digits are never read as a float.
                        "id" => {
                            let raw: Box<RawValue> = m.next_value()?;
                            line.id = (raw.get().trim() != "null").then(|| ItemId::from_json(raw.get()));
                        }
                        "record" => line.record = m.next_value()?,
                        "usable" => line.usable = m.next_value()?,
                        "answers" => line.answers = m.next_value()?,
                        "bands" => line.bands = m.next_value()?,
                        "transient" => line.transient = m.next_value()?,
                        "asked" => line.asked = m.next_value()?,
                        "skipped" => line.skipped = m.next_value()?,
                        "v" => {
                            let v: Option<String> = m.next_value()?;
                            line.v = v.as_deref().and_then(|v| Format::of(Some(v)));
                            if line.v.is_none() {
                                return Err(serde::de::Error::custom("a \"v\" that is no format"));
                            }
                        }
                        _ => {
                            let v: Value = m.next_value()?;
                            line.extra.insert(key, v);
                        }
                    }
                }
                Ok(line)
            }
        }
        d.deserialize_map(Lines)
    }
}

/// Read one output line: `None` for one that does not parse, or of another major version.
pub fn read_line(text: &[u8]) -> Option<OutputLine> {
    let line: OutputLine = serde_json::from_slice(text).ok()?;
    FORMAT.reads(line.v.map(|v| v.to_string()).as_deref()).then_some(line)
}

/// Why a run's output file could not be had.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// A fresh run's output is already there.
    #[error("--output {} exists", .0.display())]
    Exists(PathBuf),
    /// It is not a regular file (a FIFO, a device, a directory): a run cannot read it back.
    #[error("--output {}: not a regular file (a FIFO, a device or a directory), so --resume cannot read what it holds; name a regular file", .0.display())]
    NotRegular(PathBuf),
    /// Another run holds it.
    #[error("--output {}: another run holds it (its lock is taken); wait for that run, or name another file", .0.display())]
    Held(PathBuf),
    /// It could not be opened, read or written.
    #[error("--output {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

impl OutputError {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> OutputError {
        OutputError::Io { path: path.to_path_buf(), source }
    }
}

/// A run's output file, held (locked) for as long as this lives.
#[derive(Debug)]
pub struct OutputFile {
    file: File,
    path: PathBuf,
}

impl OutputFile {
    /// Create the output afresh: refused when the path exists (even as a dangling link), so two
    /// fresh runs cannot share one; locked at once.
    pub fn create(path: &Path) -> Result<OutputFile, OutputError> {
        let file = match OpenOptions::new().read(true).append(true).create_new(true).open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Err(OutputError::Exists(path.into())),
            Err(e) => return Err(OutputError::io(path, e)),
        };
        OutputFile::locked(file, path)
    }

    /// Take the lock of an open output, or refuse: another run holds it.
    pub(crate) fn locked(file: File, path: &Path) -> Result<OutputFile, OutputError> {
        match file.try_lock() {
            Ok(()) => Ok(OutputFile { file, path: path.to_path_buf() }),
            Err(std::fs::TryLockError::WouldBlock) => Err(OutputError::Held(path.into())),
            Err(std::fs::TryLockError::Error(e)) => Err(OutputError::io(path, e)),
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append one line: one `write` of the whole line and its newline.
    pub fn write_line(&mut self, line: &OutputLine) -> std::io::Result<()> {
        let mut text = line.to_text().into_bytes();
        text.push(b'\n');
        self.file.write_all(&text)
    }

    /// The open file, for a reader that goes over what was written (the lock stays held).
    pub fn file(&self) -> &File {
        &self.file
    }

    /// An output no one names, for a run whose lines are read back but not kept (a triage
    /// report with no `--output`): a file in the temporary directory, unlinked at once where
    /// the system allows, so nothing is left behind.
    pub fn scratch() -> std::io::Result<OutputFile> {
        let dir = std::env::temp_dir();
        for attempt in 0..100u32 {
            let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
            let path = dir.join(format!(".decisions-run-{}-{nanos}-{attempt}.jsonl", std::process::id()));
            match OpenOptions::new().read(true).append(true).create_new(true).open(&path) {
                Ok(file) => {
                    #[cfg(unix)]
                    let _ = std::fs::remove_file(&path);
                    return Ok(OutputFile { file, path });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(std::io::Error::other("no scratch file could be made in the temporary directory"))
    }
}

/// Lines written through it go at the end (the file is opened to append).
impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

impl std::io::Read for OutputFile {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.file.read(buf)
    }
}

impl std::io::Seek for OutputFile {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        self.file.seek(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_line_round_trips_and_keeps_what_a_consumer_added() {
        let mut line = OutputLine::new(Some(ItemId::from_json("18446744073709551617")), 4);
        line.usable = true;
        line.answers.insert("q".into(), json!({"ok": true}));
        line.extra.insert("title".into(), json!("t"));
        let text = line.to_text();
        assert!(text.starts_with("{\"id\":18446744073709551617,\"record\":4,\"usable\":true,"), "{text}");
        assert!(text.ends_with(",\"title\":\"t\",\"v\":\"1.0\"}"), "{text}");
        assert_eq!(read_line(text.as_bytes()), Some(line));
    }

    #[test]
    fn lines_written_before_lines_carried_a_version_are_read() {
        let old =
            r#"{"id":17,"usable":false,"answers":{},"bands":{},"transient":true,"title":"x","recorded":{"q":"r1"}}"#;
        let line = read_line(old.as_bytes()).expect("read");
        assert_eq!((line.id.as_ref().map(ItemId::json), line.v, line.transient), (Some("17"), None, true));
        assert_eq!(line.extra["recorded"], json!({"q": "r1"}));
        assert!(read_line(br#"{"id":1,"usable":true,"answers":{},"bands":{},"v":"2.0"}"#).is_none(), "another major");
        assert!(read_line(br#"{"id":1,"us"#).is_none(), "torn");
    }

    #[test]
    fn a_held_output_is_refused_and_an_existing_one_is_not_created_again() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("out.jsonl");
        let held = OutputFile::create(&path).expect("created");
        assert!(matches!(OutputFile::create(&path), Err(OutputError::Exists(_))));
        let again = OpenOptions::new().read(true).append(true).open(&path).expect("open");
        assert!(matches!(OutputFile::locked(again, &path), Err(OutputError::Held(_))));
        drop(held);
        let again = OpenOptions::new().read(true).append(true).open(&path).expect("open");
        assert!(OutputFile::locked(again, &path).is_ok(), "free once the first run is gone");
    }
}
