//! `shoutan bench strength`: the engine against another GTP engine (GNU Go
//! by default; Pachi or KataGo with `--opponent`), for the playing strength
//! figures of the closing notes (a benchmark, not a test): N games with
//! alternating colours, a fixed time or number of visits per move for our
//! engine; prints every result, the win rate with its 95 % Wilson interval,
//! and the visits per second measured inside the search.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use shoutan_engine::EngineConfig;
use shoutan_engine::gtp::{Session, SessionOptions, Strength};
use shoutan_rules::{BoardSize, ByColor, Color, Ruleset, Score};

use crate::engine_match::{
    GtpProcess, MatchSettings, Player, PlayerError, Tally, play_game, write_sgf,
};

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Games to play (colours alternate).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Board size.
    #[arg(long, default_value_t = 9)]
    size: u32,
    /// Our engine's thinking time per move, in seconds.
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
    /// A fixed number of visits per move instead of a time.
    #[arg(long)]
    visits: Option<u64>,
    /// Komi.
    #[arg(long, default_value_t = 7.5, allow_hyphen_values = true)]
    komi: f64,
    /// Ruleset (GNU Go is told `--chinese-rules` for area rules, else
    /// `--japanese-rules`).
    #[arg(long, default_value = "chinese")]
    rules: Ruleset,
    /// GNU Go's program.
    #[arg(long, default_value = "/usr/games/gnugo")]
    gnugo: String,
    /// GNU Go's level (0–10).
    #[arg(long, default_value_t = 10)]
    gnugo_level: u8,
    /// Another opponent's GTP command instead of GNU Go (e.g. `pachi
    /// --nodcnn` or `katago gtp -model M -config C`).
    #[arg(long)]
    opponent: Option<String>,
    /// Our search threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Where to write the records (none if absent).
    #[arg(long)]
    sgf_dir: Option<PathBuf>,
}

/// Our engine in this process, with the search speed of each move kept.
struct Ours {
    session: Session,
    rates: Vec<f64>,
    visits: Vec<u64>,
}

impl Player for Ours {
    fn send(&mut self, command: &str, _deadline: Option<Instant>) -> Result<String, PlayerError> {
        let reply = self.session.handle(command).unwrap_or_default();
        if command.starts_with("genmove")
            && let Some(a) = self.session.last_analysis()
        {
            self.rates.push(a.visits_per_second());
            self.visits.push(a.searched);
        }
        let text = reply.get(1..).unwrap_or("").trim().to_owned();
        if reply.starts_with('=') {
            Ok(text)
        } else {
            Err(PlayerError::Refused(text))
        }
    }
}

/// Plays the games and prints the figures.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let size = BoardSize::new(args.size)?;
    anyhow::ensure!(args.games > 0, "--games must be at least 1");
    anyhow::ensure!(
        args.seconds > 0.0 && args.seconds.is_finite(),
        "--seconds must be positive"
    );
    let mut engine = EngineConfig::default();
    if let Some(t) = args.threads {
        engine.threads = t.max(1);
    }
    let strength = match args.visits {
        Some(v) => Strength::Visits(v.max(1)),
        None => Strength::Time(Duration::from_secs_f64(args.seconds)),
    };
    let mut ours = Ours {
        session: Session::new(SessionOptions {
            ruleset: args.rules,
            strength,
            engine,
        }),
        rates: Vec::new(),
        visits: Vec::new(),
    };
    let rules_flag = if args.rules.counting == shoutan_rules::Counting::Territory {
        "--japanese-rules"
    } else {
        "--chinese-rules"
    };
    let gnugo_command = args.opponent.clone().unwrap_or_else(|| {
        format!(
            "{} --mode gtp {rules_flag} --level {}",
            args.gnugo, args.gnugo_level
        )
    });
    let log = std::env::temp_dir().join("shoutan-bench-gnugo.stderr");
    let mut gnugo = GtpProcess::spawn(&gnugo_command, &log)?;
    let gnugo_name = gnugo.identify();
    let settings = MatchSettings {
        size,
        rules: args.rules,
        komi: Score::try_from_points(args.komi)?,
        time: shoutan_clock::TimeControl::None,
        lag: Duration::ZERO,
    };
    if let Some(dir) = &args.sgf_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let thinking = match args.visits {
        Some(v) => format!("{v} visits/move"),
        None => format!("{} s/move", args.seconds),
    };
    println!(
        "shoutan ({thinking}) vs {gnugo_name} ({gnugo_command}), {size}, komi {}, {} rules, {} games",
        settings.komi, args.rules, args.games
    );
    let mut tally = Tally::default();
    let start = Instant::now();
    for g in 0..args.games {
        let ours_black = g % 2 == 0;
        let ours_color = if ours_black {
            Color::Black
        } else {
            Color::White
        };
        let players = if ours_black {
            ByColor::<&mut dyn Player>::new(&mut ours, &mut gnugo)
        } else {
            ByColor::<&mut dyn Player>::new(&mut gnugo, &mut ours)
        };
        let played = play_game(players, &settings);
        tally.add(played.game.result(), ours_color);
        if let Some(dir) = &args.sgf_dir {
            let names = if ours_black {
                ByColor::new("shoutan", gnugo_name.as_str())
            } else {
                ByColor::new(gnugo_name.as_str(), "shoutan")
            };
            write_sgf(&dir.join(format!("game-{:03}.sgf", g + 1)), &played, names)?;
        }
        println!(
            "game {:>3}: shoutan {} {:>8} ({} moves) — {}   [{}; {:.0} visits/s]",
            g + 1,
            if ours_black { "B" } else { "W" },
            played
                .game
                .result()
                .map_or("?".into(), |r| r.international()),
            played.game.turns().len(),
            played.reason,
            tally.summary(),
            median(&ours.rates)
        );
        if played.broken.any(|&b| b) {
            gnugo = GtpProcess::spawn(&gnugo_command, &log)?;
        }
    }
    let median = median(&ours.rates);
    let mean_visits = ours.visits.iter().sum::<u64>() as f64 / ours.visits.len().max(1) as f64;
    println!("shoutan vs {gnugo_name}: {}", tally.summary());
    println!(
        "search speed: median {median:.0} visits/s over {} moves, {mean_visits:.0} visits per move on average ({:.0} s in all)",
        ours.rates.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// The median of the search speeds measured so far (0 before any).
fn median(rates: &[f64]) -> f64 {
    let mut sorted = rates.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
}
