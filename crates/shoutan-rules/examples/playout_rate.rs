//! Runs a fixed number of light playouts from the empty board and prints the
//! rate: a deterministic workload for instruction counting (cachegrind) and a
//! quick check next to the criterion benchmark.
//!
//! `cargo run --release -p shoutan-rules --example playout_rate -- 9 20000`
#![allow(missing_docs)]

use std::time::Instant;

use shoutan_rules::{Board, BoardSize, Color, Suicide, light_playout};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(9);
    let count: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let Ok(size) = BoardSize::new(n) else {
        eprintln!("board size must be 2..=25");
        std::process::exit(2);
    };
    let empty = Board::new(size);
    let mut board = empty.clone();
    let mut rng = fastrand::Rng::with_seed(1);
    let mut moves = 0;
    let start = Instant::now();
    for _ in 0..count {
        board.clone_from(&empty);
        let end = light_playout(
            &mut board,
            Color::Black,
            Suicide::Forbidden,
            3 * size.area(),
            &mut rng,
        );
        moves += end.moves;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{size}: {count} playouts, {:.1} moves each, {:.0} playouts/s",
        f64::from(moves as u32) / f64::from(count),
        f64::from(count) / secs
    );
}
