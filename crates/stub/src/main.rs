//! `stub-server`: serve one fixed JSON body on loopback, for the latency benchmarks.
//!
//! Usage: stub-server BODY_FILE — prints the port it listens on, then serves until killed.

#![allow(clippy::unwrap_used)]

fn main() {
    let path = std::env::args().nth(1).expect("usage: stub-server BODY_FILE");
    let body: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let stub = stub::Stub::start(vec![stub::Reply::json(&body)]);
    println!("{}", stub.url(""));
    loop {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
}
