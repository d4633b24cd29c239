//! `decisions ask` end to end: every decision outcome exits 0 with one JSON object; usage
//! errors exit 64 with nothing on stdout; the binary and the library agree; the key never shows.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use serde_json::{Value, json};
use stub::{Reply, Stub};

use crate::common;
use crate::common::{Run, write};

const KEY: &str = "sk-canary-0b5d2e8f61a7c934";

fn catalog() -> Value {
    json!({
        "version": "decisions/1.0",
        "questions": {
            "effort": {"type": "choice", "instructions": {"question": "How much effort?"},
                       "criteria": {"low": null, "medium": null, "high": null}},
            "risky": {"type": "noul", "instructions": "Is it risky?"}
        },
        "thresholds": {
            "effort": {"floor": 0.5, "escalate": 0.65, "act": 0.85},
            "risky": {"floor": 0.5, "escalate": 0.65, "act": 0.85}
        }
    })
}

fn answers() -> Value {
    json!({"model": "jev-1.13.0", "answers": {
        "effort": {"type": "choice", "choice": "high", "probabilities": {"low": 0.1, "medium": 0.2, "high": 0.7}, "confidence": 0.55},
        "risky": {"type": "noul", "noul": 0.97}}})
}

/// A project with the catalog `test` and, when given, a config pointing jev at `endpoint`.
fn project(endpoint: Option<&str>) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tmp");
    let leo = dir.path().join(".leopold");
    write(&leo.join("decisions/test.json"), &catalog());
    if let Some(endpoint) = endpoint {
        let mut jev = serde_json::to_value(decisions::builtin("jev").expect("jev")).expect("json");
        jev["endpoint"] = json!(endpoint);
        write(
            &leo.join("decisions/config.json"),
            &json!({"version": "decisions/1.0", "provider": "jev", "providers": {"jev": jev}}),
        );
    }
    (dir, leo)
}

fn decisions(cwd: &Path) -> Command {
    common::keyed(cwd, KEY)
}

const ASK: [&str; 6] = ["ask", "--catalog", "test", "--questions", "effort,risky", "--state"];

fn run(cmd: &mut Command) -> Run {
    common::run_checked(cmd, Some(KEY))
}

fn reasons(out: &Value) -> Vec<String> {
    out["answers"]
        .as_object()
        .map(|o| o.values().map(|a| a["reason"].as_str().unwrap_or("ok").to_string()).collect())
        .unwrap_or_default()
}

#[test]
fn an_answer_prints_the_contract_shape() {
    let stub = Stub::start(vec![Reply::json(&answers())]);
    let (dir, _leo) = project(Some(&stub.url("/v1/systemone")));
    let r = run(decisions(dir.path()).args(ASK).arg("{\"item\": \"x\"}"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.json();
    let keys: Vec<&String> = out.as_object().map(|o| o.keys().collect()).unwrap_or_default();
    assert_eq!(keys, ["provider", "source", "usable", "answers", "bands", "events"]);
    assert_eq!(
        (out["provider"].clone(), out["source"].clone(), out["usable"].clone()),
        (json!("jev"), json!("config"), json!(false))
    );
    assert_eq!(out["bands"], json!({"effort": "escalate", "risky": "act"}));
    assert_eq!(out["answers"]["effort"]["choice"], "high");
}

/// The binary is linked statically (.cargo/config.toml); its resolver must still turn a host
/// name into an address, as it will for every real provider's endpoint.
#[test]
fn an_endpoint_named_by_host_name_is_reached() {
    let stub = Stub::start(vec![Reply::json(&answers())]);
    let endpoint = stub.url("/v1/systemone").replace("127.0.0.1", "localhost");
    let (dir, _leo) = project(Some(&endpoint));
    let r = run(decisions(dir.path()).args(ASK).arg("{\"item\": \"x\"}"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["answers"]["effort"]["choice"], "high", "{}", r.stdout);
    assert_eq!(stub.requests().len(), 1);
}

#[test]
fn every_decision_outcome_exits_0_with_one_object() {
    // no_provider
    let (dir, _leo) = project(None);
    let out = run(decisions(dir.path()).args(ASK).arg("{}")).json();
    assert_eq!((out["provider"].clone(), out["source"].clone()), (json!("none"), json!("none")));
    assert_eq!(reasons(&out), ["no_provider", "no_provider"]);
    assert!(out["events"].as_array().is_some_and(|e| e.iter().all(|e| e["event"] == "decision_failed")));
    // no_catalog
    let out =
        run(decisions(dir.path()).args(["ask", "--catalog", "absent", "--questions", "a", "--state", "{}"])).json();
    assert_eq!(reasons(&out), ["no_catalog"]);
    // validation
    let out = run(decisions(dir.path()).args([
        "ask",
        "--catalog",
        "test",
        "--questions",
        "nope",
        "--provider",
        "jev",
        "--state",
        "{}",
    ]))
    .json();
    assert_eq!(reasons(&out), ["validation"]);
    // timeout
    let stub = Stub::start(vec![Reply::Hang]);
    let (dir, _leo) = project(Some(&stub.url("/v1/systemone")));
    let r = run(decisions(dir.path()).args(["--timeout-ms", "200"].iter().copied().chain(ASK)).arg("{}"));
    assert_eq!(r.code, 64, "global flags come after the subcommand");
    let r = run(decisions(dir.path()).args(ASK).arg("{}").args(["--timeout-ms", "200"]));
    assert_eq!(r.code, 0);
    let out = r.json();
    assert_eq!(reasons(&out), ["timeout", "timeout"]);
    assert_eq!(out["answers"]["effort"]["detail"], "provider \"jev\" did not answer within 200ms");
}

#[test]
fn the_state_comes_from_a_file_or_standard_input() {
    let stub = Stub::start(vec![Reply::json(&answers())]);
    let (dir, _leo) = project(Some(&stub.url("/v1/systemone")));
    std::fs::write(dir.path().join("state.json"), "{\"from\": \"file\"}").expect("write");
    let args = ["ask", "--catalog", "test", "--questions", "risky", "--state-file"];
    assert_eq!(run(decisions(dir.path()).args(args).arg("state.json")).code, 0);
    assert_eq!(run(decisions(dir.path()).args(args).arg("-").write_stdin("[\"from stdin\"]")).code, 0);
    let states: Vec<Value> = stub.requests().iter().map(|r| r.json()["state"].clone()).collect();
    assert_eq!(states, [json!({"from": "file"}), json!(["from stdin"])]);
}

#[test]
fn usage_errors_exit_64_with_nothing_on_stdout() {
    let (dir, _leo) = project(None);
    std::fs::write(dir.path().join("bad.json"), "{\n  \"a\": 1,\n  oops\n}").expect("write");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["ask", "--questions", "a", "--state", "{}"], "--catalog"),
        (vec!["ask", "--catalog", "test", "--state", "{}"], "--questions"),
        (vec!["ask", "--catalog", "test", "--questions", "a"], "--state"),
        (vec!["ask", "--catalog", "test", "--questions", "a", "--state", "{}", "--state-file", "x"], "cannot be used"),
        (vec!["ask", "--catalog", "test", "--questions", "a", "--state-file", "missing.json"], "missing.json"),
        (vec!["ask", "--catalog", "test", "--questions", "a", "--state-file", "bad.json"], "bad.json:3:3"),
        (vec!["ask", "--catalog", "test", "--questions", "a", "--state", "{nope"], "--state:1:2"),
        (vec!["ask", "--catalog", "test", "--questions", "a", "--state", "null"], "not null"),
        (vec!["ask", "--catalog", "test", "--questions", "a", "--state", "{}", "--timeout-ms", "0"], "--timeout-ms"),
        (vec!["ask", "--catalog", "test", "--questions", ",", "--state", "{}"], "--questions"),
        (
            vec!["ask", "--catalog", "test", "--questions", "a", "--state", "{}", "--schema", "nope.json"],
            "--schema nope.json",
        ),
        (vec!["ask", "--catalog", "test", "--questions", "a", "--state", "{}", "--bogus"], "--bogus"),
    ];
    for (args, needle) in cases {
        let r = run(decisions(dir.path()).args(&args));
        assert_eq!(r.code, 64, "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(r.stderr.contains(needle), "{args:?}: {needle} not in {}", r.stderr);
    }
}

#[test]
fn schema_checks_the_catalog_too() {
    let stub = Stub::start(vec![Reply::json(&answers())]);
    let (dir, leo) = project(Some(&stub.url("/v1/systemone")));
    write(&dir.path().join("strict.json"), &json!({"type": "object", "required": ["description"]}));
    let r = run(decisions(dir.path()).args(ASK).arg("{}").args(["--schema", "strict.json"]));
    if cfg!(feature = "jsonschema") {
        let out = r.json();
        assert_eq!(reasons(&out), ["validation", "validation"]);
        let detail = out["answers"]["effort"]["detail"].as_str().unwrap_or("");
        assert!(detail.contains("schema strict.json") && detail.contains("description"), "{detail}");
    } else {
        // Without a JSON Schema validator, another schema is a usage error that says how to get one.
        assert_eq!((r.code, r.stdout.as_str()), (64, ""));
        assert!(
            r.stderr.contains("--schema strict.json") && r.stderr.contains("--features jsonschema"),
            "{}",
            r.stderr
        );
    }
    // The generated schema accepts the catalog.
    let schema = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schemas/catalog.schema.json");
    let r = run(decisions(dir.path()).args(ASK).arg("{}").arg("--schema").arg(&schema));
    assert_eq!(reasons(&r.json()), ["ok", "ok"]);
    assert_eq!(stub.requests().len(), 1);
    drop(leo);
}

#[test]
fn the_binary_and_the_library_agree_field_for_field() {
    let congested = Reply::status(529, "{}").header("retry-after-ms", "5");
    let stub = Stub::start(vec![congested.clone(), Reply::json(&answers()), congested, Reply::json(&answers())]);
    let (dir, leo) = project(Some(&stub.url("/v1/systemone")));
    let request = decisions::Request {
        catalog: Some(decisions::CatalogRef::Name("test".into())),
        questions: vec!["effort".into(), "risky".into()],
        state: json!({"item": "x"}),
        leo_dir: Some(leo.clone()),
        env: decisions::Env::Map([("TYPESAFE_API_KEY".to_string(), KEY.to_string())].into()),
        ..decisions::Request::default()
    };
    let mut library = serde_json::to_value(decisions::ask(&request, ())).expect("json");
    let mut binary = run(decisions(dir.path()).args(ASK).arg("{\"item\": \"x\"}")).json();
    assert_eq!(stub.requests().len(), 4, "both retried once");
    for v in [&mut library, &mut binary] {
        for e in v["events"].as_array_mut().into_iter().flatten() {
            let elapsed = e.as_object_mut().and_then(|o| o.remove("elapsed_ms"));
            assert!(elapsed.is_none_or(|x| x.is_u64()));
        }
    }
    assert_eq!(library, binary);
    assert_eq!(binary["events"][1]["event"], "decision_retry");
}

#[test]
fn the_canary_never_shows_in_output_or_files() {
    let scripts = [
        Reply::json(&answers()),
        Reply::status(401, &json!({"detail": format!("bad key {KEY}")}).to_string()),
        Reply::status(500, "{}"),
        Reply::Hang,
        Reply::Drip(Duration::from_millis(10)),
        Reply::status(200, "nope"),
    ];
    for script in scripts {
        let stub = Stub::start(vec![script]);
        let (dir, _leo) = project(Some(&stub.url("/v1/systemone")));
        let r = run(decisions(dir.path()).args(ASK).arg("{}").args(["--timeout-ms", "300"]));
        assert_eq!(r.code, 0);
        for entry in walk(dir.path()) {
            let text = std::fs::read_to_string(&entry).unwrap_or_default();
            assert!(!text.contains(KEY), "{} holds the canary", entry.display());
        }
    }
    // Paths that never call: no provider, missing key variable, usage error.
    let (dir, _leo) = project(None);
    run(decisions(dir.path()).args(ASK).arg("{}"));
    run(decisions(dir.path()).args(ASK).arg("{}").args(["--provider", "generic"]));
    run(decisions(dir.path()).args(ASK).arg("{oops"));
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() { out.extend(walk(&p)) } else { out.push(p) }
    }
    out
}
