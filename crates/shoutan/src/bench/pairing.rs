//! `shoutan bench pairing`: one Swiss or McMahon round over a whole field
//! (2,000 and 10,000 players by default) after rounds of random results,
//! single-threaded, never split into groups; the median of several timed
//! pairings.

use std::process::ExitCode;
use std::time::Instant;

use shoutan_rules::Rank;
use shoutan_tournament::{
    HandicapBasis, HandicapRule, McMahon, PairingModel, Settings, System, Tournament, sim,
};

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Field sizes to measure.
    #[arg(long, value_delimiter = ',', default_value = "2000,10000")]
    players: Vec<usize>,
    /// Rounds played (with random results) before the timed round.
    #[arg(long, default_value_t = 5)]
    played: u32,
    /// Timed pairings per size and system (the median is reported).
    #[arg(long, default_value_t = 5)]
    repeats: usize,
    /// The cost model that pairs every round, the played ones included.
    #[arg(long, value_enum, default_value = "shoutan")]
    model: Model,
}

/// [`PairingModel`] as a command-line value.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Model {
    /// Shoutan's own pairing.
    Shoutan,
    /// OpenGotha's weights over the whole field.
    Opengotha,
}

/// Prints the median pairing time for each size, Swiss and McMahon.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(args.repeats > 0, "repeats must be positive");
    for &n in &args.players {
        for (label, system) in systems() {
            let model = match args.model {
                Model::Shoutan => PairingModel::Shoutan,
                Model::Opengotha => PairingModel::OpenGotha,
            };
            let mut t = event(system, model, n, args.played)?;
            let mut times = Vec::with_capacity(args.repeats);
            let mut tables = 0;
            for _ in 0..args.repeats {
                let start = Instant::now();
                tables = t.pair_next_round()?.games.len();
                times.push(start.elapsed().as_secs_f64());
                t.unpair_last_round()?;
            }
            times.sort_by(f64::total_cmp);
            println!(
                "{label:8} {n:5} players, round {}: {:.3} s median of {} (min {:.3}, max {:.3}); {tables} tables",
                args.played + 1,
                times[times.len() / 2],
                args.repeats,
                times[0],
                times[times.len() - 1]
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn systems() -> [(&'static str, System); 2] {
    let rank = |s: &str| s.parse::<Rank>().expect("a valid rank");
    [
        ("Swiss", System::Swiss),
        (
            "McMahon",
            System::McMahon(McMahon {
                bar: rank("3d"),
                floor: rank("15k"),
                handicap: HandicapRule {
                    basis: HandicapBasis::Mms,
                    correction: 2,
                    ceiling: 9,
                    no_handicap_from: None,
                },
            }),
        ),
    ]
}

/// A seeded event of `n` players paired by `model` with `played` rounds of random results.
fn event(system: System, model: PairingModel, n: usize, played: u32) -> anyhow::Result<Tournament> {
    let mut settings = Settings::new(system, None);
    settings.pairing_model = model;
    settings.rounds = Some(played + 1);
    settings.seed = 2026;
    let mut t = Tournament::new("Benchmark", settings)?;
    for p in sim::field(n, 7) {
        t.add_player(p)?;
    }
    let mut rng = fastrand::Rng::with_seed(11);
    for _ in 0..played {
        t.pair_next_round()?;
        sim::play_last_round(&mut t, &mut rng)?;
    }
    Ok(t)
}
