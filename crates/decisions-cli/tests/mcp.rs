//! `decisions mcp`: the server run as an agent runs it, driven by a real MCP client (rmcp's),
//! each tool's answer compared with what the matching command prints for the same input; bad
//! input answered by a JSON-RPC error naming what to fix while the server reads on; the
//! provider's deadline held whatever it does; the key never shown; nothing written.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, CallToolResult, ErrorCode};
use rmcp::service::{RoleClient, RunningService, RxJsonRpcMessage, ServiceError, TxJsonRpcMessage};
use rmcp::{ServiceExt, transport::Transport};
use serde_json::{Value, json};
use stub::{Reply, Stub};

use crate::common;
use crate::common::card;

const KEY: &str = "sk-canary-mcp-6c1f08e2d9";
const NAME: &str = "shop";
const TOOLS: [&str; 7] =
    ["guard_check", "judgment_recall", "judgment_search", "card_validate", "card_recall", "ask", "route"];

/// A project (a git repository) with the shipped catalogs and a provider: builtin by default.
struct Project {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Project {
    fn new() -> Project {
        let dir = tempfile::tempdir().expect("tmp");
        std::fs::create_dir_all(dir.path().join(NAME).join(".git")).expect("mkdir");
        let root = dir.path().join(NAME).canonicalize().expect("canonical");
        let p = Project { root, _dir: dir };
        let r = p.cli(&["install", "--project", ".", "--provider", "builtin", "--catalogs", "permission,routing"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        p
    }

    /// The binary in the project, as a user runs it.
    fn command(&self) -> assert_cmd::Command {
        let mut c = common::keyed(&self.root, KEY);
        c.env("HOME", self.root.join(".home")).env_remove("HARNESS_JUDGMENT_LEDGER").env_remove("CLAUDE_PROJECT_DIR");
        c
    }

    fn cli(&self, args: &[&str]) -> common::Run {
        common::run_checked(self.command().args(args), Some(KEY))
    }

    fn card(&self, name: &str, card: &Value) -> String {
        common::write(&self.root.join(name), card);
        name.to_string()
    }

    /// Start `decisions mcp` here and shake hands.
    fn server(&self) -> Server {
        Server::start(&self.root, &self.root.join(".home"))
    }
}

/// The server process and the client talking to it.
struct Server {
    rt: tokio::runtime::Runtime,
    client: Option<RunningService<RoleClient, ()>>,
    child: Child,
    stdin: Arc<Mutex<Option<ChildStdin>>>,
    stderr: Arc<Mutex<String>>,
    /// Replies that were not the client's (read by `raw`).
    stray: Arc<Mutex<Vec<Value>>>,
}

impl Server {
    fn start(cwd: &Path, home: &Path) -> Server {
        let bin = assert_cmd::cargo::cargo_bin("decisions");
        let mut child = std::process::Command::new(bin)
            .arg("mcp")
            .current_dir(cwd)
            .env("HOME", home)
            .env("TYPESAFE_API_KEY", KEY)
            .env_remove("LEOPOLD_DECISIONS_PROVIDER")
            .env_remove("LEOPOLD_PROJECT_DIR")
            .env_remove("HARNESS_JUDGMENT_LEDGER")
            .env_remove("CLAUDE_PROJECT_DIR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("decisions mcp starts");
        let stdin = Arc::new(Mutex::new(child.stdin.take()));
        let stdout = child.stdout.take().expect("stdout");
        let mut err = child.stderr.take().expect("stderr");
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut err, &mut text);
            sink.lock().expect("lock").push_str(&text);
        });
        let (tx, rx) = tokio::sync::mpsc::channel(64);
        let stray = Arc::new(Mutex::new(Vec::new()));
        let strays = stray.clone();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let value: Value =
                    serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON from the server: {e}: {line}"));
                match serde_json::from_value::<RxJsonRpcMessage<RoleClient>>(value.clone()) {
                    // Our raw frames carry string ids; the client's are numbers.
                    Ok(_) if value["id"].is_string() || value["id"].is_null() => {
                        strays.lock().expect("lock").push(value)
                    }
                    Ok(m) => {
                        if tx.blocking_send(m).is_err() {
                            break;
                        }
                    }
                    Err(_) => strays.lock().expect("lock").push(value),
                }
            }
        });
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        let transport = Pipe { rx, stdin: stdin.clone() };
        let client = rt.block_on(async { ().serve(transport).await }).expect("the MCP handshake");
        Server { rt, client: Some(client), child, stdin, stderr, stray }
    }

    fn client(&self) -> &RunningService<RoleClient, ()> {
        self.client.as_ref().expect("connected")
    }

    fn call(&self, tool: &str, args: Value) -> Result<CallToolResult, ServiceError> {
        let params =
            CallToolRequestParams::new(tool.to_string()).with_arguments(args.as_object().cloned().unwrap_or_default());
        self.rt.block_on(self.client().call_tool(params))
    }

    /// A tool's answer: its text and its structured content.
    fn answer(&self, tool: &str, args: Value) -> (String, Value) {
        let r = self.call(tool, args).unwrap_or_else(|e| panic!("{tool}: {e}"));
        assert_eq!(r.is_error, Some(false), "{tool}: {r:?}");
        let text = r.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).expect("a text content");
        (text, r.structured_content.expect("structured content"))
    }

    /// A call's JSON-RPC error: its code and message.
    fn refused(&self, tool: &str, args: Value) -> (ErrorCode, String) {
        match self.call(tool, args) {
            Err(ServiceError::McpError(e)) => (e.code, e.message.to_string()),
            other => panic!("{tool}: expected a JSON-RPC error, found {other:?}"),
        }
    }

    /// Write one raw frame and wait for the reply with that id (null for a frame that has none).
    fn raw(&self, frame: &[u8], id: Value) -> Value {
        {
            let mut w = self.stdin.lock().expect("lock");
            let w = w.as_mut().expect("open");
            w.write_all(frame).expect("write");
            w.write_all(b"\n").expect("write");
            w.flush().expect("flush");
        }
        let by = Instant::now() + Duration::from_secs(20);
        while Instant::now() < by {
            let mut stray = self.stray.lock().expect("lock");
            if let Some(i) = stray.iter().position(|v| v["id"] == id) {
                return stray.remove(i);
            }
            drop(stray);
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("no reply to {}", String::from_utf8_lossy(&frame[..frame.len().min(200)]))
    }

    /// Hang up and wait for the server to end; its stderr.
    fn stop(mut self) -> String {
        if let Some(c) = self.client.take() {
            let _ = self.rt.block_on(c.cancel());
        }
        // The client hangs up: the server sees the end of its input and ends.
        self.stdin.lock().expect("lock").take();
        let _ = self.child.wait();
        std::thread::sleep(Duration::from_millis(50));
        self.stderr.lock().expect("lock").clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The client's side of the pipes: messages the reader thread parsed; frames written whole.
struct Pipe {
    rx: tokio::sync::mpsc::Receiver<RxJsonRpcMessage<RoleClient>>,
    stdin: Arc<Mutex<Option<ChildStdin>>>,
}

impl Transport<RoleClient> for Pipe {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let stdin = self.stdin.clone();
        async move {
            let mut line = serde_json::to_vec(&item).map_err(std::io::Error::other)?;
            line.push(b'\n');
            let mut w = stdin.lock().map_err(|_| std::io::Error::other("poisoned"))?;
            let w = w.as_mut().ok_or_else(|| std::io::Error::other("closed"))?;
            w.write_all(&line)?;
            w.flush()
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        self.rx.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// What is the same from one run to the next: all but the times it took (`elapsed_ms`).
fn steady(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(o) => {
                o.remove("elapsed_ms");
                o.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

/// A tool's text is the command's one line of JSON; the same but for the times.
fn same_line(text: &str, cli: &common::Run) {
    assert!(text.ends_with('\n') && text.lines().count() == 1, "{text}");
    assert_eq!(steady(serde_json::from_str(text).expect("json")), steady(cli.json()));
}

/// A human's answer, recorded as a person records it: on the card, with `card record-answer`.
fn answered(p: &Project) {
    let card = p.card("card.json", &card());
    let r = p.cli(&[
        "card",
        "record-answer",
        &card,
        "--answer",
        "wait",
        "--why",
        "the release is frozen",
        "--project",
        NAME,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn the_tools_are_listed_each_with_an_input_and_an_output_schema() {
    let p = Project::new();
    let s = p.server();
    let tools = s.rt.block_on(s.client().list_all_tools()).expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, TOOLS);
    for t in &tools {
        assert_eq!(t.input_schema.get("type"), Some(&json!("object")), "{}", t.name);
        let out = t.output_schema.as_ref().unwrap_or_else(|| panic!("{} has no output schema", t.name));
        assert_eq!(out.get("type"), Some(&json!("object")), "{}", t.name);
        assert!(t.description.as_deref().is_some_and(|d| d.len() > 40), "{}", t.name);
        assert_eq!(t.annotations.as_ref().and_then(|a| a.read_only_hint), Some(true), "{}", t.name);
    }
    // Nothing that writes a human's judgment is a tool.
    assert!(!names.iter().any(|n| n.contains("append") || n.contains("record")));
    s.stop();
}

#[test]
fn guard_check_is_hook_test_json() {
    let p = Project::new();
    let s = p.server();
    for command in ["git push --force origin main", "ls -la", "echo 'rm -rf /'"] {
        let (text, structured) = s.answer("guard_check", json!({"command": command}));
        let cli = p.cli(&["hook", "test", "--json", command]);
        same_line(&text, &cli);
        assert_eq!(steady(structured), steady(cli.json()), "{command}");
    }
    let (_, denied) = s.answer("guard_check", json!({"command": "git push --force origin main", "agent": "gemini"}));
    assert_eq!((denied["verdict"].clone(), denied["provider"].clone()), (json!("deny"), json!("builtin")));
    assert_eq!(denied["event"], json!("BeforeTool"));
    std::fs::create_dir_all(p.root.join("sub")).expect("mkdir");
    let (_, inside) = s.answer("guard_check", json!({"command": "ls", "cwd": "sub"}));
    let cli = p.cli(&["hook", "test", "--json", "--cwd", "sub", "ls"]);
    assert_eq!(steady(inside), steady(cli.json()));
    s.stop();
}

#[test]
fn judgment_recall_and_search_are_the_commands_output() {
    let p = Project::new();
    answered(&p);
    let s = p.server();
    let question = "Merge the storage rewrite now?";
    let (text, structured) = s.answer("judgment_recall", json!({"question": question}));
    let cli = p.cli(&["judgment", "recall", "--project", NAME, "--question", question]);
    assert_eq!(text, cli.stdout);
    let recalled = &structured["similar_past_decisions"];
    assert_eq!(recalled, &cli.json());
    assert_eq!(
        (recalled[0]["decision"].clone(), recalled[0]["outcome"].clone()),
        (json!("wait"), json!("the release is frozen"))
    );
    for query in [Some("storage rewrite"), None] {
        let args = query.map_or(json!({}), |q| json!({"query": q}));
        let (text, structured) = s.answer("judgment_search", args);
        let mut cmd = vec!["judgment", "search", "--project", NAME];
        if let Some(q) = query {
            cmd.extend(["--query", q]);
        }
        let cli = p.cli(&cmd);
        assert_eq!(text, cli.stdout, "{query:?}");
        assert_eq!(structured["judgments"].as_array().map(Vec::len), Some(1));
    }
    // Another project's judgments are not this one's.
    let r = p.cli(&[
        "judgment",
        "append",
        "--project",
        "elsewhere",
        "--question",
        question,
        "--answer",
        "merge",
        "--card-ref",
        "c",
    ]);
    assert_eq!(r.code, 0);
    let (_, structured) = s.answer("judgment_recall", json!({"question": question}));
    assert_eq!(structured["similar_past_decisions"].as_array().map(Vec::len), Some(1));
    let (code, message) = s.refused("judgment_recall", json!({"question": question, "project": "elsewhere"}));
    assert_eq!(code, ErrorCode::INVALID_PARAMS);
    assert!(message.contains("\"project\": not an argument of judgment_recall"), "{message}");
    s.stop();
}

#[test]
fn card_validate_and_card_recall_are_the_commands_output() {
    let p = Project::new();
    answered(&p);
    let s = p.server();
    let mut bad = card();
    bad["confidence"] = json!("sure");
    bad["extra"] = json!(1);
    for (name, c) in [("good.json", card()), ("bad.json", bad.clone())] {
        let file = p.card(name, &c);
        let (text, structured) = s.answer("card_validate", json!({"card": c}));
        let cli = p.cli(&["card", "validate", "--json", &file]);
        assert_eq!(text, cli.stdout, "{name}");
        assert_eq!(structured, cli.json());
    }
    // A card's text: a repeated key is a problem, as the command finds it in the file.
    let text = r#"{"question": "q", "question": "again"}"#;
    common::write_text(&p.root.join("twice.json"), text);
    let (said, _) = s.answer("card_validate", json!({"card": text}));
    assert_eq!(said, p.cli(&["card", "validate", "--json", "twice.json"]).stdout);

    let (text, structured) = s.answer("card_recall", json!({"card": card()}));
    let cli = p.cli(&["card", "recall", "good.json", "--project", NAME]);
    assert_eq!(text, cli.stdout);
    assert_eq!(structured["similar_past_decisions"][0]["decision"], json!("wait"));
    let (code, message) = s.refused("card_recall", json!({"card": bad}));
    assert_eq!(code, ErrorCode::INVALID_PARAMS);
    assert!(
        message.starts_with("card_recall: \"card\": breaks judgment-card.v1: ") && message.contains("/confidence"),
        "{message}"
    );
    s.stop();
}

#[test]
fn ask_and_route_are_the_commands_output() {
    let p = Project::new();
    let s = p.server();
    let state = json!({"command": "git push --force origin main", "cwd": p.root});
    let (text, structured) =
        s.answer("ask", json!({"catalog": "permission", "questions": ["destructive"], "state": state}));
    let cli = p.cli(&["ask", "--catalog", "permission", "--questions", "destructive", "--state", &state.to_string()]);
    same_line(&text, &cli);
    assert_eq!(steady(structured.clone()), steady(cli.json()));
    assert_eq!((structured["provider"].clone(), structured["usable"].clone()), (json!("builtin"), json!(true)));
    // A catalog whose bars are not the model's: the explicit failure, never an answer made up.
    let (_, failed) = s.answer("ask", json!({"catalog": "routing", "questions": ["effort"], "state": {"item": "x"}}));
    assert_eq!((failed["usable"].clone(), failed["answers"]["effort"]["ok"].clone()), (json!(false), json!(false)));

    for item in ["run the schema migration for the billing table", "fix a typo in the README"] {
        let (text, structured) = s.answer("route", json!({"item": item}));
        let cli = p.cli(&["route", "--no-record", "--no-log", "--repo", ".", "--item", item]);
        assert_eq!(text, cli.stdout, "{item}");
        assert_eq!(structured, cli.json());
    }
    let (_, routed) = s.answer("route", json!({"item": "update the README", "files": ["README.md"]}));
    let cli = p.cli(&[
        "route",
        "--no-record",
        "--no-log",
        "--repo",
        ".",
        "--item",
        "update the README",
        "--files",
        "README.md",
    ]);
    assert_eq!(routed, cli.json());
    // The server writes nothing: no ledger row, no event.
    s.stop();
    assert!(!p.root.join(".leopold/decisions/ledger.jsonl").exists());
    assert!(!p.root.join(".leopold/events.jsonl").exists());
}

#[test]
fn bad_input_gets_an_error_naming_what_to_fix_and_the_server_reads_on() {
    let p = Project::new();
    let s = p.server();
    let refusals = [
        ("ask", json!({"catalog": "permission", "questions": ["destructive"]}), "ask: \"state\": missing"),
        (
            "ask",
            json!({"catalog": "../../etc/x", "questions": ["q"], "state": {}}),
            "ask: \"catalog\": \"../../etc/x\" is not a catalog name",
        ),
        (
            "ask",
            json!({"catalog": "permission", "questions": [], "state": {}}),
            "ask: \"questions\": give at least one",
        ),
        (
            "ask",
            json!({"catalog": "permission", "questions": ["destructive"], "state": {"command": "x".repeat(10 << 20)}}),
            "ask: \"state\": 10485",
        ),
        (
            "ask",
            json!({"catalog": "permission", "questions": ["destructive"], "state": {}, "timeout_ms": 0}),
            "ask: \"timeout_ms\"",
        ),
        (
            "guard_check",
            json!({"comand": "ls"}),
            "guard_check: \"comand\": not an argument of guard_check; did you mean \"command\"?",
        ),
        ("guard_check", json!({"command": 7}), "guard_check: \"command\": must be a string"),
        ("guard_check", json!({"command": "ls", "cwd": "/"}), "guard_check: \"cwd\": / is outside the project"),
        ("guard_check", json!({"command": "ls", "cwd": "../.."}), "is outside the project"),
        ("guard_check", json!({"command": "ls", "agent": "vim"}), "guard_check: \"agent\": expected one of"),
        (
            "route",
            json!({"item": "x", "files": ["../secret"]}),
            "route: \"files\": \"../secret\": give paths relative to the project",
        ),
        ("route", json!({"item": "   "}), "route: \"item\": must not be empty"),
        ("card_validate", json!({"card": 3}), "card_validate: \"card\": must be the card object"),
        ("card_validate", json!({"card": "{not json"}), "card_validate: \"card\": its text is not JSON"),
        ("judgment_recall", json!({}), "judgment_recall: \"question\": missing"),
        ("judgment_append", json!({}), "no tool \"judgment_append\""),
    ];
    for (tool, args, said) in refusals {
        let (code, message) = s.refused(tool, args);
        assert_eq!(code, ErrorCode::INVALID_PARAMS, "{tool}: {message}");
        assert!(message.contains(said), "{tool}: {message}");
    }
    // Frames no client library sends: each answered, and the next call still served.
    let frames: [(&[u8], Value, i32, &str); 5] = [
        (b"{this is not json", Value::Null, -32700, "the frame is not JSON"),
        (br#"{"jsonrpc":"2.0","id":"a"}"#, json!("a"), -32600, "\"method\": missing"),
        (br#"{"jsonrpc":"1.0","id":"b","method":"tools/list"}"#, json!("b"), -32600, "\"jsonrpc\": must be \"2.0\""),
        (
            br#"{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"arguments":{}}}"#,
            json!("c"),
            -32602,
            "\"name\": missing",
        ),
        (
            br#"{"jsonrpc":"2.0","id":"d","method":"tools/call","params":{"name":"ask","arguments":[1]}}"#,
            json!("d"),
            -32602,
            "\"arguments\": must be an object",
        ),
    ];
    for (frame, id, code, said) in frames {
        let reply = s.raw(frame, id);
        assert_eq!(reply["error"]["code"], json!(code), "{reply}");
        assert!(reply["error"]["message"].as_str().is_some_and(|m| m.contains(said)), "{reply}");
    }
    let (_, still) = s.answer("guard_check", json!({"command": "ls"}));
    assert_eq!(still["verdict"], json!("stand aside"));
    assert_eq!(s.stop(), "", "the server says nothing on stderr");
}

/// The project asks jev at `endpoint`, with a budget of `timeout_ms`.
fn jev(p: &Project, endpoint: &str, timeout_ms: u64) {
    common::jev_at(&p.root, endpoint);
    let (_, shipped) = decisions::install::SHIPPED.iter().find(|(n, _)| *n == "permission").expect("shipped");
    common::write_text(&p.root.join(".leopold/decisions/permission.json"), shipped);
    let path = p.root.join(".leopold/decisions/config.json");
    let mut config: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("config")).expect("json");
    config["providers"]["jev"]["timeout_ms"] = json!(timeout_ms);
    common::write(&path, &config);
}

#[test]
fn a_tool_answers_within_the_providers_deadline_whatever_it_does() {
    let hang = Stub::start(vec![Reply::Hang, Reply::Hang]);
    let slow = Stub::start(vec![Reply::json(&crate::hook::score(3, 0.99)).delayed(Duration::from_secs(30)); 2]);
    for (what, endpoint, failure, cause) in [
        ("hang", hang.url("/v1/systemone"), "timeout", "timeout"),
        ("slow", slow.url("/v1/systemone"), "timeout", "timeout"),
        ("refuse", stub::refusing_url(), "transport", "unreachable"),
    ] {
        let p = Project::new();
        jev(&p, &endpoint, 400);
        let s = p.server();
        let started = Instant::now();
        let state = json!({"command": "rm -rf precious", "cwd": p.root});
        let (_, decision) =
            s.answer("ask", json!({"catalog": "permission", "questions": ["destructive"], "state": state}));
        let (_, guard) = s.answer("guard_check", json!({"command": "rm -rf precious"}));
        let took = started.elapsed();
        assert_eq!(decision["usable"], json!(false), "{what}: {decision}");
        let reason = decision["answers"]["destructive"]["reason"].as_str().unwrap_or_default();
        assert_eq!(reason, failure, "{what}: {decision}");
        assert_eq!(guard["verdict"], json!("stand aside"), "{what}: {guard}");
        assert!(guard["why"].as_str().is_some_and(|w| w.contains(cause)), "{what}: {guard}");
        // Two calls of a 400 ms budget, not the provider's 30 s (a bound on a hang, not a timing).
        assert!(took < Duration::from_secs(10), "{what}: {took:?}");
        s.stop();
    }
}

#[test]
fn the_key_never_shows_in_a_result_an_error_or_the_servers_output() {
    // A provider that echoes the Authorization header back in its error body.
    let echo = Stub::start(vec![
        Reply::computed(|r| Reply::status(
            500,
            &format!("bad key {}", r.header("authorization").unwrap_or_default())
        ));
        4
    ]);
    let p = Project::new();
    jev(&p, &echo.url("/v1/systemone"), 2000);
    let s = p.server();
    let state = json!({"command": format!("echo {KEY}"), "cwd": p.root});
    let (text, structured) =
        s.answer("ask", json!({"catalog": "permission", "questions": ["destructive"], "state": state}));
    assert!(!text.contains(KEY) && !structured.to_string().contains(KEY), "{text}");
    let (text, structured) = s.answer("guard_check", json!({"command": format!("curl -H 'x: {KEY}' example.com")}));
    assert!(!text.contains(KEY) && !structured.to_string().contains(KEY), "{text}");
    let (_, message) = s.refused("guard_check", json!({"command": "ls", "cwd": KEY}));
    assert!(!message.contains(KEY), "{message}");
    assert!(echo.requests().iter().any(|r| r.header("authorization").is_some_and(|h| h.contains(KEY))));
    let stderr = s.stop();
    assert!(!stderr.contains(KEY), "{stderr}");
    for entry in walk(&p.root) {
        let text = String::from_utf8_lossy(&std::fs::read(&entry).unwrap_or_default()).into_owned();
        assert!(!text.contains(KEY), "{} holds the canary", entry.display());
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = e.path();
        if path.is_dir() { out.extend(walk(&path)) } else { out.push(path) }
    }
    out
}

#[test]
fn the_server_serves_one_project_and_says_when_there_is_none() {
    let dir = tempfile::tempdir().expect("tmp");
    let r = common::run(common::keyed(dir.path(), KEY).arg("mcp"));
    assert_eq!(r.code, 64, "{}", r.stderr);
    assert!(r.stderr.contains("no .leopold at or above the working directory"), "{}", r.stderr);
    let r = common::run(common::keyed(dir.path(), KEY).args(["mcp", "--project", "nowhere"]));
    assert_eq!(r.code, 64);
    assert!(r.stderr.contains("--project nowhere: no .leopold there"), "{}", r.stderr);
}

#[test]
fn install_mcp_registers_the_server_keeping_every_other_byte_and_remove_takes_it_out() {
    let sb = common::Sandbox::new();
    let files = [
        (
            ".mcp.json",
            "{\n  // ours to keep\n  \"mcpServers\": {\n    \"other\": {\"command\": \"other-server\", \"args\": []}\n  }\n}\n",
        ),
        (".codex/config.toml", "# my codex\nmodel = \"x\"\n\n[mcp_servers.other]\ncommand = \"o\"  # theirs\n"),
        (".gemini/settings.json", "{\n  \"theme\": \"dark\" // keep\n}\n"),
    ];
    for (path, text) in files {
        common::write_text(&sb.project.join(path), text);
    }
    let agents = ["--agent", "claude-code", "--agent", "codex", "--agent", "gemini"];
    let install = |extra: &[&str]| {
        let mut args = vec!["install", "--project", ".", "--provider", "builtin", "--mcp"];
        args.extend(agents);
        args.extend(extra);
        sb.run(&args, &[])
    };
    let r = install(&[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for agent in ["claude-code", "codex", "gemini"] {
        assert!(r.stdout.contains(&format!("mcp: {agent} registered in")), "{}", r.stdout);
    }
    assert!(r.stdout.contains("todo: Claude Code asks before its model calls a tool of the server"), "{}", r.stdout);
    let mcp = std::fs::read_to_string(sb.project.join(".mcp.json")).expect("mcp.json");
    assert!(
        mcp.starts_with(
            "{\n  // ours to keep\n  \"mcpServers\": {\n    \"other\": {\"command\": \"other-server\", \"args\": []},"
        ),
        "{mcp}"
    );
    let codex = std::fs::read_to_string(sb.project.join(".codex/config.toml")).expect("config.toml");
    assert!(codex.starts_with(files[1].1), "{codex}");
    let doc: toml_edit::DocumentMut = codex.parse().expect("TOML");
    let args = doc["mcp_servers"]["decisions"]["args"]
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_str()).collect::<Vec<_>>());
    assert_eq!(args, Some(vec!["mcp"]), "{codex}");
    assert!(codex.contains("env_vars = [\"TYPESAFE_API_KEY\""), "{codex}");
    let gemini = std::fs::read_to_string(sb.project.join(".gemini/settings.json")).expect("settings.json");
    assert!(gemini.contains("\"theme\": \"dark\", // keep") && gemini.contains("\"mcpServers\""), "{gemini}");
    for (path, shape) in [(".mcp.json", "/mcpServers/decisions"), (".gemini/settings.json", "/mcpServers/decisions")] {
        let text = std::fs::read_to_string(sb.project.join(path)).expect("read");
        let stripped: String = text.lines().map(|l| l.split(" //").next().unwrap_or(l)).collect::<Vec<_>>().join("\n");
        let v: Value = serde_json::from_str(&stripped.replace("// ours to keep", ""))
            .unwrap_or_else(|e| panic!("{path}: {e}: {text}"));
        let entry = v.pointer(shape).unwrap_or_else(|| panic!("{path}: {text}"));
        assert!(entry["command"].as_str().is_some_and(|c| c.ends_with("decisions")), "{path}: {entry}");
        assert_eq!(entry["args"], json!(["mcp"]), "{path}");
    }
    // A second run changes no byte.
    let before: Vec<Vec<u8>> = files.iter().map(|(p, _)| std::fs::read(sb.project.join(p)).expect("read")).collect();
    let r = install(&[]);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout.contains("mcp: codex already registered in") && !r.stdout.contains("todo: Claude Code asks"),
        "{}",
        r.stdout
    );
    let after: Vec<Vec<u8>> = files.iter().map(|(p, _)| std::fs::read(sb.project.join(p)).expect("read")).collect();
    assert_eq!(before, after);
    let r = sb.run(&["doctor"], &[]);
    assert!(
        r.stdout.contains("mcp          claude-code: registered in") && r.stdout.contains("`decisions mcp`"),
        "{}",
        r.stdout
    );
    // An agent we do not register a server with is refused before anything is written.
    let r = sb.run(&["install", "--project", ".", "--agent", "copilot", "--mcp"], &[]);
    assert_eq!(r.code, 64, "{}", r.stderr);
    assert!(r.stderr.contains("--mcp: copilot is not one we register the server with"), "{}", r.stderr);
    assert!(!sb.project.join(".github/hooks/decisions.json").exists());
    // remove takes out our hooks and our server, and leaves the user's files as they were.
    let r = sb.run(&["remove", "--project", "."].iter().copied().chain(agents).collect::<Vec<_>>(), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("mcp: claude-code removed our server from"), "{}", r.stdout);
    for (path, text) in files {
        assert_eq!(std::fs::read_to_string(sb.project.join(path)).expect("read"), text, "{path}");
    }
}
