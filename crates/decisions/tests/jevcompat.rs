//! The System One mapping against a real peer written by someone else: `jevcompat mock`,
//! clean and with its faults, over loopback.

use std::time::{Duration, Instant};

use crate::common::*;
use decisions::{Answer, AnswerValue, FailureReason, ask};
use serde_json::{Value, json};
use stub::Jevcompat;

/// Bars at zero: every answer is in the act band, so usable reflects the answers alone.
fn mock_catalog() -> Value {
    let zero = json!({"floor": 0.0, "escalate": 0.0, "act": 0.0});
    json!({
        "version": "decisions/1.0",
        "questions": {
            "colour": {"type": "choice", "instructions": {"question": "Which colour is the item about?"},
                       "criteria": {"Red": {"what": "warm"}, "Green": null, "Blue": {"what": "cool"}}},
            "severity": {"type": "score", "instructions": {"question": "How bad?"},
                         "criteria": ["calm", "angry", "furious", "livid"]},
            "risky": {"type": "noul", "instructions": {"question": "Is it risky?"},
                      "criteria": {"true": {"what": "yes"}}}
        },
        "thresholds": {"colour": zero, "severity": zero, "risky": zero}
    })
}

const QUESTIONS: [&str; 3] = ["colour", "severity", "risky"];
const MOCK_KEY: &str = "mock-key-1";

fn ask_mock(mock: &Jevcompat) -> decisions::Decision<()> {
    let (_dir, leo) = project();
    write(&leo.join("decisions/test.json"), &mock_catalog());
    let mut req = request(&leo, &QUESTIONS, explicit("jev", &mock.endpoint()));
    req.env = env(&[("TYPESAFE_API_KEY", MOCK_KEY)]);
    req.timeout_ms = Some(3000);
    let started = Instant::now();
    let d = ask(&req, ());
    // 250 ms of slack for the scheduler on a loaded machine, as the other deadline tests allow.
    assert!(started.elapsed() < Duration::from_millis(3000 + 250), "the ask obeyed its deadline");
    d
}

/// What the mock answers to the same request, sent without the seam.
fn raw_answers(mock: &Jevcompat) -> Value {
    let (_dir, leo) = project();
    write(&leo.join("decisions/test.json"), &mock_catalog());
    let body = json!({"model": "jev-1.13.0", "state": {"item": "Rename a helper"},
                      "questions": mock_catalog()["questions"].clone()});
    let mut resp = ureq::post(mock.endpoint())
        .header("Authorization", &format!("Bearer {MOCK_KEY}"))
        .header("Content-Type", "application/json")
        .send(body.to_string().as_bytes())
        .expect("the mock answers");
    let text = resp.body_mut().read_to_string().expect("body");
    serde_json::from_str(&text).expect("json")
}

/// A correct answer: probabilities a distribution over exactly the outcomes, the value consistent.
fn assert_correct(q: &str, a: &Answer) {
    assert_eq!(a.model, "jevcompat-mock-0.1");
    match &a.value {
        AnswerValue::Noul(p) => assert!((0.0..=1.0).contains(p) && a.confidence.is_none(), "{q}"),
        AnswerValue::Choice(c) => {
            let p = a.probabilities.clone().unwrap_or_default();
            let peak = p.values().fold(0.0, f64::max);
            assert_eq!(p.get(c), Some(peak), "{q}: the choice is the most likely option");
            assert!((p.values().sum::<f64>() - 1.0).abs() <= 0.02, "{q}");
        }
        AnswerValue::Score { score, .. } => {
            let p = a.probabilities.clone().unwrap_or_default();
            let mean: f64 = p.values().enumerate().map(|(i, x)| i as f64 * x).sum();
            assert!((score - mean).abs() <= 0.07, "{q}: score {score} vs expectation {mean}");
        }
    }
    if let Some(c) = a.confidence {
        assert!((0.0..=1.0).contains(&c), "{q}");
    }
}

#[test]
fn the_clean_mock_gives_usable_answers_equal_to_its_probabilities() {
    let mock = Jevcompat::start(MOCK_KEY, &[]);
    let d = ask_mock(&mock);
    assert!(d.usable, "{:#}", json_of(&d));
    let raw = raw_answers(&mock);
    for q in QUESTIONS {
        let Some(Ok(a)) = d.answer(q) else { panic!("{q}") };
        assert_correct(q, a);
        let ours = json_of(&d)["answers"][q].clone();
        match q {
            "risky" => assert_eq!(ours["noul"], raw["answers"][q]["noul"]),
            _ => {
                assert_eq!(ours["probabilities"], raw["answers"][q]["probabilities"], "{q}");
                assert_eq!(ours["confidence"], raw["answers"][q]["confidence"], "{q}");
            }
        }
    }
    let Some(Ok(colour)) = d.answer("colour") else { panic!("colour") };
    assert_eq!(
        json!(colour.value == AnswerValue::Choice(raw["answers"]["colour"]["choice"].as_str().unwrap_or("").into())),
        json!(true)
    );
}

#[test]
fn a_wrong_key_is_auth() {
    let mock = Jevcompat::start("another-key", &[]);
    let d = ask_mock(&mock);
    for (q, r) in &d.answers {
        assert_eq!(r.as_ref().err().map(|f| f.reason), Some(FailureReason::Auth), "{q}");
    }
}

/// Each fault yields, per question, a correct answer or a typed failure: never a panic or a hang.
#[test]
fn faults_yield_typed_failures_or_correct_answers() {
    use FailureReason::*;
    // (fault, the reasons it may produce; None means every question must still be a correct answer)
    let faults: [(&str, &[FailureReason]); 24] = [
        ("xssi-200", &[Malformed]),
        ("plain-content-type", &[]),
        ("first-question-only", &[Malformed]),
        ("extra-answer", &[]),
        ("boolean-type", &[Malformed]),
        ("nan", &[Malformed]),
        ("unprefixed-extra", &[]),
        ("noul-range", &[Malformed]),
        ("choice-no-confidence", &[]),
        ("choice-key-case", &[Malformed]),
        ("choice-sum", &[Malformed]),
        ("choice-second", &[Malformed]),
        ("score-no-legend", &[]),
        ("legend-1-based", &[]),
        ("score-keys-1-based", &[Malformed]),
        ("score-sum", &[Malformed]),
        ("score-argmax", &[Malformed]),
        ("confidence-over", &[Malformed]),
        ("confidence-margin", &[]),
        ("no-usage", &[]),
        ("wrong-route", &[Transport]),
        ("auth-x-api-key", &[Auth]),
        ("string-only-text", &[Validation]),
        ("noul-two-sided", &[Validation]),
    ];
    let mut report = Vec::new();
    for (fault, allowed) in faults {
        let mock = Jevcompat::start(MOCK_KEY, &[fault]);
        let d = ask_mock(&mock);
        let mut failed = Vec::new();
        for (q, r) in &d.answers {
            match r {
                Ok(a) => assert_correct(&format!("{fault}/{q}"), a),
                Err(f) => {
                    assert!(allowed.contains(&f.reason), "{fault}/{q}: unexpected {:?}: {:?}", f.reason, f.detail);
                    failed.push(q.clone());
                }
            }
        }
        if !allowed.is_empty() {
            assert!(!failed.is_empty(), "{fault}: the fault went unnoticed: {:#}", json_of(&d));
        }
        report.push(format!("{fault}: failed {failed:?}"));
    }
    eprintln!("{}", report.join("\n"));
}
