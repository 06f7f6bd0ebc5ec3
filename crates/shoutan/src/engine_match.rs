//! `shoutan engine_match`: not built yet.

use std::process::ExitCode;

/// Arguments.
#[derive(clap::Args)]
pub struct Args {}

/// Not built yet.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`engine_match` is not built yet")
}
