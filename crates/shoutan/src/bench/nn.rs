//! `shoutan bench nn`: network evaluations per second on 19×19 (input
//! features, the forward pass and the post-processing, as the search asks
//! for them), with one thread and two, batches of 1 and 8; medians of
//! several timed rounds. KataGo's `benchmark` command prints the same
//! figure as `nnEvals/s` for comparison on the same machine.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use shoutan_nn::{Network, Position, Scratch, Symmetry};
use shoutan_rules::{BoardSize, Game, Ruleset, random_move};

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Seconds per timed round.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Timed rounds per setting (the median is reported).
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// Board size.
    #[arg(long, default_value_t = 19)]
    size: u32,
    /// Thread counts to measure.
    #[arg(long, value_delimiter = ',', default_value = "1,2")]
    threads: Vec<usize>,
    /// Batch sizes to measure.
    #[arg(long, value_delimiter = ',', default_value = "1,8")]
    batch: Vec<usize>,
    /// A KataGo network file instead of the built-in one.
    #[arg(long)]
    model: Option<std::path::PathBuf>,
}

/// Prints evaluations per second for each thread count and batch size.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.rounds > 0 && args.seconds > 0.0,
        "rounds and seconds must be positive"
    );
    let network = match &args.model {
        Some(path) => Network::load(path)?,
        None => Network::builtin(),
    };
    let size = BoardSize::new(args.size)?;
    let positions = middle_games(size, 16);
    let round = Duration::from_secs_f64(args.seconds);
    println!(
        "{} (model version {}), {size}, features + network + post-processing",
        network.name(),
        network.version()
    );
    for &threads in &args.threads {
        for &batch in &args.batch {
            anyhow::ensure!(
                threads > 0 && batch > 0,
                "threads and batch must be positive"
            );
            // One untimed round warms the caches and the scratch buffers.
            rate(&network, &positions, threads, batch, round / 4);
            let mut rates: Vec<f64> = (0..args.rounds)
                .map(|_| rate(&network, &positions, threads, batch, round))
                .collect();
            rates.sort_by(f64::total_cmp);
            println!(
                "threads {threads}, batch {batch}: {:.1} evaluations/s (median of {}; {:.1} to {:.1})",
                rates[rates.len() / 2],
                rates.len(),
                rates[0],
                rates[rates.len() - 1]
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Evaluations per second of `threads` threads, each evaluating batches
/// of `batch` positions for `round`.
fn rate(
    network: &Network,
    positions: &[Position],
    threads: usize,
    batch: usize,
    round: Duration,
) -> f64 {
    let start = Instant::now();
    let done: usize = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut scratch = Scratch::default();
                    let mut done = 0;
                    let mut k = t;
                    while start.elapsed() < round {
                        let requests: Vec<(&Position, Symmetry)> = (0..batch)
                            .map(|j| {
                                k += 1;
                                (&positions[k % positions.len()], Symmetry::ALL[(k + j) % 8])
                            })
                            .collect();
                        done += network.evaluate(&requests, &mut scratch).len();
                    }
                    done
                })
            })
            .collect();
        workers.into_iter().filter_map(|w| w.join().ok()).sum()
    });
    done as f64 / start.elapsed().as_secs_f64()
}

/// `count` middle-game positions of random play (half the board filled,
/// no eye filling), the same on every run.
fn middle_games(size: BoardSize, count: usize) -> Vec<Position> {
    let mut rng = fastrand::Rng::with_seed(19);
    (0..count)
        .map(|_| {
            let mut game = Game::new(size, Ruleset::CHINESE);
            for _ in 0..size.area() / 2 {
                let color = game.to_move();
                let Some(i) = random_move(game.board(), color, Ruleset::CHINESE.suicide, &mut rng)
                else {
                    break;
                };
                let p = game.board().point(i);
                if game.play(color, p).is_err() {
                    break;
                }
            }
            Position::from_game(&game)
        })
        .collect()
}
