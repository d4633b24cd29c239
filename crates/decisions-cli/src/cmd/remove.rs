//! `decisions remove`: take back the machine payload, or (`--agent`) our hook entry from an
//! agent's settings and nothing else in them. The project's `.leopold/decisions/` is left
//! exactly as it was: catalogs and config are content a person wrote.

use decisions::Env;
use decisions::agent::settings::{Edit, unwire};
use decisions::install::{PAYLOAD_FILES, payload_dir};

use crate::exit;
use crate::exit::CliError;
use crate::wiring::{Place, WiringArgs, find_project};

/// Remove the payload (README, schemas, provider templates), or with --agent our hook entry; project files stay
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    wiring: WiringArgs,
    /// The project whose agent settings to edit [default: LEOPOLD_PROJECT_DIR, else the nearest one above the working directory]
    #[arg(long, value_name = "DIR")]
    project: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let env = Env::Process;
    if !args.wiring.agents.is_empty() {
        return unwire_agents(&args, &env);
    }
    let dir = payload_dir(&env);
    let mut removed = 0;
    for name in PAYLOAD_FILES {
        let path = dir.join(name);
        match std::fs::remove_file(&path) {
            Ok(()) => removed += 1,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(CliError::fail(format!("cannot remove {}: {e}", path.display())).into()),
        }
    }
    // The directory goes too when nothing else is in it.
    let _ = std::fs::remove_dir(&dir);
    if removed == 0 {
        println!("payload: nothing installed at {}", dir.display());
    } else {
        println!("payload: removed {} from {}", crate::output::count(removed, "file"), dir.display());
    }
    Ok(exit::OK)
}

/// Take our entry out of each agent's settings; every other byte stays. Each file is read and
/// checked before any is written.
fn unwire_agents(args: &Args, env: &Env) -> anyhow::Result<u8> {
    let root = match &args.project {
        Some(dir) => dir.clone(),
        None => find_project().unwrap_or_default(),
    };
    let mut planned = Vec::new();
    for &agent in &args.wiring.agents {
        let place = Place::read(agent, args.wiring.scope, &root, env).map_err(|e| CliError::fail(e.to_string()))?;
        let edit = match &place.text {
            None => Edit::Unchanged,
            Some(text) => unwire(text, agent, &place.path).map_err(|e| CliError::fail(e.to_string()))?,
        };
        planned.push((place, edit));
    }
    for (place, edit) in &planned {
        let changed =
            place.apply(edit).map_err(|e| CliError::fail(format!("cannot write {}: {e}", place.path.display())))?;
        if changed {
            let how = if *edit == Edit::Delete { "removed it (it held nothing else)" } else { "removed our hook" };
            println!("agent: {} {how}: {}", place.agent.name(), place.path.display());
        } else {
            println!("agent: {} has no hook of ours in {}", place.agent.name(), place.path.display());
        }
    }
    Ok(exit::OK)
}
