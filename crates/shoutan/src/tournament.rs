//! `shoutan tournament`: not built yet.

use std::process::ExitCode;

/// Subcommands.
#[derive(clap::Subcommand)]
pub enum Command {}

/// Not built yet.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {}
}
