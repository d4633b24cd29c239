//! Checks run in order: catalog, provider, validation, key, then the call. Provider resolution:
//! explicit, config.json, LEOPOLD_DECISIONS_PROVIDER, none.

use crate::common::*;
use decisions::{CatalogRef, Event, FailureReason, ProviderChoice, Source, ask};
use serde_json::json;
use stub::{Reply, Stub};

fn only_reason<T>(d: &decisions::Decision<T>) -> (FailureReason, String) {
    let mut seen: Vec<(FailureReason, String)> = d
        .answers
        .iter()
        .map(|(_, r)| {
            let f = r.as_ref().err().unwrap_or_else(|| panic!("expected failures: {:#}", json_of(d)));
            (f.reason, f.detail.clone().unwrap_or_default())
        })
        .collect();
    seen.dedup();
    assert_eq!(seen.len(), 1, "{seen:?}");
    seen.remove(0)
}

fn config(leo: &std::path::Path, provider: &str, providers: serde_json::Value) {
    write(
        &leo.join("decisions/config.json"),
        &json!({"version": "decisions/1.0", "provider": provider, "providers": providers}),
    );
}

fn descriptor_json(name: &str, endpoint: &str) -> serde_json::Value {
    serde_json::to_value(descriptor(name, endpoint)).unwrap_or_default()
}

#[test]
fn nothing_configured_is_no_provider_with_no_decision_asked() {
    let (_dir, leo) = project();
    let d = ask(&request(&leo, &["effort", "risky"], None), 42);
    assert_eq!(d.fallback, 42);
    assert_eq!((d.provider.as_str(), d.source, d.usable), ("none", Source::None, false));
    assert_eq!(only_reason(&d).0, FailureReason::NoProvider);
    assert_eq!(d.events.len(), 2);
    assert!(d.events.iter().all(|e| matches!(e, Event::DecisionFailed { elapsed_ms: None, .. })));
    let out = json_of(&d);
    assert_eq!(out["bands"], json!({"effort": "floor", "risky": "floor"}));
}

#[test]
fn the_none_provider_named_anywhere_is_no_provider() {
    let (_dir, leo) = project();
    let d = ask(&request(&leo, &["effort"], Some(ProviderChoice::Name("none".into()))), ());
    assert_eq!((only_reason(&d).0, d.source), (FailureReason::NoProvider, Source::Explicit));
    assert!(!d.events.iter().any(|e| matches!(e, Event::DecisionAsked { .. })));
}

#[test]
fn a_missing_catalog_is_no_catalog_before_anything_else() {
    let (_dir, leo) = project();
    let mut req = request(&leo, &["effort"], Some(ProviderChoice::Name("acme".into())));
    req.catalog = Some(CatalogRef::Name("absent".into()));
    let d = ask(&req, ());
    // The provider is resolved first and reported as it is, whatever happens to the catalog.
    assert_eq!((d.provider.as_str(), d.source), ("acme", Source::Explicit));
    let (reason, detail) = only_reason(&d);
    assert_eq!(reason, FailureReason::NoCatalog);
    assert!(detail.contains("absent.json"), "{detail}");
    std::fs::write(leo.join("decisions/broken.json"), "{ not json").unwrap_or_default();
    req.catalog = Some(CatalogRef::Name("broken".into()));
    assert_eq!(only_reason(&ask(&req, ())).0, FailureReason::NoCatalog);
}

#[test]
fn config_json_names_the_provider_and_its_descriptor_overrides_the_builtin() {
    let stub = Stub::start(vec![Reply::json(&answers())]);
    let (_dir, leo) = project();
    config(&leo, "jev", json!({"jev": descriptor_json("jev", &stub.url("/v1/systemone"))}));
    let d = ask(&request(&leo, &["effort"], None), ());
    assert_eq!((d.provider.as_str(), d.source, d.usable), ("jev", Source::Config, true));
    assert_eq!(stub.requests().len(), 1);
}

#[test]
fn config_json_outranks_the_environment_and_explicit_outranks_both() {
    let stub = Stub::start(vec![Reply::json(&answers())]);
    let (_dir, leo) = project();
    config(&leo, "jev", json!({"jev": descriptor_json("jev", &stub.url("/v1/systemone"))}));
    let mut req = request(&leo, &["effort"], None);
    req.env = env(&[("TYPESAFE_API_KEY", KEY), ("LEOPOLD_DECISIONS_PROVIDER", "generic")]);
    let d = ask(&req, ());
    assert_eq!((d.provider.as_str(), d.source), ("jev", Source::Config));
    req.provider = Some(ProviderChoice::Name("none".into()));
    assert_eq!(ask(&req, ()).source, Source::Explicit);
}

#[test]
fn the_environment_names_the_provider_when_config_does_not() {
    let stub = Stub::start(vec![Reply::json(&answers())]);
    let (_dir, leo) = project();
    write(
        &leo.join("decisions/config.json"),
        &json!({"version": "decisions/1.0",
        "providers": {"generic": descriptor_json("generic", &stub.url("/v1/systemone"))}}),
    );
    let mut req = request(&leo, &["effort"], None);
    req.env = env(&[("LEOPOLD_DECISIONS_API_KEY", KEY), ("LEOPOLD_DECISIONS_PROVIDER", "generic")]);
    let d = ask(&req, ());
    assert_eq!((d.provider.as_str(), d.source, d.usable), ("generic", Source::Env, true));
}

#[test]
fn a_malformed_config_is_no_provider_never_an_error() {
    let (_dir, leo) = project();
    std::fs::write(leo.join("decisions/config.json"), "{\"provider\": \"jev\",,}").unwrap_or_default();
    let d = ask(&request(&leo, &["effort"], None), ());
    let (reason, detail) = only_reason(&d);
    assert_eq!((reason, d.source), (FailureReason::NoProvider, Source::None));
    assert!(detail.contains("config.json is malformed"), "{detail}");
}

#[test]
fn a_fifo_in_place_of_config_or_catalog_is_refused_not_waited_on() {
    // Nobody writes these FIFOs: a read would block for ever.
    let (_dir, leo) = project();
    for name in ["config.json", "piped.json"] {
        let made = std::process::Command::new("mkfifo").arg(leo.join("decisions").join(name)).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo {name}");
    }
    let d = ask(&request(&leo, &["effort"], None), ());
    let (reason, detail) = only_reason(&d);
    assert_eq!(reason, FailureReason::NoProvider);
    assert!(detail.contains("config.json is malformed: not a regular file"), "{detail}");
    let mut req = request(&leo, &["effort"], None);
    req.catalog = Some(CatalogRef::Name("piped".into()));
    let (reason, detail) = only_reason(&ask(&req, ()));
    assert_eq!(reason, FailureReason::NoCatalog);
    assert!(detail.contains("piped.json: not a regular file"), "{detail}");
}

#[test]
fn a_config_the_caller_already_read_is_used_as_read() {
    let stub = Stub::start(vec![Reply::json(&answers())]);
    let (_dir, leo) = project();
    // On disk: no provider. In hand: jev at the stub. The one in hand wins, as config.
    let held = json!({"version": "decisions/1.0", "provider": "jev",
                      "providers": {"jev": descriptor_json("jev", &stub.url("/v1/systemone"))}});
    let mut req = request(&leo, &["effort"], None);
    req.config = Some(decisions::ConfigFile::Loaded(serde_json::from_value(held).expect("config")));
    let d = ask(&req, ());
    assert_eq!((d.provider.as_str(), d.source, d.usable), ("jev", Source::Config, true));
    assert_eq!(stub.requests().len(), 1);
}

#[test]
fn a_configured_name_with_no_descriptor_is_no_provider_naming_it() {
    let (_dir, leo) = project();
    config(&leo, "acme", json!({}));
    let d = ask(&request(&leo, &["effort"], None), ());
    assert_eq!(only_reason(&d), (FailureReason::NoProvider, "no descriptor for provider \"acme\"".into()));
    assert_eq!((d.provider.as_str(), d.source), ("acme", Source::Config));
    assert!(!d.events.iter().any(|e| matches!(e, Event::DecisionAsked { .. })));
}

#[test]
fn a_descriptor_with_a_name_this_build_does_not_know_is_no_provider() {
    let (_dir, leo) = project();
    let mut d = descriptor("jev", "http://127.0.0.1:9/v1/systemone");
    d.name = "acme".into();
    let out = ask(&request(&leo, &["effort"], Some(ProviderChoice::Descriptor(d))), ());
    let (reason, detail) = only_reason(&out);
    assert_eq!(reason, FailureReason::NoProvider);
    assert!(detail.contains("\"acme\" is not known to this build"), "{detail}");
}

#[test]
fn validation_fails_before_any_request() {
    let stub = Stub::start(vec![Reply::json(&answers())]);
    let (_dir, leo) = project();
    let url = stub.url("/v1/systemone");
    // A question id not in the catalog.
    let d = ask(&request(&leo, &["effort", "nope"], explicit("jev", &url)), ());
    let (reason, detail) = only_reason(&d);
    assert_eq!(reason, FailureReason::Validation);
    assert!(detail.contains("question \"nope\" is not in the catalog"), "{detail}");
    // A moving alias on the System One family.
    let mut alias = descriptor("jev", &url);
    alias.model = "jev-latest".into();
    let d = ask(&request(&leo, &["effort"], Some(ProviderChoice::Descriptor(alias))), ());
    assert!(only_reason(&d).1.contains("moving alias"));
    // A thresholds_for naming another provider.
    let mut cat = catalog();
    cat["thresholds_for"] = json!("openrouter");
    write(&leo.join("decisions/test.json"), &cat);
    let d = ask(&request(&leo, &["effort"], explicit("jev", &url)), ());
    assert!(only_reason(&d).1.contains("give \"jev\" its own threshold file"));
    assert_eq!(stub.requests().len(), 0);
    assert!(d.events.iter().all(|e| matches!(e, Event::DecisionFailed { elapsed_ms: None, .. })));
}

#[test]
fn an_unset_key_is_auth_naming_the_variable_and_nothing_is_sent() {
    let stub = Stub::start(vec![Reply::json(&answers())]);
    let (_dir, leo) = project();
    let mut req = request(&leo, &["effort"], explicit("jev", &stub.url("/v1/systemone")));
    req.env = env(&[]);
    let d = ask(&req, ());
    assert_eq!(only_reason(&d), (FailureReason::Auth, "TYPESAFE_API_KEY is not set".into()));
    assert_eq!(stub.requests().len(), 0);
}

#[test]
fn the_catalog_check_hook_fails_validation() {
    let (_dir, leo) = project();
    let check = |_: &serde_json::Value| vec!["schema says no".to_string()];
    let mut req = request(&leo, &["effort"], explicit("jev", "http://127.0.0.1:9/v1/systemone"));
    req.catalog_check = Some(&check);
    let d = ask(&req, ());
    assert_eq!(only_reason(&d), (FailureReason::Validation, "schema says no".into()));
}

#[test]
fn no_questions_is_never_usable() {
    let stub = Stub::start(vec![Reply::json(&answers())]);
    let (_dir, leo) = project();
    let d = ask(&request(&leo, &[], explicit("jev", &stub.url("/v1/systemone"))), ());
    assert!(!d.usable);
    assert!(d.answers.is_empty());
}

#[test]
fn a_wire_its_endpoint_does_not_speak_is_unsupported_and_nothing_is_sent() {
    let stub = Stub::start(vec![Reply::json(&answers())]);
    let (_dir, leo) = project();
    let d = ask(&request(&leo, &["effort"], explicit("generic", &stub.url("/v1/chat/completions"))), ());
    let (reason, detail) = only_reason(&d);
    assert_eq!(reason, FailureReason::Unsupported);
    assert!(detail.contains("speaks System One") && detail.contains("/v1/chat/completions"), "{detail}");
    let mut cat = catalog();
    cat["thresholds_for"] = json!("vercel");
    write(&leo.join("decisions/test.json"), &cat);
    let d = ask(&request(&leo, &["effort"], explicit("vercel", &stub.url("/v1/systemone"))), ());
    assert_eq!(only_reason(&d).0, FailureReason::Unsupported);
    assert_eq!(stub.requests().len(), 0);
}

#[test]
fn a_budget_too_large_to_add_still_answers() {
    let stub = Stub::start(vec![Reply::json(&answers())]);
    let (_dir, leo) = project();
    let mut req = request(&leo, &["effort"], explicit("jev", &stub.url("/v1/systemone")));
    req.timeout_ms = Some(u64::MAX);
    assert!(ask(&req, ()).usable);
}
