//! `decisions review`: a review panel's findings. `union` parses each reviewer's raw output and
//! deduplicates the blocking findings; `refine` then merges findings that are one defect and
//! demotes preferences, each only on a confident answer through the project's `review.json`.
//! Every decision outcome exits 0 with one JSON object.

use std::path::PathBuf;

use clap::Subcommand;
use decisions::consumer::review::{
    CONCURRENCY, MAX_PAIRS, RefineRequest, ReviewResult, parse_review, refine_reviews, union_reviews,
};

use crate::exit;
use crate::log::{LogArgs, target};
use crate::seam::SeamArgs;

/// Union a review panel's findings, and refine them: merge duplicates, demote preferences
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
    /// Parse each reviewer's output and print the union of their blocking findings
    Union {
        /// One file per reviewer, its raw output ("-" for standard input)
        #[arg(required = true, value_name = "FILE")]
        reviews: Vec<PathBuf>,
    },
    /// Union the panel, then merge duplicates and demote preferences on confident answers
    Refine {
        /// One file per reviewer, its raw output ("-" for standard input)
        #[arg(required = true, value_name = "FILE")]
        reviews: Vec<PathBuf>,
        #[command(flatten)]
        seam: SeamArgs,
        /// Skip merging when the findings make more pairs than this
        #[arg(long, value_name = "N", default_value_t = MAX_PAIRS)]
        max_pairs: usize,
        /// Requests in flight at once
        #[arg(long, value_name = "N", default_value_t = CONCURRENCY, value_parser = crate::runner::concurrency)]
        concurrency: usize,
        /// Do not append decision rows to the calibration ledger
        #[arg(long)]
        no_record: bool,
        #[command(flatten)]
        log: LogArgs,
    },
}

fn panel(files: &[PathBuf]) -> anyhow::Result<ReviewResult> {
    let mut results = Vec::new();
    for f in files {
        results.push(parse_review(&crate::input::read_text(f, "review")?));
    }
    Ok(union_reviews(&results))
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    args.doc.apply();
    match args.command {
        Verb::Union { reviews } => crate::output::print_json(&panel(&reviews)?, false)?,
        Verb::Refine { reviews, seam, max_pairs, concurrency, no_record, log } => {
            let base = panel(&reviews)?;
            let request = RefineRequest { seam: seam.request()?, max_pairs, concurrency, record: !no_record };
            let log = target(request.seam.leo_dir.as_deref(), log);
            let refined = refine_reviews(&base, &request);
            let mut events = refined.events.clone();
            events.push(decisions::Event::ReviewRefined {
                blocking: refined.blocking.len(),
                merged: refined.merged.len(),
                demoted: refined.demoted.len(),
                merging_skipped: refined.merging_skipped.clone(),
            });
            crate::log::write(
                log.as_deref(),
                decisions::consumer::review::CONSUMER,
                &events,
                std::time::Instant::now() + crate::log::GRACE,
            );
            if let Some(e) = &refined.ledger_error {
                eprintln!("warning: not recorded: {e}");
            }
            crate::output::print_json(&refined, false)?;
        }
    }
    Ok(exit::OK)
}
