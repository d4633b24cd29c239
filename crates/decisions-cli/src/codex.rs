//! What Codex itself says of our hook: `codex app-server` (JSON-RPC, one JSON object a line
//! each way) lists each hook it would run for a project with its trust (`hooks/list`), and
//! trusts one the way its own `/hooks` screen does (`config/value/write` of `{enabled: true,
//! trusted_hash: <the currentHash it listed>}` at `hooks.state."<key>"`, which Codex writes into
//! the user's config.toml). We never compute the hash ourselves, and never trust another hook.
//!
//! The server is started with `--disable plugins` (its plugin sync is the only thing it reaches
//! the network for at start) and is given [`DEADLINE`] for the whole exchange.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The most the whole exchange with `codex app-server` may take.
pub const DEADLINE: Duration = Duration::from_secs(15);

/// One hook as Codex lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed {
    /// Codex's key for it: `<file>:<event>:<group>:<handler>`.
    pub key: String,
    /// The command it runs.
    pub command: String,
    /// The event, as Codex names it (`preToolUse`).
    pub event: String,
    /// The file it comes from.
    pub source_path: PathBuf,
    /// The hash of what it is now, which a trust names.
    pub current_hash: String,
    /// `trusted`, `untrusted`, `modified` (changed since it was trusted) or `managed`.
    pub trust: String,
}

/// Why Codex could not be asked.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CodexError {
    /// No `codex` on PATH.
    #[error("no codex binary on PATH")]
    NotInstalled,
    /// It could not be started, or did not answer as its protocol says.
    #[error("codex app-server: {0}")]
    Failed(String),
}

/// The program to run: `codex` on PATH.
fn program() -> Result<PathBuf, CodexError> {
    crate::wiring::runnable("codex").map_err(|_| CodexError::NotInstalled)
}

/// A running `codex app-server`, its answers read on a thread of their own.
struct Server {
    child: Child,
    lines: mpsc::Receiver<String>,
    next: u64,
    until: Instant,
}

impl Server {
    fn start() -> Result<Server, CodexError> {
        let mut child = Command::new(program()?)
            .args(["app-server", "--disable", "plugins"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| CodexError::Failed(format!("cannot start it: {e}")))?;
        let stdout = child.stdout.take().ok_or_else(|| CodexError::Failed("no stdout".into()))?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = Server { child, lines, next: 0, until: Instant::now() + DEADLINE };
        let version = env!("CARGO_PKG_VERSION");
        server.call("initialize", json!({"clientInfo": {"name": "decisions", "version": version}}))?;
        server.send(&json!({"method": "initialized"}))?;
        Ok(server)
    }

    fn send(&mut self, frame: &Value) -> Result<(), CodexError> {
        let stdin = self.child.stdin.as_mut().ok_or_else(|| CodexError::Failed("no stdin".into()))?;
        writeln!(stdin, "{frame}").and_then(|()| stdin.flush()).map_err(|e| CodexError::Failed(e.to_string()))
    }

    /// Send a request and wait for its answer, skipping the notifications between.
    fn call(&mut self, method: &str, params: Value) -> Result<Value, CodexError> {
        self.next += 1;
        let id = self.next;
        self.send(&json!({"id": id, "method": method, "params": params}))?;
        loop {
            let left = self.until.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .map_err(|_| CodexError::Failed(format!("no answer to {method} within {} s", DEADLINE.as_secs())))?;
            let Ok(frame) = serde_json::from_str::<Value>(&line) else { continue };
            if frame.get("id").and_then(Value::as_u64) != Some(id) {
                continue;
            }
            if let Some(e) = frame.get("error") {
                let said = e.get("message").and_then(Value::as_str).unwrap_or("an error");
                return Err(CodexError::Failed(format!("{method}: {}", decisions::clip(said, 200))));
            }
            return Ok(frame.get("result").cloned().unwrap_or(Value::Null));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every hook Codex would run in `project` (its own and the user's), with its trust. A
/// project Codex does not trust lists none of its own.
pub fn list(project: &Path) -> Result<Vec<Listed>, CodexError> {
    let mut server = Server::start()?;
    list_with(&mut server, project)
}

fn list_with(server: &mut Server, project: &Path) -> Result<Vec<Listed>, CodexError> {
    let result = server.call("hooks/list", json!({"cwds": [project]}))?;
    let text = |h: &Value, k: &str| h.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    let hooks = result
        .pointer("/data/0/hooks")
        .and_then(Value::as_array)
        .ok_or_else(|| CodexError::Failed("hooks/list answered without data[0].hooks".into()))?;
    Ok(hooks
        .iter()
        .filter(|h| h.get("handlerType").and_then(Value::as_str) == Some("command"))
        .map(|h| Listed {
            key: text(h, "key"),
            command: text(h, "command"),
            event: text(h, "eventName"),
            source_path: PathBuf::from(text(h, "sourcePath")),
            current_hash: text(h, "currentHash"),
            trust: text(h, "trustStatus"),
        })
        .collect())
}

/// Our entry as Codex lists it: the hook from `settings` that runs `command`.
pub fn ours<'a>(listed: &'a [Listed], settings: &Path, command: &str) -> Option<&'a Listed> {
    let resolved = settings.canonicalize().ok();
    listed.iter().find(|h| {
        h.command == command
            && (h.source_path == settings || resolved.is_some() && h.source_path.canonicalize().ok() == resolved)
    })
}

/// Trust exactly our entry (the hook from `settings` that runs `command`), as Codex's own API
/// does. Returns the user config Codex wrote the trust into, and the entry as it was listed.
pub fn trust(project: &Path, settings: &Path, command: &str) -> Result<(PathBuf, Listed), CodexError> {
    let mut server = Server::start()?;
    let listed = list_with(&mut server, project)?;
    let Some(hook) = ours(&listed, settings, command).cloned() else {
        return Err(CodexError::Failed(format!(
            "Codex does not list our hook from {} (a project it does not trust lists none of its hooks)",
            settings.display()
        )));
    };
    // The key is one TOML key: quoted, or Codex splits it at its dots.
    let quoted = hook.key.replace('\\', "\\\\").replace('"', "\\\"");
    let written = server.call(
        "config/value/write",
        json!({"keyPath": format!("hooks.state.\"{quoted}\""),
            "value": {"enabled": true, "trusted_hash": hook.current_hash},
            "mergeStrategy": "upsert"}),
    )?;
    let file = written.get("filePath").and_then(Value::as_str).map(PathBuf::from).unwrap_or_default();
    Ok((file, hook))
}
