//! One file per subcommand, each its `Args` (the doc comment is its help) and its `run`; this
//! module holds only the command tree. No subcommand imports another: what they share lives in
//! the crate's own modules (`exit`, `input`, `output`, `seam`, `runner`, `facts`, `wiring`,
//! `judgments`, `log`).

mod ask;
mod batch;
mod card;
mod doctor;
mod eval;
mod hook;
mod install;
mod judgment;
mod ledger;
mod mcp;
mod providers;
mod remove;
mod review;
mod route;
mod schema;
mod status;
mod triage;
mod validate;
mod watch;

use clap::{Parser, Subcommand};

/// Ask a model typed questions with a deterministic fallback, and keep the contract honest
#[derive(Debug, Parser)]
#[command(name = "decisions", version, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Each subcommand's arguments are built only when it is the one run: a hook pays for `hook`.
/// So the short lines the command list shows are here; each `Args` carries its full help.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
enum Command {
    /// Ask a catalog's questions about a state; print the decision as one JSON object
    Ask(ask::Args),
    /// Check a catalog against the contract and a provider
    Validate(validate::Args),
    /// Print the catalog JSON Schema
    Schema(schema::Args),
    /// Print the provider templates
    Providers(providers::Args),
    /// Record decisions and outcomes, propose bars, report calibration
    Ledger(ledger::Args),
    /// Append, search and recall human judgments
    Judgment(judgment::Args),
    /// Validate Decision Cards, recall past decisions into them, record answers
    Card(card::Args),
    /// Install the payload and seed the project's config
    Install(install::Args),
    /// Remove the payload; project files stay
    Remove(remove::Args),
    /// Print the active provider and the catalogs on one line
    Status(status::Args),
    /// Report what is installed and configured, one row a fact
    Doctor(doctor::Args),
    /// Answer an agent's permission hook: deny a destructive shell command, else stay silent
    Hook(hook::Args),
    /// Route a plan item: how much verification effort it deserves, and whether it is critical
    Route(route::Args),
    /// Union a review panel's findings, and refine them: merge duplicates, demote preferences
    Review(review::Args),
    /// Triage an issue queue: bucket each issue by kind and severity, or send it to human review
    Triage(triage::Args),
    /// Ask a catalog's questions about every line of a JSONL input, many at a time
    Batch(batch::Args),
    /// Evaluate a provider on labelled states: accuracy, calibration, and the bars the evidence supports
    Eval(eval::Args),
    /// Show the decisions meters from the event log: calls, decide time, fallback, bands, denials
    Watch(watch::Args),
    /// Serve the project's decisions tools to an agent over MCP (stdio)
    Mcp(mcp::Args),
}

/// Run the parsed command; `Ok` carries the exit code.
pub fn run(cli: Cli) -> anyhow::Result<u8> {
    match cli.command {
        Command::Ask(a) => ask::run(a),
        Command::Validate(a) => validate::run(a),
        Command::Schema(a) => schema::run(a),
        Command::Providers(a) => providers::run(a),
        Command::Ledger(a) => ledger::run(a),
        Command::Judgment(a) => judgment::run(a),
        Command::Card(a) => card::run(a),
        Command::Install(a) => install::run(a),
        Command::Remove(a) => remove::run(a),
        Command::Status(a) => status::run(a),
        Command::Doctor(a) => doctor::run(a),
        Command::Hook(a) => hook::run(a),
        Command::Batch(a) => batch::run(a),
        Command::Eval(a) => eval::run(a),
        Command::Route(a) => route::run(a),
        Command::Review(a) => review::run(a),
        Command::Triage(a) => triage::run(a),
        Command::Watch(a) => watch::run(a),
        Command::Mcp(a) => mcp::run(a),
    }
}
