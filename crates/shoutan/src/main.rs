//! `shoutan`: the command-line front of the platform. Each subcommand lives
//! in its own module; this file only wires them.

mod admin;
mod backup;
#[cfg(feature = "bench")]
mod bench;
mod database;
#[cfg(feature = "bench")]
mod engine_match;
mod gtp;
mod model;
#[cfg(feature = "bench")]
mod records;
mod replay;
mod review;
mod score;
mod serve;
mod sgf;
mod solve;
mod tournament;

use clap::{Parser, Subcommand};

/// Shoutan (手谈): a weiqi platform.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the weiqi server (web client included).
    Serve(serve::Args),
    /// Check game records move by move and show the final position.
    Replay(replay::Args),
    /// Review a record with the engine: win rate and score of every move,
    /// the biggest mistakes and the engine's lines, written into the SGF.
    Review(review::Args),
    /// Count the final position of a record.
    Score(score::Args),
    /// Solve a life-and-death or capturing-race problem: can the group be
    /// killed, can it be saved, and by which first moves.
    Solve(solve::Args),
    /// Work on SGF files.
    #[command(subcommand)]
    Sgf(sgf::Command),
    /// Speak GTP on stdin/stdout (the computer player).
    Gtp(gtp::Args),
    /// Play GTP engines against each other (built with `--features bench`).
    #[cfg(feature = "bench")]
    Match(engine_match::Args),
    /// Run a tournament from a tournament file.
    #[command(subcommand)]
    Tournament(tournament::Command),
    /// Measure speed and strength (built with `--features bench`).
    #[cfg(feature = "bench")]
    #[command(subcommand)]
    Bench(bench::Command),
    /// Copy the embedded database, while the server runs.
    Backup(backup::BackupArgs),
    /// Put a backup in place as the embedded database (server stopped).
    Restore(backup::RestoreArgs),
    /// The operator's tools: roles, password reset codes, suspensions and
    /// bans, reports and the audit log (while the server runs).
    Admin(admin::Args),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Serve(args) => serve::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Review(args) => review::run(args),
        Command::Score(args) => score::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Sgf(cmd) => sgf::run(cmd),
        Command::Gtp(args) => gtp::run(args),
        #[cfg(feature = "bench")]
        Command::Match(args) => engine_match::run(args),
        Command::Tournament(cmd) => tournament::run(cmd),
        #[cfg(feature = "bench")]
        Command::Bench(cmd) => bench::run(cmd),
        Command::Backup(args) => backup::backup(args),
        Command::Restore(args) => backup::restore(args),
        Command::Admin(args) => admin::run(args),
    };
    match outcome {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
