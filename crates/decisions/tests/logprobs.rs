//! Distributions read from real llama-server responses, recorded from SmolLM2-135M-Instruct
//! under the enum `response_format` (`tests/fixtures/llama-server/`), replayed through the
//! keyless `local` provider over loopback HTTP. The mapping is honest about what it did not
//! see: an option absent from `top_logprobs` where it leaves the sampled path is bounded by
//! the least probability listed there, never 0; a token the grammar forced (less likely than
//! everything listed beside it) or fewer than two options seen makes the answer `estimated`.

use decisions::{Answer, Band, ask};
use serde_json::{Value, json};
use stub::{Reply, Stub};

use crate::common::{explicit, json_of, project, request, write};

fn fixture(name: &str) -> Value {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/llama-server/{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("json")
}

/// The recorded response replayed for a one-question catalog over its options; the answer,
/// its band, and the request the server saw.
fn replay(name: &str) -> (Answer, Band, stub::Recorded) {
    let f = fixture(name);
    let stub = Stub::start(vec![Reply::json(&f["response"])]);
    let (_dir, leo) = project();
    let options: Vec<String> = serde_json::from_value(f["options"].clone()).expect("options");
    let question = match options.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["true", "false"] => json!({"type": "noul", "instructions": "?"}),
        ["0", "1", "2", "3"] => json!({"type": "score", "instructions": "?", "criteria": ["a", "b", "c", "d"]}),
        _ => json!({"type": "choice", "instructions": "?",
                    "criteria": options.iter().map(|o| (o.clone(), Value::Null)).collect::<serde_json::Map<_, _>>()}),
    };
    let catalog = json!({"version": "decisions/1.0", "thresholds_for": "local", "questions": {"q": question},
                         "thresholds": {"q": {"floor": 0.5, "escalate": 0.65, "act": 0.85}}});
    write(&leo.join("decisions/test.json"), &catalog);
    let d = ask(&request(&leo, &["q"], explicit("local", &stub.url("/v1/chat/completions"))), ());
    let Some(Ok(a)) = d.answer("q").cloned() else { panic!("{name}: {:#}", json_of(&d)) };
    (a, d.band("q").expect("band"), stub.requests().remove(0))
}

fn probabilities(a: &Answer) -> Vec<(String, f64)> {
    a.probabilities.clone().expect("probabilities").0
}

#[test]
fn a_forced_answer_that_no_option_was_seen_beside_is_estimated_not_certain() {
    // The case that started it: "noise" sampled as "no" at -3.81 below all twenty listed
    // tokens, then "is" and "e" forced by the grammar; no other option listed anywhere.
    // Renormalising over what was visible gave {"noise": 1.0} in the act band.
    let (a, band, _) = replay("kind-noise-forced");
    assert!(a.estimated, "{a:?}");
    assert_eq!((a.confidence, band), (None, Band::Floor));
}

#[test]
fn a_forced_token_after_the_options_diverge_is_caught_too() {
    // "bu" is listed (the model was heading for "buying"), then "g" at -19.38 was forced.
    let (a, band, _) = replay("kind-bug-split-forced");
    assert!(a.estimated && band == Band::Floor, "{a:?}");
    // "no" was the model's favourite, then "is" (-8.30) and "e" (-13.35) were forced: it
    // wanted the answer "no", not "noise".
    let (a, band, _) = replay("kind-noise-pretty");
    assert!(a.estimated && band == Band::Floor, "{a:?}");
    // "x" of "xhigh" was forced below every listed token.
    let (a, _, _) = replay("effort-xhigh-shared-prefix");
    assert!(a.estimated, "{a:?}");
}

#[test]
fn one_option_seen_alone_is_estimated() {
    let (a, band, _) = replay("effort-low-alone");
    assert!(a.estimated && band == Band::Floor, "{a:?}");
}

#[test]
fn options_seen_are_measured_and_the_unlisted_are_bounded_never_zero() {
    for name in ["kind-feature-two-seen", "kind-bug-two-seen", "severity-1", "effort-xhigh-seen"] {
        let (a, band, _) = replay(name);
        assert!(!a.estimated, "{name}: {a:?}");
        let p = probabilities(&a);
        assert!((p.iter().map(|(_, x)| x).sum::<f64>() - 1.0).abs() < 1e-9, "{name}: {p:?}");
        assert!(p.iter().all(|(_, x)| *x > 0.0), "{name}: an option counted as 0: {p:?}");
        // A 135M model is near chance: nothing here clears the act bar.
        assert_ne!(band, Band::Act, "{name}: {a:?}");
    }
    // "feature" (-4.35) and "bug" (-4.46) were listed; question and docs were not, and each is
    // bounded by the least listed there.
    let (a, _, _) = replay("kind-feature-two-seen");
    let p: std::collections::BTreeMap<String, f64> = probabilities(&a).into_iter().collect();
    assert!(p["feature"] > p["bug"] && p["bug"] >= p["question"] && p["question"] == p["docs"], "{p:?}");
    assert!(a.confidence.is_some_and(|c| c < 0.5), "{a:?}");
}

#[test]
fn a_noul_reads_both_sides() {
    let (a, _, _) = replay("risky-true");
    assert!(!a.estimated);
    let decisions::AnswerValue::Noul(p) = a.value else { panic!("{a:?}") };
    assert!(p > 0.5 && p < 0.9, "{p}");
}

#[test]
fn the_local_provider_sends_no_authorization_header() {
    let (_, _, request) = replay("severity-1");
    assert_eq!(request.header("authorization"), None);
    assert_eq!(request.path, "/v1/chat/completions");
    assert_eq!(request.json()["top_logprobs"], 20);
}
