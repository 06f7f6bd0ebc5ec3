//! `shoutan gtp`: the engine speaking GTP on stdin/stdout, for Sabaki,
//! GoGui, KGS bots and `shoutan match`.
//!
//! A reader thread feeds lines from stdin; live analysis (`lz-analyze`,
//! `kata-analyze`) runs until the next line arrives, as Sabaki, Lizzie and
//! KaTrain expect of KataGo.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use shoutan_engine::gtp::{Command, Session, SessionOptions, Strength, parse_line};
use shoutan_engine::{EngineConfig, Level, StopHandle};
use shoutan_rules::Ruleset;

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Ruleset of the games (`chinese`, `japanese`, `aga`, …); GTP
    /// `kgs-rules` may change it.
    #[arg(long, default_value = "chinese")]
    rules: Ruleset,
    /// Playing level from 1 (beginner) to 10 (full strength, by the clock).
    #[arg(long, conflicts_with_all = ["visits", "time"])]
    level: Option<Level>,
    /// A fixed number of visits per move.
    #[arg(long, conflicts_with = "time")]
    visits: Option<u64>,
    /// A fixed time per move, in seconds (the clock may shorten it).
    #[arg(long)]
    time: Option<f64>,
    /// Search threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Resign when the winrate falls below this (0 never resigns).
    #[arg(long, default_value_t = 0.05)]
    resign_below: f32,
    /// Positions each search thread sends the network at once.
    #[arg(long, default_value_t = EngineConfig::default().batch)]
    batch: usize,
    /// A KataGo network file (`.bin.gz`) instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    model: Option<std::path::PathBuf>,
}

/// Serves GTP until `quit` or the end of input.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let network = crate::model::network(args.model.as_deref())?;
    let strength = match (args.level, args.visits, args.time) {
        (_, Some(v), _) => {
            anyhow::ensure!(v > 0, "--visits must be at least 1");
            Strength::Visits(v)
        }
        (_, _, Some(t)) => {
            anyhow::ensure!(
                t.is_finite() && t > 0.0 && t < 1e6,
                "--time must be a positive number of seconds"
            );
            Strength::Time(Duration::from_secs_f64(t))
        }
        (Some(level), _, _) => Strength::Level(level),
        _ => Strength::Level(Level::FULL),
    };
    anyhow::ensure!(
        (0.0..1.0).contains(&args.resign_below),
        "--resign-below must be between 0 and 1"
    );
    anyhow::ensure!(args.batch > 0, "--batch must be at least 1");
    let mut engine = EngineConfig {
        resign_below: args.resign_below,
        batch: args.batch,
        ..EngineConfig::default()
    };
    if let Some(t) = args.threads {
        anyhow::ensure!(t > 0, "--threads must be at least 1");
        engine.threads = t;
    }
    let mut session = Session::with_network(
        SessionOptions {
            ruleset: args.rules,
            strength,
            engine,
        },
        network,
    );

    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });

    let stdout = std::io::stdout();
    let mut pending: Option<String> = None;
    while !session.has_quit() {
        let text = match pending.take() {
            Some(t) => t,
            None => match rx.recv() {
                Ok(t) => t,
                Err(_) => break,
            },
        };
        let Some(line) = parse_line(&text) else {
            continue;
        };
        let streaming = matches!(
            line.command,
            Ok(Command::LzAnalyze(_)
                | Command::LzGenmoveAnalyze(..)
                | Command::KataAnalyze(_)
                | Command::KataGenmoveAnalyze(..))
        );
        let stop = StopHandle::new();
        let mut write = |s: &str| {
            let mut out = stdout.lock();
            // A closed stdout ends the session at the next read.
            let _ = out.write_all(s.as_bytes());
            let _ = out.flush();
        };
        if !streaming {
            session.run(&line, &stop, &mut write);
            continue;
        }
        // Analysis runs until it ends or the next command arrives.
        std::thread::scope(|s| {
            let worker = s.spawn(|| session.run(&line, &stop, &mut write));
            loop {
                match rx.recv_timeout(Duration::from_millis(10)) {
                    Ok(next) => {
                        pending = Some(next);
                        stop.stop();
                        break;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        stop.stop();
                        break;
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) if worker.is_finished() => break,
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                }
            }
        });
    }
    Ok(ExitCode::SUCCESS)
}
