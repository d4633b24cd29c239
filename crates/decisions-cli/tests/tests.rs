//! Every integration test of `decisions-cli` in one test binary, one module a file (ripgrep's layout),
//! so the test build links one binary instead of one a file.

mod agents;
mod ask;
mod batch;
mod campaign;
mod common;
mod consumers;
mod day_one;
mod first_use;
mod generated;
mod hardening;
mod help;
mod hook;
mod injection;
mod install;
mod ledgers;
mod mcp;
mod outputs;
mod peers;
mod queues;
mod runs;
#[cfg(feature = "jsonschema")]
mod schemas;
mod sweep;
mod validate;
mod watch;
