//! `stub-server`: serve one fixed JSON body on loopback, for the benchmarks.
//!
//! Usage: `stub-server BODY_FILE [--keep-alive] [--delay-ms N] [--limit N/s|N/min]
//! [--limiter bucket|sliding|fixed] [--burst N]` — prints its base URL, then serves until
//! killed. `--delay-ms` is a fixed service time per request. `--limit` enforces a rate as a
//! real API does, answering `429` with `Retry-After: 1` beyond it, by one of three limiters:
//!
//! - `bucket` (the default): a token bucket refilled at the rate, holding `--burst` tokens
//!   (default one second's worth);
//! - `sliding`: at most the rate's one second's worth in any last second (a strict sliding
//!   window);
//! - `fixed`: at most one second's worth in each whole second since the server started.
//!
//! A refused request does not count against the limit. `GET /stats` answers
//! `{"requests": N, "limited": N}` (requests answered 200, and 429s sent).

#![allow(clippy::unwrap_used)]

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use stub::Reply;

const USAGE: &str = "usage: stub-server BODY_FILE [--keep-alive] [--delay-ms N] [--limit N/s|N/min] [--limiter bucket|sliding|fixed] [--burst N]";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().expect(USAGE);
    let flag = |name: &str| args.iter().position(|a| a == name).map(|i| args.get(i + 1).expect(USAGE).clone());
    let body: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let delay = Duration::from_millis(flag("--delay-ms").map_or(0, |d| d.parse().expect(USAGE)));
    let per_second: Option<f64> = flag("--limit").map(|l| {
        let (n, unit) = l.split_once('/').expect("--limit takes N/s or N/min");
        let n: f64 = n.parse().expect("--limit takes N/s or N/min");
        match unit {
            "s" => n,
            "min" => n / 60.0,
            _ => panic!("--limit takes N/s or N/min"),
        }
    });
    let limiter = per_second.map(|rate| {
        let burst = flag("--burst").map_or(rate.max(1.0), |b| b.parse().expect(USAGE));
        Mutex::new(match flag("--limiter").as_deref().unwrap_or("bucket") {
            "bucket" => Limiter::Bucket { rate, burst, tokens: burst, at: Instant::now() },
            "sliding" => Limiter::Sliding { limit: rate.round() as usize, accepted: VecDeque::new() },
            "fixed" => Limiter::Fixed { limit: rate.round() as u64, started: Instant::now(), window: 0, count: 0 },
            other => panic!("--limiter {other}: {USAGE}"),
        })
    });
    let ok = Reply::json(&body).delayed(delay);
    let (served, limited) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let reply = Reply::computed(move |req| {
        if req.path == "/stats" {
            let stats = json!({"requests": served.load(Ordering::SeqCst), "limited": limited.load(Ordering::SeqCst)});
            return Reply::json(&stats);
        }
        if limiter.as_ref().is_some_and(|l| !l.lock().unwrap().take()) {
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

/// How the server decides a request is one too many.
enum Limiter {
    /// `rate` tokens a second, holding at most `burst`.
    Bucket { rate: f64, burst: f64, tokens: f64, at: Instant },
    /// At most `limit` accepted in any last second.
    Sliding { limit: usize, accepted: VecDeque<Instant> },
    /// At most `limit` accepted in each whole second since `started`.
    Fixed { limit: u64, started: Instant, window: u64, count: u64 },
}

impl Limiter {
    /// Whether this request is let through (and counted).
    fn take(&mut self) -> bool {
        let now = Instant::now();
        match self {
            Limiter::Bucket { rate, burst, tokens, at } => {
                *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * *rate).min(*burst);
                *at = now;
                let ok = *tokens >= 1.0;
                if ok {
                    *tokens -= 1.0;
                }
                ok
            }
            Limiter::Sliding { limit, accepted } => {
                while accepted.front().is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(1)) {
                    accepted.pop_front();
                }
                let ok = accepted.len() < *limit;
                if ok {
                    accepted.push_back(now);
                }
                ok
            }
            Limiter::Fixed { limit, started, window, count } => {
                let w = now.duration_since(*started).as_secs();
                if w != *window {
                    (*window, *count) = (w, 0);
                }
                let ok = *count < *limit;
                if ok {
                    *count += 1;
                }
                ok
            }
        }
    }
}
