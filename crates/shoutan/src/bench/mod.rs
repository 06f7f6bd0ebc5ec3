//! `shoutan bench …`: speed figures printed as medians, for the README and
//! closing notes (targets live here, never in timed unit tests).

mod dead_stones;
mod event;
mod failover;
mod levels;
mod logins;
mod nn;
mod nn_agreement;
mod pairing;
mod playouts;
mod problems;
mod server;
mod strength;

use std::process::ExitCode;

/// What to measure.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Light playouts per second of the rules engine's estimator;
    /// single-threaded.
    Playouts(playouts::Args),
    /// One Swiss and one McMahon round over 1,000 and 2,000 players.
    Pairing(pairing::Args),
    /// Playing strength against a GTP opponent (GNU Go, Pachi, KataGo),
    /// with visits per second in the search.
    Strength(strength::Args),
    /// How often the automatic count agrees with the records' results,
    /// with the network's dead stones and the playout estimator's.
    DeadStones(dead_stones::Args),
    /// Network evaluations per second: one thread and two, batches of 1
    /// and 8.
    Nn(nn::Args),
    /// How closely our network's outputs agree with KataGo's own.
    NnAgreement(nn_agreement::Args),
    /// Each level's rank, fitted to the games the levels played.
    Levels(levels::Args),
    /// The game server under load: moves/s and send-to-opponent latency.
    Server(server::Args),
    /// A crowd of right logins at once while one address floods wrong
    /// ones: how long until all are in.
    Logins(logins::Args),
    /// An online Swiss and McMahon event of thousands run end to end: round
    /// start times, result-to-standings latency for the watchers, memory,
    /// and a `kill -9` mid-round that loses no result.
    Event(event::Args),
    /// Several instances on PostgreSQL: how long a killed instance's games
    /// are unplayable.
    Failover(failover::Args),
    /// The problem library: each problem solved, judged and its solution
    /// worked out, with times and node counts.
    Problems(problems::Args),
}

/// Runs one benchmark.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Playouts(args) => playouts::run(args),
        Command::Pairing(args) => pairing::run(args),
        Command::Strength(args) => strength::run(args),
        Command::DeadStones(args) => dead_stones::run(args),
        Command::Nn(args) => nn::run(args),
        Command::NnAgreement(args) => nn_agreement::run(args),
        Command::Levels(args) => levels::run(args),
        Command::Server(args) => server::run(args),
        Command::Event(args) => event::run(args),
        Command::Failover(args) => failover::run(args),
        Command::Logins(args) => logins::run(args),
        Command::Problems(args) => problems::run(args),
    }
}
