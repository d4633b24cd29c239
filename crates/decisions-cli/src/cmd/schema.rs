//! `decisions schema`: print the catalog JSON Schema derived from the contract's constants.

/// Print the catalog JSON Schema (generated from the contract's constants)
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_: Args) -> anyhow::Result<u8> {
    crate::output::print_json(&decisions::catalog_schema(), true)?;
    Ok(crate::exit::OK)
}
