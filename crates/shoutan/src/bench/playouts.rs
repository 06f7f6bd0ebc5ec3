//! `shoutan bench playouts`: light playouts per second, single-threaded, on
//! 9×9 and 19×19; then the engine's playouts per second inside its search
//! (its policy, the tree, the priors: what a player's opponent runs), one
//! thread, from the empty board and from a middle-game position. Medians of
//! several timed rounds.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use shoutan_engine::{Budget, Engine, EngineConfig, StopHandle};
use shoutan_rules::{Board, BoardSize, Color, Game, Move, Ruleset, Suicide, light_playout};

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
    for size in [BoardSize::NINE, BoardSize::NINETEEN] {
        let empty = Game::new(size, Ruleset::CHINESE);
        let middle = middle_game(size);
        for (name, game) in [("empty board", &empty), ("middle game", &middle)] {
            // One engine, its tree's arena allocated by an untimed first
            // search, each round from a fresh root.
            let mut engine = engine();
            search_rate(&mut engine, game, round);
            let rates: Vec<f64> = (0..args.rounds)
                .map(|_| search_rate(&mut engine, game, round))
                .collect();
            report(
                &format!("{size}: engine search, {name}"),
                rates.into_iter(),
                &args,
            );
        }
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

/// One thread, no early stop.
fn engine() -> Engine {
    Engine::new(EngineConfig {
        threads: 1,
        resign_below: 0.0,
        ..EngineConfig::default()
    })
}

/// The playouts per second of `engine` searching `game` for `round` from
/// a fresh root.
fn search_rate(engine: &mut Engine, game: &Game, round: Duration) -> f64 {
    engine.clear();
    engine
        .analyze(
            game,
            game.to_move(),
            Budget::time(round),
            &StopHandle::new(),
            None,
        )
        .map_or(0.0, |a| a.playouts_per_second())
}

/// A middle-game position, always the same: the engine plays itself from
/// the empty board with 200 playouts a move (one thread, a fixed seed)
/// until a third of the points hold stones.
fn middle_game(size: BoardSize) -> Game {
    let mut game = Game::new(size, Ruleset::CHINESE);
    let mut engine = engine();
    let stop = StopHandle::new();
    while game.board().stone_count(Color::Black) + game.board().stone_count(Color::White)
        < size.area() / 3
    {
        let color = game.to_move();
        // `analyze` runs exactly its playouts (a move may stop early).
        let Ok(analysis) = engine.analyze(&game, color, Budget::playouts(200), &stop, None) else {
            break;
        };
        let Some(Move::Play(p)) = analysis.moves.first().map(|m| m.mv) else {
            break;
        };
        if game.play(color, p).is_err() {
            break;
        }
    }
    game
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
