//! `decisions judgment`: the judgment ledger, a drop-in for the earlier `judgment-ledger.sh`.
//! Missing flags and schema violations exit 1 with nothing written; an I/O failure on append
//! exits 0 with one `append skipped` line on stderr, because a ledger never blocks a judgment.

use anyhow::Context;
use clap::Subcommand;
use decisions::Env;
use decisions::judgment::{Judgment, judgment_path};
use decisions::ledger::{new_id, now_ts};

use crate::exit;
use crate::exit::CliError;

/// Append, search and recall human judgments (HARNESS_JUDGMENT_LEDGER or <root>/.claude/state/judgment-ledger.jsonl)
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Verb,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
enum Verb {
    /// Append one judgment record and print it
    Append(AppendArgs),
    /// Print the project's best matches for a query, one JSON record a line (at most 3)
    Search {
        /// The project to search in
        #[arg(long)]
        project: Option<String>,
        /// Words to look for [default: the project's newest records]
        #[arg(long)]
        query: Option<String>,
    },
    /// Print past judgments similar to a question as a JSON array (at most 3)
    Recall {
        /// The project to recall from
        #[arg(long)]
        project: Option<String>,
        /// The question to find similar judgments for
        #[arg(long)]
        question: Option<String>,
    },
}

#[derive(Debug, clap::Args)]
pub struct AppendArgs {
    /// The project the judgment belongs to
    #[arg(long)]
    pub project: Option<String>,
    /// The question that was decided
    #[arg(long)]
    pub question: Option<String>,
    /// What was decided
    #[arg(long)]
    pub answer: Option<String>,
    /// The Decision Card it was decided on
    #[arg(long)]
    pub card_ref: Option<String>,
    /// Why
    #[arg(long, default_value = "")]
    pub rationale: String,
    /// The record id [default: a fresh UUID]
    #[arg(long)]
    pub id: Option<String>,
    /// When it was decided [default: now, UTC]
    #[arg(long)]
    pub decided_at: Option<String>,
    /// Tags, comma-separated
    #[arg(long, value_delimiter = ',')]
    pub tags: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let cwd = std::env::current_dir().context("reading the working directory")?;
    let path = judgment_path(&Env::Process, &cwd);
    match args.command {
        Verb::Append(a) => {
            let flags = [
                ("--project", &a.project),
                ("--question", &a.question),
                ("--answer", &a.answer),
                ("--card-ref", &a.card_ref),
            ];
            let missing: Vec<&str> = flags
                .iter()
                .filter(|(_, v)| v.as_deref().is_none_or(|v| v.trim().is_empty()))
                .map(|(f, _)| *f)
                .collect();
            if !missing.is_empty() {
                return Err(CliError::fail(format!("required and must not be empty: {}", missing.join(", "))).into());
            }
            let judgment = Judgment {
                id: a.id.unwrap_or_else(new_id),
                project: a.project.unwrap_or_default(),
                decided_at: a.decided_at.unwrap_or_else(now_ts),
                question: a.question.unwrap_or_default(),
                answer: a.answer.unwrap_or_default(),
                rationale: a.rationale,
                card_ref: a.card_ref.unwrap_or_default(),
                tags: a.tags.into_iter().map(|t| t.trim().to_string()).filter(|t| !t.is_empty()).collect(),
            };
            crate::judgments::append_fail_open(&path, &judgment)
        }
        Verb::Search { project, query } => {
            let project = required(project, "--project")?;
            for j in crate::judgments::search_fail_open(&path, &project, query.as_deref().unwrap_or_default()) {
                crate::output::print_json(&j, false)?;
            }
            Ok(exit::OK)
        }
        Verb::Recall { project, question } => {
            let project = required(project, "--project")?;
            let question = required(question, "--question")?;
            crate::output::print_json(&crate::judgments::recall_fail_open(&path, &project, &question), false)?;
            Ok(exit::OK)
        }
    }
}

fn required(value: Option<String>, flag: &str) -> anyhow::Result<String> {
    match value {
        Some(v) if !v.trim().is_empty() => Ok(v),
        _ => Err(CliError::fail(format!("{flag} is required and must not be empty")).into()),
    }
}
