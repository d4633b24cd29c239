//! The `decisions` command: parse, run, map the error to an exit code.

mod cmd;
mod facts;
mod wiring;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match cmd::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { cmd::exit::USAGE } else { cmd::exit::OK };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cmd::run(cli) {
        Ok(code) => ExitCode::from(code),
        // Whoever read our output stopped reading (`| head`): end quietly, as a shell pipeline
        // expects, with the code a process killed by SIGPIPE would have.
        Err(e) if cmd::is_broken_pipe(&e) => ExitCode::from(cmd::exit::BROKEN_PIPE),
        Err(e) => {
            let code = cmd::exit::code_of(&e);
            // An error may quote what a server or a file said: shown inert.
            eprintln!("error: {}", decisions::escape::terminal(&format!("{e:#}")));
            if let Some(hint) = cmd::hint_of(&e) {
                eprintln!("hint: {}", decisions::escape::terminal(&hint));
            }
            ExitCode::from(code)
        }
    }
}
