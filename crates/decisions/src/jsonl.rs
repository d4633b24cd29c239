//! Append-only JSONL, shared by both ledgers: one `write` of one complete line per record,
//! under an advisory lock; readers skip torn and unparsable lines, count them, and never
//! rewrite anything.

use std::io::{Read as _, Seek, SeekFrom};
use std::path::Path;
use std::time::Instant;

use serde::de::DeserializeOwned;

use crate::file::{self, Gate};

/// An on-disk format version, `major.minor`, written as `"v": "1.0"` at the end of every row.
///
/// As cargo-nextest does for its records: a reader takes the rows of its own major version,
/// any minor, and ignores fields it does not know; a row of another major is skipped and
/// counted. A writer refuses to append after a row newer than itself, because that row's
/// writer may rely on something an older writer would break. A row with no `"v"` is 1.0 (the
/// rows written before rows carried one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Format {
    /// Changes a reader cannot skip over.
    pub major: u32,
    /// Additions a reader of the same major can ignore.
    pub minor: u32,
}

impl Format {
    /// The version a row states: absent is 1.0, one that does not parse is `None`.
    pub fn of(v: Option<&str>) -> Option<Format> {
        let Some(v) = v else { return Some(Format { major: 1, minor: 0 }) };
        let (major, minor) = v.split_once('.')?;
        Some(Format { major: major.parse().ok()?, minor: minor.parse().ok()? })
    }

    /// Whether a reader of this version takes a row that states `v`.
    pub fn reads(self, v: Option<&str>) -> bool {
        Format::of(v).is_some_and(|f| f.major == self.major)
    }

    /// Refuse to append after `last_line` (the file's last complete row) when it is newer.
    fn may_follow(self, last_line: &[u8], path: &Path) -> std::io::Result<()> {
        #[derive(serde::Deserialize)]
        struct Stated<'a> {
            #[serde(borrow, default)]
            v: Option<&'a str>,
        }
        let stated = serde_json::from_slice::<Stated>(last_line).ok().and_then(|s| s.v);
        match Format::of(stated) {
            Some(newer) if newer > self => Err(std::io::Error::new(
                std::io::ErrorKind::Unsupported,
                format!(
                    "{} was last written by a newer build (format {newer}); this build writes format {self} and will not append after it: upgrade decisions",
                    path.display()
                ),
            )),
            _ => Ok(()),
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl serde::Serialize for Format {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A record as written: its own fields, then `"v"`.
#[derive(serde::Serialize)]
struct Versioned<'a, T> {
    #[serde(flatten)]
    record: &'a T,
    v: Format,
}

/// How the rows of a file carry their format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Versioning {
    /// No version at all (the event log).
    Unversioned,
    /// Every row ends with `"v"` (the calibration ledger, our own format).
    Stated(Format),
    /// A row states `"v"` only past 1.0, so a 1.0 row is exactly the keys of a schema someone
    /// else owns (the judgment ledger, the Harness's `additionalProperties: false` format).
    /// Rows are still checked: none is appended after a newer one.
    PastFirst(Format),
}

impl Versioning {
    /// The format rows are checked against, if any.
    fn format(self) -> Option<Format> {
        match self {
            Versioning::Unversioned => None,
            Versioning::Stated(f) | Versioning::PastFirst(f) => Some(f),
        }
    }

    /// The version a written row states, if any.
    fn stated(self) -> Option<Format> {
        match self {
            Versioning::PastFirst(Format { major: 1, minor: 0 }) => None,
            other => other.format(),
        }
    }
}

/// Append one record as one line, waiting up to [`file::LOCK_WAIT`] for the lock.
pub fn append_line(path: &Path, record: &impl serde::Serialize, versioning: Versioning) -> std::io::Result<()> {
    append_lines(path, std::slice::from_ref(record), versioning, Instant::now() + file::LOCK_WAIT, &Gate::default())
}

/// Append records as whole lines in one write under one lock, by `deadline`, through `gate`:
/// all of them land or none does. A versioned file whose last row is newer than this build's
/// format is refused, naming both versions. The parent directory is created when missing;
/// anything but a regular file at `path` is refused.
pub fn append_lines<T: serde::Serialize>(
    path: &Path,
    records: &[T],
    versioning: Versioning,
    deadline: Instant,
    gate: &Gate,
) -> std::io::Result<()> {
    let mut bytes = Vec::new();
    for record in records {
        let line = match versioning.stated() {
            Some(v) => serde_json::to_string(&Versioned { record, v }),
            None => serde_json::to_string(record),
        }
        .map_err(std::io::Error::other)?;
        // The same JSON value, with nothing a terminal would act on: these files get read with
        // `tail` and `grep`.
        bytes.extend_from_slice(crate::escape::json_text(&line).as_bytes());
        bytes.push(b'\n');
    }
    match versioning.format() {
        Some(f) => file::append(path, &bytes, deadline, gate, &|last| f.may_follow(last, path)),
        None => file::append(path, &bytes, deadline, gate, &file::any_last_line),
    }
}

/// Records read from a JSONL file, and how many lines were skipped.
#[derive(Debug, Clone, PartialEq)]
pub struct Records<T> {
    /// The records that parsed, in file order.
    pub records: Vec<T>,
    /// Lines that did not parse (a torn last line among them).
    pub skipped: usize,
}

/// Read every record of a JSONL file that a reader of `format` takes; a missing file has none.
/// Lines that do not parse, and rows of another major version, are skipped and counted.
pub fn read<T: DeserializeOwned>(path: &Path, format: Format) -> std::io::Result<Records<T>> {
    #[derive(serde::Deserialize)]
    struct Row<T> {
        #[serde(flatten)]
        record: T,
        #[serde(default)]
        v: Option<String>,
    }
    let bytes = match read_bytes(path)? {
        Some(b) => b,
        None => return Ok(Records { records: Vec::new(), skipped: 0 }),
    };
    let mut records = Vec::new();
    let mut skipped = 0;
    for line in lines(&bytes) {
        match serde_json::from_slice::<Row<T>>(line) {
            Ok(r) if format.reads(r.v.as_deref()) => records.push(r.record),
            _ => skipped += 1,
        }
    }
    Ok(Records { records, skipped })
}

/// The whole file, or `None` when it does not exist; anything but a regular file is refused.
/// A large file is read by one thread per core, each filling its own part of the buffer.
pub fn read_bytes(path: &Path) -> std::io::Result<Option<Vec<u8>>> {
    let mut file = match file::open_for_read(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let len = file.metadata()?.len() as usize;
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    let mut bytes = Vec::new();
    #[cfg(unix)]
    if workers > 1 && len >= (8 << 20) {
        use std::os::unix::fs::FileExt;
        bytes = vec![0u8; len];
        let part = len.div_ceil(workers);
        let shared = &file;
        std::thread::scope(|s| {
            let handles: Vec<_> = bytes
                .chunks_mut(part)
                .enumerate()
                .map(|(i, chunk)| s.spawn(move || shared.read_exact_at(chunk, (i * part) as u64)))
                .collect();
            handles.into_iter().try_for_each(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
        })?;
        // Anything appended since the length was taken is read too: no row is left out.
        file.seek(SeekFrom::Start(len as u64))?;
    }
    file.read_to_end(&mut bytes)?;
    Ok(Some(bytes))
}

/// The non-blank lines of a JSONL buffer.
pub fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut start = 0;
    memchr::memchr_iter(b'\n', bytes)
        .chain(std::iter::once(bytes.len()))
        .map(move |end| {
            let line = &bytes[start.min(end)..end];
            start = end + 1;
            line
        })
        .filter(|l| l.iter().any(|b| !b.is_ascii_whitespace()))
}

/// Run `f` over the buffer's lines in one chunk per core, chunks cut at line ends; the
/// results come back in file order.
pub fn par_lines<'a, T: Send>(bytes: &'a [u8], f: impl Fn(&'a [u8]) -> T + Sync) -> Vec<T> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    if workers == 1 || bytes.len() < (1 << 20) {
        return vec![f(bytes)];
    }
    let mut chunks = Vec::with_capacity(workers);
    let mut start = 0;
    for i in 1..=workers {
        let target = (bytes.len() * i / workers).max(start);
        let end = if i == workers {
            bytes.len()
        } else {
            memchr::memchr(b'\n', &bytes[target..]).map_or(bytes.len(), |p| target + p + 1)
        };
        chunks.push(&bytes[start..end]);
        start = end;
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = chunks.into_iter().map(|c| s.spawn(|| f(c))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};
    use std::io::Write;

    const V1: Format = Format { major: 1, minor: 0 };

    #[test]
    fn versions_are_read_and_refused_by_the_rule() {
        let v = |s: Option<&str>| Format::of(s);
        assert_eq!(v(None), Some(V1));
        assert_eq!(v(Some("1.7")), Some(Format { major: 1, minor: 7 }));
        assert_eq!(v(Some("x")), None);
        assert!(V1.reads(None) && V1.reads(Some("1.9")) && !V1.reads(Some("2.0")) && !V1.reads(Some("one")));
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("l.jsonl");
        append_line(&path, &json!({"n": 1}), Versioning::Stated(V1)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(std::fs::read_to_string(&path).unwrap_or_default(), "{\"n\":1,\"v\":\"1.0\"}\n");
        // A newer minor with a field this build does not know is read; a newer major is skipped.
        std::fs::write(&path, "{\"n\":1}\n{\"n\":2,\"mood\":\"x\",\"v\":\"1.4\"}\n{\"n\":3,\"v\":\"2.0\"}\n")
            .unwrap_or_default();
        let r: Records<serde_json::Map<String, Value>> = read(&path, V1).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((r.records.len(), r.skipped), (2, 1));
        // The last row is newer than this writer: refused, naming both versions, nothing written.
        let before = std::fs::read(&path).unwrap_or_default();
        let e = append_line(&path, &json!({"n": 4}), Versioning::Stated(V1))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("newer build (format 2.0); this build writes format 1.0"), "{e}");
        assert_eq!(std::fs::read(&path).unwrap_or_default(), before);
    }

    #[test]
    fn a_torn_last_line_is_skipped_and_counted_and_the_next_append_stays_whole() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("sub/ledger.jsonl");
        append_line(&path, &json!({"n": 1}), Versioning::Stated(V1)).unwrap_or_else(|e| panic!("{e}"));
        let mut f = std::fs::OpenOptions::new().append(true).open(&path).unwrap_or_else(|e| panic!("{e}"));
        f.write_all(b"{\"n\": 2, \"tor").unwrap_or_else(|e| panic!("{e}"));
        let r: Records<Value> = read(&path, V1).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((r.records.len(), r.skipped), (1, 1));
        append_line(&path, &json!({"n": 3}), Versioning::Stated(V1)).unwrap_or_else(|e| panic!("{e}"));
        let r: Records<Value> = read(&path, V1).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.records, [json!({"n": 1}), json!({"n": 3})]);
        assert_eq!(r.skipped, 1);
    }

    #[test]
    fn a_missing_file_has_no_records_and_reading_never_creates_it() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("absent.jsonl");
        let r: Records<Value> = read(&path, V1).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((r.records.len(), r.skipped), (0, 0));
        assert!(!path.exists());
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Cut into one chunk per core, a buffer yields exactly the lines it yields whole, in
        /// order: long lines, blank lines and a missing last newline included.
        #[test]
        fn parallel_lines_are_the_lines(
            shape in prop::collection::vec((0usize..300_000, 0u8..4), 1..40),
            last_newline: bool,
        ) {
            let mut bytes = Vec::new();
            for (i, (len, kind)) in shape.iter().enumerate() {
                match kind {
                    0 => bytes.extend(std::iter::repeat_n(b' ', len % 3)),
                    _ => bytes.extend(format!("{{\"n\":{i},\"pad\":\"{}\"}}", "x".repeat(*len)).bytes()),
                }
                bytes.push(b'\n');
            }
            if !last_newline {
                bytes.pop();
            }
            let whole: Vec<&[u8]> = lines(&bytes).collect();
            let parts: Vec<&[u8]> = par_lines(&bytes, |c| lines(c).collect::<Vec<_>>()).concat();
            prop_assert_eq!(parts, whole);
        }
    }
}
