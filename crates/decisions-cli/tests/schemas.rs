//! The shipped JSON Schemas and the Rust rules agree: the generated catalog schema, the
//! judgment record and the Decision Card. These need a JSON Schema validator, so they build
//! with `--features jsonschema` (`.ci/run` runs them; the default build has none).

use std::path::PathBuf;

use decisions::judgment::{Judgment, card_problems};
use decisions::{builtin, catalog_schema, validate_catalog};
use serde_json::{Value, json};

fn repo(rel: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel);
    serde_json::from_str(&std::fs::read_to_string(&path).expect("file")).expect("JSON")
}

const SHIPPED: [&str; 4] = ["routing", "review", "triage", "permission"];

/// A named way to break a document.
type Breakage = (&'static str, fn(&mut Value));

#[test]
fn every_shipped_catalog_validates_against_the_generated_schema() {
    let validator = jsonschema::validator_for(&catalog_schema()).expect("the generated schema compiles");
    for name in SHIPPED {
        let doc = repo(&format!("templates/decisions/{name}.json"));
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{name}.json: {errors:?}");
    }
}

#[test]
fn the_generated_schema_refuses_what_the_contract_refuses() {
    let validator = jsonschema::validator_for(&catalog_schema()).expect("the generated schema compiles");
    let jev = builtin("jev").expect("jev");
    let breakages: [Breakage; 5] = [
        ("wrong version", |d| d["version"] = "decisions/2.0".into()),
        ("unknown type", |d| d["questions"]["kind"]["type"] = "boolean".into()),
        ("one score level", |d| d["questions"]["severity"]["criteria"] = json!(["one"])),
        ("floor above 1", |d| d["thresholds"]["kind"]["floor"] = 1.5.into()),
        ("unknown field", |d| d["extra"] = 1.into()),
    ];
    for (what, breaks) in breakages {
        let mut doc = repo("templates/decisions/triage.json");
        breaks(&mut doc);
        assert!(!validator.is_valid(&doc), "schema accepts {what}");
        assert!(validate_catalog(&doc, &jev).is_err(), "contract accepts {what}");
    }
}

fn record() -> Judgment {
    Judgment {
        id: "7b1c".into(),
        project: "p".into(),
        decided_at: "2026-11-29T10:00:00Z".into(),
        question: "Ship?".into(),
        answer: "no".into(),
        rationale: String::new(),
        card_ref: "cards/1.json".into(),
        tags: vec![],
    }
}

#[test]
fn both_judgment_schemas_are_draft_07_and_closed() {
    for name in ["judgment-ledger.v1.json", "judgment-card.v1.json"] {
        let s = repo(&format!("schemas/{name}"));
        assert_eq!(s["$schema"], "http://json-schema.org/draft-07/schema#", "{name}");
        assert_eq!(s["additionalProperties"], json!(false), "{name}");
        assert!(jsonschema::draft7::new(&s).is_ok(), "{name} compiles");
    }
}

#[test]
fn the_record_rules_and_the_schema_agree() {
    let validator = jsonschema::draft7::new(&repo("schemas/judgment-ledger.v1.json")).expect("compiles");
    let mut cases = vec![(record(), true)];
    for field in ["id", "project", "decided_at", "question", "answer", "card_ref"] {
        let mut r = serde_json::to_value(record()).expect("json");
        r[field] = json!(" ");
        cases.push((serde_json::from_value(r).expect("record"), false));
    }
    for (r, valid) in cases {
        let doc = serde_json::to_value(&r).expect("json");
        assert_eq!(validator.is_valid(&doc), valid, "schema on {doc}");
        assert_eq!(r.validate().is_ok(), valid, "library on {doc}");
    }
}

fn card() -> Value {
    json!({"question": "Ship?", "options": [{"id": "a", "label": "A", "consequence": ""}, {"id": "b", "label": "B", "consequence": ""}],
        "recommendation": "a", "confidence": "low", "impact": "small", "diff_summary": "",
        "similar_past_decisions": [serde_json::to_value(record().recall()).expect("json")]})
}

#[test]
fn the_card_rules_and_the_card_schema_agree() {
    // Every card the schema refuses, the Rust rules refuse; the Rust rules refuse two more (a
    // recommendation that is no option, a repeated option id) that a schema cannot say.
    let validator = jsonschema::draft7::new(&repo("schemas/judgment-card.v1.json")).expect("compiles");
    assert!(validator.is_valid(&card()) && card_problems(&card()).is_empty());
    // (what, how, whether the schema can see it)
    let breakages: [(Breakage, bool); 12] = [
        (
            ("four recalls", |c| {
                c["similar_past_decisions"] = Value::Array(vec![c["similar_past_decisions"][0].clone(); 4])
            }),
            true,
        ),
        (("one option", |c| c["options"] = json!([c["options"][0]])), true),
        (("unknown field", |c| c["x"] = json!(1)), true),
        (("empty question", |c| c["question"] = json!("")), true),
        (("bad confidence", |c| c["confidence"] = json!("sure")), true),
        (("score 101", |c| c["impact_score"] = json!(101)), true),
        (("score 1.5", |c| c["impact_score"] = json!(1.5)), true),
        (("bad mem_id", |c| c["similar_past_decisions"][0]["mem_id"] = json!("x")), true),
        (("missing impact", |c| drop(c.as_object_mut().map(|o| o.remove("impact")))), true),
        (("option without label", |c| drop(c["options"][0].as_object_mut().map(|o| o.remove("label")))), true),
        (("recommendation no option", |c| c["recommendation"] = json!("z")), false),
        (("repeated option id", |c| c["options"][1]["id"] = json!("a")), false),
    ];
    for ((what, breaks), schema_sees_it) in breakages {
        let mut c = card();
        breaks(&mut c);
        assert_eq!(!validator.is_valid(&c), schema_sees_it, "schema on {what}");
        assert!(!card_problems(&c).is_empty(), "the Rust rules accept {what}");
    }
}

#[test]
fn every_judgment_row_the_binary_writes_validates_against_the_shipped_closed_schema() {
    // The Harness's own validator refused every row once they ended with "v":"1.0".
    let validator = jsonschema::draft7::new(&repo("schemas/judgment-ledger.v1.json")).expect("compiles");
    let dir = tempfile::tempdir().expect("tmp");
    let ledger = dir.path().join("j.jsonl");
    let card = card();
    std::fs::write(dir.path().join("card.json"), card.to_string()).expect("write");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("decisions"))
            .current_dir(dir.path())
            .env("HARNESS_JUDGMENT_LEDGER", &ledger)
            .args(args)
            .output()
            .expect("runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    run(&[
        "judgment",
        "append",
        "--project",
        "p",
        "--question",
        "Ship?",
        "--answer",
        "no",
        "--card-ref",
        "c",
        "--tags",
        "a",
    ]);
    run(&["card", "record-answer", "card.json", "--answer", "a", "--why", "w", "--project", "p"]);
    let text = std::fs::read_to_string(&ledger).expect("ledger");
    assert_eq!(text.lines().count(), 2);
    for line in text.lines() {
        let row: Value = serde_json::from_str(line).expect("json");
        let errors: Vec<String> = validator.iter_errors(&row).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{line}: {errors:?}");
    }
}
