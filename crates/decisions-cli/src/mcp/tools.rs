//! The tools: their schemas, their arguments checked by name, and each one's answer, made by the
//! code the matching command runs and printed as it prints it.
//!
//! | tool | the command it answers as |
//! |---|---|
//! | `ask` | `decisions ask --catalog NAME --questions a,b --state JSON` |
//! | `guard_check` | `decisions hook test --json [--agent A] [--cwd DIR] COMMAND` |
//! | `route` | `decisions route --no-record --no-log --repo ROOT --item TEXT [--files a,b]` |
//! | `judgment_search` | `decisions judgment search --project NAME [--query Q]` |
//! | `judgment_recall` | `decisions judgment recall --project NAME --question Q` |
//! | `card_validate` | `decisions card validate --json CARD` |
//! | `card_recall` | `decisions card recall --project NAME CARD` |

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use decisions::agent::Agent;
use decisions::consumer::routing::{RouteRequest, route};
use rmcp::model::{ErrorData, JsonObject, Tool, ToolAnnotations};
use serde_json::{Value, json};

use super::Project;

/// The most a tool argument may hold, as JSON text. A state, a command or a card larger than
/// this is a mistake, not a question.
pub const FIELD_MAX: usize = 1 << 20;

/// The tools, in the order they are listed.
pub const TOOLS: &[&str] =
    &["guard_check", "judgment_recall", "judgment_search", "card_validate", "card_recall", "ask", "route"];

/// A tool's answer: the command's standard output, and that JSON.
pub struct Answered {
    pub text: String,
    pub structured: Value,
}

/// Every tool, with its input and output schemas.
pub fn list() -> Vec<Tool> {
    TOOLS.iter().map(|name| tool(name)).collect()
}

fn tool(name: &'static str) -> Tool {
    let (description, input, output) = schema(name);
    let object = |v: Value| Arc::new(v.as_object().cloned().unwrap_or_default());
    Tool::new(name, description, object(input))
        .with_raw_output_schema(object(output))
        .with_annotations(ToolAnnotations::new().read_only(true).destructive(false).open_world(name == "ask"))
}

fn schema(name: &str) -> (&'static str, Value, Value) {
    let string = json!({"type": "string"});
    let nullable = |t: &str| json!({"type": [t, "null"]});
    let judgment = json!({"type": "object", "required": ["id", "project", "decided_at", "question", "answer", "rationale", "card_ref", "tags"]});
    let recalled = json!({"type": "object", "required": ["summary", "decision", "outcome", "decided_at", "mem_id"]});
    let card = json!({"description": "The Decision Card (judgment-card.v1): the object, or its JSON text", "type": ["object", "string"]});
    match name {
        "ask" => (
            "Ask the project's catalog typed questions about a state: the decisions/1.0 decision, as `decisions ask` prints it. Act on an answer only when \"usable\" is true (every question in the act band); otherwise your own fallback stands.",
            json!({"type": "object", "required": ["catalog", "questions", "state"], "additionalProperties": false, "properties": {
                "catalog": {"type": "string", "description": "A catalog of the project, by name (.leopold/decisions/<name>.json)"},
                "questions": {"type": "array", "items": string, "minItems": 1, "description": "The question ids to ask"},
                "state": {"description": "What the questions are about (an object, array or string)"},
                "timeout_ms": {"type": "integer", "minimum": 1, "description": "The ask's budget [default: the provider's timeout_ms]"}}}),
            json!({"type": "object", "required": ["provider", "source", "usable", "answers", "bands", "events"], "properties": {
                "provider": string, "source": string, "usable": {"type": "boolean"},
                "answers": {"type": "object"}, "bands": {"type": "object"}, "events": {"type": "array"}}}),
        ),
        "guard_check" => (
            "What the project's permission hook would do with a shell command, before you run it: provider, score, band, act bar, verdict (\"deny\" or \"stand aside\") and why, as `decisions hook test --json` prints it. Writes no event.",
            json!({"type": "object", "required": ["command"], "additionalProperties": false, "properties": {
                "command": {"type": "string", "description": "The shell command"},
                "cwd": {"type": "string", "description": "The directory it would run in, inside the project [default: the project's]"},
                "agent": {"type": "string", "enum": Agent::ALL.iter().map(|a| a.name()).collect::<Vec<_>>(), "description": "The agent whose hook to play [default: claude-code]"}}}),
            json!({"type": "object", "required": ["agent", "event", "command", "verdict", "why", "elapsed_ms", "budget_ms"], "properties": {
                "agent": string, "event": string, "command": string, "project": nullable("string"),
                "provider": nullable("string"), "source": nullable("string"), "model": nullable("string"),
                "score": nullable("number"), "top": nullable("integer"), "band": nullable("string"),
                "certainty": nullable("number"), "bar": nullable("number"),
                "verdict": {"type": "string", "enum": ["deny", "stand aside"]}, "why": string,
                "reply": nullable("object"), "elapsed_ms": {"type": "integer"}, "budget_ms": {"type": "integer"}}}),
        ),
        "route" => (
            "Route a plan item: how much verification effort it deserves (effort), whether it is critical, why, and whether the keyword classifier or a model decided, as `decisions route --no-record` prints it.",
            json!({"type": "object", "required": ["item"], "additionalProperties": false, "properties": {
                "item": {"type": "string", "description": "The plan item's text"},
                "charter": {"type": "string", "description": "The project charter, whose high-risk wording raises ordinary items"},
                "files": {"type": "array", "items": string, "description": "The paths to judge, relative to the project [default: those the item names]"}}}),
            json!({"type": "object", "required": ["effort", "critical", "reason", "decided_by", "recorded", "events"], "properties": {
                "effort": string, "critical": {"type": "boolean"}, "reason": string, "decided_by": string,
                "recorded": {"type": "array"}, "events": {"type": "array"}}}),
        ),
        "judgment_search" => (
            "The project's judgment ledger: its best matches for a query (at most 3; its newest without one), each a judgment a person recorded.",
            json!({"type": "object", "additionalProperties": false, "properties": {
                "query": {"type": "string", "description": "Words to look for"}}}),
            json!({"type": "object", "required": ["judgments"], "properties": {"judgments": {"type": "array", "maxItems": 3, "items": judgment}}}),
        ),
        "judgment_recall" => (
            "Past decisions people made on this project similar to a question (at most 3), as a Decision Card's similar_past_decisions holds them.",
            json!({"type": "object", "required": ["question"], "additionalProperties": false, "properties": {
                "question": {"type": "string", "description": "The question to find similar past decisions for"}}}),
            json!({"type": "object", "required": ["similar_past_decisions"], "properties": {"similar_past_decisions": {"type": "array", "maxItems": 3, "items": recalled}}}),
        ),
        "card_validate" => (
            "Check a Decision Card against judgment-card.v1: whether it is valid, and every problem, each naming where.",
            json!({"type": "object", "required": ["card"], "additionalProperties": false, "properties": {"card": card}}),
            json!({"type": "object", "required": ["valid", "problems"], "properties": {"valid": {"type": "boolean"}, "problems": {"type": "array", "items": string}}}),
        ),
        "card_recall" => (
            "A valid Decision Card with similar_past_decisions filled from the project's judgment ledger (at most 3). An invalid card is an error listing every problem.",
            json!({"type": "object", "required": ["card"], "additionalProperties": false, "properties": {"card": card}}),
            json!({"type": "object", "required": ["question", "similar_past_decisions"], "properties": {"similar_past_decisions": {"type": "array", "maxItems": 3, "items": recalled}}}),
        ),
        _ => unreachable!("a tool of TOOLS"),
    }
}

/// Call a tool.
pub fn call(project: &Project, name: &str, arguments: JsonObject) -> Result<Answered, ErrorData> {
    let Some(tool) = TOOLS.iter().copied().find(|t| *t == name) else {
        return Err(ErrorData::invalid_params(
            format!("no tool {name:?}; the tools: {}", TOOLS.join(", ")),
            Some(json!({"tool": name})),
        ));
    };
    let args = Args::new(tool, arguments)?;
    match tool {
        "ask" => ask(project, &args),
        "guard_check" => guard_check(project, &args),
        "route" => route_item(project, &args),
        "judgment_search" => {
            let found = crate::judgments::search_fail_open(
                &project.judgments,
                &project.name,
                &args.string("query")?.unwrap_or_default(),
            );
            let mut text = String::new();
            for j in &found {
                text.push_str(&line(j, false)?);
            }
            Ok(Answered { text, structured: json!({"judgments": found}) })
        }
        "judgment_recall" => {
            let question = args.required("question")?;
            let found = crate::judgments::recall_fail_open(&project.judgments, &project.name, &question);
            Ok(Answered { text: line(&found, false)?, structured: json!({"similar_past_decisions": found}) })
        }
        "card_validate" => {
            let card = args.card()?;
            let validation = crate::judgments::validation(&crate::judgments::problems(&card));
            Ok(Answered { text: line(&validation, false)?, structured: validation })
        }
        "card_recall" => {
            let card = args.card()?;
            let problems = crate::judgments::problems(&card);
            if !problems.is_empty() {
                return Err(args.bad(
                    "card",
                    format!("breaks judgment-card.v1: {}", problems.join("; ")),
                    Some(json!({"problems": problems})),
                ));
            }
            let filled = crate::judgments::recall_into(card.value, &project.judgments, &project.name)
                .map_err(|e| ErrorData::internal_error(e, None))?;
            Ok(Answered { text: line(&filled, true)?, structured: filled })
        }
        _ => unreachable!("a tool of TOOLS"),
    }
}

fn ask(project: &Project, args: &Args) -> Result<Answered, ErrorData> {
    let catalog = args.required("catalog")?;
    if catalog.is_empty() || !catalog.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(args.bad(
            "catalog",
            format!(
                "{catalog:?} is not a catalog name (letters, digits, _ and -: a catalog of this project, never a path)"
            ),
            None,
        ));
    }
    let questions = args.strings("questions")?.unwrap_or_default();
    let questions: Vec<String> = questions.iter().map(|q| q.trim().to_string()).filter(|q| !q.is_empty()).collect();
    if questions.is_empty() {
        return Err(args.bad("questions", "give at least one question id".into(), None));
    }
    let state = match args.get("state") {
        None => return Err(args.bad("state", "missing (what the questions are about)".into(), None)),
        Some(Value::Null) => return Err(args.bad("state", "must be a string, object or array, not null".into(), None)),
        Some(v) => v.clone(),
    };
    let timeout_ms = match args.get("timeout_ms") {
        None => None,
        Some(v) => match v.as_u64().filter(|ms| *ms > 0) {
            Some(ms) => Some(ms),
            None => {
                return Err(args.bad("timeout_ms", "must be a whole number of milliseconds, at least 1".into(), None));
            }
        },
    };
    let read_by = crate::seam::after(Instant::now(), timeout_ms.unwrap_or(decisions::READ_BUDGET_MS));
    let request = decisions::Request {
        catalog: Some(decisions::CatalogRef::Name(catalog)),
        questions,
        state,
        leo_dir: Some(project.leo.clone()),
        config: Some(crate::seam::project_config_by(Some(&project.leo), read_by)),
        timeout_ms,
        ..decisions::Request::default()
    };
    let decision = decisions::ask(&request, ());
    let structured = serde_json::to_value(&decision).map_err(internal)?;
    Ok(Answered { text: line(&decision, false)?, structured })
}

fn guard_check(project: &Project, args: &Args) -> Result<Answered, ErrorData> {
    let command = args.required("command")?;
    let cwd = match args.string("cwd")? {
        None => project.root.clone(),
        Some(dir) => args.inside(project, "cwd", &dir)?,
    };
    if !cwd.is_dir() {
        return Err(args.bad("cwd", format!("{}: not a directory", cwd.display()), None));
    }
    let agent = match args.string("agent")? {
        None => Agent::ClaudeCode,
        Some(a) => crate::wiring::agent(&a).map_err(|e| args.bad("agent", e, None))?,
    };
    let report = crate::guard::check(agent, &command, &cwd, None).map_err(|e| ErrorData::internal_error(e, None))?;
    let structured = serde_json::to_value(&report).map_err(internal)?;
    Ok(Answered { text: line(&report, false)?, structured })
}

fn route_item(project: &Project, args: &Args) -> Result<Answered, ErrorData> {
    let item = args.required("item")?;
    let charter = args.string("charter")?.unwrap_or_default();
    let files = match args.strings("files")? {
        None => None,
        Some(files) => {
            let mut kept = Vec::new();
            for f in files.iter().map(|f| f.trim()).filter(|f| !f.is_empty()) {
                let relative = Path::new(f);
                let escapes =
                    relative.is_absolute() || relative.components().any(|c| matches!(c, Component::ParentDir));
                if escapes {
                    return Err(args.bad(
                        "files",
                        format!("{f:?}: give paths relative to the project, inside it"),
                        None,
                    ));
                }
                kept.push(f.to_string());
            }
            Some(kept)
        }
    };
    let read_by = crate::seam::after(Instant::now(), decisions::READ_BUDGET_MS);
    let seam = decisions::Request {
        leo_dir: Some(project.leo.clone()),
        config: Some(crate::seam::project_config_by(Some(&project.leo), read_by)),
        ..decisions::Request::default()
    };
    let request =
        RouteRequest { item, charter, repo_root: project.root.clone(), files, probe: None, seam, record: false };
    let out = route(&request).to_json();
    Ok(Answered { text: line(&out, false)?, structured: out })
}

/// The JSON a command prints, as it prints it.
fn line(v: &impl serde::Serialize, pretty: bool) -> Result<String, ErrorData> {
    crate::output::json_line(v, pretty).map_err(|e| internal(format!("{e:#}")))
}

fn internal(e: impl std::fmt::Display) -> ErrorData {
    ErrorData::internal_error(e.to_string(), None)
}

/// A tool's arguments, each checked by name: none the tool does not take, none over
/// [`FIELD_MAX`].
struct Args {
    tool: &'static str,
    map: JsonObject,
}

impl Args {
    fn new(tool: &'static str, map: JsonObject) -> Result<Args, ErrorData> {
        let (_, input, _) = schema(tool);
        let known: Vec<&str> =
            input["properties"].as_object().map(|p| p.keys().map(String::as_str).collect()).unwrap_or_default();
        let args = Args { tool, map };
        for (key, value) in &args.map {
            if !known.contains(&key.as_str()) {
                let hint = match crate::seam::nearest(key, known.iter().copied()) {
                    Some(near) => format!("did you mean \"{near}\"? "),
                    None => String::new(),
                };
                return Err(args.bad(
                    key,
                    format!("not an argument of {tool}; {hint}it takes {}", known.join(", ")),
                    None,
                ));
            }
            let size = serde_json::to_string(value).map_or(0, |s| s.len());
            if size > FIELD_MAX {
                return Err(args.bad(
                    key,
                    format!("{size} bytes of JSON, over the {FIELD_MAX} a tool argument may hold"),
                    Some(json!({"bytes": size, "max": FIELD_MAX})),
                ));
            }
        }
        if let Some(required) = input["required"].as_array() {
            for key in required.iter().filter_map(Value::as_str) {
                if !args.map.contains_key(key) {
                    return Err(args.bad(key, "missing: it is required".into(), None));
                }
            }
        }
        Ok(args)
    }

    /// The error naming one argument.
    fn bad(&self, field: &str, message: String, data: Option<Value>) -> ErrorData {
        let mut data = data.unwrap_or_else(|| json!({}));
        data["tool"] = json!(self.tool);
        data["field"] = json!(field);
        ErrorData::invalid_params(format!("{}: \"{field}\": {message}", self.tool), Some(data))
    }

    fn get(&self, key: &str) -> Option<&Value> {
        self.map.get(key)
    }

    fn string(&self, key: &str) -> Result<Option<String>, ErrorData> {
        match self.map.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(self.bad(key, "must be a string".into(), None)),
        }
    }

    /// A string argument that must be there and hold more than white space.
    fn required(&self, key: &str) -> Result<String, ErrorData> {
        match self.string(key)? {
            Some(s) if !s.trim().is_empty() => Ok(s),
            Some(_) => Err(self.bad(key, "must not be empty".into(), None)),
            None => Err(self.bad(key, "missing: it is required".into(), None)),
        }
    }

    fn strings(&self, key: &str) -> Result<Option<Vec<String>>, ErrorData> {
        match self.map.get(key) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map(String::from))
                .collect::<Option<Vec<_>>>()
                .map(Some)
                .ok_or_else(|| self.bad(key, "must be an array of strings".into(), None)),
            Some(_) => Err(self.bad(key, "must be an array of strings".into(), None)),
        }
    }

    /// The card: an object, or its JSON text (whose repeated keys are then problems too).
    fn card(&self) -> Result<decisions::json::Document, ErrorData> {
        match self.map.get("card") {
            Some(Value::String(text)) => decisions::json::Document::parse(text)
                .map_err(|e| self.bad("card", format!("its text is not JSON: {e}"), None)),
            Some(v @ Value::Object(_)) => Ok(decisions::json::Document { value: v.clone(), duplicates: Vec::new() }),
            Some(_) => Err(self.bad("card", "must be the card object, or its JSON text".into(), None)),
            None => Err(self.bad("card", "missing: it is required".into(), None)),
        }
    }

    /// A directory argument, relative to the project or absolute, that must lie inside it.
    fn inside(&self, project: &Project, key: &str, dir: &str) -> Result<PathBuf, ErrorData> {
        let joined = project.root.join(dir);
        let real = joined.canonicalize().map_err(|e| self.bad(key, format!("{}: {e}", joined.display()), None))?;
        if !real.starts_with(&project.root) {
            return Err(self.bad(
                key,
                format!(
                    "{} is outside the project ({}): this server serves that project only",
                    real.display(),
                    project.root.display()
                ),
                None,
            ));
        }
        Ok(real)
    }
}
