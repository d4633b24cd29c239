//! What commands print: JSON data on stdout, counts that read right, warnings on stderr.

use std::path::Path;

use anyhow::Context;

/// `n` and a noun, its plural when `n` is not 1: "1 problem", "3 problems".
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// Say on stderr how many lines of a JSONL file could not be read.
pub fn warn_skipped(skipped: usize, path: &Path) {
    if skipped > 0 {
        eprintln!("warning: skipped {} in {}", count(skipped, "unreadable line"), path.display());
    }
}

/// Print a JSON value on stdout, pretty when asked, with every character a terminal would act
/// on written as a `\u` escape (the same JSON value).
pub fn print_json(v: &impl serde::Serialize, pretty: bool) -> anyhow::Result<()> {
    print!("{}", json_line(v, pretty)?);
    Ok(())
}

/// The line [`print_json`] prints, newline included: what `decisions mcp` returns as a tool's
/// text, byte for byte the command's.
pub fn json_line(v: &impl serde::Serialize, pretty: bool) -> anyhow::Result<String> {
    let text = if pretty { serde_json::to_string_pretty(v) } else { serde_json::to_string(v) };
    Ok(format!("{}\n", decisions::escape::json_text(&text.context("serialising output")?)))
}

/// A file a command writes at its end, opened before its first request so that a path that
/// cannot be written fails at once (exit 64, naming the flag), and emptied only when it is
/// written: a run that fails leaves what was there.
pub struct Deferred {
    flag: &'static str,
    path: std::path::PathBuf,
    file: std::fs::File,
    created: bool,
}

impl Deferred {
    /// Open `path` for `flag`, creating it when missing, keeping what it holds.
    pub fn open(path: &Path, flag: &'static str) -> anyhow::Result<Deferred> {
        let created = std::fs::symlink_metadata(path).is_err();
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| crate::exit::CliError::usage(format!("{flag} {}: {e}", path.display())))?;
        Ok(Deferred { flag, path: path.to_path_buf(), file, created })
    }

    /// Replace its contents with what `put` writes; what went wrong, said for a person.
    pub fn write_with(
        mut self,
        put: &mut dyn FnMut(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> Result<(), String> {
        use std::io::Write;
        let written = self.file.set_len(0).and_then(|()| {
            let mut out = std::io::BufWriter::new(&mut self.file);
            put(&mut out)?;
            out.flush()
        });
        written.map_err(|e| format!("{} {}: {e}", self.flag, self.path.display()))
    }

    /// Replace its contents with `bytes`.
    pub fn write(self, bytes: &[u8]) -> Result<(), String> {
        self.write_with(&mut |out| out.write_all(bytes))
    }

    /// Nothing to write: a file the command made is taken away again; what to say.
    pub fn discard(self, why: &str) -> String {
        if self.created {
            let _ = std::fs::remove_file(&self.path);
        }
        format!("{} {}: not written, {why}", self.flag, self.path.display())
    }
}
