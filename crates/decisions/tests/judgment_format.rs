//! The judgment ledger's format: records written before they carried a version read whole,
//! newer minor records are read with unknown fields ignored, and this build never appends
//! after a newer record.

use decisions::judgment::{Judgment, append_judgment, count, recall, search};

fn fixture() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/judgments-unversioned.jsonl")
}

fn judgment(question: &str) -> Judgment {
    Judgment {
        id: "new".into(),
        project: "p".into(),
        decided_at: "2026-12-01T00:00:00Z".into(),
        question: question.into(),
        answer: "yes".into(),
        rationale: String::new(),
        card_ref: "c".into(),
        tags: vec![],
    }
}

#[test]
fn judgments_written_before_records_carried_a_version_read_whole() {
    assert_eq!(count(&fixture()).expect("count"), (2, 0));
    let (found, skipped) = search(&fixture(), "p", "storage").expect("search");
    assert_eq!((found.len(), skipped), (1, 0));
    assert_eq!(found[0].tags, ["a", "b"]);
    let (recalled, _) = recall(&fixture(), "p", "日本語").expect("recall");
    assert_eq!(recalled[0].decision, "はい");
}

#[test]
fn a_newer_minor_judgment_is_read_and_a_newer_major_skipped() {
    // Once `deny_unknown_fields` skipped a record with one field more as unparsable.
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("j.jsonl");
    let lines = [
        r#"{"id":"1","project":"p","decided_at":"2026-11-01T00:00:00Z","question":"Ship the storage rewrite?","answer":"no","rationale":"","card_ref":"c","tags":[],"mood":"calm","v":"1.2"}"#,
        r#"{"id":"2","project":"p","decided_at":"2026-11-02T00:00:00Z","question":"Ship the storage \u0072ewrite now?","answer":"yes","rationale":"","card_ref":"c","tags":[],"v":"1.2"}"#,
        r#"{"id":"3","project":"p","decided_at":"2026-11-03T00:00:00Z","question":"Ship the storage rewrite later?","answer":"later","rationale":"","card_ref":"c","tags":[],"v":"2.0"}"#,
    ];
    std::fs::write(&path, lines.join("\n") + "\n").expect("write");
    assert_eq!(count(&path).expect("count"), (2, 1));
    let (found, skipped) = search(&path, "p", "storage").expect("search");
    assert_eq!(found.iter().map(|j| j.id.as_str()).collect::<Vec<_>>(), ["2", "1"]);
    assert_eq!(skipped, 1);
    // And this build does not append after the 2.0 record.
    let e = append_judgment(&path, &judgment("q")).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("newer build (format 2.0)"), "{e}");
}

#[test]
fn a_one_point_zero_record_carries_exactly_the_eight_schema_keys_in_schema_order() {
    // Once every record ended with "v":"1.0", and the Harness's closed schema refused them all.
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("j.jsonl");
    append_judgment(&path, &judgment("Ship?")).expect("append");
    let text = std::fs::read_to_string(&path).expect("read");
    assert_eq!(
        text,
        "{\"id\":\"new\",\"project\":\"p\",\"decided_at\":\"2026-12-01T00:00:00Z\",\"question\":\"Ship?\",\"answer\":\"yes\",\"rationale\":\"\",\"card_ref\":\"c\",\"tags\":[]}\n"
    );
    // It still reads back, and a newer record still stops this build from appending.
    assert_eq!(count(&path).expect("count"), (1, 0));
}
