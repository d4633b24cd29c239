//! What the binary's tests share: running it and capturing what a user would see.
#![allow(dead_code)]

use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;

/// One run of the binary.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub took: Duration,
}

impl Run {
    /// Stdout as the one JSON object a run prints.
    pub fn json(&self) -> Value {
        assert_eq!(self.stdout.lines().count(), 1, "one JSON object a run: {}", self.stdout);
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("{e}: {}", self.stdout))
    }
}

/// Run a command to the end. When `canary` is given, it must appear in neither stream.
pub fn run_checked(cmd: &mut Command, canary: Option<&str>) -> Run {
    let started = Instant::now();
    let out = cmd.output().expect("runs");
    let r = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into(),
        stderr: String::from_utf8_lossy(&out.stderr).into(),
        took: started.elapsed(),
    };
    if let Some(key) = canary {
        assert!(!r.stdout.contains(key) && !r.stderr.contains(key), "the canary leaked: {} {}", r.stdout, r.stderr);
    }
    r
}

/// Run a command to the end.
pub fn run(cmd: &mut Command) -> Run {
    run_checked(cmd, None)
}

/// Write pretty JSON, creating the parent directory.
pub fn write(path: &Path, v: &Value) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, serde_json::to_string_pretty(v).expect("json")).expect("write");
}
