//! `shoutan bench dead-stones`: how often the automatic count agrees with
//! the result a record states, over every record that ended by counting
//! (`shoutan score --dead auto` on each), with the network's judgement of
//! the dead stones (what Shoutan uses) and with the rules crate's playout
//! estimator beside it, measured in one run.

use std::path::PathBuf;
use std::process::ExitCode;

use shoutan_rules::{Game, PointSet};
use shoutan_sgf::{Agreement, DeadStones, ReplayOptions, read, replay, score};

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The records (files or folders).
    #[arg(default_value = "tests/data/sgf")]
    records: Vec<PathBuf>,
    /// A KataGo network file instead of the built-in one.
    #[arg(long)]
    model: Option<PathBuf>,
}

/// Proposes the dead stones of a finished game.
type Estimator<'a> = &'a dyn Fn(&Game) -> PointSet;

/// Counts agreements per estimator and prints them.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let network = crate::model::network(args.model.as_deref())?;
    let by_network = |game: &Game| shoutan_engine::judge(&network, game).status.dead;
    let by_playouts = |game: &Game| -> PointSet {
        shoutan_rules::estimate(game.board(), game.to_move(), game.ruleset()).dead
    };
    let estimators: [(&str, Estimator); 2] = [("network", &by_network), ("playouts", &by_playouts)];
    let mut tallies = [[0usize; 3]; 2];
    let mut counted = 0;
    for file in crate::records::files(&args.records)? {
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        let Ok(sgf) = read(&bytes) else { continue };
        for tree in &sgf.collection.games {
            let Ok(replayed) = replay(tree, ReplayOptions::default()) else {
                continue;
            };
            let mut comparable = false;
            for (k, (_, estimator)) in estimators.iter().enumerate() {
                let Ok(report) = score(&replayed, tree, DeadStones::Auto, *estimator) else {
                    continue;
                };
                let slot = match report.agreement {
                    Agreement::Agree => 0,
                    Agreement::MarginDiffers => 1,
                    Agreement::Disagree => 2,
                    Agreement::NotComparable | Agreement::NoRecord => continue,
                };
                tallies[k][slot] += 1;
                comparable = true;
            }
            counted += usize::from(comparable);
        }
    }
    println!(
        "{counted} records ended by counting, counted with the dead stones each estimator proposes:"
    );
    for ((name, _), [agree, margin, disagree]) in estimators.iter().zip(tallies) {
        println!(
            "{name:>9}: same result {agree}, same winner by another margin {margin}, another winner {disagree}"
        );
    }
    Ok(ExitCode::SUCCESS)
}
