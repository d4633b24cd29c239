//! Providers as data: the [`Descriptor`] that names one, the built-in descriptors, the registry
//! of names this build knows with the wire each speaks, the rules a descriptor must keep to be
//! asked ([`validate_descriptor`]), and the calibration label a human reads. The wires
//! themselves are in [`crate::provider`]; the `none` provider never calls anything.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::answer::FailureReason;
use crate::schema::{CHOICE_MAX_OPTIONS, CONTRACT_VERSION};

/// The provider that is always present and never answers: the floor.
pub const NONE: &str = "none";

/// Everything the seam needs to know about one provider. The key itself is never here: only
/// the name of the environment variable that holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Descriptor {
    /// The provider's name, as config.json and the registry know it.
    pub name: String,
    /// The URL requests are posted to.
    pub endpoint: String,
    /// The pinned model.
    pub model: String,
    /// Whether the provider's probabilities are optimised against outcomes.
    pub calibrated: bool,
    /// Where a calibration claim comes from: `trained` or `operator-declared`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration_source: Option<String>,
    /// The environment variable that holds the key; absent or null for an endpoint that takes
    /// none (no Authorization header is sent then). `jev`, `openrouter` and `vercel` need one.
    #[serde(default)]
    pub auth_env: Option<String>,
    /// The whole ask's budget, in milliseconds.
    pub timeout_ms: u64,
    /// The most options a choice may have on this provider.
    pub max_options: u32,
    /// The state size the provider accepts, in tokens. Declared, never enforced by truncation.
    pub max_state_tokens: u64,
}

/// The wire shape a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    /// TypeSafe's `POST /v1/systemone`: one request for every question.
    SystemOne,
    /// An OpenAI-style chat-completions gateway: one enum-constrained request per question.
    ChatCompletions,
    /// In-process: the model inside the binary ([`crate::builtin`]); no endpoint, no key.
    Builtin,
    /// Nothing: every question fails `no_provider`.
    None,
}

/// The names this build knows, each with its wire shape.
pub const REGISTRY: [(&str, Wire); 7] = [
    ("jev", Wire::SystemOne),
    ("openrouter", Wire::ChatCompletions),
    ("vercel", Wire::ChatCompletions),
    ("local", Wire::ChatCompletions),
    ("generic", Wire::SystemOne),
    (crate::builtin::NAME, Wire::Builtin),
    (NONE, Wire::None),
];

/// The hosted providers, which always take a key: a descriptor for one without `auth_env` is
/// a mistake, not a keyless endpoint.
pub const KEYED: [&str; 3] = ["jev", "openrouter", "vercel"];

/// The wire shape of a name this build knows.
pub fn wire_of(name: &str) -> Option<Wire> {
    REGISTRY.iter().find(|(n, _)| *n == name).map(|(_, w)| *w)
}

/// The names this build knows, in registry order.
pub fn known_names() -> impl Iterator<Item = &'static str> {
    REGISTRY.iter().map(|(n, _)| *n)
}

/// The key variable of every provider this build knows (`auth_env`), in registry order: what
/// a redactor takes out of anything written, and what an agent passes our server by name.
pub fn key_variables() -> Vec<String> {
    known_names().filter_map(builtin).filter_map(|d| d.auth_env).collect()
}

#[allow(clippy::too_many_arguments)]
fn descriptor(
    name: &str,
    endpoint: &str,
    model: &str,
    calibrated: bool,
    source: Option<&str>,
    auth_env: Option<&str>,
    timeout_ms: u64,
    max_options: u32,
) -> Descriptor {
    Descriptor {
        name: name.into(),
        endpoint: endpoint.into(),
        model: model.into(),
        calibrated,
        calibration_source: source.map(String::from),
        auth_env: auth_env.map(String::from),
        timeout_ms,
        max_options,
        max_state_tokens: 32_000,
    }
}

/// The built-in descriptor for a name this build knows.
pub fn builtin(name: &str) -> Option<Descriptor> {
    Some(match name {
        "jev" => descriptor(
            "jev",
            "https://api.typesafe.ai/v1/systemone",
            "jev-1.13.0",
            true,
            Some("trained"),
            Some("TYPESAFE_API_KEY"),
            5000,
            255,
        ),
        "openrouter" => descriptor(
            "openrouter",
            "https://openrouter.ai/api/v1/chat/completions",
            "",
            false,
            None,
            Some("OPENROUTER_API_KEY"),
            20_000,
            64,
        ),
        "vercel" => descriptor(
            "vercel",
            "https://ai-gateway.vercel.sh/v1/chat/completions",
            "",
            false,
            None,
            Some("AI_GATEWAY_API_KEY"),
            20_000,
            64,
        ),
        // llama.cpp's llama-server (and vLLM, LM Studio, Ollama) on this machine: no key, any
        // model name (a server that serves one model ignores it), uncalibrated.
        "local" => {
            descriptor("local", "http://127.0.0.1:8080/v1/chat/completions", "local", false, None, None, 20_000, 64)
        }
        "generic" => {
            descriptor("generic", "", "", true, Some("operator-declared"), Some("LEOPOLD_DECISIONS_API_KEY"), 5000, 255)
        }
        // The model inside the binary: in-process, no endpoint and no key; its thresholds were
        // fitted on held-out labelled commands (docs/builtin-model.md).
        "builtin" => descriptor("builtin", "", &crate::builtin::MODEL, true, Some("trained"), None, 2000, 4),
        NONE => descriptor(NONE, "", "", false, None, None, 0, 0),
        _ => return None,
    })
}

/// The provider templates file (`decisions providers`): every built-in descriptor but `none`.
pub fn provider_templates() -> Value {
    let providers: serde_json::Map<String, Value> = known_names()
        .filter(|n| *n != NONE)
        .filter_map(builtin)
        .map(|d| (d.name.clone(), serde_json::to_value(&d).unwrap_or(Value::Null)))
        .collect();
    json!({"version": CONTRACT_VERSION, "providers": providers})
}

/// One broken descriptor rule, naming the descriptor.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DescriptorError {
    #[error("provider descriptor has an empty name")]
    EmptyName,
    #[error("provider \"{0}\" has no endpoint set")]
    EmptyEndpoint(String),
    #[error("provider \"{0}\" has no model set")]
    EmptyModel(String),
    #[error(
        "provider \"{0}\" has an empty auth_env: name the variable that holds its key, or set it to null for an endpoint that takes none"
    )]
    EmptyAuthEnv(String),
    #[error("provider \"{0}\" takes a key: set auth_env to the variable that holds it")]
    KeyRequired(String),
    #[error("provider \"{0}\": timeout_ms must be greater than 0")]
    Timeout(String),
    #[error("provider \"{name}\": max_options must be in 2..={CHOICE_MAX_OPTIONS}, found {found}")]
    MaxOptions { name: String, found: u32 },
    #[error("provider \"{0}\": max_state_tokens must be greater than 0")]
    MaxStateTokens(String),
    #[error(
        "provider \"{name}\": model \"{model}\" is a moving alias; pin a versioned model, because thresholds are fitted against one model"
    )]
    MovingAlias { name: String, model: String },
    #[error("provider \"{name}\" is not known to this build (known: {known})")]
    UnknownName { name: String, known: String },
    #[error("provider \"{name}\" speaks {spoken}, but its endpoint {endpoint} is {mismatch} path")]
    WireEndpoint { name: String, spoken: &'static str, endpoint: String, mismatch: &'static str },
}

impl DescriptorError {
    /// The failure an ask gets for this rule: a name no build knows is `no_provider`, an
    /// endpoint its wire does not speak `unsupported`, anything else `validation`.
    pub fn reason(&self) -> FailureReason {
        match self {
            DescriptorError::UnknownName { .. } => FailureReason::NoProvider,
            DescriptorError::WireEndpoint { .. } => FailureReason::Unsupported,
            _ => FailureReason::Validation,
        }
    }
}

/// Whether an endpoint speaks the System One family's wire (its path ends in `/v1/systemone`).
pub fn is_system_one_endpoint(endpoint: &str) -> bool {
    let path = endpoint.split(['?', '#']).next().unwrap_or("");
    path.trim_end_matches('/').ends_with("/v1/systemone")
}

/// Validate a descriptor: every rule an ask needs it to keep, each broken one reported. This is
/// the one place that decides whether a descriptor can be asked; `ask`, `validate` and
/// `doctor` all call it.
pub fn validate_descriptor(d: &Descriptor) -> Result<(), Vec<DescriptorError>> {
    let mut errs = Vec::new();
    let name = d.name.clone();
    if d.name.trim().is_empty() {
        errs.push(DescriptorError::EmptyName);
    } else {
        match wire_of(&d.name) {
            None => errs.push(DescriptorError::UnknownName {
                name: name.clone(),
                known: known_names().collect::<Vec<_>>().join(", "),
            }),
            Some(Wire::None | Wire::Builtin) => {}
            Some(wire)
                if !d.endpoint.trim().is_empty()
                    && (wire == Wire::SystemOne) != is_system_one_endpoint(&d.endpoint) =>
            {
                let system_one = wire == Wire::SystemOne;
                errs.push(DescriptorError::WireEndpoint {
                    name: name.clone(),
                    spoken: if system_one { "System One" } else { "chat-completions" },
                    endpoint: d.endpoint.clone(),
                    mismatch: if system_one { "not a /v1/systemone" } else { "a /v1/systemone" },
                });
            }
            Some(_) => {}
        }
    }
    if d.endpoint.trim().is_empty() && wire_of(&d.name) != Some(Wire::Builtin) {
        errs.push(DescriptorError::EmptyEndpoint(name.clone()));
    }
    if d.model.trim().is_empty() {
        errs.push(DescriptorError::EmptyModel(name.clone()));
    }
    match &d.auth_env {
        Some(var) if var.trim().is_empty() => errs.push(DescriptorError::EmptyAuthEnv(name.clone())),
        None if KEYED.contains(&d.name.as_str()) => errs.push(DescriptorError::KeyRequired(name.clone())),
        _ => {}
    }
    if d.timeout_ms == 0 {
        errs.push(DescriptorError::Timeout(name.clone()));
    }
    if !(2..=CHOICE_MAX_OPTIONS as u32).contains(&d.max_options) {
        errs.push(DescriptorError::MaxOptions { name: name.clone(), found: d.max_options });
    }
    if d.max_state_tokens == 0 {
        errs.push(DescriptorError::MaxStateTokens(name.clone()));
    }
    let lower = d.model.to_ascii_lowercase();
    let moving = ["-latest", "-preview", "-stable"].iter().any(|s| lower.ends_with(s));
    if moving && is_system_one_endpoint(&d.endpoint) {
        errs.push(DescriptorError::MovingAlias { name, model: d.model.clone() });
    }
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}

/// How a descriptor's calibration claim is said to a human. The caveat is the point.
pub fn calibration_label(d: &Descriptor) -> &'static str {
    if !d.calibrated {
        "UNCALIBRATED — thresholds not portable"
    } else if d.calibration_source.as_deref() == Some("operator-declared") {
        "calibrated (operator-declared, unverified)"
    } else {
        "calibrated"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jev() -> Descriptor {
        builtin("jev").unwrap_or_else(|| descriptor("x", "", "", false, None, None, 0, 0))
    }

    #[test]
    fn builtins_match_the_reference_values() {
        let j = jev();
        assert_eq!(
            (j.endpoint.as_str(), j.model.as_str(), j.calibrated, j.timeout_ms, j.max_options, j.max_state_tokens),
            ("https://api.typesafe.ai/v1/systemone", "jev-1.13.0", true, 5000, 255, 32_000)
        );
        assert_eq!(j.auth_env.as_deref(), Some("TYPESAFE_API_KEY"));
        let o = builtin("openrouter").unwrap_or_else(jev);
        assert_eq!((o.model.as_str(), o.calibrated, o.timeout_ms, o.max_options), ("", false, 20_000, 64));
        assert_eq!(o.auth_env.as_deref(), Some("OPENROUTER_API_KEY"));
        let v = builtin("vercel").unwrap_or_else(jev);
        assert_eq!(
            (v.endpoint.as_str(), v.auth_env.as_deref()),
            ("https://ai-gateway.vercel.sh/v1/chat/completions", Some("AI_GATEWAY_API_KEY"))
        );
        let g = builtin("generic").unwrap_or_else(jev);
        assert_eq!(
            (g.calibration_source.as_deref(), g.auth_env.as_deref()),
            (Some("operator-declared"), Some("LEOPOLD_DECISIONS_API_KEY"))
        );
        let l = builtin("local").unwrap_or_else(jev);
        assert_eq!(
            (l.endpoint.as_str(), l.calibrated, l.auth_env.as_deref(), l.timeout_ms, l.max_options),
            ("http://127.0.0.1:8080/v1/chat/completions", false, None, 20_000, 64)
        );
        assert_eq!(validate_descriptor(&l), Ok(()));
        assert!(builtin("none").is_some());
        assert!(builtin("acme").is_none());
        assert_eq!(
            known_names().collect::<Vec<_>>(),
            ["jev", "openrouter", "vercel", "local", "generic", "builtin", "none"]
        );
    }

    #[test]
    fn templates_exclude_none() {
        let t = provider_templates();
        let names: Vec<&String> = t["providers"].as_object().map(|m| m.keys().collect()).unwrap_or_default();
        assert_eq!(names, ["jev", "openrouter", "vercel", "local", "generic", "builtin"]);
        assert_eq!(t["version"], "decisions/1.0");
    }

    #[test]
    fn jev_is_a_valid_descriptor() {
        assert_eq!(validate_descriptor(&jev()), Ok(()));
    }

    #[test]
    fn a_key_is_optional_except_for_the_hosted_providers() {
        let keyless = |name: &str| Descriptor { name: name.into(), auth_env: None, ..jev() };
        assert_eq!(validate_descriptor(&keyless("generic")), Ok(()));
        for name in KEYED {
            let errs = validate_descriptor(&Descriptor {
                endpoint: builtin(name).map(|d| d.endpoint).unwrap_or_default(),
                ..keyless(name)
            });
            assert_eq!(errs, Err(vec![DescriptorError::KeyRequired(name.into())]), "{name}");
        }
        let parsed: Descriptor =
            serde_json::from_value(json!({"name": "generic", "endpoint": "http://127.0.0.1:9/v1/systemone",
            "model": "m", "calibrated": false, "timeout_ms": 5, "max_options": 4, "max_state_tokens": 9}))
            .unwrap_or_else(|_| jev());
        assert_eq!(parsed.auth_env, None, "auth_env may be omitted");
    }

    #[test]
    fn every_broken_descriptor_rule_is_reported() {
        let d = Descriptor {
            name: "acme".into(),
            endpoint: " ".into(),
            model: "".into(),
            auth_env: Some("".into()),
            timeout_ms: 0,
            max_options: 1,
            max_state_tokens: 0,
            ..jev()
        };
        let errs = validate_descriptor(&d).err().unwrap_or_default();
        assert_eq!(
            errs,
            vec![
                DescriptorError::UnknownName {
                    name: "acme".into(),
                    known: "jev, openrouter, vercel, local, generic, builtin, none".into()
                },
                DescriptorError::EmptyEndpoint("acme".into()),
                DescriptorError::EmptyModel("acme".into()),
                DescriptorError::EmptyAuthEnv("acme".into()),
                DescriptorError::Timeout("acme".into()),
                DescriptorError::MaxOptions { name: "acme".into(), found: 1 },
                DescriptorError::MaxStateTokens("acme".into()),
            ]
        );
        assert_eq!(errs[2].to_string(), "provider \"acme\" has no model set");
        assert_eq!(
            errs[0].to_string(),
            "provider \"acme\" is not known to this build (known: jev, openrouter, vercel, local, generic, builtin, none)"
        );
        let nameless = Descriptor { name: "".into(), ..jev() };
        assert_eq!(validate_descriptor(&nameless), Err(vec![DescriptorError::EmptyName]));
    }

    #[test]
    fn an_endpoint_its_wire_does_not_speak_is_refused_as_unsupported() {
        let d = Descriptor { endpoint: "https://x.example/v1/chat/completions".into(), ..jev() };
        let errs = validate_descriptor(&d).err().unwrap_or_default();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].reason(), FailureReason::Unsupported);
        assert_eq!(
            errs[0].to_string(),
            "provider \"jev\" speaks System One, but its endpoint https://x.example/v1/chat/completions is not a /v1/systemone path"
        );
        let gw = Descriptor {
            endpoint: "https://x.example/v1/systemone".into(),
            model: "m".into(),
            ..builtin("openrouter").unwrap_or_else(jev)
        };
        assert_eq!(validate_descriptor(&gw).err().map(|e| e[0].reason()), Some(FailureReason::Unsupported));
    }

    #[test]
    fn max_options_bounds() {
        for (n, ok) in [(1, false), (2, true), (255, true), (256, false)] {
            let d = Descriptor { max_options: n, ..jev() };
            assert_eq!(validate_descriptor(&d).is_ok(), ok, "max_options {n}");
        }
    }

    #[test]
    fn moving_aliases_are_refused_on_system_one_only() {
        for model in ["jev-latest", "jev-PREVIEW", "Jev-Stable"] {
            let d = Descriptor { model: model.into(), ..jev() };
            assert!(
                matches!(validate_descriptor(&d).err().as_deref(), Some([DescriptorError::MovingAlias { .. }])),
                "{model} on jev"
            );
            let gw = Descriptor { model: model.into(), ..builtin("openrouter").unwrap_or_else(jev) };
            assert_eq!(validate_descriptor(&gw), Ok(()), "{model} on openrouter");
        }
        let pinned = Descriptor { model: "jev-latest-2026".into(), ..jev() };
        assert_eq!(validate_descriptor(&pinned), Ok(()));
        let self_hosted =
            Descriptor { endpoint: "http://127.0.0.1:9/v1/systemone/".into(), model: "x-latest".into(), ..jev() };
        assert!(validate_descriptor(&self_hosted).is_err());
    }

    #[test]
    fn the_three_labels_are_exact() {
        assert_eq!(calibration_label(&jev()), "calibrated");
        let unstated = Descriptor { calibration_source: None, ..jev() };
        assert_eq!(calibration_label(&unstated), "calibrated");
        assert_eq!(
            calibration_label(&builtin("generic").unwrap_or_else(jev)),
            "calibrated (operator-declared, unverified)"
        );
        assert_eq!(
            calibration_label(&builtin("openrouter").unwrap_or_else(jev)),
            "UNCALIBRATED — thresholds not portable"
        );
    }
}
