//! The key is never written, printed or logged: a canary key driven through every outcome
//! appears in no answer, failure detail, event or Debug output, and reaches the server only
//! in the Authorization header.

use std::time::Duration;

use crate::common::*;
use decisions::{CatalogRef, FailureReason, ProviderChoice, ask};
use serde_json::json;
use stub::{Reply, Stub};

fn assert_clean<T: std::fmt::Debug>(label: &str, d: &decisions::Decision<T>) {
    let shown = format!("{} {d:?}", json_of(d));
    assert!(!shown.contains(KEY), "{label}: the canary leaked: {shown}");
}

#[test]
fn the_canary_never_leaves_the_seam() {
    let echo_body = |_: ()| json!({"detail": format!("invalid key {KEY}")}).to_string();
    let mut echo_model = answers();
    echo_model["model"] = json!(format!("served-for-{KEY}"));
    let scripts: Vec<(&str, Vec<Reply>)> = vec![
        ("answer", vec![Reply::json(&answers())]),
        ("auth echoing the key", vec![Reply::status(401, &echo_body(()))]),
        ("validation echoing the key", vec![Reply::status(422, &echo_body(()))]),
        ("model echoing the key", vec![Reply::json(&echo_model)]),
        ("rate limit", vec![Reply::status(429, "{}").header("retry-after-ms", "1")]),
        ("overloaded", vec![Reply::status(529, &echo_body(())).header("retry-after-ms", "1")]),
        ("transport", vec![Reply::status(500, &echo_body(()))]),
        ("malformed", vec![Reply::status(200, &format!("not json {KEY}"))]),
        ("timeout", vec![Reply::Hang]),
        ("drip", vec![Reply::Drip(Duration::from_millis(10))]),
        ("closed", vec![Reply::Close]),
    ];
    for (label, script) in scripts {
        let stub = Stub::start(script);
        let (_dir, leo) = project();
        let mut req = request(&leo, &["effort", "risky", "severity"], explicit("jev", &stub.url("/v1/systemone")));
        req.timeout_ms = Some(300);
        let d = ask(&req, ());
        assert_clean(label, &d);
        for r in stub.requests() {
            assert!(!r.body.contains(KEY), "{label}: the key is in the request body");
            let carrying: Vec<&str> =
                r.headers.iter().filter(|(_, v)| v.contains(KEY)).map(|(n, _)| n.as_str()).collect();
            assert_eq!(carrying, ["authorization"], "{label}");
        }
    }
}

#[test]
fn the_canary_never_shows_on_paths_that_make_no_call() {
    let (_dir, leo) = project();
    let url = "http://127.0.0.1:9/v1/systemone";
    let mut cases = Vec::new();
    cases.push(("no provider", request(&leo, &["effort"], None)));
    let mut no_catalog = request(&leo, &["effort"], explicit("jev", url));
    no_catalog.catalog = Some(CatalogRef::Name("absent".into()));
    cases.push(("no catalog", no_catalog));
    cases.push(("validation", request(&leo, &["nope"], explicit("jev", url))));
    let mut unknown = descriptor("jev", url);
    unknown.name = "acme".into();
    cases.push(("unknown provider", request(&leo, &["effort"], Some(ProviderChoice::Descriptor(unknown)))));
    let mut auth = request(&leo, &["effort"], explicit("jev", url));
    auth.env = env(&[("OTHER_KEY", KEY)]);
    cases.push(("auth", auth));
    for (label, req) in cases {
        let d = ask(&req, ());
        assert!(!d.usable);
        assert_ne!(d.answers[0].1.as_ref().err().map(|f| f.reason), None::<FailureReason>);
        assert_clean(label, &d);
    }
}

#[test]
fn a_state_holding_the_key_sends_it_only_in_the_header() {
    let stub = Stub::start(vec![Reply::json(&answers())]);
    let (_dir, leo) = project();
    let mut req = request(&leo, &["effort"], explicit("jev", &stub.url("/v1/systemone")));
    req.state = json!({"item": format!("deploy with {KEY}"), KEY: [KEY]});
    let d = ask(&req, ());
    assert_clean("state", &d);
    let sent = &stub.requests()[0];
    assert!(!sent.body.contains(KEY), "{}", sent.body);
    assert_eq!(sent.json()["state"]["item"], "deploy with [redacted]");
}
