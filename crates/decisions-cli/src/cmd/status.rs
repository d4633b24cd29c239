//! `decisions status`: the doctor's facts on one line.

use std::path::PathBuf;

use crate::exit;

/// Print the active provider, its calibration, the key variable and the catalogs on one line
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The project's .leopold directory [default: the nearest above the working directory]
    #[arg(long, value_name = "DIR")]
    leo_dir: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let f = crate::facts::gather(args.leo_dir);
    if f.absent() {
        return Ok(exit::OK);
    }
    let mut parts = vec![format!("provider {} ({})", f.provider, f.source)];
    if matches!(f.config, decisions::ConfigFile::Malformed { .. }) {
        parts.push("config.json malformed".into());
    }
    match &f.descriptor {
        Ok(d) if d.name != decisions::NONE => {
            parts.push(decisions::calibration_label(d).to_string());
            parts.push(match &d.auth_env {
                Some(var) => format!("{var} {}", if f.key_set == Some(true) { "set" } else { "not set" }),
                None => "no key needed".into(),
            });
        }
        Ok(_) => {}
        Err(m) => parts.push(m.clone()),
    }
    let ok = f.catalogs.iter().filter(|(_, s)| s.is_ok()).count();
    let bad = f.catalogs.len() - ok;
    parts.push(format!(
        "{} ok{}",
        crate::output::count(ok, "catalog"),
        if bad > 0 { format!(", {bad} failing") } else { String::new() }
    ));
    if let Some((rows, _)) = f.ledger {
        parts.push(format!("ledger {}", crate::output::count(rows, "row")));
    }
    parts.push(format!("payload {}", if f.payload.is_some() { "installed" } else { "not installed" }));
    parts.push(if f.missing.is_empty() { "ready".into() } else { format!("not ready ({})", f.missing.len()) });
    println!("decisions: {}", decisions::escape::terminal(&parts.join("; ")));
    Ok(exit::OK)
}
