//! `decisions triage`: triage an issue queue on the batch engine with the shipped `triage.json`
//! (or the project's copy), place each issue in a bucket or in human review, and write the
//! report: Markdown (to standard output unless `--report`) and JSON (`--json`).

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use decisions::batch::{Shape, StateOf};
use decisions::consumer::triage::{self, Report};
use decisions::{CatalogRef, FailureReason};
use serde_json::Value;

use super::batch::{Recorder, RunArgs, go, open_input};
use super::{CliError, SeamArgs};

/// Triage an issue queue: bucket each issue by kind and severity, or send it to human review
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The issues: JSON lines of {id, title, body}, or the array `gh issue list --json number,title,body` prints ("-" for standard input)
    #[arg(value_name = "INPUT", required_unless_present = "input_flag", conflicts_with = "input_flag")]
    input: Option<PathBuf>,
    /// The same, as a flag
    #[arg(long = "input", value_name = "FILE")]
    input_flag: Option<PathBuf>,
    /// Write the Markdown report here [default: standard output]
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Write the JSON report (every answer's probabilities, the ledger row ids) here ("-" for standard output)
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    seam: SeamArgs,
    /// Do not append decision rows to the calibration ledger
    #[arg(long)]
    no_record: bool,
}

pub fn run(mut args: Args) -> anyhow::Result<u8> {
    let Some(input_path) = args.input.take().or(args.input_flag.take()) else {
        return Err(CliError::usage("name the issues to triage: a file, or - for standard input").into());
    };
    args.run.stdout = false;
    let mut request = args.seam.request()?;
    request.catalog = Some(catalog(request.leo_dir.as_deref())?);
    request.questions = triage::QUESTIONS.iter().map(|q| q.to_string()).collect();
    let mut recorder = if args.no_record {
        None
    } else {
        match Recorder::new(triage::CONSUMER, request.leo_dir.clone()) {
            Ok(r) => Some(r),
            Err(e) => {
                eprintln!("warning: not recording: {e} (pass --leo-dir, or --no-record to say so)");
                None
            }
        }
    };
    let shape = Shape {
        id_fields: vec!["id".into(), "number".into()],
        state: StateOf::Derived(std::sync::Arc::new(triage::state)),
    };
    let input = open_input(&input_path)?;
    let prepared = decisions::prepare(&request);
    let failure = prepared.as_ref().err().and_then(|failed| failed.answers.iter().find_map(|(_, r)| r.clone().err()));
    let mut report = Report {
        no_provider: failure.as_ref().is_some_and(|f| f.reason == FailureReason::NoProvider),
        unprepared: failure.map(|f| f.detail.unwrap_or_else(|| f.reason.to_string())),
        ..Report::default()
    };
    let catalog = prepared.as_ref().ok().map(|p| p.catalog().clone());
    let from_output = args.run.output.clone();
    let summary = go(prepared, &args.run, shape, input, |outcome, line| {
        let title = outcome.item.input.get("title").and_then(Value::as_str).unwrap_or_default();
        triage::extend(line, title, &triage::place(&outcome.decision, catalog.as_ref()));
        if let Some(r) = &mut recorder {
            line["recorded"] = r.record(outcome);
        }
        if from_output.is_none() {
            report.add(line);
        }
    })?;
    // With an output file, the report covers all of it: a resumed run reports on every issue.
    if let Some(path) = &from_output {
        read_lines(path, |line| report.add(&line))?;
    }
    report.rank(catalog.as_ref());
    write_reports(&report, args.report.as_deref(), args.json.as_deref())?;
    Ok(super::batch::exit_of(&summary))
}

/// The project's `triage.json` when it has one, else the shipped catalog.
fn catalog(leo: Option<&Path>) -> anyhow::Result<CatalogRef> {
    let own = leo.map(|l| l.join("decisions").join(format!("{}.json", triage::CATALOG)));
    if own.as_ref().is_some_and(|p| p.exists()) {
        return Ok(CatalogRef::Name(triage::CATALOG.into()));
    }
    let text = decisions::install::shipped(triage::CATALOG).unwrap_or_default();
    let doc = decisions::json::Document::parse(text)
        .map_err(|e| CliError::fail(format!("the shipped triage catalog: {e}")))?;
    Ok(CatalogRef::Document(doc))
}

/// Each line of a results file, as JSON (torn or foreign lines skipped), streamed.
fn read_lines(path: &Path, mut each: impl FnMut(Value)) -> anyhow::Result<()> {
    let fail = |e: std::io::Error| CliError::fail(format!("--output {}: {e}", path.display()));
    let file = decisions::file::open_for_read(path).map_err(fail)?;
    for line in std::io::BufReader::new(file).split(b'\n') {
        if let Ok(v) = serde_json::from_slice::<Value>(&line.map_err(fail)?) {
            each(v);
        }
    }
    Ok(())
}

fn write_reports(report: &Report, markdown: Option<&Path>, json: Option<&Path>) -> anyhow::Result<()> {
    let text = report.markdown();
    let json_text = json
        .map(|_| serde_json::to_string_pretty(&report.json()))
        .transpose()?
        .map(|t| decisions::escape::json_text(&t).into_owned() + "\n");
    let write = |path: &Path, text: &str, flag: &str| -> anyhow::Result<()> {
        if path.as_os_str() == "-" {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            return Ok(out.flush()?);
        }
        std::fs::write(path, text).map_err(|e| CliError::fail(format!("{flag} {}: {e}", path.display())).into())
    };
    match markdown {
        Some(path) => write(path, &text, "--report")?,
        None if json.is_some_and(|p| p.as_os_str() == "-") => {}
        None => write(Path::new("-"), &text, "--report")?,
    }
    if let (Some(path), Some(text)) = (json, json_text) {
        write(path, &text, "--json")?;
    }
    Ok(())
}
