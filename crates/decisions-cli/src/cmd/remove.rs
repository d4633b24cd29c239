//! `decisions remove`: take back the machine payload. The project's `.leopold/decisions/` is
//! left exactly as it was: catalogs and config are content a person wrote.

use decisions::Env;
use decisions::install::{PAYLOAD_FILES, payload_dir};

use super::{CliError, exit};

/// Remove the payload (README, catalog schema, provider templates); project files stay
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_: Args) -> anyhow::Result<u8> {
    let dir = payload_dir(&Env::Process);
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
        println!("payload: removed {} from {}", super::count(removed, "file"), dir.display());
    }
    Ok(exit::OK)
}
