//! `decisions validate`: check a catalog against the contract and a provider.

use std::path::PathBuf;

use decisions::{ConfigFile, Descriptor, DescriptorLookup, Env};

use crate::exit;
use crate::exit::CliError;
use crate::input::JsonFileError;

/// Check a catalog against the contract and a provider; print every problem, one a line
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Catalog file, or a name resolved to <leo-dir>/decisions/<name>.json
    catalog: String,
    /// Check against this provider (its config.json descriptor, else the built-in one) instead of the active one
    #[arg(long, value_name = "NAME")]
    provider: Option<String>,
    /// The project's .leopold directory [default: the nearest above the working directory]
    #[arg(long, value_name = "DIR")]
    leo_dir: Option<PathBuf>,
    #[command(flatten)]
    doc: crate::input::DocArgs,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    args.doc.apply();
    let leo = crate::seam::leo_dir(args.leo_dir);
    let path = match crate::input::catalog_name(&args.catalog) {
        Some(name) => match &leo {
            Some(dir) => decisions::catalog_path(dir, name),
            None => {
                let e = CliError::fail(format!("no .leopold directory found to resolve catalog \"{name}\""));
                return Err(e.hint("pass the catalog's path, or --leo-dir DIR").into());
            }
        },
        None => PathBuf::from(&args.catalog),
    };
    // A catalog the project keeps by name must be a regular file; a path is read as given.
    if crate::input::catalog_name(&args.catalog).is_some() && path.exists() && !path.is_file() {
        return Err(CliError::usage(format!("cannot read catalog {}: not a regular file", path.display())).into());
    }
    let doc = match crate::input::read_json(&path) {
        Ok(doc) => doc,
        Err(JsonFileError::Read(e)) => {
            return Err(CliError::usage(format!("cannot read catalog {}: {e}", path.display())).into());
        }
        Err(e @ JsonFileError::Parse(_)) => return Err(CliError::fail(e.to_string()).into()),
    };
    let config = crate::seam::project_config(leo.as_deref());
    crate::seam::explicit_provider(args.provider.as_deref(), &config)?;
    let descriptor = provider(args.provider.as_deref(), &config)?;

    let mut problems: Vec<String> = doc.duplicates.iter().map(ToString::to_string).collect();
    if let ConfigFile::Malformed { path, error } = &config {
        problems.push(format!("{} is malformed, so it configures no provider: {error}", path.display()));
    }
    // Whatever `ask` would refuse about the descriptor, this refuses too.
    if descriptor.name != decisions::NONE
        && let Err(es) = decisions::validate_descriptor(&descriptor)
    {
        problems.extend(es.iter().map(ToString::to_string));
    }
    match decisions::validate_catalog(&doc.value, &descriptor) {
        Ok(catalog) if problems.is_empty() => {
            println!("ok: {}", crate::output::count(catalog.questions.len(), "question"));
            Ok(exit::OK)
        }
        result => {
            if let Err(es) = result {
                problems.extend(es.iter().map(ToString::to_string));
            }
            for p in &problems {
                println!("{}: {p}", path.display());
            }
            eprintln!(
                "error: {} in {} (provider \"{}\")",
                crate::output::count(problems.len(), "problem"),
                path.display(),
                descriptor.name
            );
            Ok(exit::FAIL)
        }
    }
}

/// The descriptor to check against: the flag's provider, else the active one.
fn provider(flag: Option<&str>, config: &ConfigFile) -> anyhow::Result<Descriptor> {
    let name = match flag {
        Some(n) => n.to_string(),
        None => decisions::resolve_name(None, config, &Env::Process).0,
    };
    match decisions::descriptor_for(&name, config) {
        Ok(d) => Ok(d),
        Err(e @ DescriptorLookup::Unparsable { .. }) => Err(CliError::fail(e.to_string()).into()),
        Err(DescriptorLookup::Missing { .. }) => {
            let known: Vec<&str> = decisions::known_names().collect();
            let e = CliError::fail(format!("the active provider \"{name}\" has no descriptor"));
            Err(e.hint(format!("known providers: {}", known.join(", "))).into())
        }
    }
}
