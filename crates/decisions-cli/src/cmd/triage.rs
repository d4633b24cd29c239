//! `decisions triage`: triage an issue queue on the run engine with the shipped `triage.json`
//! (or the project's copy), place each issue in a bucket or in human review, and write the
//! report, built from the run's output in one streaming pass: Markdown (to standard output
//! unless `--report`) and JSON (`--json`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use decisions::CatalogRef;
use decisions::consumer::Recorder;
use decisions::consumer::triage::{self, Report};
use decisions::run::Options;
use decisions::run::input::{NoState, Shape, StateOf};
use decisions::run::output::OutputFile;

use crate::exit::CliError;
use crate::log::{LogArgs, RunLog, target};
use crate::output::Deferred;
use crate::runner::{Bar, RunArgs, failed, finish, open_input, open_output, options, stop_on_signals};
use crate::seam::SeamArgs;

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
    #[command(flatten)]
    log: LogArgs,
}

pub fn run(mut args: Args) -> anyhow::Result<u8> {
    let Some(input_path) = args.input.take().or(args.input_flag.take()) else {
        return Err(CliError::usage("name the issues to triage: a file, or - for standard input").into());
    };
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
    let derive = |obj: &serde_json::Map<String, serde_json::Value>| triage::state(obj).map_err(NoState::from);
    let shape = Shape {
        id_fields: vec!["id".into(), "number".into()],
        state: StateOf::Derived(Arc::new(derive)),
        ..Shape::default()
    };
    let (records, total) = open_input(&input_path, args.run.layout, args.run.record_max)?;
    let prepared = decisions::prepare(&request);
    crate::runner::usable_seam(&prepared)?;
    // The reports' files are opened before the first request: a path that cannot be written
    // fails now, not after every issue was asked.
    let to_file = |p: &Option<PathBuf>, flag| match p {
        Some(path) if path.as_os_str() != "-" => Deferred::open(path, flag).map(Some),
        _ => Ok(None),
    };
    let (md_file, json_file) = (to_file(&args.report, "--report")?, to_file(&args.json, "--json")?);
    let (output, done) = open_output(&args.run, &input_path)?;
    let resumable = output.is_some();
    // Without --output the lines still go to a file (unnamed, gone when the run ends): the
    // report is read back from it, never held whole.
    let mut output = match output {
        Some(o) => o,
        None => OutputFile::scratch().map_err(|e| CliError::fail(format!("a scratch file for the report: {e}")))?,
    };
    let stop = stop_on_signals();
    let bar = Bar::new(total);
    let log = RunLog::start(target(request.leo_dir.as_deref(), args.log).as_deref(), triage::CONSUMER);
    let observe = |o: &decisions::run::Outcome, events| log.outcome(o, events);
    let triaged = triage::run(
        prepared.as_ref(),
        records,
        Options {
            observe: Some(&observe),
            ..options(&args.run.pace, Shape { max: args.run.record_max, ..shape }, done, &stop)
        },
        &mut output,
        recorder.as_mut(),
        |s| bar.show(s),
    );
    bar.finish();
    let mut triaged = triaged.map_err(failed)?;
    log.finish(&triaged.summary);
    if let Some(r) = &recorder
        && let Some(e) = &r.first_error
    {
        eprintln!("warning: not recorded for {} issues: {e}", r.missed);
    }
    triaged.summary.resumable = resumable;
    triaged.report.describe(&triaged.summary);
    let problems =
        write_reports(&triaged.report, &mut output, (md_file, args.report.is_none()), (json_file, &args.json))?;
    let code = finish(&mut triaged.summary, resumable);
    for p in &problems {
        eprintln!("error: {}", decisions::escape::terminal(p));
    }
    Ok(if problems.is_empty() { code } else { crate::exit::FAIL })
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

/// Write the reports: each to its file, or to standard output (the Markdown when no
/// `--report` is named and the JSON is not on standard output). Every report is written that
/// can be; one that fails is said after the summary.
fn write_reports(
    report: &Report,
    lines: &mut OutputFile,
    (md_file, no_report_named): (Option<Deferred>, bool),
    (json_file, json_arg): (Option<Deferred>, &Option<PathBuf>),
) -> anyhow::Result<Vec<String>> {
    let json_to_stdout = json_arg.as_ref().is_some_and(|p| p.as_os_str() == "-");
    let text = report.markdown();
    let mut problems = Vec::new();
    if let Some(file) = md_file {
        problems.extend(file.write(text.as_bytes()).err());
    } else if !(no_report_named && json_to_stdout) {
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes())?;
        out.flush()?;
    }
    if let Some(file) = json_file {
        problems.extend(file.write_with(&mut |out| report.write_json(lines, out)).err());
    } else if json_to_stdout {
        let mut out = std::io::stdout().lock();
        report.write_json(lines, &mut out)?;
        out.flush()?;
    }
    Ok(problems)
}
