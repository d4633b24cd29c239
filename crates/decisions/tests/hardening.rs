//! Hostile servers and reviewed files, through the public API: no fragment of the key in any
//! output wherever a server puts it, and no repeated key deciding silently.

use crate::common::*;
use decisions::{CatalogRef, FailureReason, ProviderChoice, ask};
use serde_json::{Value, json};
use stub::{Reply, Stub};

/// The clip lengths the seam uses on server text: error messages, and an off-enum answer.
const DETAIL_MAX: usize = 300;
const SAID_MAX: usize = 80;
/// A fragment: this many bytes of the key in a row.
const FRAGMENT: usize = 8;

/// The longest run of the key found in `text`, when it is a fragment.
fn fragment(text: &str) -> Option<String> {
    (FRAGMENT..=KEY.len())
        .rev()
        .flat_map(|n| KEY.as_bytes().windows(n).map(move |w| (n, w)))
        .find(|(_, w)| text.as_bytes().windows(w.len()).any(|t| t == *w))
        .map(|(_, w)| String::from_utf8_lossy(w).into_owned())
}

/// Filler lengths that put the key across a clip of `max` characters at every offset, plus
/// the start and the end of a long text.
fn offsets(max: usize, prefix: usize) -> Vec<usize> {
    let cut = max.saturating_sub(prefix);
    let mut v: Vec<usize> = (cut.saturating_sub(KEY.len() + 2)..=cut + 2).collect();
    v.extend([0, 2 * max]);
    v
}

fn filler(n: usize) -> String {
    "f".repeat(n)
}

/// Ask once per reply in `script` (each one connection), and check nothing leaks.
fn assert_no_fragment(label: &str, provider: &str, path: &str, script: Vec<Reply>) {
    let n = script.len();
    let stub = Stub::start(script);
    let (_dir, leo) = project();
    if provider != "jev" {
        let mut cat = catalog();
        cat["thresholds_for"] = json!(provider);
        write(&leo.join("decisions/test.json"), &cat);
    }
    for i in 0..n {
        let questions: &[&str] = if provider == "jev" { &["effort", "risky", "severity"] } else { &["effort"] };
        let mut req = request(&leo, questions, explicit(provider, &stub.url(path)));
        req.timeout_ms = Some(2000);
        let d = ask(&req, ());
        let shown = format!("{} {d:?}", json_of(&d));
        assert_eq!(fragment(&shown), None, "{label} #{i}: a fragment of the key leaked: {shown}");
    }
}

#[test]
fn a_key_across_the_error_message_clip_leaks_no_fragment() {
    // 253 filler characters and a 48-character key once leaked 47 of them: clip, then redact.
    let script = offsets(DETAIL_MAX, 0)
        .into_iter()
        .flat_map(|f| {
            let detail = format!("{}{KEY}{}", filler(f), filler(3));
            [401, 422, 500].map(|status| Reply::status(status, &json!({ "detail": detail }).to_string()))
        })
        .collect();
    assert_no_fragment("error detail", "jev", "/v1/systemone", script);
}

#[test]
fn a_key_across_a_malformed_answer_clip_leaks_no_fragment() {
    // The detail quotes what the server sent as its choice, clipped after "choice \"".
    let script = offsets(DETAIL_MAX, "choice \"".len())
        .into_iter()
        .map(|f| {
            let mut body = answers();
            body["answers"]["effort"]["choice"] = json!(format!("{}{KEY}", filler(f)));
            Reply::json(&body)
        })
        .collect();
    assert_no_fragment("malformed choice", "jev", "/v1/systemone", script);
}

#[test]
fn a_key_across_an_off_enum_answer_clip_leaks_no_fragment() {
    let script = offsets(SAID_MAX, 0)
        .into_iter()
        .map(|f| {
            let content = json!({"answer": format!("{}{KEY}", filler(f))}).to_string();
            Reply::json(&json!({"model": "m", "choices": [{"message": {"content": content}}]}))
        })
        .collect();
    assert_no_fragment("off-enum answer", "openrouter", "/v1/chat/completions", script);
}

#[test]
fn a_key_across_a_gateway_error_clip_leaks_no_fragment() {
    let script = offsets(DETAIL_MAX, "upstream bad: ".len())
        .into_iter()
        .map(|f| Reply::json(&json!({"error": {"type": "bad", "message": format!("{}{KEY}", filler(f))}})))
        .collect();
    assert_no_fragment("gateway envelope", "openrouter", "/v1/chat/completions", script);
}

#[test]
fn a_key_split_across_two_strings_or_escaped_leaks_no_fragment() {
    let (head, tail) = KEY.split_at(KEY.len() / 2);
    let escaped: String = KEY.chars().map(|c| format!("\\u{:04x}", c as u32)).collect();
    let mut in_model = answers();
    in_model["model"] = json!(format!("{head}-{tail}"));
    let script = vec![
        Reply::status(401, &json!({"detail": {"error_type": head, "message": tail}}).to_string()),
        Reply::status(403, &format!("{{\"detail\": \"bad key {escaped}\"}}")),
        Reply::status(500, &json!({"error": {"code": KEY, "message": KEY}}).to_string()),
        Reply::json(&in_model),
        Reply::status(429, &json!({ "detail": KEY }).to_string()).header("retry-after-ms", "1"),
    ];
    assert_no_fragment("split or escaped", "jev", "/v1/systemone", script);
}

fn reasons<T>(d: &decisions::Decision<T>) -> Vec<(String, Option<FailureReason>, String)> {
    d.answers
        .iter()
        .map(|(q, r)| {
            let (reason, detail) = match r {
                Ok(_) => (None, String::new()),
                Err(f) => (Some(f.reason), f.detail.clone().unwrap_or_default()),
            };
            (q.clone(), reason, detail)
        })
        .collect()
}

#[test]
fn a_repeated_answer_key_is_malformed_naming_the_key_never_last_wins() {
    // Bad then good: read last-wins, this once decided `high` and acted.
    let body = r#"{"model": "jev-1.13.0", "answers": {
        "effort": {"type": "choice", "choice": "low", "probabilities": {"low": 0.9, "medium": 0.05, "high": 0.05}},
        "risky": {"type": "noul", "noul": 0.99},
        "effort": {"type": "choice", "choice": "high", "probabilities": {"low": 0.02, "medium": 0.03, "high": 0.95}}}}"#;
    let stub = Stub::start(vec![Reply::status(200, body)]);
    let (_dir, leo) = project();
    let d = ask(&request(&leo, &["effort", "risky"], explicit("jev", &stub.url("/v1/systemone"))), ());
    let r = reasons(&d);
    assert_eq!((r[0].1, r[1].1), (Some(FailureReason::Malformed), None), "{r:?}");
    assert!(r[0].2.contains("duplicate key \"effort\" in /answers"), "{}", r[0].2);
    assert!(!d.usable);
}

#[test]
fn a_repeated_key_inside_an_answer_or_its_probabilities_is_malformed() {
    let body = r#"{"model": "jev-1.13.0", "answers": {
        "effort": {"type": "choice", "choice": "high", "probabilities": {"low": 0.5, "medium": 0.05, "high": 0.45, "low": 0.0}},
        "risky": {"type": "noul", "noul": 0.1, "noul": 0.99},
        "severity": {"type": "score", "score": 2.0, "probabilities": {"0": 0.0, "1": 0.0, "2": 1.0}, "confidence": 1}}}"#;
    let stub = Stub::start(vec![Reply::status(200, body)]);
    let (_dir, leo) = project();
    let req = request(&leo, &["effort", "risky", "severity"], explicit("jev", &stub.url("/v1/systemone")));
    let r = reasons(&ask(&req, ()));
    assert_eq!(
        r.iter().map(|x| x.1).collect::<Vec<_>>(),
        [Some(FailureReason::Malformed), Some(FailureReason::Malformed), None]
    );
    assert!(r[0].2.contains("duplicate key \"low\" in /answers/effort/probabilities"), "{}", r[0].2);
    assert!(r[1].2.contains("duplicate key \"noul\" in /answers/risky"), "{}", r[1].2);
}

#[test]
fn a_catalog_repeating_a_question_id_is_invalid_naming_the_key_and_line() {
    let stub = Stub::start(vec![Reply::json(&answers())]);
    let (_dir, leo) = project();
    let text = serde_json::to_string_pretty(&catalog()).unwrap_or_default();
    // The second `effort` (a noul) would silently replace the reviewed choice.
    let repeated = text.replacen(
        "\"questions\": {",
        "\"questions\": {\n    \"effort\": {\"type\": \"noul\", \"instructions\": \"?\"},",
        1,
    );
    std::fs::write(leo.join("decisions/test.json"), &repeated).unwrap_or_default();
    let d = ask(&request(&leo, &["effort"], explicit("jev", &stub.url("/v1/systemone"))), ());
    let r = reasons(&d);
    assert_eq!(r[0].1, Some(FailureReason::Validation));
    // The second appearance is the catalog's own `effort`, the reviewed one.
    let line = repeated.lines().enumerate().filter(|(_, l)| l.trim_start().starts_with("\"effort\"")).nth(1);
    let line = line.map_or(0, |(i, _)| i + 1);
    assert!(r[0].2.contains(&format!("line {line}: duplicate key \"effort\" in /questions")), "{}", r[0].2);
    assert_eq!(stub.requests().len(), 0, "nothing is asked from an invalid catalog");
}

#[test]
fn a_config_repeating_a_key_is_invalid_naming_the_key_and_line() {
    let (_dir, leo) = project();
    let jev = serde_json::to_value(decisions::builtin("jev")).unwrap_or(Value::Null);
    let text = format!(
        "{{\"version\": \"decisions/1.0\",\n\"provider\": \"jev\",\n\"providers\": {{\"jev\": {jev},\n\"jev\": {jev}}}}}"
    );
    std::fs::write(leo.join("decisions/config.json"), text).unwrap_or_default();
    let mut req = request(&leo, &["effort"], None);
    req.catalog = Some(CatalogRef::Name("test".into()));
    let d = ask(&req, ());
    let r = reasons(&d);
    assert_eq!(r[0].1, Some(FailureReason::NoProvider));
    assert!(r[0].2.contains("line 4: duplicate key \"jev\" in /providers"), "{}", r[0].2);
    // An explicit provider still answers to its own descriptor, not a repeated one.
    let d = ask(&request(&leo, &["effort"], Some(ProviderChoice::Name("none".into()))), ());
    assert_eq!(reasons(&d)[0].1, Some(FailureReason::NoProvider));
}
