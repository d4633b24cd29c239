//! The shipped judgment schemas and the library's record rules agree.

use std::path::PathBuf;

use decisions::judgment::Judgment;
use serde_json::{Value, json};

fn schema(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schemas").join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).expect("schema file")).expect("schema JSON")
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
fn both_schemas_are_draft_07_and_closed() {
    for name in ["judgment-ledger.v1.json", "judgment-card.v1.json"] {
        let s = schema(name);
        assert_eq!(s["$schema"], "http://json-schema.org/draft-07/schema#", "{name}");
        assert_eq!(s["additionalProperties"], json!(false), "{name}");
        assert!(jsonschema::draft7::new(&s).is_ok(), "{name} compiles");
    }
}

#[test]
fn the_record_rules_and_the_schema_agree() {
    let validator = jsonschema::draft7::new(&schema("judgment-ledger.v1.json")).expect("compiles");
    let mut cases = vec![(record(), true)];
    for field in ["id", "project", "decided_at", "question", "answer", "card_ref"] {
        let mut r = serde_json::to_value(record()).expect("json");
        r[field] = json!(" ");
        cases.push((serde_json::from_value(r).expect("record"), false));
    }
    let mut empty_rationale_ok = record();
    empty_rationale_ok.rationale = String::new();
    cases.push((empty_rationale_ok, true));
    for (r, valid) in cases {
        let doc = serde_json::to_value(&r).expect("json");
        assert_eq!(validator.is_valid(&doc), valid, "schema on {doc}");
        assert_eq!(r.validate().is_ok(), valid, "library on {doc}");
    }
    let mut extra = serde_json::to_value(record()).expect("json");
    extra["score"] = json!(1);
    assert!(!validator.is_valid(&extra));
    assert!(serde_json::from_value::<Judgment>(extra).is_err(), "unknown fields are refused on read too");
}

#[test]
fn recall_items_fit_the_card_schema() {
    let validator = jsonschema::draft7::new(&schema("judgment-card.v1.json")).expect("compiles");
    let card = json!({
        "question": "Ship?", "options": [{"id": "a", "label": "A", "consequence": ""}, {"id": "b", "label": "B", "consequence": ""}],
        "recommendation": "a", "confidence": "low", "impact": "small", "diff_summary": "",
        "similar_past_decisions": [serde_json::to_value(record().recall()).expect("json")]
    });
    assert!(validator.is_valid(&card));
    let mut four = card.clone();
    four["similar_past_decisions"] = Value::Array(vec![card["similar_past_decisions"][0].clone(); 4]);
    assert!(!validator.is_valid(&four), "at most three");
}
