//! `shoutan bench …`: speed figures printed as medians, for the README and
//! closing notes (targets live here, never in timed unit tests).

mod failover;
mod levels;
mod pairing;
mod playouts;
mod predict;
mod server;
mod strength;

use std::process::ExitCode;

/// What to measure.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Light playouts per second of the rules engine, and the engine's
    /// inside its search; single-threaded.
    Playouts(playouts::Args),
    /// One Swiss and one McMahon round over 1,000 and 2,000 players.
    Pairing(pairing::Args),
    /// How often the move knowledge alone predicts the moves of records.
    Predict(predict::Args),
    /// Playing strength against GNU Go, with playouts per second in the search.
    Strength(strength::Args),
    /// Each level's rank, fitted to the games the levels played.
    Levels(levels::Args),
    /// The game server under load: moves/s and send-to-opponent latency.
    Server(server::Args),
    /// Several instances on PostgreSQL: how long a killed instance's games
    /// are unplayable.
    Failover(failover::Args),
}

/// Runs one benchmark.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Playouts(args) => playouts::run(args),
        Command::Pairing(args) => pairing::run(args),
        Command::Predict(args) => predict::run(args),
        Command::Strength(args) => strength::run(args),
        Command::Levels(args) => levels::run(args),
        Command::Server(args) => server::run(args),
        Command::Failover(args) => failover::run(args),
    }
}
