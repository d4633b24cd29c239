//! `decisions providers`: print the provider templates generated from the built-in descriptors.

/// Print the provider templates (generated from the built-in descriptors; none excluded)
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_: Args) -> anyhow::Result<u8> {
    crate::output::print_json(&decisions::provider_templates(), true)?;
    Ok(crate::exit::OK)
}
