//! `decisions ledger`: the calibration ledger, `<leo-dir>/decisions/ledger.jsonl`.

use std::path::PathBuf;

use clap::Subcommand;
use decisions::Band;
use decisions::ledger::{
    DecisionRow, OutcomeError, ProposalStatus, Row, append_row, display_bar, has_decision, ledger_path, propose_file,
    record_outcome, reliability_svg, report_file,
};

use crate::exit;
use crate::exit::CliError;

/// Record decisions and outcomes, propose bars, report calibration
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Verb,
    /// The project's .leopold directory [default: the nearest above the working directory]
    #[arg(long, value_name = "DIR", global = true)]
    leo_dir: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
enum Verb {
    /// Append a decision row and print its id
    Record {
        /// Who asked (routing, permission, ...)
        #[arg(long)]
        consumer: String,
        /// The question id
        #[arg(long)]
        question: String,
        /// The provider that answered
        #[arg(long)]
        provider: String,
        /// The model that answered
        #[arg(long)]
        model: String,
        /// The certainty the band was drawn from, in [0, 1]
        #[arg(long, value_parser = unit)]
        certainty: f64,
        /// The answer's confidence, in [0, 1] (none for a noul)
        #[arg(long, value_parser = unit)]
        confidence: Option<f64>,
        /// The band that fired: act, escalate or floor
        #[arg(long)]
        band: Band,
        /// Whether the consumer acted on the answer
        #[arg(long, value_parser = clap::value_parser!(bool), action = clap::ArgAction::Set)]
        acted: bool,
        /// The row id [default: a fresh UUID]
        #[arg(long)]
        id: Option<String>,
    },
    /// Append the outcome of a recorded decision
    Outcome {
        /// The decision's id
        #[arg(long)]
        id: String,
        /// Whether the decision was right: true, false, or null when it cannot be known
        #[arg(long, value_parser = tri)]
        correct: Tri,
        /// What a person said about it
        #[arg(long)]
        note: Option<String>,
    },
    /// Propose act bars from the evidence, one JSON object a line (never writes a catalog)
    Propose {
        /// Output format
        #[arg(long, value_enum, default_value = "json")]
        format: Format,
    },
    /// Print calibration per provider and question: samples, accuracy, certainty Brier score (brier_cert), ECE
    Report {
        /// Also write a reliability diagram to this SVG file
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Format {
    Json,
    Table,
}

/// `true`, `false` or `null`.
#[derive(Debug, Clone, Copy)]
struct Tri(Option<bool>);

fn tri(s: &str) -> Result<Tri, String> {
    match s {
        "true" => Ok(Tri(Some(true))),
        "false" => Ok(Tri(Some(false))),
        "null" => Ok(Tri(None)),
        _ => Err("expected true, false or null".into()),
    }
}

fn unit(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("expected a number in [0, 1], found {s:?}")),
    }
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let Some(leo) = crate::seam::leo_dir(args.leo_dir) else {
        let e = CliError::fail("no .leopold directory found above the working directory");
        return Err(e.hint("run from a project, or pass --leo-dir DIR").into());
    };
    let path = ledger_path(&leo);
    match args.command {
        Verb::Record { consumer, question, provider, model, certainty, confidence, band, acted, id } => {
            // An id given twice would let one outcome count for two decisions.
            if let Some(id) = &id {
                if id.trim().is_empty() {
                    return Err(CliError::usage("--id must not be empty").into());
                }
                if has_decision(&path, id)? {
                    let e =
                        CliError::fail(format!("--id: {} already holds a decision with id \"{id}\"", path.display()));
                    return Err(e
                        .hint("leave --id out for a fresh one, or record the outcome of that decision")
                        .into());
                }
            }
            let mut row =
                DecisionRow::new(&consumer, &question, &provider, &model, confidence, Some(certainty), band, acted);
            if let Some(id) = id {
                row.id = id;
            }
            let id = row.id.clone();
            append_row(&path, &Row::Decision(row))?;
            println!("{id}");
        }
        Verb::Outcome { id, correct, note } => match record_outcome(&path, &id, correct.0, note) {
            Ok(_) => {}
            Err(e @ OutcomeError::UnknownId { .. }) => {
                let e = CliError::fail(e.to_string());
                return Err(e
                    .hint("record the decision first, or check the id printed by `decisions ledger record`")
                    .into());
            }
            Err(e) => return Err(CliError::fail(e.to_string()).into()),
        },
        Verb::Propose { format } => {
            let (proposals, skipped) = propose_file(&path)?;
            crate::output::warn_skipped(skipped, &path);
            match format {
                Format::Json => {
                    for p in &proposals {
                        crate::output::print_json(p, false)?;
                    }
                }
                Format::Table => {
                    println!(
                        "{:<12} {:<16} {:>7} {:>7} {:>7}  reasoning",
                        "provider", "question", "samples", "correct", "act"
                    );
                    for p in &proposals {
                        let act = match (p.status, p.act) {
                            (ProposalStatus::Proposed, Some(a)) => format!("{:.3}", display_bar(a)),
                            _ => "-".into(),
                        };
                        println!(
                            "{:<12} {:<16} {:>7} {:>7} {:>7}  {}",
                            p.provider, p.question, p.samples, p.correct, act, p.reasoning
                        );
                    }
                }
            }
        }
        Verb::Report { svg } => {
            let (reports, skipped) = report_file(&path)?;
            crate::output::warn_skipped(skipped, &path);
            println!(
                "{:<12} {:<16} {:>7} {:>8} {:>10} {:>7}",
                "provider", "question", "samples", "accuracy", "brier_cert", "ece"
            );
            for r in &reports {
                println!(
                    "{:<12} {:<16} {:>7} {:>8.3} {:>10.3} {:>7.3}",
                    r.provider, r.question, r.samples, r.accuracy, r.brier_certainty, r.ece
                );
            }
            if reports.is_empty() {
                eprintln!("note: no decisions with a known outcome in {}", path.display());
            }
            if let Some(file) = svg {
                std::fs::write(&file, reliability_svg(&reports))
                    .map_err(|e| CliError::fail(format!("cannot write {}: {e}", file.display())))?;
            }
        }
    }
    Ok(exit::OK)
}
