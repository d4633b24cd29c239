//! The `decisions` command: parse, run, map the error to an exit code.

mod cmd;
mod codex;
mod exit;
mod facts;
mod guard;
mod input;
mod judgments;
mod log;
mod mcp;
mod output;
mod runner;
mod seam;
mod wiring;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match cmd::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { exit::USAGE } else { exit::OK };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cmd::run(cli) {
        Ok(code) => ExitCode::from(code),
        // Whoever read our output stopped reading (`| head`): end quietly, as a shell pipeline
        // expects, with the code a process killed by SIGPIPE would have.
        Err(e) if exit::is_broken_pipe(&e) => ExitCode::from(exit::BROKEN_PIPE),
        Err(e) => {
            let code = exit::code_of(&e);
            // An error may quote what a server or a file said: shown inert.
            eprintln!("error: {}", decisions::escape::terminal(&format!("{e:#}")));
            if let Some(hint) = exit::hint_of(&e) {
                eprintln!("hint: {}", decisions::escape::terminal(&hint));
            }
            ExitCode::from(code)
        }
    }
}
