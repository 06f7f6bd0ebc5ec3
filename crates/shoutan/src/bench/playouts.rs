//! `shoutan bench playouts`: light playouts per second of the rules
//! engine (the estimator `shoutan_rules::estimate` runs them; the computer
//! player thinks with the network, see `bench nn`), single-threaded, on
//! 9×9 and 19×19. Medians of several timed rounds.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use shoutan_rules::{Board, BoardSize, Color, Suicide, light_playout};

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Seconds per timed round.
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
    /// Timed rounds per board size (the median is reported).
    #[arg(long, default_value_t = 5)]
    rounds: usize,
}

/// Prints playouts per second for each size.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.rounds > 0 && args.seconds > 0.0,
        "rounds and seconds must be positive"
    );
    let round = Duration::from_secs_f64(args.seconds);
    for size in [BoardSize::NINE, BoardSize::NINETEEN] {
        let rates = (0..args.rounds).map(|r| rate(size, round, r as u64));
        report(&format!("{size}: light"), rates, &args);
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the median of `rates` with its range.
fn report(what: &str, rates: impl Iterator<Item = f64>, args: &Args) {
    let mut rates: Vec<f64> = rates.collect();
    rates.sort_by(f64::total_cmp);
    println!(
        "{what}: {:.0} playouts/s (median of {} rounds of {:.1}s; min {:.0}, max {:.0})",
        rates[rates.len() / 2],
        args.rounds,
        args.seconds,
        rates[0],
        rates[rates.len() - 1]
    );
}

fn rate(size: BoardSize, round: Duration, seed: u64) -> f64 {
    let empty = Board::new(size);
    let mut board = empty.clone();
    let mut rng = fastrand::Rng::with_seed(seed);
    let start = Instant::now();
    let mut playouts = 0u64;
    while start.elapsed() < round {
        for _ in 0..64 {
            board.clone_from(&empty);
            light_playout(
                &mut board,
                Color::Black,
                Suicide::Forbidden,
                3 * size.area(),
                &mut rng,
            );
        }
        playouts += 64;
    }
    playouts as f64 / start.elapsed().as_secs_f64()
}
