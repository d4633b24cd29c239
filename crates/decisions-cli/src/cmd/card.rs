//! `decisions card`: Decision Cards (`judgment-card.v1`): validate one, fill its similar past
//! decisions from the judgment ledger, and record a human's answer, which also settles the
//! model's decision in the calibration ledger when its id is given.

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Subcommand;
use decisions::Env;
use decisions::judgment::{Judgment, chosen_option, judgment_path};

use crate::judgments::problems;
use decisions::ledger::{OutcomeError, ledger_path, new_id, now_ts, record_outcome};
use serde_json::Value;

use crate::exit;
use crate::exit::CliError;
use crate::input::JsonFileError;

/// The most problems a card's check lists; the rest are counted.
const PROBLEMS_SHOWN: usize = 50;

/// The tag every judgment recorded from a card carries.
const CARD_TAG: &str = "judgment-card";

/// Validate Decision Cards, recall similar past decisions into them, record answers
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Verb,
    #[command(flatten)]
    doc: crate::input::DocArgs,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
enum Verb {
    /// Print a valid card to fill in: the question, its options and the recommendation
    New {
        /// The question to put to a person
        #[arg(long)]
        question: String,
        /// An option (its id is made from it); give it two or three times
        #[arg(long = "option", value_name = "LABEL", required = true)]
        options: Vec<String>,
        /// The option recommended, by label or id [default: the first]
        #[arg(long, value_name = "LABEL")]
        recommendation: Option<String>,
        /// How sure the recommendation is: high, medium or low
        #[arg(long, default_value = "low")]
        confidence: String,
    },
    /// Check a card against judgment-card.v1; print every problem, one a line
    Validate {
        /// The card file
        card: PathBuf,
        /// Print {"valid", "problems"} as one JSON object instead (every problem, unnumbered)
        #[arg(long)]
        json: bool,
    },
    /// Print the card with similar_past_decisions filled from the judgment ledger
    Recall {
        /// The card file
        card: PathBuf,
        /// The project to recall from
        #[arg(long)]
        project: String,
    },
    /// Record a human's answer to the card in the judgment ledger (and settle a model decision)
    RecordAnswer {
        /// The card file
        card: PathBuf,
        /// The option the human chose
        #[arg(long)]
        answer: String,
        /// Why
        #[arg(long)]
        why: String,
        /// The project
        #[arg(long)]
        project: String,
        /// A calibration-ledger decision this answer settles: its outcome row is appended too
        #[arg(long, value_name = "ID")]
        decision_id: Option<String>,
        /// Whether that decision was right [default: whether the answer is the card's recommendation]
        #[arg(long, value_name = "true|false|null", requires = "decision_id")]
        correct: Option<String>,
        /// The project's .leopold directory, for the calibration ledger [default: the nearest above the working directory]
        #[arg(long, value_name = "DIR")]
        leo_dir: Option<PathBuf>,
    },
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    args.doc.apply();
    match args.command {
        Verb::New { question, options, recommendation, confidence } => {
            let card = decisions::judgment::new_card(&question, &options, recommendation.as_deref(), &confidence)
                .map_err(|e| CliError::usage(format!("card new: {e}")))?;
            crate::output::print_json(&card, true)?;
            eprintln!(
                "fill in each option's \"consequence\", the \"impact\" and the \"diff_summary\"; then `decisions card validate FILE`"
            );
            Ok(exit::OK)
        }
        Verb::Validate { card, json } => {
            let doc = read_card(&card)?;
            let problems = problems(&doc);
            if json {
                crate::output::print_json(&crate::judgments::validation(&problems), false)?;
                return Ok(if problems.is_empty() { exit::OK } else { exit::FAIL });
            }
            if problems.is_empty() {
                println!("ok: {}", card.display());
                return Ok(exit::OK);
            }
            for p in problems.iter().take(PROBLEMS_SHOWN) {
                println!("{}: {p}", card.display());
            }
            if problems.len() > PROBLEMS_SHOWN {
                println!("{}: and {} more", card.display(), problems.len() - PROBLEMS_SHOWN);
            }
            eprintln!("error: {} in {}", crate::output::count(problems.len(), "problem"), card.display());
            Ok(exit::FAIL)
        }
        Verb::Recall { card, project } => {
            let doc = valid_card(&card)?;
            let cwd = std::env::current_dir().context("reading the working directory")?;
            let filled = crate::judgments::recall_into(doc, &judgment_path(&Env::Process, &cwd), &project)
                .map_err(CliError::fail)?;
            crate::output::print_json(&filled, true)?;
            Ok(exit::OK)
        }
        Verb::RecordAnswer { card, answer, why, project, decision_id, correct, leo_dir } => {
            let doc = valid_card(&card)?;
            chosen_option(&doc, &answer).map_err(|e| CliError::fail(format!("--answer: {e}")))?;
            // The model's decision is settled first: an unknown id refuses the whole answer, and
            // nothing is written.
            let mut settled = None;
            if let Some(id) = decision_id {
                let correct = match correct.as_deref() {
                    None => Some(chose_recommendation(&doc, &answer)),
                    Some("true") => Some(true),
                    Some("false") => Some(false),
                    Some("null") => None,
                    Some(other) => {
                        return Err(CliError::usage(format!(
                            "--correct: expected true, false or null, found {other:?}"
                        ))
                        .into());
                    }
                };
                settled = Some(settle(leo_dir, &id, correct, &card, &answer, &why)?);
            }
            let judgment = Judgment {
                id: new_id(),
                project,
                decided_at: now_ts(),
                question: doc["question"].as_str().unwrap_or_default().to_string(),
                answer: answer.clone(),
                rationale: why.clone(),
                card_ref: card.display().to_string(),
                tags: vec![CARD_TAG.to_string()],
            };
            let cwd = std::env::current_dir().context("reading the working directory")?;
            let path = judgment_path(&Env::Process, &cwd);
            let Some(settled) = settled else { return crate::judgments::append_fail_open(&path, &judgment) };
            eprintln!(
                "settled: decision {} (consumer {}, question {}) is correct: {} in {}",
                settled.id,
                settled.consumer,
                settled.question,
                settled.correct.map_or("null".into(), |c| c.to_string()),
                settled.ledger.display()
            );
            // The judgment ledger fails open; what was settled is said either way.
            let judgment = match decisions::judgment::append_judgment(&path, &judgment) {
                Ok(()) => Some(judgment),
                Err(e @ decisions::judgment::AppendError::Invalid(_)) => {
                    return Err(CliError::fail(e.to_string()).into());
                }
                Err(e @ decisions::judgment::AppendError::Io(..)) => {
                    eprintln!("warning: append skipped: {e}");
                    None
                }
            };
            crate::output::print_json(&serde_json::json!({"judgment": judgment, "settled": settled}), false)?;
            Ok(exit::OK)
        }
    }
}

/// The calibration-ledger decision an answer settled, and what its outcome says.
#[derive(Debug, serde::Serialize)]
struct Settled {
    /// The decision row's id.
    id: String,
    /// The consumer that recorded it.
    consumer: String,
    /// Its question.
    question: String,
    /// The outcome written: whether the decision was right.
    correct: Option<bool>,
    /// The calibration ledger written to.
    ledger: PathBuf,
}

/// Append the outcome of a calibration-ledger decision, as `ledger outcome` would: an unknown id
/// or a ledger that cannot be written is an error, and nothing is written.
fn settle(
    leo_dir: Option<PathBuf>,
    id: &str,
    correct: Option<bool>,
    card: &Path,
    answer: &str,
    why: &str,
) -> anyhow::Result<Settled> {
    let Some(leo) = crate::seam::leo_dir(leo_dir) else {
        let e = CliError::fail("--decision-id: no .leopold directory found for the calibration ledger");
        return Err(e.hint("run from the project, or pass --leo-dir DIR").into());
    };
    let path = ledger_path(&leo);
    let note = format!("answered {answer:?} on decision card {}: {why}", card.display());
    match record_outcome(&path, id, correct, Some(note)) {
        Ok(d) => Ok(Settled { id: d.id, consumer: d.consumer, question: d.question, correct, ledger: path }),
        Err(e @ OutcomeError::UnknownId { .. }) => Err(CliError::fail(format!("--decision-id: {e}"))
            .hint("check the id printed by `decisions ledger record` or `decisions ask --record`")
            .into()),
        Err(e) => Err(CliError::fail(e.to_string()).into()),
    }
}

/// Whether the human chose the card's recommendation (by option id or label).
fn chose_recommendation(card: &Value, answer: &str) -> bool {
    let rec = card["recommendation"].as_str().unwrap_or_default();
    if answer == rec {
        return true;
    }
    card["options"].as_array().into_iter().flatten().any(|o| {
        let id = o["id"].as_str().unwrap_or_default();
        let label = o["label"].as_str().unwrap_or_default();
        (id == rec || label == rec) && (answer == id || answer == label)
    })
}

fn read_card(path: &Path) -> anyhow::Result<decisions::json::Document> {
    crate::input::read_json(path).map_err(|e| match e {
        JsonFileError::Read(e) => CliError::usage(format!("cannot read card {}: {e}", path.display())).into(),
        e @ JsonFileError::Parse(_) => CliError::fail(e.to_string()).into(),
    })
}

fn valid_card(path: &Path) -> anyhow::Result<Value> {
    let doc = read_card(path)?;
    let problems = problems(&doc);
    if problems.is_empty() {
        Ok(doc.value)
    } else {
        let mut listed = problems.iter().take(PROBLEMS_SHOWN).cloned().collect::<Vec<_>>().join("; ");
        if problems.len() > PROBLEMS_SHOWN {
            listed.push_str(&format!("; and {} more", problems.len() - PROBLEMS_SHOWN));
        }
        let e = CliError::fail(format!("{} breaks judgment-card.v1: {listed}", path.display()));
        Err(e.hint(format!("see `decisions card validate {}`", path.display())).into())
    }
}
