//! The seam: [`ask`] takes a request and the caller's deterministic fallback, and returns a
//! [`Decision`] with one result per question. It never panics and never returns an error.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;

use crate::answer::{Answer, Failure, FailureReason, certainty_of};
use crate::band::{Band, band_of};
use crate::config::{
    ConfigFile, DescriptorLookup, Env, Source, descriptor_for, find_leo_dir, load_config, read_project_file,
    resolve_name,
};
use crate::contract::{Catalog, Question, validate_catalog};
use crate::event::Event;
use crate::provider::{Descriptor, NONE, Wire, chat, is_system_one_endpoint, systemone, validate_descriptor, wire_of};
use crate::transport::{Call, Retry, SecretKey};

/// Which catalog to ask from.
#[derive(Debug, Clone, PartialEq)]
pub enum CatalogRef {
    /// A name, read from `<leo-dir>/decisions/<name>.json`.
    Name(String),
    /// A file path.
    Path(PathBuf),
    /// A catalog document already in memory.
    Document(Value),
}

/// The provider the caller names explicitly; it outranks config.json and the environment.
#[derive(Debug, Clone, PartialEq)]
pub enum ProviderChoice {
    /// A name, whose descriptor comes from config.json or the built-ins.
    Name(String),
    /// A whole descriptor (a stub server in tests, an embedder's own endpoint).
    Descriptor(Descriptor),
}

/// An extra catalog check run beside the contract validator (the CLI's `--schema`). It returns
/// one message per problem.
pub type CatalogCheck<'a> = &'a (dyn Fn(&Value) -> Vec<String> + Sync);

/// What to ask.
#[derive(Clone, Default)]
pub struct Request<'a> {
    /// The catalog.
    pub catalog: Option<CatalogRef>,
    /// The question ids to ask, in order.
    pub questions: Vec<String>,
    /// The state the questions are about: a string, object or array.
    pub state: Value,
    /// The project's `.leopold` directory; the nearest one above the working directory when unset.
    pub leo_dir: Option<PathBuf>,
    /// The project's config.json as the caller already read it ([`load_config`]); read from
    /// `leo_dir` when unset.
    pub config: Option<ConfigFile>,
    /// An explicit provider.
    pub provider: Option<ProviderChoice>,
    /// The whole ask's budget, overriding the descriptor's `timeout_ms`.
    pub timeout_ms: Option<u64>,
    /// Where environment variables (the key, `LEOPOLD_DECISIONS_PROVIDER`) are read.
    pub env: Env,
    /// An extra catalog check.
    pub catalog_check: Option<CatalogCheck<'a>>,
}

/// The outcome of an ask: one result per question, the bands, the events, and the fallback.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision<T> {
    /// The provider that answered (or would have), `none` when nothing is configured.
    pub provider: String,
    /// Where the provider was configured.
    pub source: Source,
    /// True only when every requested question is an answer in the act band.
    pub usable: bool,
    /// One result per requested question, in the order asked.
    pub answers: Vec<(String, Result<Answer, Failure>)>,
    /// Each question's band against the symmetric `act` bar.
    pub bands: Vec<(String, Band)>,
    /// The trail of the call, for the caller to log.
    pub events: Vec<Event>,
    /// The caller's deterministic fallback, handed back untouched.
    pub fallback: T,
}

impl<T> Decision<T> {
    /// The result for one question.
    pub fn answer(&self, question: &str) -> Option<&Result<Answer, Failure>> {
        self.answers.iter().find(|(q, _)| q == question).map(|(_, r)| r)
    }

    /// The band of one question.
    pub fn band(&self, question: &str) -> Option<Band> {
        self.bands.iter().find(|(q, _)| q == question).map(|(_, b)| *b)
    }
}

/// `{provider, source, usable, answers, bands, events}`: the fallback is the caller's, not output.
impl<T> Serialize for Decision<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Pairs<'a, V>(&'a [(String, V)]);
        impl<V: Serialize> Serialize for Pairs<'_, V> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(Some(self.0.len()))?;
                for (k, v) in self.0 {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
        struct Outcome<'a>(&'a Result<Answer, Failure>);
        impl Serialize for Outcome<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self.0 {
                    Ok(a) => a.serialize(s),
                    Err(f) => f.serialize(s),
                }
            }
        }
        let answers: Vec<(String, Outcome)> = self.answers.iter().map(|(q, r)| (q.clone(), Outcome(r))).collect();
        let mut m = s.serialize_map(Some(6))?;
        m.serialize_entry("provider", &self.provider)?;
        m.serialize_entry("source", &self.source)?;
        m.serialize_entry("usable", &self.usable)?;
        m.serialize_entry("answers", &Pairs(&answers))?;
        m.serialize_entry("bands", &Pairs(&self.bands))?;
        m.serialize_entry("events", &self.events)?;
        m.end()
    }
}

/// Ask the catalog's questions about `state`, with the deterministic `fallback` the caller
/// uses whenever the result is not usable.
///
/// Never panics and never returns an error: every outcome is an answer or a typed [`Failure`].
pub fn ask<T>(request: &Request<'_>, fallback: T) -> Decision<T> {
    let started = Instant::now();
    let mut questions: Vec<String> = Vec::new();
    for q in &request.questions {
        if !questions.contains(q) {
            questions.push(q.clone());
        }
    }
    let outcome = run(request, &questions, started);
    let Outcome { provider, source, results, bands, events } = outcome;
    let usable = !results.is_empty() && bands.iter().all(|(_, b)| *b == Band::Act);
    Decision {
        provider,
        source,
        usable,
        answers: questions.into_iter().zip(results).collect(),
        bands: bands.into_iter().collect(),
        events,
        fallback,
    }
}

struct Outcome {
    provider: String,
    source: Source,
    results: Vec<Result<Answer, Failure>>,
    bands: Vec<(String, Band)>,
    events: Vec<Event>,
}

impl Outcome {
    /// Every question failed before any call was made.
    fn failed(provider: &str, source: Source, questions: &[String], reason: FailureReason, detail: String) -> Outcome {
        let failure = Failure::new(reason, provider, detail);
        Outcome {
            provider: provider.into(),
            source,
            results: questions.iter().map(|_| Err(failure.clone())).collect(),
            bands: questions.iter().map(|q| (q.clone(), Band::Floor)).collect(),
            events: questions
                .iter()
                .map(|q| Event::DecisionFailed {
                    provider: provider.into(),
                    question: q.clone(),
                    reason,
                    detail: failure.detail.clone(),
                    elapsed_ms: None,
                    source,
                })
                .collect(),
        }
    }
}

fn run(request: &Request<'_>, questions: &[String], started: Instant) -> Outcome {
    let leo_dir = request.leo_dir.clone().or_else(|| std::env::current_dir().ok().and_then(|d| find_leo_dir(&d)));

    // 1. The catalog.
    let doc = match load_catalog(request.catalog.as_ref(), leo_dir.as_deref()) {
        Ok(doc) => doc,
        Err(detail) => return Outcome::failed(NONE, Source::None, questions, FailureReason::NoCatalog, detail),
    };

    // 2. The provider.
    let read;
    let config = match &request.config {
        Some(c) => c,
        None => {
            read = leo_dir.as_deref().map_or(ConfigFile::Missing, load_config);
            &read
        }
    };
    let (descriptor, source) = match &request.provider {
        Some(ProviderChoice::Descriptor(d)) => (d.clone(), Source::Explicit),
        other => {
            let explicit = match other {
                Some(ProviderChoice::Name(n)) => Some(n.as_str()),
                _ => None,
            };
            let (name, source) = resolve_name(explicit, config, &request.env);
            if name == NONE {
                let detail = match config {
                    ConfigFile::Malformed { path, error } => {
                        format!("no provider configured ({} is malformed: {error})", path.display())
                    }
                    _ => "no provider configured".to_string(),
                };
                return Outcome::failed(NONE, source, questions, FailureReason::NoProvider, detail);
            }
            match descriptor_for(&name, config) {
                Ok(d) => (d, source),
                Err(DescriptorLookup::Missing(detail)) => {
                    return Outcome::failed(&name, source, questions, FailureReason::NoProvider, detail);
                }
                Err(DescriptorLookup::Unparsable(detail)) => {
                    return Outcome::failed(&name, source, questions, FailureReason::Validation, detail);
                }
            }
        }
    };
    let name = descriptor.name.clone();
    let Some(wire) = wire_of(&name) else {
        let known: Vec<&str> = crate::provider::known_names().collect();
        let detail = format!("provider \"{name}\" is not known to this build (known: {})", known.join(", "));
        return Outcome::failed(&name, source, questions, FailureReason::NoProvider, detail);
    };
    if wire == Wire::None {
        return Outcome::failed(NONE, source, questions, FailureReason::NoProvider, "no provider configured".into());
    }

    // 3. Validation: descriptor, catalog, the extra check, the question ids.
    let catalog = match validate(&descriptor, &doc, questions, request.catalog_check) {
        Ok(c) => c,
        Err(detail) => return Outcome::failed(&name, source, questions, FailureReason::Validation, detail),
    };
    let asked: Vec<&Question> = questions.iter().filter_map(|q| catalog.question(q)).collect();
    if (wire == Wire::SystemOne) != is_system_one_endpoint(&descriptor.endpoint) {
        let spoken = if wire == Wire::SystemOne { "System One" } else { "chat-completions" };
        let detail = format!(
            "provider \"{name}\" speaks {spoken}, but its endpoint {} is {} path",
            descriptor.endpoint,
            if wire == Wire::SystemOne { "not a /v1/systemone" } else { "a /v1/systemone" }
        );
        return Outcome::failed(&name, source, questions, FailureReason::Unsupported, detail);
    }

    // 4. The key.
    let Some(key) = request.env.get(&descriptor.auth_env) else {
        let detail = format!("{} is not set", descriptor.auth_env);
        return Outcome::failed(&name, source, questions, FailureReason::Auth, detail);
    };
    let key = SecretKey::new(key);

    // 5. The call.
    let budget_ms = request.timeout_ms.unwrap_or(descriptor.timeout_ms);
    let call = Call {
        provider: &name,
        endpoint: &descriptor.endpoint,
        key: &key,
        // A budget too large to add is as good as none.
        deadline: started
            .checked_add(Duration::from_millis(budget_ms))
            .unwrap_or(started + Duration::from_secs(86_400)),
        budget_ms,
    };
    let mut events = vec![Event::DecisionAsked {
        provider: name.clone(),
        model: descriptor.model.clone(),
        questions: questions.to_vec(),
        source,
    }];
    let mut retries = Vec::new();
    let results = match wire {
        Wire::SystemOne => {
            let body = systemone::request(&descriptor.model, &request.state, &asked);
            match call.post_json(&body, &mut retries) {
                Ok(resp) => systemone::answers(&name, &descriptor.model, &resp, &asked),
                Err(f) => asked.iter().map(|_| Err(f.clone())).collect(),
            }
        }
        Wire::ChatCompletions => ask_chat(&call, &descriptor, &request.state, &asked, &mut retries),
        Wire::None => Vec::new(),
    };
    let results: Vec<_> = results.into_iter().map(|r| scrub(r, &key)).collect();
    events.extend(retries.into_iter().map(|r| Event::DecisionRetry {
        provider: name.clone(),
        attempt: r.attempt,
        delay_ms: r.delay_ms,
        status: r.status,
        source,
    }));
    let elapsed_ms = started.elapsed().as_millis() as u64;
    let mut bands = Vec::with_capacity(asked.len());
    for (q, result) in asked.iter().zip(&results) {
        let band = match result {
            Ok(a) => band_of(&q.thresholds, certainty_of(a), None),
            Err(_) => Band::Floor,
        };
        bands.push((q.id.clone(), band));
        events.push(match result {
            Ok(a) => Event::DecisionAnswered {
                provider: name.clone(),
                model: a.model.clone(),
                question: q.id.clone(),
                probabilities: a.probabilities.clone(),
                confidence: a.confidence,
                certainty: certainty_of(a),
                threshold_fired: band,
                elapsed_ms,
                source,
            },
            Err(f) => Event::DecisionFailed {
                provider: name.clone(),
                question: q.id.clone(),
                reason: f.reason,
                detail: f.detail.clone(),
                elapsed_ms: Some(elapsed_ms),
                source,
            },
        });
    }
    Outcome { provider: name, source, results, bands, events }
}

/// A server may echo the key back (in an error message, a model field): it never leaves the seam.
fn scrub(result: Result<Answer, Failure>, key: &SecretKey) -> Result<Answer, Failure> {
    match result {
        Ok(mut a) => {
            a.model = key.redact(&a.model);
            Ok(a)
        }
        Err(mut f) => {
            f.detail = f.detail.map(|d| key.redact(&d));
            Err(f)
        }
    }
}

/// One request per question, in parallel, all under the one deadline.
fn ask_chat(
    call: &Call<'_>,
    descriptor: &Descriptor,
    state: &Value,
    asked: &[&Question],
    retries: &mut Vec<Retry>,
) -> Vec<Result<Answer, Failure>> {
    if descriptor.model.trim().is_empty() {
        let f = Failure::new(
            FailureReason::Validation,
            &descriptor.name,
            format!("provider \"{}\" has no model set", descriptor.name),
        );
        return asked.iter().map(|_| Err(f.clone())).collect();
    }
    let one = |q: &Question| {
        let mut mine = Vec::new();
        let body = chat::request(&descriptor.name, &descriptor.model, state, q);
        let result = call
            .post_json(&body, &mut mine)
            .and_then(|resp| chat::answer(&descriptor.name, &descriptor.model, &resp, q));
        (result, mine)
    };
    let outcomes: Vec<(Result<Answer, Failure>, Vec<Retry>)> = if asked.len() == 1 {
        vec![one(asked[0])]
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = asked.iter().map(|q| s.spawn(|| one(q))).collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        let f = Failure::new(FailureReason::Transport, &descriptor.name, "the request thread failed");
                        (Err(f), Vec::new())
                    })
                })
                .collect()
        })
    };
    outcomes
        .into_iter()
        .map(|(r, mine)| {
            retries.extend(mine);
            r
        })
        .collect()
}

fn validate(
    descriptor: &Descriptor,
    doc: &Value,
    questions: &[String],
    check: Option<CatalogCheck<'_>>,
) -> Result<Catalog, String> {
    let mut errors: Vec<String> = Vec::new();
    if let Err(es) = validate_descriptor(descriptor) {
        errors.extend(es.iter().map(ToString::to_string));
    }
    if let Some(check) = check {
        errors.extend(check(doc));
    }
    let catalog = match validate_catalog(doc, descriptor) {
        Ok(c) => Some(c),
        Err(es) => {
            errors.extend(es.iter().map(ToString::to_string));
            None
        }
    };
    if questions.is_empty() {
        errors.push("no questions asked".into());
    }
    if let Some(c) = &catalog {
        for q in questions.iter().filter(|q| c.question(q).is_none()) {
            errors.push(format!("question \"{q}\" is not in the catalog"));
        }
    }
    match catalog {
        Some(c) if errors.is_empty() => Ok(c),
        _ => Err(errors.join("; ")),
    }
}

/// Read a catalog document. `Err` is the detail of a `no_catalog` failure.
pub fn load_catalog(catalog: Option<&CatalogRef>, leo_dir: Option<&std::path::Path>) -> Result<Value, String> {
    // A path is read as given (it may be a pipe: `--catalog <(...)`); a name is a file the
    // project keeps, and anything else there is refused.
    let (path, text) = match catalog {
        None => return Err("no catalog given".into()),
        Some(CatalogRef::Document(v)) => return Ok(v.clone()),
        Some(CatalogRef::Path(p)) => (p.clone(), std::fs::read_to_string(p)),
        Some(CatalogRef::Name(n)) => match leo_dir {
            Some(d) => {
                let path = catalog_path(d, n);
                let text = read_project_file(&path);
                (path, text)
            }
            None => return Err(format!("no catalog \"{n}\": no .leopold directory found")),
        },
    };
    let text = text.map_err(|e| format!("no readable catalog at {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("catalog {} is not JSON: {e}", path.display()))
}

/// Where a named catalog lives: `<leo-dir>/decisions/<name>.json`.
pub fn catalog_path(leo_dir: &std::path::Path, name: &str) -> PathBuf {
    leo_dir.join("decisions").join(format!("{name}.json"))
}
