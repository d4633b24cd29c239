//! The chat-completions wire (openrouter, vercel) over loopback: one enum-constrained request
//! per question, logprob distributions, estimated answers, off_schema and error envelopes.

use crate::common::*;
use decisions::{AnswerValue, FailureReason, ProviderChoice, ask};
use serde_json::{Value, json};
use stub::{Reply, Stub};

/// A completion whose content is `{"answer":"<answer>"}`, with top logprobs at the value.
fn completion(answer: &str, top: &[(&str, f64)]) -> Value {
    let tops: Vec<Value> = top.iter().map(|(t, p)| json!({"token": t, "logprob": p.ln()})).collect();
    let lp = top.iter().find(|(t, _)| *t == answer).map_or(0.0, |(_, p)| p.ln());
    json!({
        "id": "gen-1",
        "model": "vendor/model-1-served",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": format!("{{\"answer\":\"{answer}\"}}")},
            "logprobs": {"content": [
                {"token": "{\"", "logprob": 0.0, "top_logprobs": []},
                {"token": "answer", "logprob": 0.0, "top_logprobs": []},
                {"token": "\":\"", "logprob": 0.0, "top_logprobs": []},
                {"token": answer, "logprob": lp, "top_logprobs": tops},
                {"token": "\"}", "logprob": 0.0, "top_logprobs": []}
            ]}
        }]
    })
}

fn chat_catalog(leo: &std::path::Path, provider: &str) {
    let mut c = catalog();
    c["thresholds_for"] = json!(provider);
    write(&leo.join("decisions/test.json"), &c);
}

#[test]
fn one_request_per_question_with_an_enum_schema() {
    let stub = Stub::start(vec![Reply::json(&completion("high", &[("high", 0.95), ("low", 0.05)]))]);
    let (_dir, leo) = project();
    chat_catalog(&leo, "openrouter");
    let req =
        request(&leo, &["effort", "severity", "risky"], explicit("openrouter", &stub.url("/api/v1/chat/completions")));
    ask(&req, ());
    let reqs = stub.requests();
    assert_eq!(reqs.len(), 3);
    let mut enums: Vec<Value> = reqs
        .iter()
        .map(|r| r.json()["response_format"]["json_schema"]["schema"]["properties"]["answer"]["enum"].clone())
        .collect();
    enums.sort_by_key(|v| v.to_string());
    assert_eq!(enums, [json!(["0", "1", "2"]), json!(["low", "medium", "high"]), json!(["true", "false"])]);
    let body = reqs[0].json();
    assert_eq!(body["model"], "vendor/model-1");
    assert_eq!(
        (body["temperature"].clone(), body["logprobs"].clone(), body["top_logprobs"].clone()),
        (json!(0), json!(true), json!(20))
    );
    assert_eq!(body["provider"], json!({"require_parameters": true}));
    assert_eq!(reqs[0].header("authorization"), Some(format!("Bearer {KEY}").as_str()));
    assert_eq!(body["messages"][1]["role"], "user");
    assert!(body["messages"][1]["content"].as_str().unwrap_or("").contains("Rename a helper"));
}

#[test]
fn probabilities_come_from_the_logprobs_renormalised_over_the_enum() {
    let stub = Stub::start(vec![Reply::json(&completion("high", &[("high", 0.9), ("medium", 0.06), ("Sure", 0.04)]))]);
    let (_dir, leo) = project();
    chat_catalog(&leo, "vercel");
    let d = ask(&request(&leo, &["effort"], explicit("vercel", &stub.url("/v1/chat/completions"))), ());
    let Some(Ok(a)) = d.answer("effort") else { panic!("{:#}", json_of(&d)) };
    assert_eq!(a.value, AnswerValue::Choice("high".into()));
    assert_eq!(a.model, "vendor/model-1-served");
    assert!(!a.estimated);
    let p = a.probabilities.clone().unwrap_or_default();
    // "low" is not listed: it is bounded by the least probability listed there (0.04), not 0.
    assert!((p.get("high").unwrap_or(0.0) - 0.9 / 1.0).abs() < 1e-9);
    assert!((p.get("low").unwrap_or(0.0) - 0.04 / 1.0).abs() < 1e-9);
    let expected_conf = (3.0 * 0.9 - 1.0) / 2.0;
    assert!((a.confidence.unwrap_or(0.0) - expected_conf).abs() < 1e-9);
    assert!(stub.requests()[0].json().get("provider").is_none(), "require_parameters is openrouter's");
}

#[test]
fn a_noul_and_a_score_are_read_from_their_enums() {
    let (_dir, leo) = project();
    chat_catalog(&leo, "openrouter");
    let stub = Stub::start(vec![Reply::json(&completion("true", &[("true", 0.8), ("false", 0.2)]))]);
    let d = ask(&request(&leo, &["risky"], explicit("openrouter", &stub.url("/v1/chat/completions"))), ());
    let Some(Ok(a)) = d.answer("risky") else { panic!("{:#}", json_of(&d)) };
    assert!(matches!(a.value, AnswerValue::Noul(p) if (p - 0.8).abs() < 1e-9));
    assert_eq!(a.confidence, None);
    let stub = Stub::start(vec![Reply::json(&completion("2", &[("2", 0.6), ("1", 0.3), ("0", 0.1)]))]);
    let d = ask(&request(&leo, &["severity"], explicit("openrouter", &stub.url("/v1/chat/completions"))), ());
    let Some(Ok(a)) = d.answer("severity") else { panic!("{:#}", json_of(&d)) };
    assert!(matches!(a.value, AnswerValue::Score { score, .. } if (score - 1.5).abs() < 1e-9));
    // Level 0 unlisted is bounded by the least listed there (0.3), not counted as 0.
    let stub = Stub::start(vec![Reply::json(&completion("2", &[("2", 0.6), ("1", 0.3)]))]);
    let d = ask(&request(&leo, &["severity"], explicit("openrouter", &stub.url("/v1/chat/completions"))), ());
    let Some(Ok(a)) = d.answer("severity") else { panic!("{:#}", json_of(&d)) };
    let p = a.probabilities.clone().unwrap_or_default();
    assert!((p.get("0").unwrap_or(0.0) - 0.25).abs() < 1e-9, "{p:?}");
    assert!(matches!(a.value, AnswerValue::Score { score, .. } if (score - 1.25).abs() < 1e-9));
}

#[test]
fn no_logprobs_is_a_one_hot_estimated_answer_that_never_clears_a_floor() {
    let mut body = completion("true", &[]);
    body["choices"][0]["logprobs"] = Value::Null;
    let stub = Stub::start(vec![Reply::json(&body)]);
    let (_dir, leo) = project();
    chat_catalog(&leo, "openrouter");
    let d = ask(&request(&leo, &["risky"], explicit("openrouter", &stub.url("/v1/chat/completions"))), ());
    let out = json_of(&d);
    assert_eq!(out["answers"]["risky"]["noul"], json!(1.0));
    assert_eq!(out["answers"]["risky"]["estimated"], json!(true));
    assert_eq!(out["answers"]["risky"]["confidence"], Value::Null);
    assert_eq!(out["bands"]["risky"], "floor");
    assert!(!d.usable);
}

#[test]
fn an_answer_outside_the_enum_is_off_schema_listing_the_allowed() {
    let stub = Stub::start(vec![Reply::json(&completion("enormous", &[("enormous", 1.0)]))]);
    let (_dir, leo) = project();
    chat_catalog(&leo, "openrouter");
    let d = ask(&request(&leo, &["effort"], explicit("openrouter", &stub.url("/v1/chat/completions"))), ());
    let Some(Err(f)) = d.answer("effort") else { panic!("{:#}", json_of(&d)) };
    assert_eq!(f.reason, FailureReason::OffSchema);
    assert!(f.detail.clone().unwrap_or_default().ends_with("allowed: low, medium, high"), "{f:?}");
}

#[test]
fn a_200_error_envelope_is_transport_naming_the_upstream() {
    let body =
        json!({"error": {"code": 502, "type": "upstream_error", "message": "provider returned error", "metadata": {}}});
    let stub = Stub::start(vec![Reply::json(&body)]);
    let (_dir, leo) = project();
    chat_catalog(&leo, "openrouter");
    let d = ask(&request(&leo, &["effort"], explicit("openrouter", &stub.url("/v1/chat/completions"))), ());
    let Some(Err(f)) = d.answer("effort") else { panic!("{:#}", json_of(&d)) };
    assert_eq!(f.reason, FailureReason::Transport);
    assert_eq!(f.detail.as_deref(), Some("upstream upstream_error: provider returned error"));
}

#[test]
fn an_empty_model_is_refused_before_any_network_call() {
    let stub = Stub::start(vec![Reply::json(&completion("high", &[("high", 1.0)]))]);
    let (_dir, leo) = project();
    chat_catalog(&leo, "openrouter");
    let mut d = descriptor("openrouter", &stub.url("/v1/chat/completions"));
    d.model = String::new();
    let out = ask(&request(&leo, &["effort"], Some(ProviderChoice::Descriptor(d))), ());
    let Some(Err(f)) = out.answer("effort") else { panic!("{:#}", json_of(&out)) };
    assert_eq!(f.reason, FailureReason::Validation);
    assert!(f.detail.clone().unwrap_or_default().contains("provider \"openrouter\" has no model set"));
    assert_eq!(stub.requests().len(), 0);
}

#[test]
fn an_uncalibrated_provider_refuses_a_catalog_that_names_nobody() {
    let stub = Stub::start(vec![Reply::json(&completion("high", &[("high", 1.0)]))]);
    let (_dir, leo) = project();
    let d = ask(&request(&leo, &["effort"], explicit("openrouter", &stub.url("/v1/chat/completions"))), ());
    let Some(Err(f)) = d.answer("effort") else { panic!("{:#}", json_of(&d)) };
    assert_eq!(f.reason, FailureReason::Validation);
    assert!(f.detail.clone().unwrap_or_default().contains("\"thresholds_for\": \"openrouter\""));
    assert_eq!(stub.requests().len(), 0);
}

#[test]
fn openrouter_and_vercel_differ_only_in_the_provider_name() {
    let stub = Stub::start(vec![Reply::json(&completion("high", &[("high", 0.9), ("low", 0.1)]))]);
    let (_dir, leo) = project();
    let run = |name: &str| {
        chat_catalog(&leo, name);
        let d = ask(&request(&leo, &["effort"], explicit(name, &stub.url("/v1/chat/completions"))), ());
        let mut v = json_of(&d);
        if let Some(events) = v["events"].as_array_mut() {
            for e in events {
                e.as_object_mut().map(|o| o.remove("elapsed_ms"));
            }
        }
        v.to_string().replace(&format!("\"{name}\""), "\"P\"")
    };
    assert_eq!(run("openrouter"), run("vercel"));
}
