//! Test support: a scriptable HTTP/1.1 stub server on 127.0.0.1, a launcher for the
//! third-party `jevcompat mock` System One server, and the local model servers ([`Peer`]).
//!
//! The stub serves a script of [`Reply`]s in order (the last one repeats) and records every
//! request it reads. Started with [`Stub::start`], each connection gets one response and is
//! closed; started with [`Stub::keep_alive`], a connection serves request after request, as a
//! real server does, and [`Stub::connections`] tells how many the clients opened. The script
//! can be replaced while it runs ([`Stub::replace`]), so one server can play many behaviours.

#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// A reply computed from the request it answers.
pub type Responder = Arc<dyn Fn(&Recorded) -> Reply + Send + Sync>;

/// What the stub does with one request.
#[derive(Clone)]
pub enum Reply {
    /// Answer with a status, headers and body, after an optional delay.
    Respond {
        /// HTTP status.
        status: u16,
        /// Extra headers.
        headers: Vec<(String, String)>,
        /// The body.
        body: String,
        /// How long to wait before answering.
        delay: Duration,
    },
    /// Read the request and never answer (until the client goes away).
    Hang,
    /// Send a 200 head promising a large body, then one byte every interval.
    Drip(Duration),
    /// Close the connection without answering.
    Close,
    /// Send these bytes as the whole response, however broken, then close.
    Raw(Vec<u8>),
    /// Whatever this function makes of the request.
    Computed(Responder),
}

impl std::fmt::Debug for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reply::Respond { status, .. } => write!(f, "Respond({status})"),
            Reply::Hang => f.write_str("Hang"),
            Reply::Drip(d) => write!(f, "Drip({d:?})"),
            Reply::Close => f.write_str("Close"),
            Reply::Raw(b) => write!(f, "Raw({} bytes)", b.len()),
            Reply::Computed(_) => f.write_str("Computed"),
        }
    }
}

impl Reply {
    /// A JSON 200.
    pub fn json(body: &serde_json::Value) -> Reply {
        Reply::status(200, &body.to_string())
    }

    /// A status with a body.
    pub fn status(status: u16, body: &str) -> Reply {
        Reply::Respond { status, headers: Vec::new(), body: body.to_string(), delay: Duration::ZERO }
    }

    /// Add a header.
    pub fn header(mut self, name: &str, value: &str) -> Reply {
        if let Reply::Respond { headers, .. } = &mut self {
            headers.push((name.to_string(), value.to_string()));
        }
        self
    }

    /// A reply computed from each request.
    pub fn computed(f: impl Fn(&Recorded) -> Reply + Send + Sync + 'static) -> Reply {
        Reply::Computed(Arc::new(f))
    }

    /// Delay the answer.
    pub fn delayed(mut self, by: Duration) -> Reply {
        if let Reply::Respond { delay, .. } = &mut self {
            *delay = by;
        }
        self
    }
}

/// One request the stub read.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// The request line's method.
    pub method: String,
    /// The request line's path.
    pub path: String,
    /// Headers, names lowercased.
    pub headers: Vec<(String, String)>,
    /// The body as text.
    pub body: String,
}

impl Recorded {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The body parsed as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

/// A running stub server.
pub struct Stub {
    addr: std::net::SocketAddr,
    shared: Arc<Shared>,
}

/// What the server's threads share.
struct Shared {
    requests: Mutex<Vec<Recorded>>,
    script: Mutex<Vec<Reply>>,
    next: AtomicUsize,
    connections: AtomicUsize,
}

impl Shared {
    /// The next reply of the script (the last one repeats).
    fn next_reply(&self) -> Reply {
        let i = self.next.fetch_add(1, Ordering::SeqCst);
        let script = self.script.lock().unwrap();
        script.get(i).or(script.last()).cloned().unwrap_or(Reply::Close)
    }
}

impl Stub {
    /// Start serving `script` on an ephemeral loopback port, one request a connection.
    pub fn start(script: Vec<Reply>) -> Stub {
        Stub::serving(script, false)
    }

    /// Start serving `script` with connections kept alive: each connection serves requests
    /// until the client closes it (a reply other than [`Reply::Respond`] still closes it).
    pub fn keep_alive(script: Vec<Reply>) -> Stub {
        Stub::serving(script, true)
    }

    fn serving(script: Vec<Reply>, keep_alive: bool) -> Stub {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Shared {
            requests: Mutex::new(Vec::new()),
            script: Mutex::new(script),
            next: AtomicUsize::new(0),
            connections: AtomicUsize::new(0),
        });
        let served = Arc::clone(&shared);
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                // Replies go out whole, at once: no waiting on Nagle for a delayed ACK.
                let _ = stream.set_nodelay(true);
                served.connections.fetch_add(1, Ordering::SeqCst);
                let shared = Arc::clone(&served);
                if keep_alive {
                    thread::spawn(move || while serve_kept(&stream, &shared) {});
                } else {
                    // The reply is the one due when the connection came, whenever it is read.
                    let reply = shared.next_reply();
                    thread::spawn(move || serve(stream, reply, &shared.requests));
                }
            }
        });
        Stub { addr, shared }
    }

    /// Connections accepted so far.
    pub fn connections(&self) -> usize {
        self.shared.connections.load(Ordering::SeqCst)
    }

    /// Serve a new script from its first reply on, and forget the requests seen so far.
    pub fn replace(&self, script: Vec<Reply>) {
        *self.shared.script.lock().unwrap() = script;
        self.shared.next.store(0, Ordering::SeqCst);
        self.shared.requests.lock().unwrap().clear();
    }

    /// A URL on the stub.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The requests read so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.requests.lock().unwrap().clone()
    }
}

/// A port that is listening but whose owner never accepts: connections sit in the backlog.
pub fn never_accepting() -> (TcpListener, String) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1/systemone", listener.local_addr().unwrap());
    (listener, url)
}

/// A loopback URL on which nothing listens.
pub fn refusing_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1/systemone", listener.local_addr().unwrap());
    drop(listener);
    url
}

/// Serve one request on a kept-alive connection; whether the connection stays open.
fn serve_kept(stream: &TcpStream, shared: &Shared) -> bool {
    let Some(recorded) = read_request(stream) else { return false };
    let reply = match shared.next_reply() {
        Reply::Computed(f) => f(&recorded),
        other => other,
    };
    let Reply::Respond { status, headers, body, delay } = reply else {
        // Anything else is served as on a one-shot connection, which it then closes.
        if let Ok(stream) = stream.try_clone() {
            serve_recorded(stream, recorded, reply, &shared.requests);
        }
        return false;
    };
    shared.requests.lock().unwrap().push(recorded);
    thread::sleep(delay);
    let mut response = response_head(status, &headers, body.len(), true);
    response.extend_from_slice(body.as_bytes());
    let mut out = stream;
    out.write_all(&response).is_ok() && out.flush().is_ok()
}

/// A response's head: the status, the length, whether the connection stays open, the headers.
fn response_head(status: u16, headers: &[(String, String)], len: usize, keep: bool) -> Vec<u8> {
    let connection = if keep { "keep-alive" } else { "close" };
    let mut head = format!("HTTP/1.1 {status} Stub\r\nContent-Length: {len}\r\nConnection: {connection}\r\n");
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("content-type")) {
        head.push_str("Content-Type: application/json\r\n");
    }
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    head.into_bytes()
}

fn serve(stream: TcpStream, reply: Reply, seen: &Mutex<Vec<Recorded>>) {
    let Some(recorded) = read_request(&stream) else { return };
    serve_recorded(stream, recorded, reply, seen);
}

fn serve_recorded(stream: TcpStream, recorded: Recorded, reply: Reply, seen: &Mutex<Vec<Recorded>>) {
    let reply = match reply {
        Reply::Computed(f) => f(&recorded),
        other => other,
    };
    seen.lock().unwrap().push(recorded);
    let mut out = stream;
    match reply {
        Reply::Respond { status, headers, body, delay } => {
            thread::sleep(delay);
            let _ = out.write_all(&response_head(status, &headers, body.len(), false));
            let _ = out.write_all(body.as_bytes());
            let _ = out.flush();
            let _ = out.shutdown(Shutdown::Write);
            // Let the client read to the end before the socket closes.
            let mut sink = [0u8; 64];
            let _ = out.set_read_timeout(Some(Duration::from_secs(2)));
            let _ = out.read(&mut sink);
        }
        Reply::Hang => {
            // Hold the connection open until the client gives up on it.
            let _ = out.set_read_timeout(Some(Duration::from_secs(60)));
            let mut sink = [0u8; 64];
            while matches!(out.read(&mut sink), Ok(n) if n > 0) {}
        }
        Reply::Drip(every) => {
            let _ =
                out.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n");
            let until = Instant::now() + Duration::from_secs(60);
            while Instant::now() < until {
                if out.write_all(b" ").is_err() {
                    break;
                }
                thread::sleep(every);
            }
        }
        Reply::Close | Reply::Computed(_) => {}
        Reply::Raw(bytes) => {
            let _ = out.write_all(&bytes);
            let _ = out.flush();
            let _ = out.shutdown(Shutdown::Write);
            let mut sink = [0u8; 64];
            let _ = out.set_read_timeout(Some(Duration::from_secs(2)));
            let _ = out.read(&mut sink);
        }
    }
}

fn read_request(stream: &TcpStream) -> Option<Recorded> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).ok()?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (n, v) = h.split_once(':')?;
        headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
    }
    let len: usize = headers.iter().find(|(n, _)| n == "content-length").and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
    let mut body = vec![0; len];
    reader.read_exact(&mut body).ok()?;
    Some(Recorded { method, path, headers, body: String::from_utf8_lossy(&body).into_owned() })
}

/// A command installed by `scripts/test.sh` into the virtual environment under `target/`, else
/// the one on `PATH`.
pub fn python_tool(name: &str) -> std::path::PathBuf {
    let venv = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/venv/bin").join(name);
    if venv.is_file() { venv } else { std::path::PathBuf::from(name) }
}

/// A running `jevcompat mock`, killed on drop.
pub struct Jevcompat {
    child: Child,
    port: u16,
}

impl Jevcompat {
    /// Start `jevcompat mock` with a key and faults; waits until it accepts connections.
    pub fn start(key: &str, faults: &[&str]) -> Jevcompat {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut cmd = Command::new(python_tool("jevcompat"));
        cmd.args(["mock", "--host", "127.0.0.1", "--port", &port.to_string(), "--key", key]);
        for f in faults {
            cmd.args(["--fault", f]);
        }
        let child = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("jevcompat is installed: scripts/test.sh puts it in target/venv");
        let mock = Jevcompat { child, port };
        let until = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < until, "jevcompat mock did not start on port {port}");
            thread::sleep(Duration::from_millis(50));
        }
        mock
    }

    /// The System One endpoint.
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}/v1/systemone", self.port)
    }
}

impl Drop for Jevcompat {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A local model server the tests ask: the one `scripts/test.sh` started (its URL in an
/// environment variable), else one started here from the virtual environment and killed on
/// drop. Either way the tests meet the real server, never a stand-in.
pub struct Peer {
    child: Option<Child>,
    url: String,
}

impl Peer {
    /// `sparrow-decider serve`: a System One decision model (`DECISIONS_TEST_SPARROW`).
    pub fn sparrow() -> Peer {
        Peer::shared_or("DECISIONS_TEST_SPARROW", |port| {
            let mut c = Command::new(python_tool("sparrow-decider"));
            c.args(["serve", "--host", "127.0.0.1", "--port", &port.to_string()]);
            c
        })
    }

    /// llama-server (xllamacpp) with SmolLM2-135M-Instruct (`DECISIONS_TEST_LLAMA`).
    pub fn llama() -> Peer {
        Peer::shared_or("DECISIONS_TEST_LLAMA", |port| {
            let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/llama_server.py");
            let mut c = Command::new(python_tool("python"));
            c.arg(script).args(["--port", &port.to_string()]);
            c
        })
    }

    fn shared_or(var: &str, command: impl Fn(u16) -> Command) -> Peer {
        if let Ok(url) = std::env::var(var) {
            let peer = Peer { child: None, url: url.trim_end_matches('/').to_string() };
            peer.wait_ready();
            return peer;
        }
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = command(port)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{var} is unset and the peer did not start ({e}): run scripts/test.sh"));
        let peer = Peer { child: Some(child), url: format!("http://127.0.0.1:{port}") };
        peer.wait_ready();
        peer
    }

    /// Wait (up to a minute) until the server answers `GET /health` with 200, or for a server
    /// without that route, until any `GET` is answered at all with something but 503.
    fn wait_ready(&self) {
        let addr = self.url.trim_start_matches("http://").to_string();
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            let ready = TcpStream::connect(&addr).ok().and_then(|mut s| {
                s.set_read_timeout(Some(Duration::from_secs(2))).ok()?;
                s.write_all(format!("GET /health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes())
                    .ok()?;
                let mut head = String::new();
                BufReader::new(s).read_line(&mut head).ok()?;
                Some(head.starts_with("HTTP/") && !head.contains(" 503"))
            });
            if ready == Some(true) {
                return;
            }
            assert!(Instant::now() < until, "the peer at {} did not come up within a minute", self.url);
            thread::sleep(Duration::from_millis(100));
        }
    }

    /// The server's base URL, without a trailing slash.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
