//! `shoutan train`: fits the engine's move knowledge to game records and
//! writes the tables the binary ships (`crates/shoutan-engine/data/
//! knowledge.bin`), printing what it measured. Deterministic for given
//! records, options and seed.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use shoutan_engine::knowledge::{FitOptions, fit};
use shoutan_rules::BoardSize;

use crate::records;

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Training records: `.sgf` files, `.tar.gz` archives of them, or
    /// directories holding either (19×19 games are used).
    #[arg(required = true, value_name = "FILE")]
    records: Vec<PathBuf>,
    /// Where to write the tables.
    #[arg(long, default_value = "crates/shoutan-engine/data/knowledge.bin")]
    out: PathBuf,
    /// Seed of the sampling of positions.
    #[arg(long, default_value_t = FitOptions::default().seed)]
    seed: u64,
    /// One position in this many enters the fit (every position gives shapes).
    #[arg(long, default_value_t = FitOptions::default().sample_every)]
    sample_every: u32,
    /// Times the move played must have had a larger shape for it to be learned.
    #[arg(long, default_value_t = FitOptions::default().min_diamond_count)]
    min_diamond_count: u32,
    /// Most larger shapes kept (the most frequent).
    #[arg(long, default_value_t = FitOptions::default().max_diamonds)]
    max_diamonds: usize,
    /// Rounds of minorization–maximization.
    #[arg(long, default_value_t = FitOptions::default().iterations)]
    iterations: usize,
}

/// Fits and writes the tables.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(args.sample_every > 0, "--sample-every must be at least 1");
    anyhow::ensure!(args.iterations > 0, "--iterations must be at least 1");
    let start = Instant::now();
    let records = records::load(&args.records, BoardSize::NINETEEN)?;
    anyhow::ensure!(!records.games.is_empty(), "no 19×19 game in the records");
    println!(
        "read {} games ({} records skipped) in {:.0} s",
        records.games.len(),
        records.skipped,
        start.elapsed().as_secs_f64()
    );
    let options = FitOptions {
        seed: args.seed,
        sample_every: args.sample_every,
        min_diamond_count: args.min_diamond_count,
        max_diamonds: args.max_diamonds,
        iterations: args.iterations,
    };
    let fitted = fit(&records.games, options, &mut |line| {
        println!("{line} [{:.0} s]", start.elapsed().as_secs_f64());
    });
    let bytes = fitted.knowledge.to_bytes();
    std::fs::write(&args.out, &bytes)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let (shapes3, diamonds, features) = fitted.knowledge.sizes();
    println!(
        "fitted {} of {} positions ({} candidate moves), seed {}: training top-1 {:.3}",
        fitted.sampled, fitted.positions, fitted.candidates, args.seed, fitted.train_top1
    );
    println!(
        "wrote {} ({} bytes: {shapes3} 3×3 shapes, {diamonds} larger shapes, {features} gammas) in {:.0} s",
        args.out.display(),
        bytes.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
