//! The seam: [`ask`] takes a request and the caller's deterministic fallback, and returns a
//! [`Decision`] with one result per question. It never panics and never returns an error.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;

use crate::answer::{Answer, Failure, FailureReason, certainty_of};
use crate::band::{Band, band_of};
use crate::config::{ConfigFile, DescriptorLookup, Env, Source, descriptor_for, load_config, resolve_name};
use crate::contract::{Catalog, Question, validate_catalog};
use crate::descriptor::{Descriptor, DescriptorError, NONE, Wire, validate_descriptor, wire_of};
use crate::event::Event;
use crate::file::{read_input, read_regular, within};
use crate::json::{Document, Ordered};
use crate::project::{PROJECT_ENV, catalog_path, leo_dir_for};
use crate::provider::{chat, systemone};
use crate::secret::SecretKey;
use crate::transport::{Call, Pace, Retry};

/// Which catalog to ask from.
#[derive(Debug, Clone, PartialEq)]
pub enum CatalogRef {
    /// A name, read from `<leo-dir>/decisions/<name>.json`.
    Name(String),
    /// A file path.
    Path(PathBuf),
    /// A catalog already read ([`load_catalog`]), or a document built in memory (`value.into()`).
    Document(Document),
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
    /// When the ask's budget ends. A caller that writes after the ask (a ledger row, an event)
    /// finishes by then plus its own grace.
    pub deadline: Instant,
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
        m.serialize_entry("answers", &Ordered(&answers))?;
        m.serialize_entry("bands", &Ordered(&self.bands))?;
        m.serialize_entry("events", &self.events)?;
        m.end()
    }
}

/// Ask the catalog's questions about `state`, with the deterministic `fallback` the caller
/// uses whenever the result is not usable.
///
/// Never panics and never returns an error: every outcome is an answer or a typed [`Failure`].
///
/// The fallback is structural. A consumer that cannot say what it does without a model does
/// not compile:
///
/// ```compile_fail,E0061
/// let request = decisions::Request::default();
/// let decision = decisions::ask(&request); // no fallback
/// ```
///
/// and the same call with one does (the pair proves the failure above is the missing argument):
///
/// ```no_run
/// let request = decisions::Request::default();
/// let decision = decisions::ask(&request, ());
/// ```
pub fn ask<T>(request: &Request<'_>, fallback: T) -> Decision<T> {
    let started = Instant::now();
    match prepare_from(request, started) {
        Ok(prepared) => prepared.ask_from(started, &request.state, fallback),
        Err(failed) => failed.with_fallback(fallback),
    }
}

/// A request checked and ready to ask: its catalog read and validated, the provider resolved,
/// its descriptor valid, its key read, and one HTTP agent whose connections are kept alive.
/// Made once by [`prepare`] and asked any number of times, from any number of threads: the
/// consumers and the batch engine ask many states through one.
pub struct Prepared {
    provider: String,
    source: Source,
    descriptor: Descriptor,
    wire: Wire,
    catalog: Catalog,
    questions: Vec<String>,
    key: SecretKey,
    budget_ms: u64,
    /// Made on first use: a provider that answers in-process never pays for it.
    agent: std::sync::OnceLock<ureq::Agent>,
}

impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prepared").field("provider", &self.provider).field("questions", &self.questions).finish()
    }
}

/// Check everything an ask needs before it calls: `Err` is the decision it would have returned
/// without calling (no catalog, no provider, an invalid catalog or descriptor, no key), with
/// its events, one `decision_failed` per question.
pub fn prepare(request: &Request<'_>) -> Result<Prepared, Decision<()>> {
    prepare_from(request, Instant::now())
}

impl Prepared {
    /// The provider that will be asked.
    pub fn provider(&self) -> &str {
        &self.provider
    }

    /// Whether asking it sends HTTP requests: not the model inside the binary.
    pub fn over_http(&self) -> bool {
        !matches!(self.wire, Wire::Builtin | Wire::None)
    }

    /// Where it was configured.
    pub fn source(&self) -> Source {
        self.source
    }

    /// The validated catalog.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The question ids asked, in order.
    pub fn questions(&self) -> &[String] {
        &self.questions
    }

    /// The model the descriptor asks for.
    pub fn model(&self) -> &str {
        &self.descriptor.model
    }

    /// Ask the prepared questions about `state`; the budget starts now.
    pub fn ask<T>(&self, state: &Value, fallback: T) -> Decision<T> {
        self.ask_from(Instant::now(), state, fallback)
    }

    /// Ask under a pace shared with other callers (the run engine's): every request waits its
    /// turn, and a congested answer pauses every caller, not only this one.
    pub fn ask_paced<T>(&self, state: &Value, pace: &dyn Pace, fallback: T) -> Decision<T> {
        let ids: Vec<&str> = self.questions.iter().map(String::as_str).collect();
        self.call(Instant::now(), &ids, state, Some(pace), fallback)
    }

    /// Ask only some of the prepared questions (each must be one of them).
    pub fn ask_only<T>(&self, questions: &[&str], state: &Value, fallback: T) -> Decision<T> {
        self.call(Instant::now(), questions, state, None, fallback)
    }

    fn ask_from<T>(&self, started: Instant, state: &Value, fallback: T) -> Decision<T> {
        let ids: Vec<&str> = self.questions.iter().map(String::as_str).collect();
        self.call(started, &ids, state, None, fallback)
    }

    fn call<T>(
        &self,
        started: Instant,
        ids: &[&str],
        state: &Value,
        pace: Option<&dyn Pace>,
        fallback: T,
    ) -> Decision<T> {
        let name = &self.provider;
        let source = self.source;
        let asked: Vec<&Question> = ids.iter().filter_map(|q| self.catalog.question(q)).collect();
        let call = Call {
            provider: name,
            endpoint: &self.descriptor.endpoint,
            key: &self.key,
            deadline: after(started, self.budget_ms),
            budget_ms: self.budget_ms,
            agent: self.agent.get_or_init(crate::transport::agent),
            pace,
        };
        let mut events = vec![Event::DecisionAsked {
            provider: name.clone(),
            model: self.descriptor.model.clone(),
            questions: asked.iter().map(|q| q.id.clone()).collect(),
            source,
        }];
        let mut retries = Vec::new();
        let results = match self.wire {
            Wire::SystemOne => {
                let body = systemone::request(&self.descriptor.model, state, &asked);
                match call.post_json(&body, &mut retries) {
                    Ok(resp) => systemone::answers_from(name, &self.descriptor.model, &resp, &asked),
                    Err(f) => asked.iter().map(|_| Err(f.clone())).collect(),
                }
            }
            Wire::ChatCompletions => ask_chat(&call, &self.descriptor, state, &asked, &mut retries),
            Wire::Builtin => asked.iter().map(|q| crate::builtin::answer(q, state, &self.descriptor.model)).collect(),
            Wire::None => Vec::new(),
        };
        let results: Vec<_> = results.into_iter().map(|r| scrub(r, &self.key)).collect();
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
        let usable = !results.is_empty() && bands.iter().all(|(_, b)| *b == Band::Act);
        Decision {
            provider: name.clone(),
            source,
            usable,
            deadline: call.deadline,
            answers: asked.iter().map(|q| q.id.clone()).zip(results).collect(),
            bands,
            events,
            fallback,
        }
    }
}

impl<T> Decision<T> {
    /// The same decision with another fallback.
    pub fn with_fallback<U>(self, fallback: U) -> Decision<U> {
        let Decision { provider, source, usable, deadline, answers, bands, events, .. } = self;
        Decision { provider, source, usable, deadline, answers, bands, events, fallback }
    }
}

/// How long reading the project's files may take when the request sets no budget.
pub const READ_BUDGET_MS: u64 = 5000;

/// `ms` after `start`; a budget too large to add is as good as none.
pub(crate) fn after(start: Instant, ms: u64) -> Instant {
    start.checked_add(Duration::from_millis(ms)).unwrap_or(start + Duration::from_secs(86_400))
}

/// Every question failed before any call was made.
fn failed(
    provider: &str,
    source: Source,
    questions: &[String],
    reason: FailureReason,
    detail: String,
    deadline: Instant,
) -> Decision<()> {
    let failure = Failure::new(reason, provider, detail);
    Decision {
        provider: provider.into(),
        source,
        usable: false,
        deadline,
        answers: questions.iter().map(|q| (q.clone(), Err(failure.clone()))).collect(),
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
        fallback: (),
    }
}

/// The seam in order, up to the call. The project's files are read by the caller's budget, or
/// [`READ_BUDGET_MS`] when it names none (the descriptor that would set it is in one of them).
fn prepare_from(request: &Request<'_>, started: Instant) -> Result<Prepared, Decision<()>> {
    let mut questions: Vec<String> = Vec::new();
    for q in &request.questions {
        if !questions.contains(q) {
            questions.push(q.clone());
        }
    }
    let read_by = after(started, request.timeout_ms.unwrap_or(READ_BUDGET_MS));
    let fail = |provider: &str, source, reason, detail: String| {
        Err(failed(provider, source, &questions, reason, detail, read_by))
    };
    let leo_dir = request
        .leo_dir
        .clone()
        .or_else(|| leo_dir_for(request.env.get(PROJECT_ENV).as_deref(), std::env::current_dir().ok().as_deref()));

    // 1. The provider, resolved and reported as it is whatever happens to the catalog.
    let read;
    let config = match &request.config {
        Some(c) => c,
        None => {
            read = match &leo_dir {
                Some(dir) => {
                    let dir = dir.clone();
                    within(read_by, move || load_config(&dir)).unwrap_or_else(|| ConfigFile::Malformed {
                        path: crate::project::config_path(leo_dir.as_deref().unwrap_or(Path::new("."))),
                        error: format!(
                            "it could not be read within {}ms",
                            request.timeout_ms.unwrap_or(READ_BUDGET_MS)
                        ),
                    })
                }
                None => ConfigFile::Missing,
            };
            &read
        }
    };
    let (name, source) = match &request.provider {
        Some(ProviderChoice::Descriptor(d)) => (d.name.clone(), Source::Explicit),
        Some(ProviderChoice::Name(n)) => resolve_name(Some(n), config, &request.env),
        None => resolve_name(None, config, &request.env),
    };

    // 2. The catalog.
    let doc = match load_catalog(request.catalog.as_ref(), leo_dir.as_deref(), read_by) {
        Ok(doc) => doc,
        Err(e) => return fail(&name, source, FailureReason::NoCatalog, e.to_string()),
    };

    // 3. The descriptor.
    let descriptor = match &request.provider {
        Some(ProviderChoice::Descriptor(d)) => d.clone(),
        _ => {
            if name == NONE {
                let detail = match config {
                    ConfigFile::Malformed { path, error } => {
                        format!("no provider configured ({} is malformed: {error})", path.display())
                    }
                    _ => "no provider configured".to_string(),
                };
                return fail(NONE, source, FailureReason::NoProvider, detail);
            }
            match descriptor_for(&name, config) {
                Ok(d) => d,
                Err(e @ DescriptorLookup::Missing { .. }) => {
                    return fail(&name, source, FailureReason::NoProvider, e.to_string());
                }
                Err(e @ DescriptorLookup::Unparsable { .. }) => {
                    return fail(&name, source, FailureReason::Validation, e.to_string());
                }
            }
        }
    };
    let name = descriptor.name.clone();
    if wire_of(&name) == Some(Wire::None) {
        return fail(NONE, source, FailureReason::NoProvider, "no provider configured".into());
    }

    // 4. Validation: descriptor, catalog, the extra check, the question ids. A name no build
    // knows is no provider at all; an endpoint the wire does not speak is checked last.
    let rules = validate_descriptor(&descriptor).err().unwrap_or_default();
    if let Some(unknown) = rules.iter().find(|e| e.reason() == FailureReason::NoProvider) {
        return fail(&name, source, FailureReason::NoProvider, unknown.to_string());
    }
    let (unsupported, broken): (Vec<_>, Vec<_>) =
        rules.into_iter().partition(|e| e.reason() == FailureReason::Unsupported);
    let catalog = match validate(&broken, &doc, &questions, request.catalog_check, &descriptor) {
        Ok(c) => c,
        Err(detail) => return fail(&name, source, FailureReason::Validation, detail),
    };
    if let Some(e) = unsupported.first() {
        return fail(&name, source, FailureReason::Unsupported, e.to_string());
    }
    let wire = wire_of(&name).unwrap_or(Wire::None);

    // 5. The key, when the provider takes one.
    let key = match &descriptor.auth_env {
        None => String::new(),
        Some(var) => match request.env.get(var) {
            Some(key) => key,
            None => return fail(&name, source, FailureReason::Auth, format!("{var} is not set")),
        },
    };
    let budget_ms = request.timeout_ms.unwrap_or(descriptor.timeout_ms);
    Ok(Prepared {
        provider: name,
        source,
        descriptor,
        wire,
        catalog,
        questions,
        key: SecretKey::new(key),
        budget_ms,
        agent: std::sync::OnceLock::new(),
    })
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
    let one = |q: &Question| {
        let mut mine = Vec::new();
        let body = chat::request(&descriptor.name, &descriptor.model, state, q);
        let result = call
            .post_json(&body, &mut mine)
            .and_then(|resp| chat::answer(&descriptor.name, &descriptor.model, &resp.value, q));
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
    broken: &[DescriptorError],
    doc: &Document,
    questions: &[String],
    check: Option<CatalogCheck<'_>>,
    descriptor: &Descriptor,
) -> Result<Catalog, String> {
    let mut errors: Vec<String> = broken.iter().map(ToString::to_string).collect();
    errors.extend(doc.duplicates.iter().map(|d| format!("catalog: {d}")));
    if let Some(check) = check {
        errors.extend(check(&doc.value));
    }
    let catalog = match validate_catalog(&doc.value, descriptor) {
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

/// Why no catalog could be had: the detail of a `no_catalog` failure, naming the path.
#[derive(Debug, thiserror::Error)]
pub enum CatalogReadError {
    /// The request names no catalog.
    #[error("no catalog given")]
    NoneGiven,
    /// A name, with no `.leopold` directory to find it in.
    #[error("no catalog \"{name}\": no .leopold directory found")]
    NoLeoDir {
        /// The catalog name.
        name: String,
    },
    /// The file could not be read (missing, not a regular file, a pipe with no writer in time).
    #[error("no readable catalog at {}: {source}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file is not JSON.
    #[error("catalog {} is not JSON: {message}", path.display())]
    NotJson {
        /// The file.
        path: PathBuf,
        /// What the parser said, with the line and column.
        message: String,
    },
}

/// Read a catalog document by `deadline`. A path is read as given (it may be a pipe:
/// `--catalog <(...)`); a name is a file the project keeps, and anything but a regular file
/// there is refused.
pub fn load_catalog(
    catalog: Option<&CatalogRef>,
    leo_dir: Option<&Path>,
    deadline: Instant,
) -> Result<Document, CatalogReadError> {
    let (path, bytes) = match catalog {
        None => return Err(CatalogReadError::NoneGiven),
        Some(CatalogRef::Document(doc)) => return Ok(doc.clone()),
        Some(CatalogRef::Path(p)) => (p.clone(), read_input(p, deadline)),
        Some(CatalogRef::Name(n)) => match leo_dir {
            Some(d) => {
                let path = catalog_path(d, n);
                let owned = path.clone();
                let bytes = within(deadline, move || read_regular(&owned)).unwrap_or_else(|| {
                    Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "it could not be read in the time allowed"))
                });
                (path, bytes)
            }
            None => return Err(CatalogReadError::NoLeoDir { name: n.clone() }),
        },
    };
    catalog_from(path, bytes)
}

/// A catalog from what reading its file at `path` gave.
pub(crate) fn catalog_from(path: PathBuf, bytes: std::io::Result<Vec<u8>>) -> Result<Document, CatalogReadError> {
    let bytes = bytes.map_err(|source| CatalogReadError::Unreadable { path: path.clone(), source })?;
    Document::parse(&String::from_utf8_lossy(&bytes))
        .map_err(|e| CatalogReadError::NotJson { path, message: e.to_string() })
}
