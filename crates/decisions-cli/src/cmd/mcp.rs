//! `decisions mcp`: serve one project's decisions tools over MCP (stdio), for an agent to ask
//! what the guard would do, recall what people decided, and put typed questions to the
//! project's catalogs. The server and its runtime start only here: the hook never pays for them.

use std::path::PathBuf;

use decisions::Env;
use decisions::judgment::judgment_path;

use crate::exit::{self, CliError};

/// Serve the project's decisions tools to an agent over MCP, on standard input and output
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The project to serve (the directory holding .leopold) [default: the nearest above the
    /// working directory]
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// The project's name in the judgment ledger, as `card record-answer --project` wrote it
    /// [default: the project directory's name]
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let leo = match &args.project {
        Some(dir) => {
            let leo = dir.join(".leopold");
            if !leo.is_dir() {
                return Err(CliError::usage(format!("--project {}: no .leopold there", dir.display()))
                    .hint(format!("decisions install --project {} sets one up", dir.display()))
                    .into());
            }
            leo
        }
        None => crate::seam::leo_dir(None).filter(|l| l.is_dir()).ok_or_else(|| {
            CliError::usage("no .leopold at or above the working directory: no project to serve")
                .hint("run it in the project, or pass --project DIR")
        })?,
    };
    let leo = leo.canonicalize().map_err(|e| CliError::usage(format!("{}: {e}", leo.display())))?;
    let root = leo.parent().map(PathBuf::from).unwrap_or_else(|| leo.clone());
    let name = match args.name {
        Some(n) if !n.trim().is_empty() => n,
        Some(_) => return Err(CliError::usage("--name must not be empty").into()),
        None => root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
    };
    let judgments = judgment_path(&Env::Process, &root);
    crate::mcp::serve(crate::mcp::Project { root, leo, name, judgments })?;
    Ok(exit::OK)
}
