//! HTTP under one deadline: a JSON POST with the key in one header, retries on congestion, and
//! the status mapping every provider shares.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::answer::{Failure, FailureReason};
use crate::json::{DuplicateKey, duplicate_keys};
use crate::secret::{SecretKey, clip};

/// At most this many attempts, on 429 / 503 / 529 only.
const MAX_ATTEMPTS: u32 = 3;
/// The delays before the second and third attempts when the server names none.
const BACKOFF_MS: [u64; 2] = [250, 500];
/// The HTTP read and write buffers.
const BUFFER: usize = 16 * 1024;
/// A response body larger than this is not an answer.
const BODY_LIMIT: u64 = 16 * 1024 * 1024;
/// How much of a server's error message a failure detail keeps.
pub(crate) const DETAIL_MAX: usize = 300;
/// An error body larger than this is not searched for a message: the detail keeps 300
/// characters of it, and parsing and redacting megabytes a hostile server sent would cost the
/// deadline.
const ERROR_BODY_MAX: usize = 64 * 1024;

/// A 200 body: the JSON, with the key redacted from every string in it, and the keys the text
/// repeated (which the JSON reader took last-wins).
#[derive(Debug)]
pub(crate) struct Body {
    pub value: Value,
    pub duplicates: Vec<DuplicateKey>,
}

/// A retry the transport made, for the caller to turn into a `decision_retry` event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Retry {
    pub attempt: u32,
    pub delay_ms: u64,
    pub status: u16,
}

/// Pacing shared by every call made from one prepared seam (the batch engine): a rate every
/// request waits its turn under, and a pause every caller honours when a server says it is
/// congested, not only the call that was told.
pub trait Pace: Send + Sync {
    /// Wait for a turn to send, until `deadline`; why not, when none comes in time.
    fn turn(&self, deadline: Instant) -> Result<(), Refused>;
    /// The server answered `status` (429, 503, 529) and asked for `wait`: every caller pauses.
    fn congested(&self, status: u16, wait: Duration);
    /// The server answered without pushing back.
    fn answered(&self) {}
}

/// Why a pace gave no turn before a deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The rate's next turn comes after it.
    Late,
    /// The provider asked every caller to wait (`status`, for `wait` more), past it.
    Paused {
        /// The status that asked.
        status: u16,
        /// How long is left of the pause.
        wait: Duration,
    },
}

/// Idle connections a prepared seam keeps open to its provider: one a batch worker, at the
/// most concurrency the CLI takes, so no worker ever opens a connection another just closed.
const IDLE: usize = 256;

/// The HTTP agent a prepared seam keeps: connections are kept alive and reused across calls.
pub(crate) fn agent() -> ureq::Agent {
    // ureq zeroes 128 KiB buffers each way by default: most of a hook's call, for a request
    // and an answer of a few KiB. Larger bodies still stream through the smaller buffers.
    let config = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .input_buffer_size(BUFFER)
        .output_buffer_size(BUFFER)
        .max_response_header_size(BUFFER)
        .max_idle_connections(IDLE)
        .max_idle_connections_per_host(IDLE)
        .build();
    ureq::Agent::with_parts(config, ureq::unversioned::transport::DefaultConnector::new(), Resolver::default())
}

/// Resolves an endpoint's host before every request (ureq resolves before it looks for a kept
/// connection). Its own resolver starts a thread a request to bound the lookup by the call's
/// timeout, even for an address that needs no lookup: at a batch's thousands of calls a second
/// against a local server, creating and unmapping those threads' stacks was most of the run's
/// CPU. An IP address (`127.0.0.1`, `[::1]`) is used as it is; a name still goes to ureq's
/// resolver, bounded as before.
#[derive(Debug, Default)]
struct Resolver {
    names: ureq::unversioned::resolver::DefaultResolver,
}

impl ureq::unversioned::resolver::Resolver for Resolver {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: ureq::unversioned::transport::NextTimeout,
    ) -> Result<ureq::unversioned::resolver::ResolvedSocketAddrs, ureq::Error> {
        let host = uri.host().map(|h| h.trim_start_matches('[').trim_end_matches(']'));
        let port = uri.port_u16().or_else(|| match uri.scheme_str() {
            Some("https") => Some(443),
            Some("http") => Some(80),
            _ => None,
        });
        match (host.and_then(|h| h.parse::<std::net::IpAddr>().ok()), port) {
            (Some(ip), Some(port)) => {
                let mut addrs = self.empty();
                addrs.push(std::net::SocketAddr::new(ip, port));
                Ok(addrs)
            }
            _ => self.names.resolve(uri, config, timeout),
        }
    }
}

/// One provider call's budget and identity.
pub(crate) struct Call<'a> {
    pub provider: &'a str,
    pub endpoint: &'a str,
    pub key: &'a SecretKey,
    pub deadline: Instant,
    pub budget_ms: u64,
    pub agent: &'a ureq::Agent,
    pub pace: Option<&'a dyn Pace>,
}

impl Call<'_> {
    pub(crate) fn timeout(&self) -> Failure {
        Failure::new(
            FailureReason::Timeout,
            self.provider,
            format!("provider \"{}\" did not answer within {}ms", self.provider, self.budget_ms),
        )
    }

    fn fail(&self, reason: FailureReason, detail: String) -> Failure {
        Failure::new(reason, self.provider, detail)
    }

    /// Parse a response body and redact the key from it, before anything reads it.
    fn parse(&self, bytes: &[u8]) -> Result<Value, serde_json::Error> {
        let mut v = serde_json::from_slice(bytes)?;
        self.key.redact_value(&mut v);
        Ok(v)
    }

    /// POST a JSON body and return the parsed 200 body, retrying on congestion.
    pub(crate) fn post_json(&self, body: &Value, retries: &mut Vec<Retry>) -> Result<Body, Failure> {
        // The key goes in one header and nowhere else, even when the state holds it.
        let mut body = body.clone();
        self.key.redact_value(&mut body);
        let payload = serde_json::to_vec(&body).map_err(|e| self.fail(FailureReason::Validation, e.to_string()))?;
        let mut attempt = 1;
        loop {
            if let Some(Err(why)) = self.pace.map(|p| p.turn(self.deadline)) {
                return Err(self.refused(why));
            }
            let remaining = self.deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(self.timeout());
            }
            let mut request = self
                .agent
                .post(self.endpoint)
                .config()
                .timeout_global(Some(remaining))
                .build()
                .header("Content-Type", "application/json")
                .header("Accept", "application/json");
            // A keyless endpoint (a local server) gets no Authorization header at all.
            if !self.key.is_empty() {
                request = request.header("Authorization", format!("Bearer {}", self.key.expose()));
            }
            let sent = request.send(&payload[..]);
            let mut resp = match sent {
                Ok(r) => r,
                Err(e) => return Err(self.transport_error(e)),
            };
            let status = resp.status().as_u16();
            let wait = retry_delay(resp.headers(), attempt);
            // Read the body to the end, also before a retry, so the connection is reusable.
            let bytes = resp.body_mut().with_config().limit(BODY_LIMIT).read_to_vec();
            let bytes = match bytes {
                Ok(b) => b,
                Err(e) => return Err(self.transport_error(e)),
            };
            let congested = matches!(status, 429 | 503 | 529);
            if !congested && let Some(p) = self.pace {
                p.answered();
            }
            if congested {
                if let Some(p) = self.pace {
                    p.congested(status, wait);
                }
                if attempt < MAX_ATTEMPTS && Instant::now() + wait < self.deadline {
                    retries.push(Retry { attempt, delay_ms: wait.as_millis() as u64, status });
                    // Under a shared pace, the next turn waits out the pause for every caller.
                    if self.pace.is_none() {
                        std::thread::sleep(wait);
                    }
                    attempt += 1;
                    continue;
                }
            }
            return match status {
                200..=299 => match self.parse(&bytes) {
                    Ok(value) => {
                        let duplicates = duplicate_keys(&String::from_utf8_lossy(&bytes));
                        Ok(Body { value, duplicates })
                    }
                    Err(e) => Err(self.fail(
                        FailureReason::Malformed,
                        format!("provider \"{}\" answered with a body that is not JSON: {e}", self.provider),
                    )),
                },
                _ => {
                    let message = (bytes.len() <= ERROR_BODY_MAX)
                        .then(|| self.parse(&bytes).ok())
                        .flatten()
                        .and_then(|v| error_message(&v));
                    Err(self.fail(status_reason(status), status_detail(status, message.as_deref())))
                }
            };
        }
    }

    /// No turn before the deadline: a rate too slow for the budget is a timeout; a pause the
    /// provider asked for that outlasts it is its congestion, worth retrying later.
    fn refused(&self, why: Refused) -> Failure {
        match why {
            Refused::Late => self.timeout(),
            Refused::Paused { status, wait } => self.fail(
                status_reason(status),
                format!(
                    "provider \"{}\" asked every request to wait {:.1} s more (HTTP {status}), past this item's {}ms budget",
                    self.provider,
                    wait.as_secs_f64(),
                    self.budget_ms
                ),
            ),
        }
    }

    fn transport_error(&self, e: ureq::Error) -> Failure {
        match e {
            ureq::Error::Timeout(_) => self.timeout(),
            e => {
                let said = self.key.redact(&e.to_string());
                self.fail(
                    FailureReason::Transport,
                    format!("{NO_RESPONSE} {}: {}", self.endpoint, clip(&said, DETAIL_MAX)),
                )
            }
        }
    }
}

/// How a transport failure's detail begins when no response came at all (a refused, reset or
/// failed connection): what tells an outage from a provider that answered with an error.
pub const NO_RESPONSE: &str = "no response from";

/// The failure reason an HTTP status maps to.
pub(crate) fn status_reason(status: u16) -> FailureReason {
    match status {
        401 | 403 => FailureReason::Auth,
        400 | 422 => FailureReason::Validation,
        429 => FailureReason::RateLimit,
        503 | 529 => FailureReason::Overloaded,
        // Not Implemented: the server is up but does not speak this route for its model (a
        // llama-server whose model is not a decision model answers /v1/systemone so).
        501 => FailureReason::Unsupported,
        _ => FailureReason::Transport,
    }
}

/// `HTTP <code>`, with the server's own message (already redacted) when its body carries one.
fn status_detail(status: u16, message: Option<&str>) -> String {
    match message {
        Some(m) => format!("HTTP {status}: {}", clip(m, DETAIL_MAX)),
        None => format!("HTTP {status}"),
    }
}

/// The message of the error shapes servers use: `{"detail": ...}` and `{"error": ...}`.
pub(crate) fn error_message(v: &Value) -> Option<String> {
    let e = v.get("detail").or_else(|| v.get("error"))?;
    Some(match e {
        Value::String(s) => s.clone(),
        Value::Object(o) => {
            let kind = o.get("error_type").or_else(|| o.get("type")).or_else(|| o.get("code"));
            let msg = o.get("message").and_then(Value::as_str).unwrap_or("");
            match kind {
                Some(k) => format!("{}: {msg}", k.as_str().map_or_else(|| k.to_string(), String::from)),
                None => msg.to_string(),
            }
        }
        Value::Array(items) => items
            .iter()
            .map(|i| {
                let loc = i.get("loc").map(|l| l.to_string()).unwrap_or_default();
                let msg = i.get("msg").and_then(Value::as_str).unwrap_or("");
                format!("{loc} {msg}").trim().to_string()
            })
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    })
}

/// The longest wait a `Retry-After` is read as: a year, far past any run's `--max-pause`.
pub const RETRY_AFTER_MAX: Duration = Duration::from_secs(365 * 86_400);

/// How long to wait before the next attempt: `retry-after-ms`, else `Retry-After` in (possibly
/// fractional) seconds, else the fixed backoff.
fn retry_delay(headers: &ureq::http::HeaderMap, attempt: u32) -> Duration {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    let ms = header("retry-after-ms").and_then(|v| v.parse::<f64>().ok());
    let secs = header("retry-after").and_then(|v| v.parse::<f64>().ok()).map(|s| s * 1000.0);
    match ms.or(secs).filter(|x| x.is_finite() && *x >= 0.0) {
        // Said as asked up to a year; past that, as more than a year.
        Some(ms) => Duration::from_millis(ms.min(RETRY_AFTER_MAX.as_millis() as f64).round() as u64),
        None => Duration::from_millis(BACKOFF_MS[(attempt as usize - 1).min(BACKOFF_MS.len() - 1)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ip_endpoint_is_used_as_written_and_a_name_is_looked_up() {
        use ureq::unversioned::resolver::Resolver as _;
        let resolver = Resolver::default();
        let config = ureq::config::Config::default();
        let resolve = |uri: &str| -> Vec<std::net::SocketAddr> {
            let uri: ureq::http::Uri = uri.parse().expect("uri");
            let timeout = ureq::unversioned::transport::NextTimeout {
                after: ureq::unversioned::transport::time::Duration::from_secs(2),
                reason: ureq::Timeout::Resolve,
                ..Default::default()
            };
            resolver.resolve(&uri, &config, timeout).map(|a| a.iter().copied().collect()).unwrap_or_default()
        };
        assert_eq!(resolve("http://127.0.0.1:8080/v1/systemone"), vec!["127.0.0.1:8080".parse().expect("addr")]);
        assert_eq!(resolve("https://[::1]/v1"), vec!["[::1]:443".parse().expect("addr")]);
        assert_eq!(resolve("http://10.1.2.3/v1"), vec!["10.1.2.3:80".parse().expect("addr")]);
        let local = resolve("http://localhost:9/v1");
        assert!(!local.is_empty() && local.iter().all(|a| a.ip().is_loopback() && a.port() == 9), "{local:?}");
    }

    #[test]
    fn statuses_map_as_the_table() {
        let cases = [
            (401, FailureReason::Auth),
            (403, FailureReason::Auth),
            (400, FailureReason::Validation),
            (422, FailureReason::Validation),
            (429, FailureReason::RateLimit),
            (503, FailureReason::Overloaded),
            (529, FailureReason::Overloaded),
            (501, FailureReason::Unsupported),
            (500, FailureReason::Transport),
            (502, FailureReason::Transport),
            (404, FailureReason::Transport),
            (302, FailureReason::Transport),
        ];
        for (status, reason) in cases {
            assert_eq!(status_reason(status), reason, "HTTP {status}");
        }
    }

    #[test]
    fn retry_delay_prefers_the_servers_word() {
        let mut h = ureq::http::HeaderMap::new();
        assert_eq!(retry_delay(&h, 1), Duration::from_millis(250));
        assert_eq!(retry_delay(&h, 2), Duration::from_millis(500));
        h.insert("retry-after", ureq::http::HeaderValue::from_static("0.1"));
        assert_eq!(retry_delay(&h, 1), Duration::from_millis(100));
        h.insert("retry-after-ms", ureq::http::HeaderValue::from_static("40"));
        assert_eq!(retry_delay(&h, 1), Duration::from_millis(40));
    }

    #[test]
    fn error_shapes_are_read() {
        let v: Value =
            serde_json::json!({"detail": [{"loc": ["body", "state"], "msg": "Field required", "type": "missing"}]});
        assert_eq!(error_message(&v).as_deref(), Some("[\"body\",\"state\"] Field required"));
        let v = serde_json::json!({"detail": {"error_type": "invalid_request", "message": "bad"}});
        assert_eq!(error_message(&v).as_deref(), Some("invalid_request: bad"));
        let v = serde_json::json!({"error": {"code": 502, "message": "upstream down"}});
        assert_eq!(error_message(&v).as_deref(), Some("502: upstream down"));
    }
}
