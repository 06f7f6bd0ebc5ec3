//! `shoutan score FILE`: counts the final position of a record under its
//! rules (or `--rules`, `--komi`), with the dead stones the record marks or
//! the network judges dead (`shoutan_engine::judge`), shows both sides'
//! counts and the result in Chinese and international notation, and
//! compares it with the record's `RE`. `--json` prints the same as the
//! object documented on `shoutan_sgf::ScoreReport`.

use std::path::PathBuf;
use std::process::ExitCode;

use shoutan_rules::{Counting, Game, Ruleset, Score};
use shoutan_sgf::{DeadStones, ReplayOptions, ScoreReport, SideReport, read, replay, score};

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The SGF file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Count under this ruleset instead of the record's `RU`.
    #[arg(long, value_name = "NAME", value_parser = crate::replay::parse_rules)]
    rules: Option<Ruleset>,
    /// Komi in points instead of the record's `KM`.
    #[arg(long, value_name = "K", allow_hyphen_values = true)]
    komi: Option<Score>,
    /// Dead stones: `sgf` (the record's TB/TW or DS markup), `auto` (the
    /// network's judgement) or `none`. Default: `sgf` when the record marks
    /// dead stones, `auto` otherwise.
    #[arg(long, value_name = "MODE")]
    dead: Option<DeadStones>,
    /// A KataGo network file (`.bin.gz`) instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// The game to count in a file of several (from 1).
    #[arg(long, value_name = "N", default_value_t = 1)]
    game: usize,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let network = crate::model::network(args.model.as_deref())?;
    let name = args.file.display().to_string();
    let bytes = std::fs::read(&args.file).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let file = read(&bytes).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let count = file.collection.games.len();
    let tree = args
        .game
        .checked_sub(1)
        .and_then(|i| file.collection.games.get(i))
        .ok_or_else(|| {
            anyhow::anyhow!(
                "{name}: there is no game {} (the file has {count})",
                args.game
            )
        })?;
    let options = ReplayOptions {
        ruleset: args.rules,
        komi: args.komi,
        until: None,
    };
    let replayed = replay(tree, options).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    for w in file.warnings.iter().chain(&replayed.warnings) {
        eprintln!("warning: {name}: {w}");
    }
    let estimator = |game: &Game| shoutan_engine::judge(&network, game).status.dead;
    let report = match args.dead {
        Some(mode) => score(&replayed, tree, mode, &estimator)?,
        None => {
            let marked = score(&replayed, tree, DeadStones::Sgf, &estimator)?;
            if marked.dead_marked {
                marked
            } else {
                score(&replayed, tree, DeadStones::Auto, &estimator)?
            }
        }
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_report(&report);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_report(r: &ScoreReport) {
    let counting = match r.counting {
        Counting::Area => "area counting",
        Counting::Territory => "territory counting",
        Counting::StonesOnly => "stones only",
    };
    println!(
        "Rules: {} ({counting})   Komi: {}   Handicap: {}   Moves: {}",
        r.ruleset, r.komi, r.handicap, r.moves
    );
    let source = match r.dead_source {
        DeadStones::Sgf => "marked in the record",
        DeadStones::Auto => "estimated",
        DeadStones::None => "none counted",
    };
    if r.dead.is_empty() {
        println!("Dead stones ({source}): none");
    } else {
        println!("Dead stones ({source}): {}", r.dead.join(" "));
    }
    for (who, side) in [("Black", &r.black), ("White", &r.white)] {
        println!("{who}: {}", side_text(r.counting, side));
    }
    if let Some(zi) = r.black_zi {
        println!("Black counts {zi} 子.");
    }
    if r.handicap_compensation != Score::ZERO {
        println!(
            "Handicap compensation to white: {}",
            r.handicap_compensation
        );
    }
    println!("Result: {}   {}", r.result.chinese, r.result.international);
    match &r.record_written {
        Some(written) => println!("Record: RE[{written}] — {}", r.agreement),
        None => println!("Record: no RE — {}", r.agreement),
    }
}

fn side_text(counting: Counting, s: &SideReport) -> String {
    let mut text = match counting {
        Counting::Area => {
            let mut t = format!(
                "{} 子 (stones {} + surrounded {}",
                s.count, s.stones, s.territory
            );
            if s.shared > 0 {
                t.push_str(&format!(" + half of {} shared", s.shared));
            }
            t.push(')');
            t
        }
        Counting::Territory => format!(
            "{} 目 (territory {} + prisoners {})",
            s.count, s.territory, s.prisoners
        ),
        Counting::StonesOnly => format!("{} stones", s.stones),
    };
    // Deductions are said in 子 (each is worth two points of margin).
    if s.tax != Score::ZERO {
        text.push_str(&format!(", group tax −{} 子", s.tax.zi_text()));
    }
    if s.penalty != Score::ZERO {
        text.push_str(&format!(", warnings −{} 子", s.penalty.zi_text()));
    }
    text
}
