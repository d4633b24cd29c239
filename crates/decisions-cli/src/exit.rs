//! Exit codes, in one place, and the errors that carry them; `main` prints `error:` and
//! `hint:` lines. The rule: 64 when the command could not get or use what it was given (a bad
//! flag or value, a file named on the command line that is missing, unreadable or not delivered
//! in time, `ask`'s state or `--schema` that is not JSON); 1 when what it was given was read and
//! found wrong (a catalog or card that does not validate), when an explicit write failed, or
//! when a run could not do its work.

/// Success, and every decision outcome of `ask`, `hook`, `route` and `review`.
pub const OK: u8 = 0;
/// What was given was read and found wrong, an explicit write failed, or a run could not
/// do its work.
pub const FAIL: u8 = 1;
/// A usage error: bad flags or values, or a named file that cannot be had.
pub const USAGE: u8 = 64;
/// Standard output was closed by its reader (`| head`): 128 + SIGPIPE, as a shell expects.
pub const BROKEN_PIPE: u8 = 141;

/// The exit code an error maps to: a [`CliError`]'s own, else `FAIL`.
pub fn code_of(e: &anyhow::Error) -> u8 {
    e.chain().find_map(|c| c.downcast_ref::<CliError>()).map_or(FAIL, |c| c.code)
}

/// Whether an error is a write to a reader that went away.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

/// An error with its exit code and an optional hint.
#[derive(Debug)]
pub struct CliError {
    /// The exit code.
    pub code: u8,
    /// What went wrong, naming the thing to fix.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
}

impl CliError {
    /// A usage error (exit 64).
    pub fn usage(message: impl Into<String>) -> Self {
        CliError { code: USAGE, message: message.into(), hint: None }
    }

    /// A checked failure (exit 1).
    pub fn fail(message: impl Into<String>) -> Self {
        CliError { code: FAIL, message: message.into(), hint: None }
    }

    /// Attach a hint.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

/// The hint an error chain carries, if any.
pub fn hint_of(e: &anyhow::Error) -> Option<String> {
    e.chain().find_map(|c| c.downcast_ref::<CliError>()).and_then(|c| c.hint.clone())
}
