//! `decisions batch`: ask one catalog's questions about every record of an input, on the
//! library's run engine. Output is one whole line an item, in completion order, to standard
//! output or `--output` (created new, locked for the run, continued by `--resume`); Ctrl-C
//! stops dispatching, lets what is in flight finish, prints the summary and exits 130.

use std::io::Write;
use std::path::PathBuf;

use decisions::consumer::Recorder;
use decisions::run::input::{Shape, StateOf};
use decisions::run::{Finished, Options};
use serde_json::json;

use crate::exit::CliError;
use crate::log::{LogArgs, RunLog, target};
use crate::runner::{Bar, RunArgs, failed, finish, open_input, open_output, options, stop_on_signals};
use crate::seam::SeamArgs;

/// Ask a catalog's questions about each record of an input; one output line an item, to
/// standard output unless --output
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Catalog file, or a name resolved to <leo-dir>/decisions/<name>.json
    #[arg(long, value_name = "NAME|PATH")]
    catalog: String,
    /// Question ids to ask of every item, comma-separated
    #[arg(long, value_name = "a,b", value_delimiter = ',', required = true)]
    questions: Vec<String>,
    /// The input: a JSON object a line, or one JSON array of them ("-" for standard input)
    #[arg(long, value_name = "FILE")]
    input: PathBuf,
    /// The field holding an item's id, kept as written [absent: none; its output line's "record" names it]
    #[arg(long, value_name = "FIELD", default_value = "id")]
    id_field: String,
    /// The field holding the state to ask about [default: the whole object]
    #[arg(long, value_name = "FIELD")]
    state_field: Option<String>,
    #[command(flatten)]
    run: RunArgs,
    /// Append a calibration-ledger decision row per answered question for this consumer
    #[arg(long, value_name = "CONSUMER")]
    record: Option<String>,
    #[command(flatten)]
    seam: SeamArgs,
    #[command(flatten)]
    log: LogArgs,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let questions: Vec<String> =
        args.questions.iter().map(|q| q.trim().to_string()).filter(|q| !q.is_empty()).collect();
    if questions.is_empty() {
        return Err(CliError::usage("--questions: give at least one question id").into());
    }
    let mut request = args.seam.request()?;
    request.catalog = Some(crate::input::catalog_arg(&args.catalog));
    request.questions = questions;
    let mut recorder =
        match &args.record {
            Some(consumer) => Some(Recorder::new(consumer, request.leo_dir.clone()).map_err(|e| {
                CliError::usage(format!("--record: {e}")).hint("run inside a project, or pass --leo-dir")
            })?),
            None => None,
        };
    let state = args.state_field.clone().map_or(StateOf::Whole, StateOf::Field);
    let shape = Shape { id_fields: vec![args.id_field.clone()], state, ..Shape::default() };
    let (records, total) = open_input(&args.input, args.run.layout, args.run.record_max)?;
    crate::seam::check_catalog(&request, &args.catalog, "--questions")?;
    let prepared = decisions::prepare(&request);
    crate::runner::usable_seam(&prepared)?;
    let (mut output, done) = open_output(&args.run, &args.input)?;
    let stop = stop_on_signals();
    let bar = Bar::new(total);
    let verbose = args.run.verbose;
    let mut stdout = std::io::stdout().lock();
    // The log names the consumer the ledger rows do, else `batch`.
    let log = RunLog::start(
        target(request.leo_dir.as_deref(), args.log).as_deref(),
        args.record.as_deref().unwrap_or("batch"),
    );
    let observe = |o: &decisions::run::Outcome, events| log.outcome(o, events);
    let summary = decisions::run::run(
        prepared.as_ref(),
        records,
        Options {
            observe: Some(&observe),
            ..options(&args.run.pace, Shape { max: args.run.record_max, ..shape }, done, &stop)
        },
        |finished| {
            let line = match finished {
                Finished::Outcome(o) => {
                    let mut line = o.line(verbose);
                    if let Some(r) = &mut recorder {
                        line.extra.insert("recorded".into(), json!(r.record(&o.decision)));
                    }
                    line
                }
                Finished::Repeat(item) => Finished::repeat_line(&item),
            };
            match &mut output {
                Some(file) => file.write_line(&line),
                None => {
                    writeln!(stdout, "{}", line.to_text())?;
                    stdout.flush()
                }
            }
        },
        |s| bar.show(s),
    );
    bar.finish();
    let mut summary = summary.map_err(failed)?;
    log.finish(&summary);
    if let Some(r) = &recorder
        && let Some(e) = &r.first_error
    {
        eprintln!("warning: not recorded for {} items: {e}", r.missed);
    }
    Ok(finish(&mut summary, output.is_some()))
}
