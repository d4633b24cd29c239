//! `decisions route`: route a plan item. The keyword classifier decides unless a confident
//! answer through the project's `routing.json` moves its verdict; every decision outcome exits
//! 0 with one JSON object.

use std::path::PathBuf;

use decisions::consumer::routing::{RouteRequest, route};
use serde_json::json;

use crate::exit;
use crate::exit::CliError;
use crate::log::{LogArgs, target};
use crate::seam::SeamArgs;

/// Route a plan item; print {effort, critical, reason, files?, decided_by, recorded, events}
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("item_input").required(true))]
pub struct Args {
    /// The plan item's text
    #[arg(long, value_name = "TEXT", group = "item_input")]
    item: Option<String>,
    /// Read the plan item from this file ("-" for standard input)
    #[arg(long, value_name = "FILE", group = "item_input")]
    item_file: Option<PathBuf>,
    /// The project charter, whose high-risk wording raises ordinary items
    #[arg(long, value_name = "FILE")]
    charter_file: Option<PathBuf>,
    /// The paths to judge, comma-separated, instead of those the item names
    #[arg(long, value_name = "a,b", value_delimiter = ',')]
    files: Option<Vec<String>>,
    /// The repository the item's paths are relative to [default: the git top level, else the working directory]
    #[arg(long, value_name = "DIR")]
    repo: Option<PathBuf>,
    #[command(flatten)]
    seam: SeamArgs,
    /// Do not append decision rows to the calibration ledger
    #[arg(long)]
    no_record: bool,
    #[command(flatten)]
    log: LogArgs,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let item = match (&args.item, &args.item_file) {
        (Some(text), _) => text.clone(),
        (None, Some(path)) => crate::input::read_text(path, "--item-file")?,
        (None, None) => unreachable!("clap requires one"),
    };
    if item.trim().is_empty() {
        return Err(CliError::usage("the plan item is empty").into());
    }
    let charter = match &args.charter_file {
        Some(path) => crate::input::read_text(path, "--charter-file")?,
        None => String::new(),
    };
    let cwd = std::env::current_dir().map_err(|e| CliError::usage(format!("the working directory: {e}")))?;
    let repo_root = match args.repo {
        Some(dir) if dir.is_dir() => dir,
        Some(dir) => return Err(CliError::usage(format!("--repo {}: no such directory", dir.display())).into()),
        None => decisions::git_root(&cwd).unwrap_or(cwd),
    };
    let files = args.files.map(|f| f.into_iter().map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect());
    let seam = args.seam.request()?;
    let log = target(seam.leo_dir.as_deref(), args.log);
    let request = RouteRequest { item, charter, repo_root, files, probe: None, seam, record: !args.no_record };
    let routed = route(&request);
    let mut events = routed.events.clone();
    events.push(decisions::Event::RouteDecided {
        effort: routed.verdict.effort.as_str().to_string(),
        critical: routed.verdict.critical,
        decided_by: json!(routed.decided_by).as_str().unwrap_or_default().to_string(),
    });
    // The log names the consumer the ledger rows do, so `watch` joins their outcomes.
    crate::log::write(
        log.as_deref(),
        decisions::consumer::routing::CONSUMER,
        &events,
        std::time::Instant::now() + crate::log::GRACE,
    );
    if let Some(e) = &routed.ledger_error {
        eprintln!("warning: not recorded: {e}");
    }
    crate::output::print_json(&routed.to_json(), false)?;
    Ok(exit::OK)
}
