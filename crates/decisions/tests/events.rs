//! docs/watch.md's event table is pinned against the one `Event` enum: every variant is a row,
//! with exactly the fields it serialises, and the optional ones marked `?`.

use std::collections::BTreeMap;

use decisions::{Band, Event, FailureReason, Probabilities, Source};

/// One of each event, every optional field set; the match below has no wildcard, so a new
/// variant does not compile until it is here (and then in the README).
fn every_event() -> Vec<Event> {
    let all = vec![
        Event::DecisionAsked { provider: "p".into(), model: "m".into(), questions: vec![], source: Source::Config },
        Event::DecisionRetry { provider: "p".into(), attempt: 1, delay_ms: 1, status: 429, source: Source::Config },
        Event::DecisionAnswered {
            provider: "p".into(),
            model: "m".into(),
            question: "q".into(),
            probabilities: Some(Probabilities(vec![])),
            confidence: Some(0.5),
            certainty: Some(0.5),
            threshold_fired: Band::Act,
            elapsed_ms: 1,
            source: Source::Config,
        },
        Event::DecisionFailed {
            provider: "p".into(),
            question: "q".into(),
            reason: FailureReason::Timeout,
            detail: Some("d".into()),
            elapsed_ms: Some(1),
            source: Source::Config,
        },
        Event::DecisionSkipped { reason: "r".into() },
        Event::DecisionDenied { command: "c".into(), score: 3.0, question: "q".into() },
        Event::DecisionTimeout { reason: "r".into(), cause: "timeout".into(), command: Some("c".into()) },
        Event::RouteDecided { effort: "low".into(), critical: false, decided_by: "classifier".into() },
        Event::ReviewRefined { blocking: 1, merged: 1, demoted: 1, merging_skipped: Some("s".into()) },
        Event::RunFinished {
            items: 1,
            asked: 1,
            answered: 1,
            usable: 1,
            retry: 0,
            elapsed_ms: 1,
            stopped: Some("s".into()),
            interrupted: false,
        },
    ];
    for e in &all {
        match e {
            Event::DecisionAsked { .. }
            | Event::DecisionRetry { .. }
            | Event::DecisionAnswered { .. }
            | Event::DecisionFailed { .. }
            | Event::DecisionSkipped { .. }
            | Event::DecisionDenied { .. }
            | Event::DecisionTimeout { .. }
            | Event::RouteDecided { .. }
            | Event::ReviewRefined { .. }
            | Event::RunFinished { .. } => {}
        }
    }
    all
}

/// The same event with every optional field unset.
fn bare(e: &Event) -> Event {
    match e.clone() {
        Event::DecisionAnswered {
            provider,
            model,
            question,
            confidence,
            certainty,
            threshold_fired,
            elapsed_ms,
            source,
            ..
        } => Event::DecisionAnswered {
            provider,
            model,
            question,
            probabilities: None,
            confidence,
            certainty,
            threshold_fired,
            elapsed_ms,
            source,
        },
        Event::DecisionFailed { provider, question, reason, source, .. } => {
            Event::DecisionFailed { provider, question, reason, detail: None, elapsed_ms: None, source }
        }
        Event::DecisionTimeout { reason, cause, .. } => Event::DecisionTimeout { reason, cause, command: None },
        Event::ReviewRefined { blocking, merged, demoted, .. } => {
            Event::ReviewRefined { blocking, merged, demoted, merging_skipped: None }
        }
        Event::RunFinished { items, asked, answered, usable, retry, elapsed_ms, interrupted, .. } => {
            Event::RunFinished { items, asked, answered, usable, retry, elapsed_ms, stopped: None, interrupted }
        }
        other => other,
    }
}

fn fields(e: &Event) -> Vec<String> {
    let v = serde_json::to_value(e).unwrap_or_default();
    v.as_object().map(|o| o.keys().filter(|k| *k != "event").cloned().collect()).unwrap_or_default()
}

#[test]
fn the_documented_event_table_is_the_event_enum() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/watch.md")).unwrap_or_default();
    let table: BTreeMap<String, String> = readme
        .lines()
        .map(|l| l.split('|').map(str::trim).collect::<Vec<&str>>())
        // An event's row: its first cell one backticked snake_case name.
        .filter(|cells| {
            cells.len() > 4
                && cells[1].starts_with('`')
                && cells[1].contains('_')
                && !cells[1].contains(' ')
                && cells[0].is_empty()
        })
        .map(|cells| (cells[1].trim_matches('`').to_string(), cells[3].to_string()))
        .collect();
    let mut expected = BTreeMap::new();
    for e in every_event() {
        let required = fields(&bare(&e));
        let shown: Vec<String> = fields(&e)
            .into_iter()
            .map(|f| if required.contains(&f) { format!("`{f}`") } else { format!("`{f}`?") })
            .collect();
        expected.insert(e.name().to_string(), shown.join(", "));
    }
    assert_eq!(table, expected, "docs/watch.md's event table and the Event enum differ");
}
