//! The calibration ledger on real files: many writer processes at once, torn lines, and the
//! file appearing only when a row is recorded.

use std::path::Path;
use std::process::Command;

use decisions::Band;
use decisions::ledger::{DecisionRow, OutcomeRow, Row, append_row, ledger_path, new_id, now_ts, read_ledger};

const WRITERS: usize = 8;
const ROWS_EACH: usize = 5_000;
const WRITER_ENV: &str = "DECISIONS_TEST_LEDGER_WRITER";

fn decision(writer: usize, n: usize) -> Row {
    Row::Decision(DecisionRow {
        id: format!("{writer}-{n}-{}", new_id()),
        ts: now_ts(),
        consumer: format!("writer-{writer}"),
        question: "effort".into(),
        provider: "jev".into(),
        model: "jev-1.13.0".into(),
        confidence: Some(0.8),
        certainty: Some(0.8),
        band: Band::Escalate,
        acted: false,
    })
}

/// Run as a child process by the test below: appends its share of rows and exits.
#[test]
#[ignore = "a writer process spawned by eight_processes_append_forty_thousand_intact_rows"]
fn ledger_writer_child() {
    let Ok(spec) = std::env::var(WRITER_ENV) else { return };
    let (writer, path) = spec.split_once(':').expect("writer:path");
    let writer: usize = writer.parse().expect("writer number");
    for n in 0..ROWS_EACH {
        append_row(Path::new(path), &decision(writer, n)).expect("append");
    }
}

#[test]
fn eight_processes_append_forty_thousand_intact_rows() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = ledger_path(&dir.path().join(".leopold"));
    let me = std::env::current_exe().expect("test binary");
    let children: Vec<_> = (0..WRITERS)
        .map(|w| {
            Command::new(&me)
                .args(["ledger::ledger_writer_child", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
                .env(WRITER_ENV, format!("{w}:{}", path.display()))
                .stdout(std::process::Stdio::null())
                .spawn()
                .expect("spawn writer")
        })
        .collect();
    for mut c in children {
        assert!(c.wait().expect("wait").success(), "a writer failed");
    }
    let read = read_ledger(&path).expect("read");
    assert_eq!(read.skipped, 0);
    assert_eq!(read.records.len(), WRITERS * ROWS_EACH);
    let text = std::fs::read_to_string(&path).expect("text");
    assert_eq!(text.lines().count(), WRITERS * ROWS_EACH, "one line a row");
    for w in 0..WRITERS {
        let mine: Vec<usize> = read
            .records
            .iter()
            .filter_map(|r| match r {
                Row::Decision(d) if d.consumer == format!("writer-{w}") => d.id.split('-').nth(1)?.parse().ok(),
                _ => None,
            })
            .collect();
        assert_eq!(mine, (0..ROWS_EACH).collect::<Vec<_>>(), "writer {w}'s rows are all there, in its order");
    }
}

#[test]
fn the_ledger_exists_only_once_a_row_is_recorded() {
    let dir = tempfile::tempdir().expect("tmp");
    let leo = dir.path().join(".leopold");
    let path = ledger_path(&leo);
    assert_eq!(read_ledger(&path).expect("read").records.len(), 0);
    assert!(!leo.exists(), "reading creates nothing");
    let row = Row::Outcome(OutcomeRow { id: "x".into(), ts: now_ts(), correct: None, note: Some("unknowable".into()) });
    append_row(&path, &row).expect("append");
    let text = std::fs::read_to_string(&path).expect("text");
    assert!(text.starts_with(r#"{"kind":"outcome","id":"x","ts":""#), "{text}");
    assert!(text.ends_with("\"correct\":null,\"note\":\"unknowable\",\"v\":\"1.0\"}\n"), "{text}");
    assert_eq!(read_ledger(&path).expect("read").records, [row]);
}

#[test]
fn unparsable_lines_are_skipped_counted_and_left_alone() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("ledger.jsonl");
    append_row(&path, &decision(0, 0)).expect("append");
    let mut text = std::fs::read_to_string(&path).expect("text");
    text.push_str("not json\n{\"kind\":\"verdict\",\"id\":\"y\"}\n");
    std::fs::write(&path, &text).expect("write");
    append_row(&path, &decision(0, 1)).expect("append");
    let before = std::fs::read_to_string(&path).expect("text");
    let read = read_ledger(&path).expect("read");
    assert_eq!((read.records.len(), read.skipped), (2, 2));
    assert_eq!(std::fs::read_to_string(&path).expect("text"), before, "readers never rewrite");
}

/// A fixture written by the build before rows carried a version.
fn fixture(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

#[test]
fn a_ledger_written_before_rows_carried_a_version_reads_whole_and_takes_new_rows() {
    let read = read_ledger(&fixture("ledger-unversioned.jsonl")).expect("read");
    assert_eq!((read.records.len(), read.skipped), (8, 0));
    let (proposals, skipped) = decisions::ledger::propose_file(&fixture("ledger-unversioned.jsonl")).expect("propose");
    assert_eq!(skipped, 0);
    assert_eq!(proposals.iter().map(|p| p.samples).sum::<usize>(), 3, "three known outcomes, one unknowable");
    // This build appends after an unversioned row (it is 1.0).
    let dir = tempfile::tempdir().expect("tmp");
    let copy = dir.path().join("ledger.jsonl");
    std::fs::copy(fixture("ledger-unversioned.jsonl"), &copy).expect("copy");
    append_row(&copy, &Row::Outcome(OutcomeRow::new("x", Some(true), None))).expect("append");
    assert_eq!(read_ledger(&copy).expect("read").records.len(), 9);
}

#[test]
fn a_newer_minor_row_is_read_with_its_unknown_fields_ignored_and_a_newer_major_is_skipped() {
    // Once a row with one field more was skipped as unparsable.
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("ledger.jsonl");
    let rows = [
        r#"{"kind":"decision","id":"a","ts":"t","consumer":"c","question":"q","provider":"p","model":"m","confidence":null,"certainty":0.9,"band":"act","acted":true,"route":"fast","v":"1.3"}"#,
        r#"{"kind":"outcome","id":"a","ts":"t","correct":true,"reviewer":"ana","v":"1.3"}"#,
        r#"{"kind":"outcome","id":"a","ts":"t","correct":false,"v":"2.0"}"#,
    ];
    std::fs::write(&path, rows.join("\n") + "\n").expect("write");
    let read = read_ledger(&path).expect("read");
    assert_eq!((read.records.len(), read.skipped), (2, 1));
    let (proposals, skipped) = decisions::ledger::propose_file(&path).expect("propose");
    assert_eq!((proposals[0].samples, proposals[0].correct, skipped), (1, 1, 1), "the 2.0 outcome is not counted");
    assert!(decisions::ledger::has_decision(&path, "a").expect("read"));
}

#[test]
fn this_build_refuses_to_append_after_a_newer_row_saying_so() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("ledger.jsonl");
    let newer = r#"{"kind":"outcome","id":"a","ts":"t","correct":true,"v":"1.3"}"#;
    std::fs::write(&path, format!("{newer}\n")).expect("write");
    let e = append_row(&path, &Row::Outcome(OutcomeRow::new("b", None, None))).err().map(|e| e.to_string());
    let e = e.unwrap_or_default();
    assert!(e.contains("last written by a newer build (format 1.3); this build writes format 1.0"), "{e}");
    assert!(e.contains("upgrade decisions"), "{e}");
    assert_eq!(std::fs::read_to_string(&path).expect("read"), format!("{newer}\n"));
}
