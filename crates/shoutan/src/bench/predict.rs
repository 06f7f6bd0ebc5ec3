//! `shoutan bench predict`: how well the move knowledge alone (no search)
//! predicts the moves of game records: over every position where a stone
//! was played, how often the move played is its first choice (top-1) and
//! among its first five (top-5). Measure it on games kept out of the fit.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use shoutan_engine::knowledge::{Judge, Knowledge, positions};
use shoutan_rules::BoardSize;

use crate::records;

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Records: `.sgf` files, `.tar.gz` archives of them, or directories.
    #[arg(required = true, value_name = "FILE")]
    records: Vec<PathBuf>,
    /// Print only `{"positions": N, "top1": f, "top5": f}`.
    #[arg(long)]
    json: bool,
    /// Board size of the games measured (others are skipped).
    #[arg(long, default_value_t = 19)]
    size: u32,
}

/// Prints the prediction rates.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let size = BoardSize::new(args.size)?;
    let start = Instant::now();
    let records = records::load(&args.records, size)?;
    let knowledge = Knowledge::shipped();
    let mut judge = Judge::default();
    let (mut n, mut top1, mut top5) = (0u64, 0u64, 0u64);
    for game in &records.games {
        positions(game, |s, played| {
            n += 1;
            if let Some(rank) = knowledge.rank(s, played, &mut judge) {
                top1 += u64::from(rank == 0);
                top5 += u64::from(rank < 5);
            }
        });
    }
    let rate = |k: u64| k as f64 / n.max(1) as f64;
    if args.json {
        // Written out so the line reads exactly as documented, spaces
        // included; f64's `Display` is a valid JSON number.
        println!(
            "{{\"positions\": {n}, \"top1\": {}, \"top5\": {}}}",
            rate(top1),
            rate(top5)
        );
    } else {
        println!(
            "{n} positions of {} games ({} records skipped): top-1 {:.3}, top-5 {:.3} ({:.0} s)",
            records.games.len(),
            records.skipped,
            rate(top1),
            rate(top5),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}
