//! First use, as a newcomer meets it: a set-up that cannot look ready while it is inert, typos
//! that fail loudly, and messages that say what to do.

use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::{Value, json};

use crate::common;

use crate::common::Sandbox;

fn sandbox() -> Sandbox {
    Sandbox::new()
}

#[test]
fn validate_refuses_a_generic_descriptor_that_ask_would_refuse() {
    // After `install --provider generic`, validate once said `ok: 3 questions` and every hook
    // call then failed `validation`.
    let s = sandbox();
    s.run(&["install", "--provider", "generic", "--catalogs", "permission"], &[]);
    let r = s.run(&["validate", "permission", "--provider", "generic"], &[]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("provider \"generic\" has no endpoint set"), "{}", r.stdout);
    assert!(r.stdout.contains("provider \"generic\" has no model set"), "{}", r.stdout);
    // The same descriptor, asked: refused for the same reasons.
    let ask = s.run(
        &["ask", "--catalog", "permission", "--questions", "destructive", "--state", "{}"],
        &[("LEOPOLD_DECISIONS_API_KEY", "k")],
    );
    let out: Value = serde_json::from_str(&ask.stdout).expect("json");
    let detail = out["answers"]["destructive"]["detail"].as_str().unwrap_or("");
    assert_eq!(out["answers"]["destructive"]["reason"], "validation");
    assert!(detail.contains("no endpoint set") && detail.contains("no model set"), "{detail}");
}

#[test]
fn validate_reports_every_problem_of_an_uncalibrated_provider_at_once_naming_the_readme_section() {
    let s = sandbox();
    let routing = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../templates/decisions/routing.json");
    for name in ["openrouter", "vercel"] {
        let r = s.run(&["validate", routing.to_str().unwrap_or(""), "--provider", name], &[]);
        assert_eq!(r.code, 1, "{}", r.stdout);
        assert!(r.stdout.contains(&format!("provider \"{name}\" has no model set")), "{}", r.stdout);
        assert!(r.stdout.contains(&format!("\"thresholds_for\": \"{name}\"")), "{}", r.stdout);
        assert!(r.stdout.contains("docs/providers.md, \"Starting an uncalibrated provider\""), "{}", r.stdout);
        assert!(r.stderr.contains("2 problems"), "{}", r.stderr);
    }
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/providers.md")).unwrap_or_default();
    assert!(doc.contains("## Starting an uncalibrated provider"), "the section the message names exists");
}

#[test]
fn doctor_says_not_ready_naming_each_missing_piece_and_exits_1() {
    let s = sandbox();
    // Nothing installed, nothing configured: one line that says so, exit 0.
    let r = s.run(&["doctor"], &[]);
    assert_eq!((r.code, r.stdout.lines().count()), (0, 1), "{}", r.stdout);
    s.run(&["install", "--provider", "generic", "--catalogs", "permission"], &[]);
    let r = s.run(&["doctor"], &[]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let line = r.stdout.lines().find(|l| l.starts_with("decisions readiness")).unwrap_or_default().to_string();
    for piece in [
        "not ready",
        "provider \"generic\" has no endpoint set",
        "provider \"generic\" has no model set",
        "LEOPOLD_DECISIONS_API_KEY is not set",
    ] {
        assert!(line.contains(piece), "{piece:?} missing from {line}");
    }
    // A catalog the provider cannot use is a missing piece too.
    let other = sandbox();
    other.run(&["install", "--provider", "openrouter", "--catalogs", "routing"], &[]);
    let r = other.run(&["doctor"], &[("OPENROUTER_API_KEY", "k")]);
    assert_eq!(r.code, 1);
    let line = r.stdout.lines().find(|l| l.starts_with("decisions readiness")).unwrap_or_default();
    assert!(line.contains("provider \"openrouter\" has no model set"), "{line}");
    assert!(line.contains("route cannot ask: routing.json: 1 problem against \"openrouter\""), "{line}");
    assert!(!line.contains("OPENROUTER_API_KEY"), "the key is set: {line}");
    // Filled in: ready, exit 0.
    let mut config: Value =
        serde_json::from_str(&std::fs::read_to_string(s.config_path()).expect("config")).expect("json");
    config["providers"]["generic"]["endpoint"] = json!("http://127.0.0.1:9/v1/systemone");
    config["providers"]["generic"]["model"] = json!("jev-1.13.0");
    std::fs::write(s.config_path(), config.to_string()).expect("write");
    let r = s.run(&["doctor"], &[("LEOPOLD_DECISIONS_API_KEY", "k")]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("decisions readiness    ready: generic can be asked"), "{}", r.stdout);
    let status = s.run(&["status"], &[("LEOPOLD_DECISIONS_API_KEY", "k")]);
    assert!(status.stdout.trim_end().ends_with("; ready"), "{}", status.stdout);
}

#[test]
fn install_ends_by_saying_which_fields_to_fill_and_where() {
    let s = sandbox();
    let r = s.run(&["install", "--provider", "generic"], &[]);
    let path = s.config_path().display().to_string();
    let todo: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with("todo: ")).collect();
    assert!(
        todo.iter()
            .any(|l| l.contains("fill in \"endpoint\" and \"model\" under \"providers\" > \"generic\"")
                && l.contains(&path)),
        "{}",
        r.stdout
    );
    assert!(todo.iter().any(|l| l.contains("export LEOPOLD_DECISIONS_API_KEY")), "{}", r.stdout);
    for name in ["openrouter", "vercel"] {
        let r = s.run(&["install", "--provider", name], &[]);
        assert!(r.stdout.contains(&format!("fill in \"model\" under \"providers\" > \"{name}\"")), "{}", r.stdout);
        assert!(r.stdout.contains(&format!("\"{name}\" is uncalibrated")), "{}", r.stdout);
    }
    // A provider that is ready to go needs no to-do beyond its key.
    let r = s.run(&["install", "--provider", "jev"], &[("TYPESAFE_API_KEY", "k")]);
    assert!(!r.stdout.contains("todo:"), "{}", r.stdout);
}

#[test]
fn an_explicit_provider_that_names_nothing_is_a_usage_error_for_every_command() {
    // `ask --provider genric` once exited 0 with `no_provider`.
    let s = sandbox();
    s.run(&["install", "--provider", "jev", "--catalogs", "permission"], &[]);
    for args in [
        &["ask", "--catalog", "permission", "--questions", "destructive", "--state", "{}", "--provider", "genric"][..],
        &["validate", "permission", "--provider", "genric"],
        &["install", "--provider", "genric"],
    ] {
        let r = s.run(args, &[]);
        assert_eq!((r.code, r.stdout.as_str()), (64, ""), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("genric"), "{args:?}: {}", r.stderr);
    }
    // A name config.json defines is not a typo.
    let mut config: Value = serde_json::from_str(&std::fs::read_to_string(s.config_path()).expect("c")).expect("json");
    config["providers"]["mine"] = config["providers"]["jev"].clone();
    std::fs::write(s.config_path(), config.to_string()).expect("write");
    let r = s.run(
        &["ask", "--catalog", "permission", "--questions", "destructive", "--state", "{}", "--provider", "mine"],
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn ask_reports_the_provider_it_resolved_whatever_happens_to_the_catalog() {
    let s = sandbox();
    s.run(&["install", "--provider", "generic"], &[]);
    let r = s.run(&["ask", "--catalog", "permision", "--questions", "destructive", "--state", "{}"], &[]);
    let out: Value = serde_json::from_str(&r.stdout).expect("json");
    assert_eq!((out["provider"].clone(), out["source"].clone()), (json!("generic"), json!("config")));
    assert_eq!(out["answers"]["destructive"]["reason"], "no_catalog");
}

#[test]
fn install_outside_a_project_says_no_config_was_seeded_and_how_to_name_one() {
    let s = sandbox();
    let elsewhere = s.home.join("work");
    std::fs::create_dir_all(&elsewhere).expect("mkdir");
    let r = s.run_in(&elsewhere, &["install", "--provider", "jev"], &[], None);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout.contains("config: none seeded: no project found") && r.stdout.contains("--project DIR"),
        "{}",
        r.stdout
    );
}

#[test]
fn install_catalogs_without_a_provider_says_no_config_was_written_and_why() {
    let s = sandbox();
    let r = s.run(&["install", "--catalogs", "permission"], &[]);
    assert!(r.stdout.contains("config: none written to") && r.stdout.contains("no provider chosen"), "{}", r.stdout);
    assert!(!s.config_path().exists());
}

#[test]
fn ledger_record_refuses_an_id_already_recorded() {
    // One outcome would otherwise count for two decisions and inflate `samples`.
    let s = sandbox();
    std::fs::create_dir_all(s.project.join(".leopold")).expect("mkdir");
    let mut record = common::record_args("m");
    record.extend(["--id", "d-1"].map(String::from));
    let record: Vec<&str> = record.iter().map(String::as_str).collect();
    assert_eq!(s.run(&record, &[]).code, 0);
    let ledger = s.project.join(".leopold/decisions/ledger.jsonl");
    let before = std::fs::read(&ledger).expect("ledger");
    let r = s.run(&record, &[]);
    assert_eq!((r.code, r.stdout.as_str()), (1, ""));
    assert!(r.stderr.contains("already holds a decision with id \"d-1\""), "{}", r.stderr);
    assert_eq!(std::fs::read(&ledger).expect("ledger"), before, "nothing written");
}

fn card() -> Value {
    json!({"question": "Ship it?", "options": [
        {"id": "ship", "label": "Ship now", "consequence": "users get it"},
        {"id": "wait", "label": "Wait", "consequence": "a week later"}],
        "recommendation": "wait", "confidence": "medium", "impact": "release", "diff_summary": "2 files"})
}

#[test]
fn card_validate_refuses_a_recommendation_that_is_no_option_and_repeated_option_ids() {
    let s = sandbox();
    let mut c = card();
    c["recommendation"] = json!("later");
    c["options"][1]["id"] = json!("ship");
    std::fs::write(s.project.join("card.json"), c.to_string()).expect("write");
    let r = s.run(&["card", "validate", "card.json"], &[]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("/options/1/id: \"ship\" is the id of an earlier option too"), "{}", r.stdout);
    assert!(r.stdout.contains("/recommendation: \"later\" is no option's id (options: ship, ship)"), "{}", r.stdout);
}

#[test]
fn card_record_answer_refuses_an_answer_that_is_no_option_writing_nothing() {
    let s = sandbox();
    std::fs::write(s.project.join("card.json"), card().to_string()).expect("write");
    let judgments = s.project.join("j.jsonl");
    let env = [("HARNESS_JUDGMENT_LEDGER", judgments.to_str().unwrap_or(""))];
    let r = s.run(&["card", "record-answer", "card.json", "--answer", "maybe", "--why", "w", "--project", "p"], &env);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("\"maybe\" is no option of this card (options: ship (Ship now), wait (Wait))"),
        "{}",
        r.stderr
    );
    assert!(!judgments.exists());
    let r = s.run(&["card", "record-answer", "card.json", "--answer", "Wait", "--why", "w", "--project", "p"], &env);
    assert_eq!(r.code, 0, "an option's label names it too: {}", r.stderr);
}

#[test]
fn card_record_answer_with_an_unknown_decision_id_exits_1_writing_nothing_as_ledger_outcome_does() {
    let s = sandbox();
    std::fs::create_dir_all(s.project.join(".leopold")).expect("mkdir");
    std::fs::write(s.project.join("card.json"), card().to_string()).expect("write");
    let judgments = s.project.join("j.jsonl");
    let env = [("HARNESS_JUDGMENT_LEDGER", judgments.to_str().unwrap_or(""))];
    let r = s.run(
        &[
            "card",
            "record-answer",
            "card.json",
            "--answer",
            "wait",
            "--why",
            "w",
            "--project",
            "p",
            "--decision-id",
            "ghost",
        ],
        &env,
    );
    let o = s.run(&["ledger", "outcome", "--id", "ghost", "--correct", "true"], &env);
    assert_eq!((r.code, o.code), (1, 1), "{} / {}", r.stderr, o.stderr);
    assert!(r.stderr.contains("no decision with id \"ghost\"") && o.stderr.contains("no decision with id \"ghost\""));
    assert!(!judgments.exists(), "no judgment written");
    assert!(!s.project.join(".leopold/decisions/ledger.jsonl").exists(), "no outcome written");
}

#[test]
fn small_things_read_right() {
    let s = sandbox();
    std::fs::create_dir_all(s.project.join(".leopold")).expect("mkdir");
    // A zero budget says what it must be.
    let r = s.run(&["ask", "--catalog", "x", "--questions", "a", "--state", "{}", "--timeout-ms", "0"], &[]);
    assert_eq!(r.code, 64);
    assert!(r.stderr.contains("--timeout-ms <N>': must be at least 1 ms"), "{}", r.stderr);
    // One default for one flag.
    let help = s.run(&["judgment", "search", "--help"], &[]).stdout;
    assert_eq!(help.matches("[default:").count(), 1, "{help}");
    // Singulars.
    let one = json!({"version": "decisions/1.0", "questions": {"q": {"type": "noul", "instructions": "?"}},
        "thresholds": {"q": {"floor": 0.5, "escalate": 0.6, "act": 0.9}}});
    std::fs::write(s.project.join("one.json"), one.to_string()).expect("write");
    assert_eq!(s.run(&["validate", "one.json", "--provider", "jev"], &[]).stdout, "ok: 1 question\n");
    // A missing section is named missing.
    std::fs::write(s.project.join("none.json"), json!({"version": "decisions/1.0", "thresholds": {}}).to_string())
        .expect("write");
    let r = s.run(&["validate", "none.json", "--provider", "jev"], &[]);
    assert!(r.stdout.contains("catalog: missing field \"questions\""), "{}", r.stdout);
    assert!(r.stderr.contains("error: 1 problem in none.json"), "{}", r.stderr);
}

#[test]
fn a_hook_budget_that_is_not_a_number_is_said_once_on_stderr() {
    let s = sandbox();
    let input = json!({"cwd": s.project, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let mut c = Command::cargo_bin("decisions").expect("binary");
    c.current_dir(&s.project)
        .env("LEOPOLD_DECISIONS_TIMEOUT_MS", "abc")
        .args(["hook", "claude-code"])
        .write_stdin(input.to_string());
    let r = common::run(&mut c);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("LEOPOLD_DECISIONS_TIMEOUT_MS=\"abc\"") && r.stderr.contains("using 2000"),
        "{}",
        r.stderr
    );
}

#[test]
fn leopold_project_dir_names_the_project_after_the_flags_and_before_the_search_upward() {
    // The earlier installer and doctor honoured it; this build once searched upward only.
    let s = sandbox();
    let elsewhere = s.home.join("elsewhere");
    std::fs::create_dir_all(elsewhere.join(".leopold")).expect("mkdir");
    let project = s.project.to_str().unwrap_or_default().to_string();
    let named = [("LEOPOLD_PROJECT_DIR", project.as_str()), ("TYPESAFE_API_KEY", "k")];
    let r = s.run_in(&elsewhere, &["install", "--provider", "jev", "--catalogs", "permission"], &named, None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(s.config_path().is_file(), "seeded in the named project, not in {}", elsewhere.display());
    assert!(!elsewhere.join(".leopold/decisions").exists());
    let r = s.run_in(&elsewhere, &["doctor"], &named, None);
    assert!(r.stdout.contains("jev (source: config)") && r.stdout.contains("permission.json: ok"), "{}", r.stdout);
    let r = s.run_in(&elsewhere, &["status"], &named, None);
    assert!(r.stdout.starts_with("decisions: provider jev (config)"), "{}", r.stdout);
    let r =
        s.run_in(&elsewhere, &common::record_args("m").iter().map(String::as_str).collect::<Vec<_>>(), &named, None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(s.project.join(".leopold/decisions/ledger.jsonl").is_file(), "ledger record wrote into the named project");
    // A flag outranks it.
    let leo = elsewhere.join(".leopold");
    let r = s.run_in(&elsewhere, &["status", "--leo-dir", leo.to_str().unwrap_or_default()], &named, None);
    assert!(!r.stdout.contains("provider jev (config)"), "{}", r.stdout);
    let r = s.run_in(
        &elsewhere,
        &["install", "--project", elsewhere.to_str().unwrap_or_default(), "--provider", "jev"],
        &named,
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(elsewhere.join(".leopold/decisions/config.json").is_file(), "--project outranks it");
}

#[test]
fn doctor_names_a_broken_catalogs_line_and_column_and_each_of_its_problems() {
    // It said "routing.json: not JSON" and "1 problem against openrouter", naming neither.
    let s = sandbox();
    s.run(&["install", "--provider", "jev", "--catalogs", "routing,triage"], &[]);
    std::fs::write(
        s.project.join(".leopold/decisions/routing.json"),
        "{\n  \"version\": \"decisions/1.0\",\n  oops\n}",
    )
    .expect("write");
    let mut triage: Value =
        serde_json::from_str(decisions::install::shipped("triage").unwrap_or_default()).expect("json");
    triage["thresholds"]["kind"]["floor"] = json!(0.99);
    std::fs::write(s.project.join(".leopold/decisions/triage.json"), triage.to_string()).expect("write");
    let r = s.run(&["doctor"], &[("TYPESAFE_API_KEY", "k")]);
    assert!(r.stdout.contains("routing.json: not JSON at line 3, column 3: key must be a string"), "{}", r.stdout);
    assert!(r.stdout.contains("triage.json: 1 problem against \"jev\": "), "{}", r.stdout);
    assert!(r.stdout.contains("\"kind\""), "the problem names its question: {}", r.stdout);
}

#[test]
fn small_things_a_careful_user_notices() {
    let s = sandbox();
    // `review refine --help` opened with "The flags every command that asks the seam shares".
    let help = s.run(&["review", "refine", "--help"], &[]).stdout;
    assert!(help.starts_with("Union the panel, then merge duplicates"), "{help}");
    assert!(!help.contains("The flags every command"), "{help}");
    let help = s.run(&["batch", "--help"], &[]).stdout;
    assert!(!help.contains("How a run over many items goes"), "{help}");
    // "1 issues:" in the triage report.
    std::fs::write(s.project.join("one.jsonl"), "{\"id\": 1, \"title\": \"t\"}\n").expect("write");
    let r = s.run(&["triage", "one.jsonl", "--no-record"], &[]);
    assert!(r.stdout.contains("1 issue: 0 classified") && !r.stdout.contains("1 issues"), "{}", r.stdout);
    // "1 questions" in doctor.
    s.run(&["install", "--provider", "jev"], &[]);
    let one = json!({"version": "decisions/1.0", "questions": {"q": {"type": "noul", "instructions": "?"}},
        "thresholds": {"q": {"floor": 0.5, "escalate": 0.6, "act": 0.9}}});
    std::fs::write(s.project.join(".leopold/decisions/one.json"), one.to_string()).expect("write");
    let r = s.run(&["doctor"], &[]);
    assert!(r.stdout.contains("one.json: ok, 1 question\n"), "{}", r.stdout);
    // The payload carries the card schema, so a first card can be checked where it is written.
    let payload = s.home.join(".claude/decisions");
    let card: Value =
        serde_json::from_str(&std::fs::read_to_string(payload.join("judgment-card.v1.json")).expect("schema"))
            .expect("json");
    assert_eq!(card["title"], "judgment-card.v1");
    assert!(payload.join("judgment-ledger.v1.json").is_file());
}

#[test]
fn a_named_file_that_cannot_be_had_exits_64_for_every_command_and_one_found_wrong_exits_1() {
    // The table said "a file that cannot be read exits 1" while most commands exited 64.
    let s = sandbox();
    std::fs::create_dir_all(s.project.join(".leopold")).expect("mkdir");
    let missing: [&[&str]; 11] = [
        &["ask", "--catalog", "x", "--questions", "a", "--state-file", "nope.json"],
        &["validate", "nope.json"],
        &["card", "validate", "nope.json"],
        &["card", "recall", "nope.json", "--project", "p"],
        &["batch", "--catalog", "x", "--questions", "a", "--input", "nope.jsonl"],
        &["triage", "nope.jsonl"],
        &["eval", "--catalog", "x", "--question", "a", "--input", "nope.jsonl"],
        &["route", "--item-file", "nope.txt"],
        &["route", "--item", "x", "--charter-file", "nope.md"],
        &["review", "union", "nope.txt"],
        &["review", "refine", "nope.txt"],
    ];
    for args in missing {
        let r = s.run(args, &[]);
        assert_eq!(r.code, 64, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("nope."), "{args:?} names the file: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
    }
    std::fs::write(s.project.join("broken.json"), "{\"version\": \"decisions/1.0\"}").expect("write");
    for args in [&["validate", "broken.json"][..], &["card", "validate", "broken.json"]] {
        assert_eq!(s.run(args, &[]).code, 1, "{args:?}: read, and found wrong");
    }
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/exit-codes.md")).unwrap_or_default();
    assert!(readme.contains("| 64 |") && readme.contains("cannot be had"), "the table says the same rule");
}
