//! `shoutan bench levels`: each level's rank, from the games the levels
//! played against GNU Go and against each other (the results file,
//! `crates/shoutan-engine/data/levels.tsv`, says which games, with the
//! commands that played them).
//!
//! Per board size, a Bradley–Terry fit of every result gives each player an
//! Elo with GNU Go 3.8 at level 10 at 0, and the levels' Elos are put in
//! the levels' order where a few games left two of them inverted. GNU Go is
//! taken as KGS
//! [`ANCHOR`] (it is quoted at 5–8 kyu), and an Elo becomes a rank through
//! the EGF rating system: 100 points a grade, and a win expectancy of
//! `1 / (1 + e^(D/a))` for a difference `D`, where `a = 200 − (R − 100)/20`
//! shrinks as players grow stronger (a grade means more wins among dan
//! players than among beginners).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use shoutan_rules::Rank;
use shoutan_rules::rank_scale::egf;

/// The shipped results, from which `Level::measured_ranks` was written.
pub const SHIPPED: &str = include_str!("../../../shoutan-engine/data/levels.tsv");

/// The rank GNU Go 3.8 at level 10 is taken for.
pub const ANCHOR: Rank = Rank::Kyu(7);

/// The fit's name for GNU Go in the results.
const GNU_GO: &str = "gnugo";

#[derive(clap::Args)]
pub struct Args {
    /// A results file (default: the shipped one).
    #[arg(long)]
    results: Option<PathBuf>,
}

/// One line of the results: `first` against `second` on `size`.
#[derive(Clone, Debug, PartialEq)]
struct Outcome {
    size: u8,
    first: String,
    second: String,
    /// Games won by `first`; a draw (jigo) counts half.
    first_wins: f64,
    games: u32,
}

/// A player's fitted strength on one board size.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    pub size: u8,
    /// `L1` … `L10`, or `gnugo`.
    pub player: String,
    /// Against GNU Go level 10.
    pub elo: f64,
    pub rank: Rank,
}

/// Prints the fit of the results, board by board.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text = match &args.results {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?,
        None => SHIPPED.to_owned(),
    };
    let fitted = fit(&text)?;
    println!("GNU Go 3.8 level 10 taken as {ANCHOR}; Elo against it");
    for f in fitted {
        println!(
            "{}×{}  {:>6}  Elo {:+6.0}  {}",
            f.size, f.size, f.player, f.elo, f.rank
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Every player's Elo and rank on every board size of the results, weakest
/// first within a size.
pub fn fit(text: &str) -> anyhow::Result<Vec<Fitted>> {
    let results = parse(text)?;
    let mut by_size: BTreeMap<u8, Vec<&Outcome>> = BTreeMap::new();
    for r in &results {
        by_size.entry(r.size).or_default().push(r);
    }
    let mut out = Vec::new();
    for (size, results) in by_size {
        let mut elos = bradley_terry(&results)?;
        let mut levels: Vec<(u8, f64, f64)> = elos
            .iter()
            .filter_map(|(player, &elo)| {
                let level = player.strip_prefix('L')?.parse().ok()?;
                let games: u32 = results
                    .iter()
                    .filter(|r| &r.first == player || &r.second == player)
                    .map(|r| r.games)
                    .sum();
                Some((level, elo, f64::from(games)))
            })
            .collect();
        levels.sort_by_key(|l| l.0);
        for (level, elo) in in_level_order(&levels) {
            elos.insert(format!("L{level}"), elo);
        }
        let mut elos: Vec<(String, f64)> = elos.into_iter().collect();
        elos.sort_by(|a, b| a.1.total_cmp(&b.1));
        out.extend(elos.into_iter().map(|(player, elo)| Fitted {
            size,
            rank: egf::rank(egf_rating(elo)),
            player,
            elo,
        }));
    }
    Ok(out)
}

/// The levels' Elos (level, Elo, games played; weakest level first) put in
/// the levels' order: a level searches at least as much as the one below,
/// so two out of order are the noise of a few games, and they are pooled
/// into their mean weighted by games — the isotonic regression of the Elos
/// on the levels (pool adjacent violators).
fn in_level_order(levels: &[(u8, f64, f64)]) -> Vec<(u8, f64)> {
    // Blocks of consecutive levels: (weighted Elo sum, weight, levels).
    let mut blocks: Vec<(f64, f64, usize)> = Vec::new();
    for &(_, elo, weight) in levels {
        let weight = weight.max(1.0);
        blocks.push((elo * weight, weight, 1));
        while let [.., (s1, w1, n1), (s2, w2, n2)] = blocks[..] {
            if s1 / w1 <= s2 / w2 {
                break;
            }
            blocks.truncate(blocks.len() - 2);
            blocks.push((s1 + s2, w1 + w2, n1 + n2));
        }
    }
    let elos = blocks
        .iter()
        .flat_map(|&(sum, weight, n)| std::iter::repeat_n(sum / weight, n));
    levels.iter().map(|l| l.0).zip(elos).collect()
}

fn parse(text: &str) -> anyhow::Result<Vec<Outcome>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [size, first, second, wins, games, ..] = fields[..] else {
            bail!(
                "line {}: expected size, first, second, first's wins, games",
                n + 1
            );
        };
        let result = Outcome {
            size: size
                .parse()
                .with_context(|| format!("line {}: size", n + 1))?,
            first: first.to_owned(),
            second: second.to_owned(),
            first_wins: wins
                .parse()
                .with_context(|| format!("line {}: wins", n + 1))?,
            games: games
                .parse()
                .with_context(|| format!("line {}: games", n + 1))?,
        };
        if !(0.0..=f64::from(result.games)).contains(&result.first_wins) || result.games == 0 {
            bail!("line {}: {} wins in {} games", n + 1, wins, games);
        }
        out.push(result);
    }
    Ok(out)
}

/// Elo by player, GNU Go at 0, by minorization–maximization (Hunter 2004).
/// Every pairing also counts one drawn game, so that a clean sweep gives a
/// large but finite gap.
fn bradley_terry(results: &[&Outcome]) -> anyhow::Result<BTreeMap<String, f64>> {
    let mut gamma: BTreeMap<String, f64> = BTreeMap::new();
    for r in results {
        gamma.insert(r.first.clone(), 1.0);
        gamma.insert(r.second.clone(), 1.0);
    }
    if !gamma.contains_key(GNU_GO) {
        bail!("no games against {GNU_GO} to anchor the ranks");
    }
    let unanchored = unanchored(results, gamma.keys());
    if !unanchored.is_empty() {
        bail!(
            "{} played no chain of games that reaches {GNU_GO}: no rank to give",
            unanchored.join(", ")
        );
    }
    for _ in 0..10_000 {
        let mut next = BTreeMap::new();
        for (player, &g) in &gamma {
            let (mut wins, mut denominator) = (0.0, 0.0);
            for r in results {
                let (won, other) = if &r.first == player {
                    (r.first_wins, &r.second)
                } else if &r.second == player {
                    (f64::from(r.games) - r.first_wins, &r.first)
                } else {
                    continue;
                };
                wins += won + 0.5;
                denominator += f64::from(r.games + 1) / (g + gamma[other]);
            }
            next.insert(player.clone(), wins / denominator);
        }
        let anchor = next[GNU_GO];
        gamma = next.into_iter().map(|(p, g)| (p, g / anchor)).collect();
    }
    Ok(gamma
        .into_iter()
        .map(|(p, g)| (p, 400.0 * g.log10()))
        .collect())
}

/// The players among `players` that no chain of games links to GNU Go: a
/// fit would leave them wherever it started, not where they play.
fn unanchored<'a>(results: &[&Outcome], players: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut reached = BTreeSet::from([GNU_GO.to_owned()]);
    loop {
        let before = reached.len();
        for r in results {
            if reached.contains(&r.first) || reached.contains(&r.second) {
                reached.insert(r.first.clone());
                reached.insert(r.second.clone());
            }
        }
        if reached.len() == before {
            break;
        }
    }
    players.filter(|p| !reached.contains(*p)).cloned().collect()
}

/// The EGF rating of a player `elo` above GNU Go. With `a(R) = 205 − R/20`
/// one EGF point is worth `400 / (a ln 10)` Elo, which integrates to
/// `Elo = −(8000 / ln 10) · ln(205 − R/20)` up to a constant.
fn egf_rating(elo: f64) -> f64 {
    let anchor = egf::rating(ANCHOR);
    let scale = 8000.0 / std::f64::consts::LN_10;
    20.0 * (205.0 - (205.0 - anchor / 20.0) * (-elo / scale).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use shoutan_engine::Level;

    #[test]
    fn the_shipped_ranks_are_the_fit_of_the_shipped_results() {
        let fitted = fit(SHIPPED).unwrap();
        for n in 1..=10 {
            let level = Level::new(n).unwrap();
            let fitted_here: Vec<(u8, Rank)> = fitted
                .iter()
                .filter(|f| f.player == format!("L{n}"))
                .map(|f| (f.size, f.rank))
                .collect();
            let shipped: Vec<(u8, Rank)> = level
                .measured_ranks()
                .iter()
                .map(|m| (m.size, m.rank))
                .collect();
            assert_eq!(shipped, fitted_here, "level {n}");
        }
    }

    #[test]
    fn a_player_who_wins_three_in_four_is_about_190_elo_stronger() {
        let fitted = fit("19\tA\tgnugo\t300\t400\n").unwrap();
        let a = fitted.iter().find(|f| f.player == "A").unwrap();
        // 400·log10(300.5 / 100.5) with the drawn game counted.
        assert!((a.elo - 190.3).abs() < 0.5, "{a:?}");
        assert_eq!(fitted[0].player, GNU_GO);
        assert_eq!(fitted[0].rank, ANCHOR);
    }

    #[test]
    fn levels_out_of_order_are_pooled_into_their_weighted_mean() {
        let pooled = in_level_order(&[
            (1, -300.0, 10.0),
            (2, 100.0, 10.0),
            (3, 40.0, 30.0),
            (4, 200.0, 10.0),
        ]);
        assert_eq!(
            pooled,
            vec![(1, -300.0), (2, 55.0), (3, 55.0), (4, 200.0)],
            "levels 2 and 3 pooled, weighted 10 to 30"
        );
        let ordered = [(1, -1.0, 5.0), (2, 0.0, 5.0), (3, 1.0, 5.0)];
        assert_eq!(
            in_level_order(&ordered),
            vec![(1, -1.0), (2, 0.0), (3, 1.0)]
        );
    }

    #[test]
    fn ranks_follow_the_egf_grades() {
        assert_eq!(egf_rating(0.0), egf::rating(ANCHOR));
        // At 7k (a = 135) one grade up is 400·(100/135)/ln 10 ≈ 129 Elo.
        let up = 400.0 * (100.0 / 135.0) / std::f64::consts::LN_10;
        assert_eq!(egf::rank(egf_rating(up)), Rank::Kyu(6));
        assert_eq!(egf::rank(egf_rating(-up)), Rank::Kyu(8));
        // A grade is worth more Elo among stronger players.
        let grade_at = |elo: f64| egf_rating(elo + 1.0) - egf_rating(elo);
        assert!(grade_at(1000.0) < grade_at(-1000.0));
    }

    #[test]
    fn malformed_results_are_refused_with_their_line() {
        for (text, needle) in [
            ("9\tL1\tgnugo\t3\n", "line 1"),
            ("# c\n9\tL1\tgnugo\tmany\t10\n", "line 2: wins"),
            ("9\tL1\tgnugo\t11\t10\n", "11 wins in 10 games"),
            ("9\tL1\tL2\t5\t10\n", "anchor"),
            (
                "9\tL1\tgnugo\t5\t10\n9\tL2\tL3\t5\t10\n",
                "L2, L3 played no chain of games that reaches gnugo",
            ),
        ] {
            let err = fit(text).unwrap_err();
            assert!(format!("{err:#}").contains(needle), "{text:?}: {err:#}");
        }
    }
}
