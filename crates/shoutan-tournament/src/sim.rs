//! Seeded synthetic events for tests, benchmarks and demonstrations: a
//! field of players with realistic ranks, clubs and countries, and random
//! results where the stronger player usually wins. The same seed always
//! gives the same event.

use shoutan_rules::rank_scale::egf;
use shoutan_rules::{Color, Rank};

use crate::{NewPlayer, Outcome, Tournament, TournamentError};

/// `n` players, ranks spread from 20k to 7d (most between 10k and 3d),
/// ratings to match, 40 clubs and 12 countries.
#[must_use]
pub fn field(n: usize, seed: u64) -> Vec<NewPlayer> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..n)
        .map(|i| {
            let level = (rng.i32(-20..=6) + rng.i32(-12..=3)) / 2;
            let rank = Rank::from_level(level);
            NewPlayer {
                name: format!("Player {:04}", i + 1),
                rank: Some(rank),
                rating: Some(egf::rating_of_level(level) as i32 + rng.i32(-50..50)),
                club: Some(format!("Club {}", rng.u32(1..=40))),
                country: Some(
                    [
                        "CN", "JP", "KR", "TW", "FR", "DE", "NL", "CZ", "PL", "RU", "US", "GB",
                    ][rng.usize(0..12)]
                    .to_owned(),
                ),
                ..NewPlayer::default()
            }
        })
        .collect()
}

/// Records a random result for every game of the last round still without
/// one: the stronger player (rank, then handicap) wins two times in three;
/// one game in fifty is a jigo.
///
/// # Errors
/// No round is paired.
pub fn play_last_round(t: &mut Tournament, rng: &mut fastrand::Rng) -> Result<(), TournamentError> {
    let round = t.rounds().last().ok_or(TournamentError::NoSuchRound(1))?;
    let number = round.number;
    let pending: Vec<(u32, i32)> = round
        .pending()
        .map(|g| {
            let level =
                |p: crate::PlayerId| t.player(p).and_then(|x| x.rank).map_or(0, Rank::level);
            (
                g.table,
                level(g.black) + i32::from(g.handicap) - level(g.white),
            )
        })
        .collect();
    for (table, edge) in pending {
        let outcome = if rng.u32(0..50) == 0 {
            Outcome::Draw
        } else {
            let black_favoured = match edge.cmp(&0) {
                std::cmp::Ordering::Greater => true,
                std::cmp::Ordering::Less => false,
                std::cmp::Ordering::Equal => rng.bool(),
            };
            let upset = rng.u32(0..3) == 0;
            Outcome::Win(if black_favoured != upset {
                Color::Black
            } else {
                Color::White
            })
        };
        t.record(number, table, outcome)?;
    }
    Ok(())
}
