//! `decisions route` and `decisions review` as a user runs them, over loopback HTTP with the
//! shipped catalogs: the command and the library give the same verdict, the output has the
//! documented shape, every decision outcome exits 0, usage errors exit 64.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use decisions::consumer::{review, routing};
use serde_json::{Value, json};
use stub::{Reply, Stub};

use crate::common;
use crate::common::Run;

const KEY: &str = "sk-canary-consumers-2f8a61d0c4";

/// A git repository with a project that ships `catalog` and points jev at `endpoint`.
pub(crate) fn project(catalog: &str, endpoint: Option<&str>) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tmp");
    let root = dir.path().to_path_buf();
    std::fs::create_dir_all(root.join(".git")).expect("git");
    std::fs::create_dir_all(root.join("src")).expect("src");
    std::fs::write(root.join("src/loop.rs"), "fn main() {}\n").expect("write");
    std::fs::write(root.join("README.md"), "The loop lives in src/loop.rs.\n").expect("write");
    let decisions_dir = root.join(".leopold/decisions");
    std::fs::create_dir_all(&decisions_dir).expect("mkdir");
    std::fs::write(
        decisions_dir.join(format!("{catalog}.json")),
        decisions::install::shipped(catalog).expect("shipped"),
    )
    .expect("write");
    if let Some(endpoint) = endpoint {
        common::jev_at(&root, endpoint);
    }
    (dir, root)
}

pub(crate) fn decisions(cwd: &Path) -> Command {
    common::keyed(cwd, KEY)
}

fn run(cmd: &mut Command) -> Run {
    common::run_checked(cmd, Some(KEY))
}

/// System One answers: effort high at 0.95, irreversible 0.97, cosmetic 0.02; same_defect
/// 0.97; is_defect 0.99.
pub(crate) fn provider() -> Stub {
    Stub::start(vec![Reply::computed(|req| {
        let asked = req.json()["questions"].as_object().cloned().unwrap_or_default();
        let mut answers = serde_json::Map::new();
        for q in asked.keys() {
            let a = match q.as_str() {
                "effort" => json!({"type": "choice", "choice": "high", "confidence": 0.95,
                    "probabilities": {"low": 0.05, "medium": 0.1, "high": 0.7, "xhigh": 0.1, "max": 0.05}}),
                "irreversible" => json!({"type": "noul", "noul": 0.97}),
                "cosmetic" => json!({"type": "noul", "noul": 0.02}),
                "same_defect" => json!({"type": "noul", "noul": 0.97}),
                _ => json!({"type": "noul", "noul": 0.99}),
            };
            answers.insert(q.clone(), a);
        }
        Reply::json(&json!({"model": "stub-1.0.0", "answers": answers}))
    })])
}

const ITEM: &str = "make the retry loop in `src/loop.rs` back off";

#[test]
fn route_prints_the_verdict_who_decided_the_ids_and_the_events() {
    let stub = provider();
    let (_dir, root) = project("routing", Some(&stub.url("/v1/systemone")));
    let r = run(decisions(&root).args(["route", "--item", ITEM]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.json();
    let keys: Vec<&String> = out.as_object().map(|o| o.keys().collect()).unwrap_or_default();
    assert_eq!(keys, ["effort", "critical", "reason", "files", "decided_by", "recorded", "events"]);
    assert_eq!((out["effort"].clone(), out["critical"].clone()), (json!("high"), json!(true)));
    assert_eq!((out["files"].clone(), out["decided_by"].clone()), (json!(["src/loop.rs"]), json!("provider")));
    assert_eq!(out["recorded"].as_array().map(Vec::len), Some(3));
    // The evidence the model judged: the file exists, and one other file mentions it.
    let state = stub.requests()[0].json()["state"].clone();
    assert_eq!(state["references"]["src/loop.rs"], 1);
    // An outcome recorded against a returned id joins its decision.
    let id = out["recorded"][0]["id"].as_str().unwrap_or_default().to_string();
    let o = run(decisions(&root).args(["ledger", "outcome", "--id", &id, "--correct", "false"]));
    assert_eq!(o.code, 0, "{}", o.stderr);
}

#[test]
fn route_and_the_library_give_the_same_verdict() {
    let stub = provider();
    let (_dir, root) = project("routing", Some(&stub.url("/v1/systemone")));
    let cli = run(decisions(&root).args(["route", "--item", ITEM, "--no-record"])).json();
    let mut jev = decisions::builtin("jev").expect("jev");
    jev.endpoint = stub.url("/v1/systemone");
    let env = decisions::Env::Map([("TYPESAFE_API_KEY".to_string(), KEY.to_string())].into());
    let seam = decisions::Request {
        leo_dir: Some(root.join(".leopold")),
        provider: Some(decisions::ProviderChoice::Descriptor(jev)),
        env,
        ..decisions::Request::default()
    };
    let lib = routing::route(&routing::RouteRequest {
        item: ITEM.into(),
        charter: String::new(),
        repo_root: root.clone(),
        files: None,
        probe: None,
        seam,
        record: false,
    });
    let mut lib_out = serde_json::to_value(&lib.verdict).expect("json");
    lib_out["decided_by"] = json!(lib.decided_by);
    for k in ["effort", "critical", "reason", "files", "decided_by"] {
        assert_eq!(cli[k], lib_out[k], "{k}");
    }
}

#[test]
fn route_with_nothing_configured_is_the_classifier_and_exits_0() {
    let (_dir, root) = project("routing", None);
    let r = run(decisions(&root).args(["route", "--item", "fix a typo in the README"]));
    assert_eq!(r.code, 0);
    let out = r.json();
    assert_eq!((out["effort"].clone(), out["decided_by"].clone()), (json!("low"), json!("classifier")));
    assert_eq!(out["reason"], "trivial: cosmetic / low blast radius");
    assert!(out.get("files").is_none() && out["recorded"] == json!([]));
    assert_eq!(out["events"][0]["reason"], "no_provider");
}

#[test]
fn route_usage_errors_exit_64_with_nothing_on_stdout() {
    let (_dir, root) = project("routing", None);
    for args in [
        &["route"][..],
        &["route", "--item", "x", "--item-file", "f"],
        &["route", "--item", "   "],
        &["route", "--item-file", "missing.txt"],
        &["route", "--item", "x", "--repo", "nowhere"],
        &["route", "--item", "x", "--provider", "genric"],
        &["route", "--item", "x", "--timeout-ms", "0"],
    ] {
        let r = run(decisions(&root).args(args));
        assert_eq!((r.code, r.stdout.as_str()), (64, ""), "{args:?}: {}", r.stderr);
    }
}

fn reviews(root: &Path) -> Vec<String> {
    let write = |name: &str, text: &str| {
        std::fs::write(root.join(name), text).expect("write");
        name.to_string()
    };
    vec![
        write(
            "correctness.txt",
            "```json\n{\"summary\": \"a crash\", \"findings\": [{\"file\": \"src/pay.ts\", \"issue\": \"refund dereferences order unchecked\", \"severity\": \"blocking\"}]}\n```",
        ),
        write(
            "security.txt",
            "{\"summary\": \"same crash\", \"findings\": [{\"file\": \"src/pay.ts\", \"issue\": \"order may be undefined on retry\", \"severity\": \"blocking\"}, {\"file\": \"x\", \"issue\": \"nit\", \"severity\": \"minor\"}]}",
        ),
        write("broken.txt", "I could not finish the review."),
    ]
}

#[test]
fn review_union_prints_the_panels_blocking_findings() {
    let (_dir, root) = project("review", None);
    let files = reviews(&root);
    let r = run(decisions(&root).arg("review").arg("union").args(&files));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.json();
    assert_eq!(out["ok"], false);
    assert_eq!(out["blocking"].as_array().map(Vec::len), Some(3), "two findings and the unparseable one");
    assert_eq!(out["blocking"][2]["issue"], review::UNPARSEABLE);
    assert_eq!(out["summary"], "a crash | same crash | unparseable review");
}

#[test]
fn review_refine_merges_and_keeps_the_sentinel_and_matches_the_library() {
    let stub = provider();
    let (_dir, root) = project("review", Some(&stub.url("/v1/systemone")));
    let files = reviews(&root);
    let r = run(decisions(&root).args(["review", "refine"]).args(&files).arg("--no-record"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.json();
    let keys: Vec<&String> = out.as_object().map(|o| o.keys().collect()).unwrap_or_default();
    assert_eq!(keys, ["ok", "blocking", "summary", "merged", "demoted", "recorded", "events"]);
    assert_eq!(out["blocking"].as_array().map(Vec::len), Some(2), "merged to one, and the sentinel");
    assert_eq!(out["merged"][0]["folded"][0]["issue"], "order may be undefined on retry");
    // The library, asked the same.
    let panel: Vec<review::ReviewResult> = files
        .iter()
        .map(|f| review::parse_review(&std::fs::read_to_string(root.join(f)).unwrap_or_default()))
        .collect();
    let mut jev = decisions::builtin("jev").expect("jev");
    jev.endpoint = stub.url("/v1/systemone");
    let seam = decisions::Request {
        leo_dir: Some(root.join(".leopold")),
        provider: Some(decisions::ProviderChoice::Descriptor(jev)),
        env: decisions::Env::Map([("TYPESAFE_API_KEY".to_string(), KEY.to_string())].into()),
        ..decisions::Request::default()
    };
    let lib = review::refine_reviews(
        &review::union_reviews(&panel),
        &review::RefineRequest { seam, max_pairs: review::MAX_PAIRS, concurrency: 1, record: false },
    );
    let lib = serde_json::to_value(&lib).expect("json");
    for k in ["ok", "blocking", "summary", "merged", "demoted"] {
        assert_eq!(out[k], lib[k], "{k}");
    }
}

#[test]
fn review_refine_with_no_provider_is_the_panel_and_exits_0() {
    let (_dir, root) = project("review", None);
    let files = reviews(&root);
    let union = run(decisions(&root).arg("review").arg("union").args(&files)).json();
    let r = run(decisions(&root).args(["review", "refine"]).args(&files));
    assert_eq!(r.code, 0);
    let out = r.json();
    assert_eq!(
        (out["ok"].clone(), out["blocking"].clone(), out["summary"].clone()),
        (union["ok"].clone(), union["blocking"].clone(), union["summary"].clone())
    );
    let failed: Vec<Value> = out["events"].as_array().cloned().unwrap_or_default();
    assert_eq!(failed.len(), 2, "one failure a question");
}

#[test]
fn review_usage_errors_exit_64() {
    let (_dir, root) = project("review", None);
    for args in [
        &["review"][..],
        &["review", "union"],
        &["review", "refine", "nope.txt"],
        &["review", "refine", "a", "--concurrency", "0"],
    ] {
        let r = run(decisions(&root).args(args));
        assert_eq!((r.code, r.stdout.as_str()), (64, ""), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn review_refine_of_a_huge_panel_checks_its_bound_before_making_a_pair() {
    // 10,000 findings took 808 MB although merging was then skipped; 40,000 (a 2.6 MB file)
    // aborted on a 5 GB allocation with no JSON printed. Here 20,000 (200 million pairs) run
    // with the heap held to 256 MiB, against a closed port: each ask fails at once, so only
    // the refinement is measured.
    let (_dir, root) = project("review", Some("http://127.0.0.1:9/v1/systemone"));
    let findings: Vec<Value> = (0..20_000)
        .map(|i| json!({"file": format!("src/f{}.rs", i % 97), "issue": format!("finding {i} of the huge panel"), "severity": "blocking"}))
        .collect();
    std::fs::write(root.join("panel.json"), json!({"summary": "huge", "findings": findings}).to_string())
        .expect("write");
    let bin = assert_cmd::cargo::cargo_bin("decisions");
    let mut cmd = Command::new("prlimit");
    cmd.current_dir(&root).env_remove("LEOPOLD_DECISIONS_PROVIDER").env("TYPESAFE_API_KEY", KEY);
    cmd.arg(format!("--data={}", 256 << 20)).arg("--").arg(bin);
    let r = run(cmd.args(["review", "refine", "panel.json", "--no-record"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.json();
    assert_eq!(out["blocking"].as_array().map(Vec::len), Some(20_000), "every finding still blocks");
    assert!(
        out["merging_skipped"].as_str().is_some_and(|s| s.contains("199990000 pairs, more than the bound of 300")),
        "{}",
        out["merging_skipped"]
    );
}
