//! Files under a deadline, whatever the filesystem does.
//!
//! A file the project keeps at a fixed place (config.json, a named catalog, a ledger, the event
//! log) must be a regular file: anything else there is refused, never waited on. A path a
//! person names (`--catalog <(jq ...)`) is read as given, a pipe included, but only until the
//! deadline. An append waits for the advisory lock only until its deadline, and a write that
//! comes up short (a full disk) is cut back so the file is exactly as it was. Work that could
//! stall in the kernel (a hung mount) runs on a thread of its own that the caller stops
//! waiting for; a [`Gate`] makes sure such a write is either never begun or reported.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a command with no deadline of its own waits for a ledger's lock.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);

/// The error for a path that holds something other than a regular file.
pub fn not_regular() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "not a regular file")
}

fn timed_out(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, what.to_string())
}

/// Open without ever blocking on a FIFO or device, then insist on a regular file.
fn open_regular(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    Ok(file)
}

/// Open a file that must be regular, for reading.
pub fn open_for_read(path: &Path) -> io::Result<File> {
    open_regular(path, OpenOptions::new().read(true))
}

/// Read a file that must be regular. A FIFO or device there is refused, never waited on.
pub fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open_for_read(path)?.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Run `f` on a thread of its own and wait for it until `deadline`; `None` when it has not
/// finished by then (the thread is left to finish or stall on its own).
pub fn within<T: Send + 'static>(deadline: Instant, f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (tx, rx) = mpsc::sync_channel(1);
    let spawned = std::thread::Builder::new().spawn(move || {
        let _ = tx.send(f());
    });
    if spawned.is_err() {
        return None;
    }
    rx.recv_timeout(deadline.saturating_duration_since(Instant::now())).ok()
}

/// The largest document read whole by default (a card, a catalog, a findings file, a state):
/// 64 MiB, far past any real one, and far below what would exhaust memory.
pub const DEFAULT_DOCUMENT_MAX: u64 = 64 << 20;

static DOCUMENT_MAX: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(DEFAULT_DOCUMENT_MAX);

/// Set the bound [`read_input`] keeps for the rest of the process (`--document-max`).
pub fn set_document_max(bytes: u64) {
    DOCUMENT_MAX.store(bytes, std::sync::atomic::Ordering::Relaxed);
}

/// The bound on a document read whole, in bytes.
pub fn document_max() -> u64 {
    DOCUMENT_MAX.load(std::sync::atomic::Ordering::Relaxed)
}

/// Read any path as given (a pipe included, so `<(jq ...)` works) until `deadline`, at most
/// [`document_max`] bytes: a longer one is refused (`FileTooLarge`) having read one byte more.
pub fn read_input(path: &Path, deadline: Instant) -> io::Result<Vec<u8>> {
    let owned = path.to_path_buf();
    let max = document_max();
    within(deadline, move || {
        let file = std::fs::File::open(owned)?;
        // A regular file says its size: one past the bound is refused before a byte is read.
        if file.metadata().is_ok_and(|m| m.is_file() && m.len() > max) {
            return Err(too_large(max));
        }
        read_at_most(file, max)
    })
    .unwrap_or_else(|| Err(timed_out("nothing could be read from it in the time allowed")))
}

/// Read a reader to its end, refusing one that holds more than `max` bytes.
pub fn read_at_most(reader: impl Read, max: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_large(max));
    }
    Ok(bytes)
}

fn too_large(max: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("larger than {max} bytes, the bound on a document read whole (raise it with --document-max BYTES)"),
    )
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Open,
    Writing,
    Abandoned,
}

/// The point of no return of one write: a caller that stops waiting abandons it, and an
/// abandoned write never begins. One that has begun is waited for and reported.
#[derive(Debug, Clone)]
pub struct Gate(Arc<Mutex<Phase>>);

impl Default for Gate {
    fn default() -> Self {
        Gate(Arc::new(Mutex::new(Phase::Open)))
    }
}

impl Gate {
    fn phase(&self) -> std::sync::MutexGuard<'_, Phase> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Begin the write, unless the caller has abandoned it.
    fn begin(&self) -> bool {
        let mut p = self.phase();
        if *p == Phase::Abandoned {
            return false;
        }
        *p = Phase::Writing;
        true
    }

    fn abandoned(&self) -> bool {
        *self.phase() == Phase::Abandoned
    }

    /// Abandon the write; false when it has already begun.
    pub fn abandon(&self) -> bool {
        let mut p = self.phase();
        if *p == Phase::Writing {
            return false;
        }
        *p = Phase::Abandoned;
        true
    }
}

/// Run `work`, which writes through the gate it is given, on its own thread until `deadline`.
/// When it has not finished by then it is abandoned, unless its write has begun: that write is
/// waited for, up to `settle` more. So what the caller reports as written was written.
pub fn write_within<T: Send + 'static>(
    deadline: Instant,
    settle: Duration,
    work: impl FnOnce(&Gate) -> io::Result<T> + Send + 'static,
) -> io::Result<T> {
    let gate = Gate::default();
    let theirs = gate.clone();
    let (tx, rx) = mpsc::sync_channel(1);
    std::thread::Builder::new().spawn(move || {
        let _ = tx.send(work(&theirs));
    })?;
    await_write(&rx, &gate, deadline, settle)
}

/// The waiting half of [`write_within`], for a write that a thread the caller already has
/// does through `gate` and reports on `rx`: waited for until `deadline`, then abandoned unless
/// it has begun, when it is waited for up to `settle` more.
pub fn await_write<T>(
    rx: &mpsc::Receiver<io::Result<T>>,
    gate: &Gate,
    deadline: Instant,
    settle: Duration,
) -> io::Result<T> {
    match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(r) => r,
        Err(_) if gate.abandon() => Err(timed_out("the file could not be written in the time allowed")),
        Err(_) => rx.recv_timeout(settle).unwrap_or_else(|_| Err(timed_out("the write did not finish in time"))),
    }
}

/// Append `bytes` (whole lines) to a regular file under its advisory lock. The lock is waited
/// for until `deadline`; then `check` sees the file's last complete line (empty when it has
/// none) and may refuse; the write begins only through `gate`. A file left with a torn last
/// line gets a newline first, so the new lines stay whole; a write that comes up short is cut
/// back, leaving the file exactly as it was. The parent directory is created when missing.
pub fn append(
    path: &Path,
    bytes: &[u8],
    deadline: Instant,
    gate: &Gate,
    check: &dyn Fn(&[u8]) -> io::Result<()>,
) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = open_regular(path, OpenOptions::new().read(true).append(true).create(true))?;
    lock_by(&file, deadline, gate)?;
    let result = (|| {
        let len = file.metadata()?.len();
        check(&last_line(&mut file, len)?)?;
        if !gate.begin() {
            return Err(timed_out("abandoned before it began"));
        }
        let mut torn = false;
        if len > 0 {
            let mut last = [0u8; 1];
            file.seek(SeekFrom::Start(len - 1))?;
            file.read_exact(&mut last)?;
            torn = last[0] != b'\n';
        }
        let written =
            if torn { file.write_all(b"\n").and_then(|()| file.write_all(bytes)) } else { file.write_all(bytes) };
        if let Err(e) = written {
            // Never leave a part of a row behind.
            return Err(match file.set_len(len) {
                Ok(()) => e,
                Err(cut) => io::Error::new(e.kind(), format!("{e}; cutting back the partial write failed too: {cut}")),
            });
        }
        Ok(())
    })();
    let _ = file.unlock();
    result
}

/// The last complete line of the first `len` bytes of a file (without its newline), or nothing.
/// A torn tail (no newline yet) is not a line.
fn last_line(file: &mut File, len: u64) -> io::Result<Vec<u8>> {
    let mut window: u64 = 4096;
    loop {
        let start = len.saturating_sub(window);
        let mut buf = vec![0u8; (len - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut buf)?;
        let Some(end) = memchr::memrchr(b'\n', &buf) else {
            if start == 0 {
                return Ok(Vec::new());
            }
            window *= 4;
            continue;
        };
        match memchr::memrchr(b'\n', &buf[..end]) {
            Some(prev) => return Ok(buf[prev + 1..end].to_vec()),
            None if start == 0 => return Ok(buf[..end].to_vec()),
            None => window *= 4,
        }
    }
}

/// No check on what the file already holds.
pub fn any_last_line(_: &[u8]) -> io::Result<()> {
    Ok(())
}

/// Take the file's exclusive lock, polling until `deadline` or until the gate is abandoned.
pub(crate) fn lock_by(file: &File, deadline: Instant, gate: &Gate) -> io::Result<()> {
    let mut pause = Duration::from_millis(1);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(()),
            Err(std::fs::TryLockError::WouldBlock) => {}
            Err(std::fs::TryLockError::Error(e)) => return Err(e),
        }
        let now = Instant::now();
        if now >= deadline || gate.abandoned() {
            return Err(timed_out("another process holds its lock"));
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// Replace a file's contents all at once: write beside it, give the new file the old one's
/// permissions, sync, rename over it. A symlink is followed and its target replaced, so a
/// linked dotfile stays a link and no second copy diverges. Anything but a regular file there
/// is refused; a failed write leaves the file as it was and nothing beside it. The parent
/// directory is created when missing.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |w| w.write_all(contents))
}

/// [`write_atomic`] with the contents streamed by `write` (buffered), for a file too large to
/// hold: the same guarantees, and a failed `write` leaves the file as it was.
pub fn write_atomic_with(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let target = resolve_links(path)?;
    let existing = match std::fs::metadata(&target) {
        Ok(m) if !m.is_file() => return Err(not_regular()),
        Ok(m) => Some(m.permissions()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = target.with_file_name(format!(".{name}.decisions-{}.tmp", std::process::id()));
    let written = (|| {
        let f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        let mut buffered = io::BufWriter::with_capacity(1 << 16, f);
        write(&mut buffered)?;
        let f = buffered.into_inner().map_err(io::IntoInnerError::into_error)?;
        if let Some(p) = existing {
            f.set_permissions(p)?;
        }
        f.sync_all()?;
        std::fs::rename(&tmp, &target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The path a chain of symlinks leads to (the path itself when it is none, or names nothing yet).
pub fn resolve_links(path: &Path) -> io::Result<std::path::PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            Ok(_) => return Ok(p),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(p),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!("{}: too many levels of symbolic links", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(5)
    }

    #[test]
    fn an_append_waits_for_the_lock_only_until_its_deadline() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("l.jsonl");
        append(&path, b"{}\n", soon(), &Gate::default(), &any_last_line).unwrap_or_else(|e| panic!("{e}"));
        let holder = File::open(&path).unwrap_or_else(|e| panic!("{e}"));
        holder.lock().unwrap_or_else(|e| panic!("{e}"));
        let started = Instant::now();
        let err = append(&path, b"{}\n", started + Duration::from_millis(100), &Gate::default(), &any_last_line).err();
        assert_eq!(err.map(|e| e.kind()), Some(io::ErrorKind::TimedOut));
        assert!(started.elapsed() < Duration::from_millis(400), "{:?}", started.elapsed());
        holder.unlock().unwrap_or_else(|e| panic!("{e}"));
        append(&path, b"{\"n\":2}\n", soon(), &Gate::default(), &any_last_line).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(std::fs::read_to_string(&path).unwrap_or_default(), "{}\n{\"n\":2}\n");
    }

    #[test]
    fn an_abandoned_write_never_begins() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("l.jsonl");
        let gate = Gate::default();
        assert!(gate.abandon());
        assert!(append(&path, b"{}\n", soon(), &gate, &any_last_line).is_err());
        assert_eq!(std::fs::read(&path).unwrap_or_default(), b"");
        let begun = Gate::default();
        assert!(begun.begin());
        assert!(!begun.abandon(), "a write that has begun is waited for");
    }

    #[test]
    fn a_write_past_its_deadline_is_abandoned_and_reported_as_not_written() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("l.jsonl");
        std::fs::write(&path, b"").unwrap_or_default();
        let holder = File::open(&path).unwrap_or_else(|e| panic!("{e}"));
        holder.lock().unwrap_or_else(|e| panic!("{e}"));
        let target = path.clone();
        // The work waits for the lock longer than the caller waits for the work.
        let r = write_within(Instant::now() + Duration::from_millis(50), Duration::from_millis(50), move |gate| {
            append(&target, b"{}\n", Instant::now() + Duration::from_secs(2), gate, &any_last_line)
        });
        assert!(r.is_err());
        holder.unlock().unwrap_or_else(|e| panic!("{e}"));
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(std::fs::read(&path).unwrap_or_default(), b"", "an abandoned row never lands");
    }

    #[test]
    fn the_check_sees_the_last_complete_line_whatever_its_length() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("l.jsonl");
        let long = format!("{{\"pad\":\"{}\"}}", "x".repeat(50_000));
        for (content, last) in [
            ("".to_string(), "".to_string()),
            ("{\"a\":1}\n".to_string(), "{\"a\":1}".to_string()),
            (format!("{{\"a\":1}}\n{long}\n"), long.clone()),
            (format!("{long}\n{{\"torn"), long.clone()),
            ("{\"only-torn".to_string(), "".to_string()),
        ] {
            std::fs::write(&path, &content).unwrap_or_default();
            let seen = std::sync::Mutex::new(Vec::new());
            let check = |line: &[u8]| {
                *seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = line.to_vec();
                Err(io::Error::other("refused"))
            };
            assert!(append(&path, b"{}\n", soon(), &Gate::default(), &check).is_err());
            assert_eq!(String::from_utf8_lossy(&seen.lock().map(|s| s.clone()).unwrap_or_default()), last);
            assert_eq!(std::fs::read_to_string(&path).unwrap_or_default(), content, "a refused append writes nothing");
        }
    }

    #[cfg(unix)]
    #[test]
    fn an_atomic_write_keeps_the_mode_and_writes_through_a_link() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let real = dir.path().join("real.json");
        std::fs::write(&real, "old").unwrap_or_default();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap_or_default();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("real.json", &link).unwrap_or_else(|e| panic!("{e}"));
        write_atomic(&link, b"new").unwrap_or_else(|e| panic!("{e}"));
        assert!(std::fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()), "still a link");
        assert_eq!(std::fs::read_to_string(&real).unwrap_or_default(), "new");
        let mode = std::fs::metadata(&real).map(|m| m.permissions().mode() & 0o777).unwrap_or_default();
        assert_eq!(mode, 0o600);
        let left: Vec<_> =
            std::fs::read_dir(dir.path()).into_iter().flatten().flatten().map(|e| e.file_name()).collect();
        assert_eq!(left.len(), 2, "nothing left beside it: {left:?}");
        write_atomic(&dir.path().join("new/sub.json"), b"x").unwrap_or_else(|e| panic!("{e}"));
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()));
        assert_eq!(write_atomic(&fifo, b"x").err().map(|e| e.kind()), Some(io::ErrorKind::InvalidInput));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_for_reading_and_appending_never_waited_on() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let fifo = dir.path().join("ledger.jsonl");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().map(|s| s.success());
        assert_eq!(made.ok(), Some(true));
        let kind = |r: io::Result<()>| r.err().map(|e| e.kind());
        assert_eq!(kind(read_regular(&fifo).map(drop)), Some(io::ErrorKind::InvalidInput));
        assert_eq!(
            kind(append(&fifo, b"{}\n", soon(), &Gate::default(), &any_last_line)),
            Some(io::ErrorKind::InvalidInput)
        );
        // A path named by a person is read as given, until its deadline.
        let started = Instant::now();
        assert!(read_input(&fifo, started + Duration::from_millis(100)).is_err());
        assert!(started.elapsed() < Duration::from_millis(400));
    }
}
