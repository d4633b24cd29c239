//! Append-only JSONL, shared by both ledgers: one `write` of one complete line per record,
//! under an advisory lock; readers skip torn and unparsable lines, count them, and never
//! rewrite anything.

use std::fs::{File, OpenOptions};
use std::io::{Read as _, Seek, SeekFrom, Write};
use std::path::Path;

use serde::de::DeserializeOwned;

/// Append one record as one line. The parent directory is created when missing. A file left
/// with a torn last line (a crash mid-append) gets a newline first, so the new row stays whole.
pub fn append_line(path: &Path, record: &impl serde::Serialize) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(record).map_err(std::io::Error::other)?;
    line.push(b'\n');
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = OpenOptions::new().read(true).append(true).create(true).open(path)?;
    file.lock()?;
    let result = (|| {
        let len = file.metadata()?.len();
        if len > 0 {
            let mut last = [0u8; 1];
            file.seek(SeekFrom::Start(len - 1))?;
            file.read_exact(&mut last)?;
            if last[0] != b'\n' {
                line.insert(0, b'\n');
            }
        }
        file.write_all(&line)
    })();
    let _ = file.unlock();
    result
}

/// Records read from a JSONL file, and how many lines were skipped.
#[derive(Debug, Clone, PartialEq)]
pub struct Records<T> {
    /// The records that parsed, in file order.
    pub records: Vec<T>,
    /// Lines that did not parse (a torn last line among them).
    pub skipped: usize,
}

/// Read every record of a JSONL file. A missing file has no records.
pub fn read<T: DeserializeOwned>(path: &Path) -> std::io::Result<Records<T>> {
    let bytes = match read_bytes(path)? {
        Some(b) => b,
        None => return Ok(Records { records: Vec::new(), skipped: 0 }),
    };
    let mut records = Vec::new();
    let mut skipped = 0;
    for line in lines(&bytes) {
        match serde_json::from_slice(line) {
            Ok(r) => records.push(r),
            Err(_) => skipped += 1,
        }
    }
    Ok(Records { records, skipped })
}

/// The whole file, or `None` when it does not exist.
pub fn read_bytes(path: &Path) -> std::io::Result<Option<Vec<u8>>> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(Some(bytes))
}

/// The non-blank lines of a JSONL buffer.
pub fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes.split(|b| *b == b'\n').filter(|l| l.iter().any(|b| !b.is_ascii_whitespace()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn a_torn_last_line_is_skipped_and_counted_and_the_next_append_stays_whole() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("sub/ledger.jsonl");
        append_line(&path, &json!({"n": 1})).unwrap_or_else(|e| panic!("{e}"));
        let mut f = OpenOptions::new().append(true).open(&path).unwrap_or_else(|e| panic!("{e}"));
        f.write_all(b"{\"n\": 2, \"tor").unwrap_or_else(|e| panic!("{e}"));
        let r: Records<Value> = read(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((r.records.len(), r.skipped), (1, 1));
        append_line(&path, &json!({"n": 3})).unwrap_or_else(|e| panic!("{e}"));
        let r: Records<Value> = read(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.records, [json!({"n": 1}), json!({"n": 3})]);
        assert_eq!(r.skipped, 1);
    }

    #[test]
    fn a_missing_file_has_no_records_and_reading_never_creates_it() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("absent.jsonl");
        let r: Records<Value> = read(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((r.records.len(), r.skipped), (0, 0));
        assert!(!path.exists());
    }
}
