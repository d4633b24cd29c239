//! Review refinement through the public API, over loopback HTTP, with the shipped
//! `review.json`: the earlier build's cases (8 refinement, 8 helpers), then one test per fix.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::common::*;
use decisions::consumer::review::{
    CONCURRENCY, Finding, Lens, MAX_PAIRS, RefineRequest, Refined, ReviewResult, Severity, UNPARSEABLE,
    diff_is_sensitive, lenses_for, parse_review, refine_reviews, union_reviews,
};
use decisions::ledger::{Row, ledger_path, read_ledger};
use decisions::{Event, FailureReason};
use serde_json::{Value, json};
use stub::{Reply, Stub};

fn finding(file: &str, issue: &str) -> Finding {
    Finding { file: file.into(), issue: issue.into(), severity: Severity::Blocking }
}

/// The earlier build's fixture: two findings that are one defect, and a style preference.
fn base() -> ReviewResult {
    ReviewResult {
        ok: false,
        blocking: vec![
            finding("src/pay.ts", "the refund path dereferences `order` without checking it exists"),
            finding("src/pay.ts", "`order` may be undefined when a refund is retried, crashing the handler"),
            finding("src/ui.ts", "the button label should be sentence case"),
        ],
        summary: "3 blocking findings".into(),
    }
}

fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tmp");
    let leo = dir.path().join(".leopold");
    shipped(&leo, "review");
    (dir, leo)
}

/// Every `same_defect` answered `same`, every `is_defect` answered `defect`.
fn provider(same: f64, defect: f64) -> Stub {
    Stub::start(vec![answering(vec![("same_defect", noul(same)), ("is_defect", noul(defect))])])
}

fn refine(leo: &std::path::Path, base: &ReviewResult, endpoint: Option<&str>) -> Refined {
    refine_with(leo, base, endpoint, MAX_PAIRS, CONCURRENCY)
}

fn refine_with(
    leo: &std::path::Path,
    base: &ReviewResult,
    endpoint: Option<&str>,
    max_pairs: usize,
    concurrency: usize,
) -> Refined {
    let mut seam = request(leo, &[], endpoint.and_then(|e| explicit("jev", e)));
    seam.catalog = None;
    refine_reviews(base, &RefineRequest { seam, max_pairs, concurrency, record: true })
}

/// The refined panel as the earlier build returned it: `{ok, blocking, summary}`.
fn verdict(r: &Refined) -> ReviewResult {
    ReviewResult { ok: r.ok, blocking: r.blocking.clone(), summary: r.summary.clone() }
}

// ---- the earlier build's refinement cases ----------------------------------------------

#[test]
fn with_no_provider_the_blocking_set_is_byte_for_byte_the_panels() {
    let (_dir, leo) = project();
    assert_eq!(verdict(&refine(&leo, &base(), None)), base());
}

#[test]
fn a_missing_catalog_also_leaves_the_verdict_untouched() {
    let (_dir, leo) = project();
    std::fs::remove_file(leo.join("decisions/review.json")).expect("rm");
    let stub = provider(0.99, 0.99);
    assert_eq!(verdict(&refine(&leo, &base(), Some(&stub.url("/v1/systemone")))), base());
    assert_eq!(stub.requests().len(), 0);
}

#[test]
fn two_lenses_describing_one_defect_become_one_blocking_finding() {
    let (_dir, leo) = project();
    let stub = provider(0.97, 0.99);
    let r = refine(&leo, &base(), Some(&stub.url("/v1/systemone")));
    assert_eq!(r.blocking, [base().blocking[0].clone()], "the earliest wording is kept");
    assert!(r.summary.contains("duplicate findings merged"), "{}", r.summary);
}

#[test]
fn a_dedupe_answer_below_the_bar_keeps_both_findings_blocking() {
    // 0.62 is certainty 0.24, under the 0.5 floor.
    let (_dir, leo) = project();
    let stub = provider(0.62, 0.99);
    assert_eq!(verdict(&refine(&leo, &base(), Some(&stub.url("/v1/systemone")))), base());
}

#[test]
fn a_confident_style_only_answer_demotes_and_the_demoted_are_listed() {
    let (_dir, leo) = project();
    let stub = provider(0.02, 0.01);
    let r = refine(&leo, &base(), Some(&stub.url("/v1/systemone")));
    assert!(r.blocking.is_empty() && r.ok);
    assert!(r.summary.contains("3 style-only findings demoted"), "{}", r.summary);
    assert_eq!(r.demoted, base().blocking, "nothing the model removed vanishes");
}

#[test]
fn a_provider_failure_never_unblocks_anything() {
    let (_dir, leo) = project();
    let failing = Stub::start(vec![Reply::status(500, "{}")]);
    assert_eq!(verdict(&refine(&leo, &base(), Some(&failing.url("/v1/systemone")))), base());
    let silent = Stub::start(vec![Reply::json(&json!({"model": "m", "answers": {}}))]);
    assert_eq!(verdict(&refine(&leo, &base(), Some(&silent.url("/v1/systemone")))), base());
}

#[test]
fn an_uncertain_defect_answer_keeps_the_finding_blocking() {
    let (_dir, leo) = project();
    let stub = provider(0.02, 0.45);
    assert_eq!(verdict(&refine(&leo, &base(), Some(&stub.url("/v1/systemone")))), base());
}

#[test]
fn a_clean_panel_is_returned_untouched_without_asking_anything() {
    let (_dir, leo) = project();
    let stub = provider(0.99, 0.01);
    let clean = ReviewResult { ok: true, blocking: vec![], summary: "clean".into() };
    let r = refine(&leo, &clean, Some(&stub.url("/v1/systemone")));
    assert_eq!(verdict(&r), clean);
    assert_eq!((stub.requests().len(), r.events.len()), (0, 0));
}

// ---- the earlier build's helper cases --------------------------------------------------

#[test]
fn lenses_for_appends_conformance_iff_the_item_has_scenarios() {
    use Lens::*;
    assert_eq!(lenses_for(true, false, false), [Correctness, Security, DoesItWork]);
    assert_eq!(lenses_for(true, true, true), [Correctness, Security, DoesItWork, Conformance]);
    assert_eq!(lenses_for(false, true, false), [Correctness, Security]);
    assert_eq!(lenses_for(false, true, true), [Correctness, Security, Conformance]);
    assert_eq!(lenses_for(false, false, false), [Correctness]);
    assert_eq!(lenses_for(false, false, true), [Correctness, Conformance]);
}

#[test]
fn an_unmet_scenario_comes_back_as_a_blocking_finding() {
    let text = r#"{"summary": "scenario 2 unmet", "findings": [{"file": "src/login.rs", "issue": "scenario 2: a wrong password is accepted", "severity": "blocking"}]}"#;
    let r = parse_review(text);
    assert_eq!((r.ok, r.blocking.len()), (false, 1));
    assert!(r.blocking[0].issue.contains("wrong password"));
}

#[test]
fn a_clean_verdict_passes_the_gate() {
    let r = parse_review(r#"{"summary": "looks right", "findings": []}"#);
    assert_eq!((r.ok, r.blocking.len()), (true, 0));
}

#[test]
fn blocking_findings_fail_the_gate_fenced_json_tolerated() {
    let text = "Here is my review.\n```json\n{\"summary\": \"one bug\", \"findings\": [{\"file\": \"a.ts\", \"issue\": \"off by one\", \"severity\": \"blocking\"}]}\n```\nThanks.";
    let r = parse_review(text);
    assert_eq!((r.ok, r.blocking.len(), r.blocking[0].file.as_str()), (false, 1, "a.ts"));
}

#[test]
fn minor_findings_are_dropped_only_blockers_gate() {
    let r = parse_review(
        r#"{"findings": [{"file": "a.ts", "issue": "rename x", "severity": "minor"}, {"issue": "no severity"}]}"#,
    );
    assert_eq!((r.ok, r.blocking.len()), (true, 0));
}

#[test]
fn an_unparseable_review_fails_closed() {
    for text in ["LGTM!", "{not json}", "", r#"{"summary": "fine"}"#] {
        let r = parse_review(text);
        assert_eq!((r.ok, r.blocking.clone()), (false, vec![Finding::unparseable()]), "{text:?}");
        assert_eq!(r.blocking[0].issue, UNPARSEABLE);
    }
}

#[test]
fn prose_around_the_json_is_tolerated() {
    let text = r#"I looked at it. {"summary": "s", "findings": [{"file": "b.rs", "issue": "leak", "severity": "blocking"}]} That is all."#;
    let r = parse_review(text);
    assert_eq!((r.ok, r.blocking.len()), (false, 1));
}

#[test]
fn sensitivity_detection_keys_off_diff_file_paths() {
    assert!(diff_is_sensitive(" src/auth/session.ts | 12 +++---"));
    assert!(diff_is_sensitive(" billing/stripe.rs | 3 +"));
    assert!(diff_is_sensitive(" .env.example | 1 +"));
    assert!(!diff_is_sensitive(" ui/Button.tsx | 4 ++--"));
}

#[test]
fn union_dedupes_on_file_and_issue_keeping_the_first_and_joins_summaries() {
    let a = ReviewResult {
        ok: false,
        blocking: vec![finding("A.rs", "Leak"), finding("b.rs", "x")],
        summary: "one".into(),
    };
    let b =
        ReviewResult { ok: false, blocking: vec![finding("a.rs", "leak"), finding("c.rs", "y")], summary: "".into() };
    let c = ReviewResult { ok: true, blocking: vec![], summary: "z".repeat(400) };
    let u = union_reviews(&[a, b, c]);
    assert_eq!(u.blocking, [finding("A.rs", "Leak"), finding("b.rs", "x"), finding("c.rs", "y")]);
    assert_eq!(u.summary.chars().count(), 300);
    assert!(u.summary.starts_with("one | zzz"));
}

// ---- the fixes -------------------------------------------------------------------------------

/// Answers `same_defect` per pair of issues, and `is_defect` yes.
fn pairwise(same: impl Fn(&str, &str) -> f64 + Send + Sync + 'static) -> Stub {
    Stub::start(vec![Reply::computed(move |req| {
        let body = req.json();
        let state = &body["state"];
        let answers = if body["questions"].get("same_defect").is_some() {
            let (a, b) = (state["a"]["issue"].as_str().unwrap_or(""), state["b"]["issue"].as_str().unwrap_or(""));
            json!({ "same_defect": noul(same(a, b)) })
        } else {
            json!({ "is_defect": noul(0.99) })
        };
        Reply::json(&json!({"model": "stub-1.0.0", "answers": answers}))
    })])
}

#[test]
fn merging_is_transitive_a_chain_of_confident_pairs_is_one_group() {
    // a~b and b~c, but a and c read differently: the earlier fold kept c blocking.
    let (_dir, leo) = project();
    let stub = pairwise(|a, b| if matches!((a, b), ("a", "c") | ("c", "a")) { 0.1 } else { 0.99 });
    let panel = ReviewResult {
        ok: false,
        blocking: vec![finding("f", "a"), finding("f", "b"), finding("f", "c")],
        summary: "s".into(),
    };
    let r = refine_with(&leo, &panel, Some(&stub.url("/v1/systemone")), MAX_PAIRS, 1);
    assert_eq!(r.blocking, [finding("f", "a")]);
    assert_eq!(r.merged.len(), 1);
    assert_eq!(
        (r.merged[0].kept.clone(), r.merged[0].folded.clone()),
        (finding("f", "a"), vec![finding("f", "b"), finding("f", "c")])
    );
}

#[test]
fn no_pair_is_asked_whose_answer_can_no_longer_change_a_group() {
    // a~b, a~c: by then b and c are one group, and (b, c) is not asked.
    let (_dir, leo) = project();
    let stub = pairwise(|_, _| 0.99);
    let panel = ReviewResult {
        ok: false,
        blocking: vec![finding("f", "a"), finding("f", "b"), finding("f", "c")],
        summary: "s".into(),
    };
    let r = refine_with(&leo, &panel, Some(&stub.url("/v1/systemone")), MAX_PAIRS, 1);
    let pairs_asked = stub.requests().iter().filter(|q| q.json()["questions"].get("same_defect").is_some()).count();
    assert_eq!(pairs_asked, 2);
    assert_eq!(r.blocking.len(), 1);
}

#[test]
fn the_unparseable_sentinel_is_never_merged_or_demoted() {
    // A confident "not a defect" once turned "the reviewer produced nothing" into a pass.
    let (_dir, leo) = project();
    let stub = provider(0.99, 0.01);
    let panel = union_reviews(&[parse_review("no json here"), parse_review("nor here")]);
    assert_eq!(panel.blocking, [Finding::unparseable()]);
    let mut two = panel.clone();
    two.blocking.push(finding("x.rs", "a preference"));
    let r = refine(&leo, &two, Some(&stub.url("/v1/systemone")));
    assert_eq!(r.blocking, [Finding::unparseable()], "the sentinel stays; the preference is demoted");
    assert_eq!(r.demoted, [finding("x.rs", "a preference")]);
    assert!(!r.ok);
}

#[test]
fn the_pair_bound_skips_merging_and_says_so() {
    let (_dir, leo) = project();
    let stub = provider(0.99, 0.99);
    let many = |n: usize| ReviewResult {
        ok: false,
        blocking: (0..n).map(|i| finding("f", &format!("issue {i}"))).collect(),
        summary: "s".into(),
    };
    // 26 findings make 325 pairs: over the default 300.
    let r = refine(&leo, &many(26), Some(&stub.url("/v1/systemone")));
    assert!(
        r.merging_skipped.as_deref().is_some_and(|s| s.contains("325 pairs") && s.contains("300")),
        "{:?}",
        r.merging_skipped
    );
    assert_eq!(r.blocking.len(), 26, "nothing merged");
    assert!(stub.requests().iter().all(|q| q.json()["questions"].get("same_defect").is_none()));
    // A bound given, met.
    let r = refine_with(&leo, &many(4), Some(&stub.url("/v1/systemone")), 6, CONCURRENCY);
    assert!(r.merging_skipped.is_none());
    let r = refine_with(&leo, &many(4), Some(&stub.url("/v1/systemone")), 5, CONCURRENCY);
    assert!(r.merging_skipped.is_some());
}

#[test]
fn with_no_provider_there_is_one_failure_event_per_question_not_one_per_pair() {
    let (_dir, leo) = project();
    let r = refine(&leo, &base(), None);
    let failed: Vec<(String, FailureReason)> = r
        .events
        .iter()
        .filter_map(|e| {
            if let Event::DecisionFailed { question, reason, .. } = e {
                Some((question.clone(), *reason))
            } else {
                None
            }
        })
        .collect();
    assert_eq!(
        failed,
        [("same_defect".into(), FailureReason::NoProvider), ("is_defect".into(), FailureReason::NoProvider)]
    );
}

#[test]
fn requests_run_concurrently_with_a_bound() {
    let (_dir, leo) = project();
    let (now, peak) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (n, p) = (Arc::clone(&now), Arc::clone(&peak));
    let stub = Stub::start(vec![Reply::computed(move |req| {
        let inside = n.fetch_add(1, Ordering::SeqCst) + 1;
        p.fetch_max(inside, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(40));
        n.fetch_sub(1, Ordering::SeqCst);
        let q = if req.json()["questions"].get("same_defect").is_some() { "same_defect" } else { "is_defect" };
        Reply::json(&json!({"model": "m", "answers": { q: noul(0.3) }}))
    })]);
    let panel = ReviewResult {
        ok: false,
        blocking: (0..8).map(|i| finding("f", &format!("issue {i}"))).collect(),
        summary: "s".into(),
    };
    refine_with(&leo, &panel, Some(&stub.url("/v1/systemone")), MAX_PAIRS, 3);
    let seen = peak.load(Ordering::SeqCst);
    assert!((2..=3).contains(&seen), "at most 3 in flight, and more than one: {seen}");
    assert_eq!(stub.requests().len(), 28 + 8, "every pair (none merged) and every finding");
}

#[test]
fn every_answer_is_a_review_row_whose_id_comes_back() {
    let (_dir, leo) = project();
    let stub = provider(0.97, 0.99);
    // One in flight, so which pairs are asked is fixed: with more, a pair sent before a join
    // lands may still be asked (its answer could matter when it was sent).
    let r = refine_with(&leo, &base(), Some(&stub.url("/v1/systemone")), MAX_PAIRS, 1);
    let rows: Vec<Value> = read_ledger(&ledger_path(&leo))
        .expect("read")
        .records
        .into_iter()
        .filter_map(|row| {
            if let Row::Decision(d) = row { Some(json!([d.consumer, d.question, d.acted, d.id])) } else { None }
        })
        .collect();
    // (0,1) and (0,2) merge; (1,2) is not asked; the one group's finding is a defect.
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(rows.iter().all(|r| r[0] == "review"));
    assert_eq!(rows.iter().filter(|r| r[1] == "same_defect" && r[2] == true).count(), 2);
    assert_eq!(
        r.recorded.iter().map(|x| x.id.0.clone()).collect::<Vec<_>>(),
        rows.iter().map(|r| r[3].as_str().unwrap_or("").to_string()).collect::<Vec<_>>()
    );
}
