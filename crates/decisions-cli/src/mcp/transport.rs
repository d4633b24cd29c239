//! JSON-RPC over stdio, one message a line, as MCP's stdio transport frames it. Our own rather
//! than rmcp's, because rmcp ignores a line that is not JSON and answers a malformed message
//! without saying what is wrong: here a line that is not JSON is answered `-32700` (id null), a
//! message that is not JSON-RPC `-32600` naming the member at fault (with its id when it has
//! one), a frame over [`FRAME_MAX`] `-32600` saying so, and the server reads on. A notification
//! is never answered.
//!
//! Standard input is read on a thread of its own (bounded: a frame over the limit is skipped to
//! its newline, never held), which hands each message to the service; replies are written whole,
//! one line each, under a lock.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use decisions::Redactor;
use rmcp::RoleServer;
use rmcp::model::ErrorCode;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use serde_json::{Value, json};

/// The largest frame read: big enough that an oversized argument arrives whole and is refused
/// by name (a tool argument's own bound is far below it).
pub const FRAME_MAX: usize = 32 << 20;

/// The transport: messages from the reader thread, replies to standard output.
pub struct Stdio {
    rx: tokio::sync::mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
    out: Arc<Out>,
}

/// Standard output, and the keys no line written to it may hold.
struct Out {
    stdout: Mutex<std::io::Stdout>,
    redactor: Redactor,
}

impl Stdio {
    /// Start reading standard input. Every line written is first cleared of the keys
    /// `redactor` holds, whatever a tool, a provider or a caller put in it.
    pub fn start(redactor: Redactor) -> Stdio {
        let (tx, rx) = tokio::sync::mpsc::channel(64);
        let out = Arc::new(Out { stdout: Mutex::new(std::io::stdout()), redactor });
        let replies = out.clone();
        let spawned = std::thread::Builder::new().name("mcp-stdin".into()).spawn(move || {
            let mut input = std::io::stdin().lock();
            loop {
                let frame = match read_frame(&mut input) {
                    Frame::Eof => break,
                    Frame::Oversized => Err(error(
                        Value::Null,
                        ErrorCode::INVALID_REQUEST,
                        format!(
                            "the frame is over {} MiB, the most this server reads; it was skipped",
                            FRAME_MAX >> 20
                        ),
                    )),
                    Frame::Line(bytes) => parse(&bytes),
                };
                match frame {
                    Ok(Some(message)) => {
                        if tx.blocking_send(message).is_err() {
                            break;
                        }
                    }
                    Ok(None) => {}
                    Err(reply) => {
                        if write_line(&replies, reply).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        drop(spawned);
        Stdio { rx, out }
    }
}

impl rmcp::transport::Transport<RoleServer> for Stdio {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let out = self.out.clone();
        async move { write_line(&out, serde_json::to_value(&item).map_err(std::io::Error::other)?) }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        self.rx.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.rx.close();
        Ok(())
    }
}

/// One message, cleared of every key, written whole on one line.
fn write_line(out: &Out, mut message: Value) -> std::io::Result<()> {
    out.redactor.redact_value(&mut message);
    let mut line = serde_json::to_vec(&message).map_err(std::io::Error::other)?;
    line.push(b'\n');
    let mut out = out.stdout.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    out.write_all(&line)?;
    out.flush()
}

enum Frame {
    Line(Vec<u8>),
    Oversized,
    Eof,
}

/// The next line, without its newline; a line over the bound is read past, never kept.
fn read_frame(input: &mut impl BufRead) -> Frame {
    let mut line = Vec::new();
    let mut oversized = false;
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Frame::Eof,
        };
        if available.is_empty() {
            // A last line with no newline is still a frame.
            return match (oversized, line.is_empty()) {
                (true, _) => Frame::Oversized,
                (false, true) => Frame::Eof,
                (false, false) => Frame::Line(line),
            };
        }
        let newline = available.iter().position(|b| *b == b'\n');
        let take = newline.map_or(available.len(), |i| i + 1);
        if !oversized {
            if line.len() + take > FRAME_MAX + 1 {
                oversized = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(&available[..take]);
            }
        }
        input.consume(take);
        if newline.is_some() {
            if oversized {
                return Frame::Oversized;
            }
            line.pop();
            return Frame::Line(line);
        }
    }
}

/// A line as a message for the service (`None`: nothing to do), or the error reply it gets.
fn parse(line: &[u8]) -> Result<Option<RxJsonRpcMessage<RoleServer>>, Value> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let value: Value = serde_json::from_slice(line)
        .map_err(|e| error(Value::Null, ErrorCode::PARSE_ERROR, format!("the frame is not JSON: {e}")))?;
    let id = match value.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    };
    let notification = value.get("id").is_none() && value.get("method").is_some();
    if let Err(problem) = shape(&value) {
        return if notification { Ok(None) } else { Err(error(id, ErrorCode::INVALID_REQUEST, problem)) };
    }
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value) {
        Ok(message) => Ok(Some(message)),
        Err(_) if notification => Ok(None),
        Err(e) => Err(error(id, ErrorCode::INVALID_REQUEST, format!("not a JSON-RPC 2.0 message: {e}"))),
    }
}

/// What is wrong with a message's envelope, naming the member.
fn shape(v: &Value) -> Result<(), String> {
    let Some(obj) = v.as_object() else {
        return Err(if v.is_array() {
            "a batch (a JSON array) is not served: send one message a line".into()
        } else {
            "a message must be a JSON object".into()
        });
    };
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err("\"jsonrpc\": must be \"2.0\"".into());
    }
    if let Some(id) = obj.get("id")
        && !(id.is_string() || id.is_i64() || id.is_u64())
    {
        return Err("\"id\": must be a string or an integer".into());
    }
    match obj.get("method") {
        Some(Value::String(_)) => match obj.get("params") {
            Some(p) if !p.is_object() => Err("\"params\": must be an object".into()),
            _ => Ok(()),
        },
        Some(_) => Err("\"method\": must be a string".into()),
        None if obj.contains_key("result") || obj.contains_key("error") => {
            if obj.contains_key("id") {
                Ok(())
            } else {
                Err("\"id\": a response must carry one".into())
            }
        }
        None => Err("\"method\": missing (a request names its method)".into()),
    }
}

fn error(id: Value, code: ErrorCode, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code.0, "message": message}})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<String> {
        let mut r = std::io::BufReader::with_capacity(7, input);
        let mut out = Vec::new();
        loop {
            match read_frame(&mut r) {
                Frame::Eof => return out,
                Frame::Oversized => out.push("<oversized>".into()),
                Frame::Line(l) => out.push(String::from_utf8_lossy(&l).into_owned()),
            }
        }
    }

    #[test]
    fn frames_are_lines_and_a_last_line_without_newline_counts() {
        assert_eq!(frames(b"{\"a\":1}\n\n{\"b\":2}"), vec!["{\"a\":1}", "", "{\"b\":2}"]);
    }

    #[test]
    fn an_oversized_frame_is_skipped_to_its_newline_and_reading_goes_on() {
        let mut input = vec![b'x'; FRAME_MAX + 10];
        input.extend_from_slice(b"\nnext\n");
        assert_eq!(frames(&input), vec!["<oversized>", "next"]);
    }

    fn code_and_message(reply: Value) -> (i64, String, Value) {
        let e = &reply["error"];
        (
            e["code"].as_i64().unwrap_or_default(),
            e["message"].as_str().unwrap_or_default().to_string(),
            reply["id"].clone(),
        )
    }

    #[test]
    fn malformed_frames_get_errors_naming_what_is_wrong() {
        let (code, message, id) = code_and_message(parse(b"{not json").expect_err("an error"));
        assert_eq!((code, id), (-32700, Value::Null));
        assert!(message.contains("not JSON"), "{message}");
        let (code, message, id) = code_and_message(parse(br#"{"jsonrpc":"2.0","id":7}"#).expect_err("an error"));
        assert_eq!((code, id), (-32600, json!(7)));
        assert!(message.contains("\"method\""), "{message}");
        let (_, message, _) =
            code_and_message(parse(br#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#).expect_err("an error"));
        assert!(message.contains("\"jsonrpc\""), "{message}");
        let (_, message, _) =
            code_and_message(parse(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#).expect_err("an error"));
        assert!(message.contains("batch"), "{message}");
    }

    #[test]
    fn a_bad_notification_is_never_answered_and_a_good_request_passes() {
        assert!(matches!(parse(br#"{"jsonrpc":"1.0","method":"notifications/x"}"#), Ok(None)));
        assert!(matches!(parse(b"   "), Ok(None)));
        assert!(matches!(parse(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), Ok(Some(_))));
    }
}
