//! All-play-all between two teams (全队轮赛制, Art. 25; the Scheveningen
//! system of chess): in a match of two teams of `n` players, each player of
//! one team meets each player of the other, `n²` games over `n` rounds of
//! the match. In round `s` of the match (from 0) the first team's player on
//! board `k` meets the second team's player `k + s (mod n)`: a rotation, so
//! nobody plays two games at once and every pair meets exactly once.
//!
//! Colours: every player has black in half their games (one more or one
//! fewer when `n` is odd) and never the same colour three times running;
//! each team has black on half the boards of every round of the match,
//! except when `n ≡ 2 (mod 4)`, where no rotation keeps both the players
//! and the rounds balanced: the players stay balanced and a team has one
//! black more or fewer than half in some rounds (for `n = 2`, the first
//! team has black on both boards in round 1 and white in round 2, as the
//! chess Scheveningen table does).

/// One game of the schedule: positions (from 0) in each team's line-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    /// The round of the match, from 0.
    pub round: usize,
    /// The board, from 0: the first team's player.
    pub board: usize,
    /// The second team's player.
    pub second: usize,
    /// Whether the first team's player has black.
    pub first_black: bool,
}

/// The second team's player meeting board `board` in round `round` of the
/// match (all from 0).
pub(crate) fn second_position(n: usize, board: usize, round: usize) -> usize {
    (board + round) % n
}

/// Whether the first team's player on board `k` has black in round `s`.
///
/// Even `n`: black when `⌊k/2⌋ + s` is even (first-team players alternate
/// every round; the second team's at worst twice the same colour). Odd
/// `n`: black when `k(s+1) + ⌊s/2⌋ + ⌊k/2⌋` is even, which keeps players,
/// rounds and both teams within one of half (checked for every size in the
/// tests below).
fn first_black(n: usize, k: usize, s: usize) -> bool {
    let parity = if n.is_multiple_of(2) {
        k / 2 + s
    } else {
        k * (s + 1) + s / 2 + k / 2
    };
    parity.is_multiple_of(2)
}

/// The whole match for teams of `n` players, round by round, board by
/// board.
pub(crate) fn schedule(n: usize) -> Vec<Slot> {
    (0..n)
        .flat_map(|round| {
            (0..n).map(move |board| Slot {
                round,
                board,
                second: second_position(n, board, round),
                first_black: first_black(n, board, round),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The match as text, one line per round: `A1-B1` means A1 has black.
    fn table(n: usize) -> Vec<String> {
        let games = schedule(n);
        (0..n)
            .map(|r| {
                games
                    .iter()
                    .filter(|g| g.round == r)
                    .map(|g| {
                        let (a, b) = (format!("A{}", g.board + 1), format!("B{}", g.second + 1));
                        if g.first_black {
                            format!("{a}-{b}")
                        } else {
                            format!("{b}-{a}")
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    /// Worked by hand from the rotation and the colour rule (black first).
    /// ```text
    ///            board 1  board 2  board 3  board 4
    ///   round 1  A1-B1    A2-B2    B3-A3    B4-A4
    ///   round 2  B2-A1    B3-A2    A3-B4    A4-B1
    ///   round 3  A1-B3    A2-B4    B1-A3    B2-A4
    ///   round 4  B4-A1    B1-A2    A3-B2    A4-B3
    /// ```
    /// Round 1 is the chess Scheveningen table's for four boards.
    #[test]
    fn four_players_each() {
        assert_eq!(
            table(4),
            [
                "A1-B1 A2-B2 B3-A3 B4-A4",
                "B2-A1 B3-A2 A3-B4 A4-B1",
                "A1-B3 A2-B4 B1-A3 B2-A4",
                "B4-A1 B1-A2 A3-B2 A4-B3",
            ]
        );
    }

    /// ```text
    ///   round 1  A1-B1  B2-A2  B3-A3     A: 1 black
    ///   round 2  A1-B2  A2-B3  B1-A3     A: 2 blacks
    ///   round 3  B3-A1  A2-B1  A3-B2     A: 2 blacks
    /// ```
    /// A1 B B W, A2 W B B, A3 W W B; B1 W B W, B2 B W W, B3 B W B.
    #[test]
    fn three_players_each() {
        assert_eq!(
            table(3),
            [
                "A1-B1 B2-A2 B3-A3",
                "A1-B2 A2-B3 B1-A3",
                "B3-A1 A2-B1 A3-B2",
            ]
        );
    }

    /// The Scheveningen table for two boards: A holds black on both boards,
    /// then B does.
    #[test]
    fn two_players_each() {
        assert_eq!(table(2), ["A1-B1 A2-B2", "B2-A1 B1-A2"]);
    }

    /// Every size: every pair meets once, nobody plays twice in a round,
    /// colours balanced per player and per round as the module promises,
    /// never three games running with one colour.
    #[test]
    fn every_size_is_a_fair_all_play_all() {
        for n in 1..=24 {
            let games = schedule(n);
            assert_eq!(games.len(), n * n);
            let mut met = vec![vec![0; n]; n];
            let mut first = vec![Vec::new(); n];
            let mut second = vec![Vec::new(); n];
            for r in 0..n {
                let round: Vec<&Slot> = games.iter().filter(|g| g.round == r).collect();
                let mut seconds: Vec<usize> = round.iter().map(|g| g.second).collect();
                seconds.sort_unstable();
                assert_eq!(seconds, (0..n).collect::<Vec<_>>(), "n={n} round {r}");
                let blacks = round.iter().filter(|g| g.first_black).count();
                let slack = if n % 4 == 2 { 1 } else { 0 };
                assert!(
                    n / 2 - slack.min(n / 2) <= blacks && blacks <= n.div_ceil(2) + slack,
                    "n={n} round {r}: {blacks} blacks"
                );
                for g in round {
                    met[g.board][g.second] += 1;
                    first[g.board].push(g.first_black);
                    second[g.second].push(!g.first_black);
                }
            }
            assert!(met.iter().flatten().all(|&m| m == 1), "n={n}");
            for colors in first.iter().chain(&second) {
                let blacks = colors.iter().filter(|&&b| b).count();
                assert!(
                    n / 2 <= blacks && blacks <= n.div_ceil(2),
                    "n={n}: {colors:?}"
                );
                assert!(
                    colors.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])),
                    "n={n}: {colors:?}"
                );
            }
        }
    }
}
