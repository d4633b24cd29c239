//! `decisions doctor`: what is installed, configured and wired, one row a fact, and whether
//! every wired consumer would reach a model (`ready`, else `not ready` naming each missing
//! piece, and exit 1). `--probe` makes one real call of a harmless state and says what came
//! of it. With nothing installed it says so in one line and how to start, and exits 0.
//! Catalogs are named with whether they parse and validate, never shown; the key variable is
//! reported set or not, never read out.

use std::path::PathBuf;
use std::time::Instant;

use decisions::{AnswerValue, CatalogRef, ConfigFile, Descriptor, FailureReason, ProviderChoice, Request};
use serde_json::json;

use crate::exit;
use crate::facts::{Facts, gather};

/// Report the payload, provider, key, catalogs, agents' hooks and consumers; say whether they are ready
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The project's .leopold directory [default: LEOPOLD_PROJECT_DIR, else the nearest above the working directory]
    #[arg(long, value_name = "DIR")]
    leo_dir: Option<PathBuf>,
    /// Also make one real call of a harmless state, within the provider's deadline, and say what came of it
    #[arg(long)]
    probe: bool,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let mut f = gather(args.leo_dir);
    if f.absent() {
        println!(
            "decisions: nothing is installed or configured here; start with `decisions install --provider jev --agent claude-code` (the README's quickstart)"
        );
        return Ok(exit::OK);
    }
    let row = |k: &str, v: String| println!("decisions {k:<12} {}", decisions::escape::terminal(&v));
    row("payload", f.payload.as_ref().map_or("not installed".into(), |d| format!("{} (installed)", d.display())));
    if let ConfigFile::Malformed { path, error } = &f.config {
        row("config", format!("{} is malformed, so it configures no provider: {error}", path.display()));
    } else if let Some(p) = f.config_path.as_ref().filter(|_| matches!(f.config, ConfigFile::Loaded(_))) {
        row("config", p.display().to_string());
    }
    row("provider", format!("{} (source: {})", f.provider, f.source));
    match &f.descriptor {
        Ok(d) if d.name != decisions::NONE => {
            row("calibration", decisions::calibration_label(d).to_string());
            row(
                "endpoint",
                match (d.endpoint.is_empty(), d.name == decisions::builtin::NAME) {
                    (_, true) => "none: the model runs inside this binary, offline".into(),
                    (true, false) => "(not set)".into(),
                    (false, false) => d.endpoint.clone(),
                },
            );
            row("model", if d.model.is_empty() { "(not pinned)".into() } else { d.model.clone() });
            match &d.auth_env {
                Some(var) => {
                    row("key", format!("{var} {}", if f.key_set == Some(true) { "is set" } else { "is not set" }))
                }
                None => row("key", "none needed (no auth_env: no Authorization header is sent)".into()),
            }
            for p in &f.descriptor_problems {
                row("descriptor", p.clone());
            }
        }
        Ok(_) => {}
        Err(m) => row("descriptor", m.clone()),
    }
    for (name, status) in &f.catalogs {
        row(
            "catalog",
            match status {
                Ok(n) => format!("{name}: ok, {}", crate::output::count(*n, "question")),
                Err(e) => format!("{name}: {e}"),
            },
        );
    }
    for a in &f.agents {
        if a.wired.is_empty() && a.unreadable.is_empty() {
            row("agent", format!("{}: not wired (decisions install --agent {})", a.agent.name(), a.agent.name()));
        }
        for w in &a.wired {
            let runs = match &w.runs {
                Ok(p) => format!("`{}` ({} is there to run)", w.command, p.display()),
                Err(e) => format!("`{}` cannot run: {e}", w.command),
            };
            row(
                "agent",
                format!(
                    "{}: wired for {} in {} ({}): {runs}",
                    a.agent.name(),
                    w.event,
                    w.path.display(),
                    w.scope.name()
                ),
            );
            for n in &w.notes {
                row("agent", format!("{}: {n}", a.agent.name()));
            }
            for b in &w.blockers {
                row("agent", format!("{}: will not run: {b}", a.agent.name()));
            }
            for warning in &w.warnings {
                row("agent", format!("{}: warning: {warning}", a.agent.name()));
            }
        }
        for e in &a.unreadable {
            row("agent", format!("{}: {e}", a.agent.name()));
        }
    }
    let servers: Vec<_> = f.agents.iter().filter_map(|a| Some((a.agent, a.server.as_ref()?))).collect();
    if servers.is_empty() && f.config_path.is_some() {
        row("mcp", "no agent runs the project's MCP server (decisions install --agent claude-code --mcp)".into());
    }
    for (agent, server) in servers {
        let said = match server {
            Ok((path, Ok(program))) => {
                format!("registered in {}: `decisions mcp` ({} is there to run)", path.display(), program.display())
            }
            Ok((path, Err(e))) => format!("registered in {}, but it cannot run: {e}", path.display()),
            Err(e) => e.clone(),
        };
        row("mcp", format!("{}: {said}", agent.name()));
    }
    for c in &f.consumers {
        let state = match (&c.status, c.wired) {
            (Ok(s), _) => s.clone(),
            (Err(e), true) => e.clone(),
            (Err(e), false) => format!("not set up: {e}"),
        };
        let state = if c.name == "hook" && !c.wired && c.status.is_ok() {
            format!("{state}; no agent runs the hook (decisions install --agent claude-code)")
        } else {
            state
        };
        row("consumer", format!("{}: {state}", c.name));
    }
    if args.probe {
        let outcome = probe(&f);
        row("probe", outcome.said.clone());
        if let Some(w) = &outcome.warning {
            row("probe", format!("warning: {w}"));
        }
        if let Some(m) = outcome.missing {
            f.missing.push(m);
        }
    }
    let unreadable = |n: usize| if n > 0 { format!(", {n} unreadable") } else { String::new() };
    if let Some((rows, skipped)) = f.ledger {
        row("ledger", format!("{}{}", crate::output::count(rows, "row"), unreadable(skipped)));
    }
    if let Some((path, rows, skipped)) = &f.judgments {
        row(
            "judgments",
            format!("{}{} ({})", crate::output::count(*rows, "row"), unreadable(*skipped), path.display()),
        );
    }
    row("readiness", f.readiness());
    Ok(if f.missing.is_empty() { exit::OK } else { exit::FAIL })
}

/// What one real call said.
struct Probed {
    said: String,
    warning: Option<String>,
    missing: Option<String>,
}

/// One real call of a harmless state to the active provider, within its own deadline: a noul
/// no consumer asks, whose bars are the provider's own (so it validates for any provider).
fn probe(f: &Facts) -> Probed {
    let not = |why: String| Probed { said: format!("not made: {why}"), warning: None, missing: None };
    let Some(d) = f.live() else { return not("no provider is configured".into()) };
    if f.key_set == Some(false) {
        return not(format!("{} is not set", d.auth_env.as_deref().unwrap_or("the key")));
    }
    if !f.descriptor_problems.is_empty() {
        return not("the descriptor is refused (above)".into());
    }
    let catalog = json!({"version": "decisions/1.0", "thresholds_for": d.name,
        "questions": {"probe": {"type": "noul",
            "instructions": {"question": "Is this message a connectivity check?",
                "focus": "The state is a fixed check that `decisions doctor --probe` sends; it asks for nothing to be done."}}},
        "thresholds": {"probe": {"floor": 0.0, "escalate": 0.0, "act": 1.0}}});
    let request = Request {
        catalog: Some(CatalogRef::Document(catalog.into())),
        questions: vec!["probe".into()],
        state: json!({"check": "decisions doctor --probe", "sent_at": decisions::ledger::now_ts()}),
        leo_dir: f.config_path.as_ref().and_then(|p| p.parent()?.parent().map(PathBuf::from)),
        config: Some(f.config.clone()),
        provider: Some(ProviderChoice::Descriptor(d.clone())),
        ..Request::default()
    };
    let started = Instant::now();
    let decision = decisions::ask(&request, ());
    let ms = started.elapsed().as_millis();
    match decision.answer("probe") {
        Some(Ok(a)) => {
            let said = match a.value {
                AnswerValue::Noul(p) => format!("answered by {} in {ms} ms (p {p:.2})", a.model),
                _ => format!("answered by {} in {ms} ms", a.model),
            };
            Probed { said, warning: pinned_warning(d, &a.model), missing: None }
        }
        Some(Err(failure)) => {
            let detail = failure.detail.clone().unwrap_or_default();
            let said = match failure.reason {
                FailureReason::Auth => format!("key rejected: {detail}"),
                FailureReason::Transport => format!("unreachable: {detail}"),
                FailureReason::Timeout => format!("timed out: {detail}"),
                FailureReason::Unsupported => format!("unsupported: {detail}"),
                FailureReason::RateLimit | FailureReason::Overloaded => {
                    format!("congested ({}): {detail}", failure.reason)
                }
                other => format!("failed ({other}): {detail}"),
            };
            let missing = format!("the probe to {} {said}", d.name);
            Probed { said: format!("{said} ({ms} ms)"), warning: None, missing: Some(missing) }
        }
        None => not("no answer came back".into()),
    }
}

/// A warning when the model that answered is not the one the descriptor pins: bars fitted
/// against one model say nothing about another.
fn pinned_warning(d: &Descriptor, served: &str) -> Option<String> {
    (!d.model.is_empty() && served != d.model).then(|| {
        format!(
            "the descriptor pins {} but {served} answered: bars fitted against one model do not carry to another",
            d.model
        )
    })
}
