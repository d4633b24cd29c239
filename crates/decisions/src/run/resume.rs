//! Continuing a run: the items its output already holds a final line for are left alone, the
//! rest are asked again, and no item is ever written twice.
//!
//! [`resume`] opens the output through any link (so the file the link names is the one
//! continued, and no second copy diverges), takes its lock, and reads it: a last line without
//! its newline was being written when the run stopped and is cut back (its item asked again);
//! lines of transient failures and unasked items are dropped, in one atomic rewrite; every
//! other line's key goes into the [`Done`] set.

use std::collections::HashSet;
use std::hash::{BuildHasher, Hasher};
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::Path;

use crate::run::input::{ItemId, Key};
use crate::run::output::{OutputError, OutputFile, read_line};

/// The items to leave alone, kept as 64-bit hashes of their keys (8 bytes an item), and the
/// records whose repeat line is already written.
#[derive(Debug, Default)]
pub struct Done {
    keys: HashSet<u64>,
    repeats: HashSet<usize>,
}

fn hash(key: &Key) -> u64 {
    let mut h = std::hash::BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().build_hasher();
    match key {
        Key::Id(id) => {
            h.write_u8(b'i');
            h.write(id.json().as_bytes());
        }
        Key::Line(n) => {
            h.write_u8(b'l');
            h.write_usize(*n);
        }
    }
    h.finish()
}

impl Done {
    /// Mark an item done; false when it already was.
    pub fn insert(&mut self, key: &Key) -> bool {
        self.keys.insert(hash(key))
    }

    /// Whether an item is done.
    pub fn contains(&self, key: &Key) -> bool {
        self.keys.contains(&hash(key))
    }

    /// How many items.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// No items.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Note that the repeat at `line` has its line; false when it already had.
    pub fn insert_repeat(&mut self, record: usize) -> bool {
        self.repeats.insert(record)
    }
}

/// What resuming found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Resumed {
    /// Final lines kept.
    pub kept: usize,
    /// Lines dropped to be asked again (transient failures, unasked items).
    pub dropped: usize,
    /// A last line cut back because it lacked its newline.
    pub torn: bool,
    /// Lines that did not parse, dropped.
    pub unreadable: usize,
}

/// Open `path` to continue the run in it: follow links, take the lock, repair the tail, drop
/// what is asked again, and return the file (held) and the items done. The file is read a line
/// at a time, twice when it is rewritten: memory does not grow with the output.
pub fn resume(path: &Path) -> Result<(OutputFile, Done, Resumed), OutputError> {
    let target = crate::file::resolve_links(path).map_err(|e| OutputError::io(path, e))?;
    // Opened for reading and appending, a FIFO never blocks the open, and fstat then tells it
    // (or a device that reads for ever) from a regular file before anything is read.
    let open = || {
        let file =
            std::fs::OpenOptions::new().read(true).append(true).open(&target).map_err(|e| OutputError::io(path, e))?;
        match file.metadata() {
            Ok(m) if m.is_file() => Ok(file),
            Ok(_) => Err(OutputError::NotRegular(path.into())),
            Err(e) => Err(OutputError::io(path, e)),
        }
    };
    let held = OutputFile::locked(open()?, path)?;
    let mut found = Resumed::default();
    let mut done = Done::default();
    let mut rewrite = false;
    each_line(held.file(), |raw, whole| {
        let verdict = verdict(raw, whole);
        match &verdict {
            Verdict::Keep(line) => {
                if line.skipped.is_some() {
                    done.insert_repeat(line.record);
                } else {
                    for key in keys(line) {
                        done.insert(&key);
                    }
                }
                found.kept += 1;
            }
            Verdict::Retry => found.dropped += 1,
            Verdict::Unreadable => found.unreadable += 1,
            Verdict::Torn => found.torn = true,
            Verdict::Blank => {}
        }
        rewrite |= !matches!(verdict, Verdict::Keep(_));
        Ok(())
    })
    .map_err(|e| OutputError::io(path, e))?;
    if !rewrite {
        return Ok((held, done, found));
    }
    // One rewrite, atomic: the kept lines streamed beside, then renamed over the file; the lock
    // is taken again on the new file (a run that took it first is the one that continues).
    let mut file = held.file();
    file.seek(SeekFrom::Start(0)).map_err(|e| OutputError::io(path, e))?;
    crate::file::write_atomic_with(&target, |out| {
        each_line(held.file(), |raw, whole| {
            if matches!(verdict(raw, whole), Verdict::Keep(_)) {
                out.write_all(raw)?;
                out.write_all(b"\n")?;
            }
            Ok(())
        })
    })
    .map_err(|e| OutputError::io(path, e))?;
    drop(held);
    Ok((OutputFile::locked(open()?, path)?, done, found))
}

/// What resuming makes of one line of the output.
enum Verdict {
    /// A final line: kept, its item done.
    Keep(Box<crate::run::output::OutputLine>),
    /// A transient failure or an unasked item: dropped, asked again.
    Retry,
    /// Not a line of ours: dropped.
    Unreadable,
    /// The last line, without its newline: it was being written when the run stopped.
    Torn,
    /// Nothing but space.
    Blank,
}

fn verdict(raw: &[u8], whole: bool) -> Verdict {
    if raw.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Blank;
    }
    if !whole {
        return Verdict::Torn;
    }
    match read_line(raw) {
        None => Verdict::Unreadable,
        Some(line) if line.retried() => Verdict::Retry,
        Some(line) => Verdict::Keep(Box::new(line)),
    }
}

/// Each line of `file` from where it stands, without its newline, and whether it had one.
fn each_line(file: &std::fs::File, mut f: impl FnMut(&[u8], bool) -> std::io::Result<()>) -> std::io::Result<()> {
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        let whole = buf.last() == Some(&b'\n');
        if whole {
            buf.pop();
        }
        f(&buf, whole)?;
    }
}

/// The keys a line stands for. A line written before lines carried a version named a missing
/// id by its line number (`17`, or `"line 17"` for a record that was no object), so its id
/// stands for that line too, as it did then.
fn keys(line: &crate::run::output::OutputLine) -> Vec<Key> {
    match (&line.id, line.v) {
        (Some(id), Some(_)) => vec![Key::Id(id.clone())],
        (None, _) => vec![Key::Line(line.record)],
        (Some(id), None) => {
            let legacy_line = id.json().parse::<usize>().ok().or_else(|| {
                let s: String = serde_json::from_str(id.json()).ok()?;
                s.strip_prefix("line ")?.parse().ok()
            });
            let mut keys = vec![Key::Id(id.clone())];
            keys.extend(legacy_line.map(Key::Line));
            keys
        }
    }
}

/// The id key of an item, for callers that build one by hand.
pub fn id_key(json: &str) -> Key {
    Key::Id(ItemId::from_json(json))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resuming_keeps_final_lines_cuts_a_torn_tail_and_follows_a_link() {
        let dir = tempfile::tempdir().expect("tmp");
        let real = dir.path().join("real.jsonl");
        let text = concat!(
            "{\"id\":1,\"record\":1,\"usable\":true,\"answers\":{},\"bands\":{},\"v\":\"1.0\"}\n",
            "{\"id\":2,\"record\":2,\"usable\":false,\"answers\":{},\"bands\":{},\"transient\":true,\"v\":\"1.0\"}\n",
            "{\"record\":3,\"usable\":false,\"answers\":{},\"bands\":{},\"v\":\"1.0\"}\n",
            "{\"id\":4,\"record\":4,\"usable\":true,\"answers\":{},\"bands\":{},\"v\":\"1.0\"}",
        );
        std::fs::write(&real, text).expect("write");
        let link = dir.path().join("out.jsonl");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&real, &link).expect("link");
        let (_held, done, found) = resume(&link).expect("resume");
        assert_eq!(found, Resumed { kept: 2, dropped: 1, torn: true, unreadable: 0 });
        assert!(done.contains(&id_key("1")) && done.contains(&Key::Line(3)));
        assert!(!done.contains(&id_key("2")) && !done.contains(&id_key("4")), "retried: transient, torn");
        assert!(std::fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()), "still a link");
        let after = std::fs::read_to_string(&real).expect("read");
        assert!(after.ends_with("\"v\":\"1.0\"}\n") && after.lines().count() == 2, "{after}");
    }

    #[test]
    fn an_output_written_before_lines_carried_a_version_is_resumed_as_it_was() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("out.jsonl");
        std::fs::write(&path, "{\"id\":7,\"usable\":true}\n{\"id\":\"line 9\",\"usable\":false}\n").expect("write");
        let (_held, done, found) = resume(&path).expect("resume");
        assert_eq!(found.kept, 2);
        assert!(done.contains(&id_key("7")) && done.contains(&Key::Line(7)) && done.contains(&Key::Line(9)));
    }
}
