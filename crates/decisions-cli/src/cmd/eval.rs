//! `decisions eval`: ask one question about every labelled state of a JSONL file, on the batch
//! engine, and report how good the answers are and which bars the evidence supports; with
//! `--record`, every item becomes a decision row and its outcome in the calibration ledger, so
//! the project's `ledger propose` starts from evidence instead of a guess.

use std::path::PathBuf;
use std::sync::Arc;

use decisions::batch::{Shape, StateOf};
use decisions::eval::{self, Evaluation, Scored};
use decisions::{Answer, Failure};
use serde_json::Value;

use super::batch::{RunArgs, go, open_input};
use super::{CliError, SeamArgs};

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
    /// Requests in flight at once
    #[arg(long, value_name = "N", default_value_t = decisions::batch::CONCURRENCY, value_parser = super::concurrency)]
    concurrency: usize,
    /// At most this many requests, evenly spaced: N/s, N/min or N/h
    #[arg(long, value_name = "N/min")]
    rate: Option<decisions::batch::Rate>,
    /// Write the reliability diagram (accuracy against certainty) here
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Append each item's decision row and its outcome to the calibration ledger
    #[arg(long)]
    record: bool,
    /// Print the evaluation as JSON
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    seam: SeamArgs,
}

/// What the sink gathers.
#[derive(Default)]
struct Gathered {
    scored: Vec<Scored>,
    answers: Vec<Answer>,
    failures: Vec<Failure>,
    invalid: Vec<String>,
    took_ms: Vec<f64>,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let mut request = args.seam.request()?;
    request.catalog = Some(super::catalog_arg(&args.catalog));
    request.questions = vec![args.question.clone()];
    let ledger = match (args.record, &request.leo_dir) {
        (false, _) => None,
        (true, Some(leo)) if leo.is_dir() => Some(decisions::ledger::ledger_path(leo)),
        (true, _) => {
            let e = CliError::usage("--record: no .leopold directory found for the calibration ledger");
            return Err(e.hint("run inside a project, or pass --leo-dir").into());
        }
    };
    let input = open_input(&args.input)?;
    let prepared = match decisions::prepare(&request) {
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
    let kind = question.kind.clone();
    let derive = move |line: usize, obj: &serde_json::Map<String, Value>| -> Result<Value, String> {
        eval::label_of(&kind, obj.get("label").unwrap_or(&Value::Null))
            .map_err(|e| format!("input line {line}: {e}"))?;
        match obj.get("state") {
            Some(s) if !s.is_null() => Ok(s.clone()),
            _ => Err(format!("input line {line}: no \"state\" to ask about")),
        }
    };
    let shape = Shape { id_fields: vec!["id".into()], state: StateOf::Derived(Arc::new(derive)) };
    let run = RunArgs { output: None, concurrency: args.concurrency, rate: args.rate, resume: false, stdout: false };
    let mut g = Gathered::default();
    let summary = go(Ok(prepared), &run, shape, input, |outcome, _| {
        if let Err(why) = &outcome.item.state {
            g.invalid.push(why.clone());
            return;
        }
        g.took_ms.push(outcome.took.as_secs_f64() * 1000.0);
        let band = outcome.decision.band(&question.id).unwrap_or(decisions::Band::Floor);
        match outcome.decision.answer(&question.id) {
            Some(Ok(a)) => {
                let label = eval::label_of(&question.kind, outcome.item.input.get("label").unwrap_or(&Value::Null));
                if let Ok(label) = label {
                    g.scored.push(eval::score(&question, a, &label, band));
                    g.answers.push(a.clone());
                }
            }
            Some(Err(f)) => g.failures.push(f.clone()),
            None => {}
        }
    })?;
    let answers: Vec<&Answer> = g.answers.iter().collect();
    let evaluation = Evaluation::new(&question, &g.scored, &answers, &g.failures, g.invalid);
    if let (Some(path), Some(report)) = (&args.svg, &evaluation.calibration) {
        let svg = decisions::ledger::reliability_svg(std::slice::from_ref(report));
        std::fs::write(path, svg).map_err(|e| CliError::fail(format!("--svg {}: {e}", path.display())))?;
    }
    let recorded = match &ledger {
        Some(path) => {
            let rows: Vec<decisions::ledger::Row> = g.scored.iter().flat_map(|s| s.rows.iter().cloned()).collect();
            let by = std::time::Instant::now() + decisions::file::LOCK_WAIT;
            decisions::ledger::append_rows(path, &rows, by, &decisions::file::Gate::default())
                .map_err(|e| CliError::fail(format!("not recorded: {e}")))?;
            Some((path.clone(), g.scored.len()))
        }
        None => None,
    };
    let latency = percentiles(g.took_ms);
    if args.json {
        let mut out = serde_json::to_value(&evaluation)?;
        out["latency_ms"] = serde_json::json!({"median": latency.0, "p90": latency.1});
        out["items_per_s"] = serde_json::json!(summary.throughput);
        out["recorded"] = serde_json::json!(recorded.as_ref().map(|(_, n)| n));
        super::print_json(&out, false)?;
    } else {
        let mut text = evaluation.text(&question.thresholds);
        if let (Some(m), Some(p)) = latency {
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
    Ok(super::batch::exit_of(&summary))
}

/// The median and 90th percentile.
fn percentiles(mut xs: Vec<f64>) -> (Option<f64>, Option<f64>) {
    if xs.is_empty() {
        return (None, None);
    }
    xs.sort_by(f64::total_cmp);
    let at = |q: f64| xs[((xs.len() as f64 * q).ceil() as usize).clamp(1, xs.len()) - 1];
    (Some(at(0.5)), Some(at(0.9)))
}
