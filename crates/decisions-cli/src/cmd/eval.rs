//! `decisions eval`: ask one question about every labelled state of an input, on the run
//! engine (`decisions::eval::run`), and report how good the answers are and which bars the
//! evidence supports; with `--record`, every item becomes a decision row and its outcome in the
//! calibration ledger, so the project's `ledger propose` starts from evidence instead of a
//! guess. Every output is checked before the first request, and what was computed is never
//! thrown away because one output failed.

use std::path::PathBuf;

use decisions::eval::{self, Evaluated};
use decisions::run::Options;
use decisions::run::input::{Layout, RECORD_MAX};
use decisions::run::resume::Done;

use crate::exit::{self, CliError};
use crate::log::{LogArgs, RunLog, target};
use crate::output::Deferred;
use crate::runner::{Bar, PaceArgs, failed, finish, open_input, options, stop_on_signals};
use crate::seam::SeamArgs;

/// Evaluate a provider on labelled states: accuracy, calibration, and the bars the evidence supports
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Catalog file, or a name resolved to <leo-dir>/decisions/<name>.json
    #[arg(long, value_name = "NAME|PATH")]
    catalog: String,
    /// The question to evaluate
    #[arg(long, value_name = "ID")]
    question: String,
    /// Labelled states, one {"state": ..., "label": ...} a line ("-" for standard input)
    #[arg(long, value_name = "FILE")]
    input: PathBuf,
    #[command(flatten)]
    pace: PaceArgs,
    /// Write the reliability diagram (accuracy against certainty) here
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Append each item's decision row and its outcome to the calibration ledger
    #[arg(long)]
    record: bool,
    /// For a score acted on only at or above SCORE (the permission hook denies at 2.5): the bar
    /// and --record's rows rest on those answers, each right when its label is too
    #[arg(long, value_name = "SCORE")]
    acts_at: Option<f64>,
    /// Print the evaluation as JSON
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    seam: SeamArgs,
    #[command(flatten)]
    log: LogArgs,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let mut request = args.seam.request()?;
    request.catalog = Some(crate::input::catalog_arg(&args.catalog));
    request.questions = vec![args.question.clone()];
    let ledger = match (args.record, &request.leo_dir) {
        (false, _) => None,
        (true, Some(leo)) if leo.is_dir() => Some(decisions::ledger::ledger_path(leo)),
        (true, _) => {
            let e = CliError::usage("--record: no .leopold directory found for the calibration ledger");
            return Err(e.hint("run inside a project, or pass --leo-dir").into());
        }
    };
    let (records, total) = open_input(&args.input, Layout::Auto, RECORD_MAX)?;
    crate::seam::check_catalog(&request, &args.catalog, "--question")?;
    // The diagram's file is opened before anything is asked (a path that cannot be written
    // fails now, not after every item was asked), and emptied only when the diagram is written.
    let svg = match &args.svg {
        Some(path) => Some(Deferred::open(path, "--svg")?),
        None => None,
    };
    let prepared = decisions::prepare(&request);
    crate::runner::usable_seam(&prepared)?;
    let prepared = match prepared {
        Ok(p) => p,
        Err(failed) => {
            let why = failed.answers.iter().find_map(|(_, r)| r.clone().err());
            let why = why.map_or("the seam could not be prepared".into(), |f| {
                format!("{}: {}", f.reason, f.detail.unwrap_or_default())
            });
            return Err(CliError::fail(format!("nothing to evaluate: {why}")).into());
        }
    };
    let question = prepared
        .catalog()
        .question(&args.question)
        .cloned()
        .ok_or_else(|| CliError::usage(format!("--question {}: not in the catalog", args.question)))?;
    if let Some(at) = args.acts_at {
        acts_at_fits(&question, at)?;
    }
    let stop = stop_on_signals();
    let bar = Bar::new(total);
    let log = RunLog::start(target(request.leo_dir.as_deref(), args.log).as_deref(), eval::CONSUMER);
    let observe = |o: &decisions::run::Outcome, events| log.outcome(o, events);
    let evaluated = eval::run(
        &prepared,
        &question,
        records,
        args.acts_at,
        Options { observe: Some(&observe), ..options(&args.pace, eval::shape(&question), Done::default(), &stop) },
        |s| bar.show(s),
    );
    bar.finish();
    let Evaluated { mut summary, evaluation, rows, latency_ms } = evaluated.map_err(failed)?;
    log.finish(&summary);
    // Every output is written that can be; one that fails is said after the report.
    let mut problems = Vec::new();
    let recorded = match &ledger {
        Some(path) => {
            let by = std::time::Instant::now() + decisions::file::LOCK_WAIT;
            match decisions::ledger::append_rows(path, &rows, by, &decisions::file::Gate::default()) {
                Ok(()) => Some((path.clone(), rows.len() / 2)),
                Err(e) => {
                    problems.push(format!("not recorded: {e}"));
                    None
                }
            }
        }
        None => None,
    };
    if let Some(svg) = svg {
        match &evaluation.calibration {
            Some(report) => {
                if let Err(e) = svg.write(decisions::ledger::reliability_svg(std::slice::from_ref(report)).as_bytes()) {
                    problems.push(e);
                }
            }
            None => problems.push(svg.discard("no item was answered")),
        }
    }
    if args.json {
        let mut out = serde_json::to_value(&evaluation)?;
        out["latency_ms"] = serde_json::json!({"median": latency_ms.0, "p90": latency_ms.1});
        out["items_per_s"] = serde_json::json!(summary.throughput);
        out["run"] = serde_json::to_value(&summary)?;
        out["recorded"] = serde_json::json!(recorded.as_ref().map(|(_, n)| n));
        crate::output::print_json(&out, false)?;
    } else {
        let mut text = evaluation.text(&question.thresholds);
        if let (Some(m), Some(p)) = latency_ms {
            text.push_str(&format!(
                "latency per item           median {m:.1} ms, p90 {p:.1} ms; {:.1} items/s\n",
                summary.throughput
            ));
        }
        if let Some((path, n)) = &recorded {
            text.push_str(&format!(
                "recorded                   {n} decisions and their outcomes in {} (consumer \"{}\")\n",
                path.display(),
                eval::CONSUMER
            ));
        }
        print!("{text}");
    }
    let code = finish(&mut summary, false);
    for p in &problems {
        eprintln!("error: {}", decisions::escape::terminal(p));
    }
    Ok(if problems.is_empty() { code } else { exit::FAIL })
}

/// `--acts-at` names a score inside the question's levels, above the lowest.
fn acts_at_fits(question: &decisions::Question, at: f64) -> Result<(), CliError> {
    let decisions::QuestionKind::Score { levels } = &question.kind else {
        return Err(CliError::usage(format!(
            "--acts-at: question {} is a {}, not a score",
            question.id,
            question.kind.type_name()
        )));
    };
    let top = levels.len().saturating_sub(1) as f64;
    if !(at.is_finite() && at > 0.0 && at <= top) {
        return Err(CliError::usage(format!(
            "--acts-at {at}: question {} scores 0 to {top}; give a score above 0 and at most {top}",
            question.id
        )));
    }
    Ok(())
}
