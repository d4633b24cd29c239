//! What the binary's tests share: running it and capturing what a user would see.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
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

/// The binary in `cwd` with jev's key variable set to `key` (a canary the run must not leak)
/// and no provider named by the environment.
pub fn keyed(cwd: &Path, key: &str) -> Command {
    let mut c = Command::cargo_bin("decisions").expect("binary");
    c.current_dir(cwd)
        .env_remove("LEOPOLD_DECISIONS_PROVIDER")
        .env_remove("LEOPOLD_PROJECT_DIR")
        .env("TYPESAFE_API_KEY", key);
    c
}

/// A project config at `root` whose provider is jev, asked at `endpoint`.
pub fn jev_at(root: &Path, endpoint: &str) {
    let mut jev = serde_json::to_value(decisions::builtin("jev").expect("jev")).expect("json");
    jev["endpoint"] = serde_json::json!(endpoint);
    let config = serde_json::json!({"version": "decisions/1.0", "provider": "jev", "providers": {"jev": jev}});
    write(&root.join(".leopold/decisions/config.json"), &config);
}

/// Write text, creating the parent directory.
pub fn write_text(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// Write pretty JSON, creating the parent directory.
pub fn write(path: &Path, v: &Value) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, serde_json::to_string_pretty(v).expect("json")).expect("write");
}

/// A HOME and an empty git project, and the binary run in them with nothing of the caller's
/// decisions environment leaking in.
pub struct Sandbox {
    _dir: tempfile::TempDir,
    pub home: PathBuf,
    pub project: PathBuf,
}

/// Every variable the binary reads that a developer's shell may have set.
const CLEARED: [&str; 15] = [
    "LEOPOLD_DECISIONS_PROVIDER",
    "LEOPOLD_PROJECT_DIR",
    "LEOPOLD_DECISIONS_DIR",
    "LEOPOLD_HOME",
    "LEOPOLD_DECISIONS_TIMEOUT_MS",
    "CLAUDE_HOME",
    "CODEX_HOME",
    "HARNESS_JUDGMENT_LEDGER",
    "HARNESS_PROJECT_ROOT",
    "PROJECT_ROOT",
    "CLAUDE_PROJECT_DIR",
    "TYPESAFE_API_KEY",
    "LEOPOLD_DECISIONS_API_KEY",
    "OPENROUTER_API_KEY",
    "AI_GATEWAY_API_KEY",
];

impl Sandbox {
    pub fn new() -> Sandbox {
        let dir = tempfile::tempdir().expect("tmp");
        let home = dir.path().join("home");
        let project = dir.path().join("project");
        std::fs::create_dir_all(&home).expect("mkdir");
        std::fs::create_dir_all(project.join(".git")).expect("mkdir");
        Sandbox { _dir: dir, home, project }
    }

    /// Run in `cwd` with `env`; when a canary is given it must show in neither stream.
    pub fn run_in(&self, cwd: &Path, args: &[&str], env: &[(&str, &str)], canary: Option<&str>) -> Run {
        let mut c = Command::cargo_bin("decisions").expect("binary");
        c.current_dir(cwd).env("HOME", &self.home);
        for v in CLEARED {
            c.env_remove(v);
        }
        for (k, v) in env {
            c.env(k, v);
        }
        run_checked(c.args(args), canary)
    }

    /// Run in the project.
    pub fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        self.run_in(&self.project, args, env, None)
    }

    /// The project's config.json.
    pub fn config_path(&self) -> PathBuf {
        self.project.join(".leopold/decisions/config.json")
    }
}

/// `decisions ledger record` with everything but the model fixed.
pub fn record_args(model: &str) -> Vec<String> {
    let fixed = ["ledger", "record", "--consumer", "c", "--question", "q", "--provider", "p", "--model"];
    let mut args: Vec<String> = fixed.iter().map(|s| s.to_string()).collect();
    args.push(model.to_string());
    args.extend(["--certainty", "0.9", "--band", "act", "--acted", "true"].map(String::from));
    args
}

/// A valid Decision Card (judgment-card.v1): the question, two options, the recommendation.
pub fn card() -> Value {
    serde_json::json!({
        "question": "Merge the storage rewrite before the release?",
        "options": [
            {"id": "merge", "label": "Merge now", "consequence": "ships in 1.4"},
            {"id": "wait", "label": "Wait", "consequence": "ships in 1.5"}
        ],
        "recommendation": "wait",
        "confidence": "medium",
        "impact": "storage",
        "impact_score": 70,
        "diff_summary": "+2000 -1800 in src/storage"
    })
}
