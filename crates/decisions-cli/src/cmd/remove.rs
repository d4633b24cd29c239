//! `decisions remove`: take back the machine payload, or (`--agent`) our hook entry from an
//! agent's settings and nothing else in them. The project's `.leopold/decisions/` is left
//! exactly as it was: catalogs and config are content a person wrote.

use decisions::Env;
use decisions::agent::settings::{Edit, Scope, mcp_unregister, unwire};
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
    let fail = |e: String| CliError::fail(e);
    let mut planned = Vec::new();
    let mut servers = Vec::new();
    for &agent in &args.wiring.agents {
        let place = Place::read(agent, args.wiring.scope, &root, env).map_err(|e| fail(e.to_string()))?;
        let mut edit = match &place.text {
            None => Edit::Unchanged,
            Some(text) => unwire(text, agent, &place.path).map_err(|e| fail(e.to_string()))?,
        };
        let hook_changed = edit != Edit::Unchanged;
        // Our MCP server goes too: from the same file's edit, or from a file of its own.
        if args.wiring.scope == Scope::Project
            && let Some(server) = Place::read_mcp(agent, &root).map_err(|e| fail(e.to_string()))?
        {
            let shared = server.path == place.path;
            let before = if shared { place.after(&edit) } else { server.text.clone() };
            let taken = match &before {
                None => Edit::Unchanged,
                Some(text) => mcp_unregister(text, agent, &server.path).map_err(|e| fail(e.to_string()))?,
            };
            if taken != Edit::Unchanged {
                servers.push((agent, server.path.clone()));
                if shared {
                    edit = taken;
                } else {
                    planned.push((server, taken, None));
                }
            }
        }
        planned.push((place, edit, Some(hook_changed)));
    }
    for (place, edit, hook) in &planned {
        let changed =
            place.apply(edit).map_err(|e| CliError::fail(format!("cannot write {}: {e}", place.path.display())))?;
        let Some(hook_changed) = hook else { continue };
        if *hook_changed {
            let how = if *edit == Edit::Delete { "removed it (it held nothing else)" } else { "removed our hook" };
            println!("agent: {} {how}: {}", place.agent.name(), place.path.display());
        } else if !changed {
            println!("agent: {} has no hook of ours in {}", place.agent.name(), place.path.display());
        }
    }
    for (agent, path) in servers {
        println!("mcp: {} removed our server from {}", agent.name(), path.display());
    }
    Ok(exit::OK)
}
