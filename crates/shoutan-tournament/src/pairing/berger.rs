//! Round robin (循环制) on Berger tables: numbers drawn by lot from the
//! event's seed at the first pairing; with an odd field the extra number is
//! a rest. Each new cycle swaps the colours. A withdrawn player's remaining
//! games are forfeits, or cancelled with all the player's results when fewer
//! than half were played (Art. 28). In a team total-score event that avoids
//! teammates, teammates cannot avoid each other in a round robin, so the
//! draw makes them meet in round 1, before results could tempt anyone to
//! arrange a game.

use crate::pairing::{Draft, DraftPair, bye, seed_order};
use crate::{ColorChoice, Outcome, Tournament, TournamentError};

/// The games of Berger round `round` (1-based) for `n` (even) numbers:
/// pairs of 1-based numbers, the first listed moving first (black).
///
/// Numbers `i` and `j` meet in the round where `i + j ≡ round + 1`
/// (mod `n − 1`); the number that would meet itself meets `n` instead. The
/// lower number moves first when `j − i` is odd; `n` moves first in even
/// rounds. This reproduces the FIDE Berger tables.
pub(crate) fn berger_round(n: u32, round: u32) -> Vec<(u32, u32)> {
    let m = n - 1;
    let mut games = Vec::with_capacity(n as usize / 2);
    for i in 1..=m {
        let j = ((round + 1 + 2 * m - i - 1) % m) + 1;
        if j == i {
            games.push(if round.is_multiple_of(2) {
                (n, i)
            } else {
                (i, n)
            });
        } else if i < j {
            games.push(if (j - i) % 2 == 1 { (i, j) } else { (j, i) });
        }
    }
    // The game of the last number on table 1, as the published tables do.
    games.sort_by_key(|&(a, b)| (a != n && b != n, a.min(b)));
    games
}

pub(crate) fn draft(t: &Tournament, number: u32, cycles: u8) -> Result<Draft, TournamentError> {
    let mut draft = Draft::default();
    let draw: Vec<u32> = if t.draw().is_empty() {
        let mut v: Vec<u32> = seed_order(t, number)
            .into_iter()
            .map(|i| i as u32)
            .collect();
        v.sort_unstable();
        fastrand::Rng::with_seed(t.settings().seed).shuffle(&mut v);
        if t.settings().avoid_teammates {
            v = teammates_first(t, &v);
        }
        draft.draw = Some(v.clone());
        v
    } else {
        t.draw().to_vec()
    };
    let n = draw.len() as u32;
    if n < 2 {
        return Err(TournamentError::FieldSize {
            count: n as usize,
            why: "a round robin needs at least two entrants",
        });
    }
    let even = n + n % 2;
    let per_cycle = even - 1;
    let total = per_cycle * u32::from(cycles);
    if number > total {
        return Err(TournamentError::Finished(format!(
            "all {total} rounds are paired"
        )));
    }
    let cycle = (number - 1) / per_cycle;
    let round = (number - 1) % per_cycle + 1;
    let cancelled = t.cancelled_entrants();
    for (a, b) in berger_round(even, round) {
        let (a, b) = if cycle % 2 == 1 { (b, a) } else { (a, b) };
        if a > n || b > n {
            let real = draw[(a.min(b) - 1) as usize];
            if t.entrant_plays_in(real as usize, number) {
                draft
                    .byes
                    .push(bye(t, real as usize, t.settings().bye_points));
            }
            continue;
        }
        let (black, white) = (draw[(a - 1) as usize], draw[(b - 1) as usize]);
        let plays = |i: u32| t.entrant_plays_in(i as usize, number);
        let void = |i: u32| cancelled.contains(&(i as usize));
        let preset = if void(black) || void(white) {
            Some(Outcome::Unplayed)
        } else {
            match (plays(black), plays(white)) {
                (true, true) => None,
                (true, false) => Some(Outcome::Forfeit(shoutan_rules::Color::Black)),
                (false, true) => Some(Outcome::Forfeit(shoutan_rules::Color::White)),
                (false, false) => Some(Outcome::BothLose),
            }
        };
        draft.pairs.push(DraftPair {
            black,
            white,
            handicap: 0,
            colors: ColorChoice::Schedule,
            preset,
        });
    }
    Ok(draft)
}

/// Reorders a drawn order (entrant indices by Berger number) so that
/// teammates meet in round 1: teammates are paired in drawn order, the
/// others with each other, and the pairs fill round 1's games in order (an
/// odd one out takes the rest).
fn teammates_first(t: &Tournament, drawn: &[u32]) -> Vec<u32> {
    let team = |i: u32| t.players()[i as usize].team;
    let mut pairs = Vec::new();
    let mut single = Vec::new();
    let mut used = vec![false; drawn.len()];
    for a in 0..drawn.len() {
        if used[a] {
            continue;
        }
        used[a] = true;
        let mate = (a + 1..drawn.len())
            .find(|&b| !used[b] && team(drawn[a]).is_some() && team(drawn[a]) == team(drawn[b]));
        match mate {
            Some(b) => {
                used[b] = true;
                pairs.push((drawn[a], Some(drawn[b])));
            }
            None => single.push(drawn[a]),
        }
    }
    pairs.extend(single.chunks(2).map(|c| (c[0], c.get(1).copied())));
    // The pair without a partner goes where round 1 has the rest.
    pairs.sort_by_key(|p| p.1.is_some());
    let n = drawn.len() as u32;
    let even = n + n % 2;
    let mut order = vec![u32::MAX; even as usize];
    let mut slots = berger_round(even, 1);
    slots.sort_by_key(|&(a, b)| a.max(b) <= n);
    for ((a, b), (x, y)) in slots.into_iter().zip(pairs) {
        match y {
            Some(y) => {
                order[a as usize - 1] = x;
                order[b as usize - 1] = y;
            }
            None => order[a.min(b) as usize - 1] = x,
        }
    }
    order.truncate(n as usize);
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The FIDE Berger table for 4 players:
    /// ```text
    /// Rd 1: 1-4 2-3   Rd 2: 4-3 1-2   Rd 3: 2-4 3-1
    /// ```
    #[test]
    fn berger_four() {
        assert_eq!(berger_round(4, 1), vec![(1, 4), (2, 3)]);
        assert_eq!(berger_round(4, 2), vec![(4, 3), (1, 2)]);
        assert_eq!(berger_round(4, 3), vec![(2, 4), (3, 1)]);
    }

    /// The FIDE Berger table for 6 players:
    /// ```text
    /// Rd 1: 1-6 2-5 3-4   Rd 2: 6-4 5-3 1-2   Rd 3: 2-6 3-1 4-5
    /// Rd 4: 6-5 1-4 2-3   Rd 5: 3-6 4-2 5-1
    /// ```
    #[test]
    fn berger_six() {
        let sorted = |mut v: Vec<(u32, u32)>| {
            v.sort_unstable();
            v
        };
        let expect: [&[(u32, u32)]; 5] = [
            &[(1, 6), (2, 5), (3, 4)],
            &[(6, 4), (5, 3), (1, 2)],
            &[(2, 6), (3, 1), (4, 5)],
            &[(6, 5), (1, 4), (2, 3)],
            &[(3, 6), (4, 2), (5, 1)],
        ];
        for (r, games) in expect.iter().enumerate() {
            assert_eq!(
                sorted(berger_round(6, r as u32 + 1)),
                sorted(games.to_vec()),
                "round {}",
                r + 1
            );
        }
    }

    #[test]
    fn everyone_meets_everyone_once_with_balanced_colors() {
        for n in [4u32, 6, 8, 10, 12] {
            let mut met = std::collections::HashSet::new();
            let mut blacks = vec![0; n as usize + 1];
            for r in 1..n {
                for (a, b) in berger_round(n, r) {
                    assert!(met.insert((a.min(b), a.max(b))), "n={n} {a}-{b} twice");
                    blacks[a as usize] += 1;
                }
            }
            assert_eq!(met.len() as u32, n * (n - 1) / 2);
            for b in &blacks[1..] {
                assert!((n / 2 - 1..=n / 2).contains(b), "n={n} blacks {blacks:?}");
            }
        }
    }
}
