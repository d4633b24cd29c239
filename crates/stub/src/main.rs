//! `stub-server`: serve one fixed JSON body on loopback, for the benchmarks.
//!
//! Usage: `stub-server BODY_FILE [--keep-alive] [--delay-ms N] [--limit N/min]` — prints its
//! base URL, then serves until killed. `--delay-ms` is a fixed service time per request;
//! `--limit` enforces a rate as a real API does, with a token bucket holding one second's worth
//! of requests and a `429` with `Retry-After: 1` beyond it. `GET /stats` answers
//! `{"requests": N, "limited": N}` (requests answered 200, and 429s sent).

#![allow(clippy::unwrap_used)]

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use stub::Reply;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: stub-server BODY_FILE [--keep-alive] [--delay-ms N] [--limit N/min]";
    let path = args.first().expect(usage);
    let flag = |name: &str| args.iter().position(|a| a == name).map(|i| args.get(i + 1).expect(usage).clone());
    let body: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let delay = Duration::from_millis(flag("--delay-ms").map_or(0, |d| d.parse().expect(usage)));
    let per_minute: Option<f64> =
        flag("--limit").map(|l| l.trim_end_matches("/min").parse().expect("--limit takes N/min"));
    let ok = Reply::json(&body).delayed(delay);
    let bucket = per_minute.map(|n| Mutex::new(Bucket::new(n / 60.0)));
    let (served, limited) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let reply = Reply::computed(move |req| {
        if req.path == "/stats" {
            let stats = json!({"requests": served.load(Ordering::SeqCst), "limited": limited.load(Ordering::SeqCst)});
            return Reply::json(&stats);
        }
        if bucket.as_ref().is_some_and(|b| !b.lock().unwrap().take()) {
            limited.fetch_add(1, Ordering::SeqCst);
            return Reply::status(429, r#"{"error":{"message":"rate limit exceeded"}}"#).header("Retry-After", "1");
        }
        served.fetch_add(1, Ordering::SeqCst);
        ok.clone()
    });
    let stub = if args.iter().any(|a| a == "--keep-alive") {
        stub::Stub::keep_alive(vec![reply])
    } else {
        stub::Stub::start(vec![reply])
    };
    println!("{}", stub.url(""));
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

/// A token bucket: `rate` tokens a second, holding at most one second's worth.
struct Bucket {
    rate: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn new(rate: f64) -> Bucket {
        Bucket { rate, tokens: rate.max(1.0), at: Instant::now() }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.rate.max(1.0));
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}
