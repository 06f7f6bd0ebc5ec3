//! The end of the game: which stones are dead or in seki (from the
//! playouts' ownership), whether passing now is safe under the game's
//! ruleset, and which points still matter.
//!
//! Under area counting (数子法) every dame is worth half a point to each
//! side (Art. 21.2), so the engine fills the dame before it passes. Under
//! territory counting dame are worth nothing and the engine passes as soon
//! as the position is settled and the count is in its favour.

use shoutan_rules::{Board, Color, Counting, Game, Owner, Point, PointSet, Suicide, count};

use crate::tactics::is_self_atari;

/// The status of the stones at the end, as GTP's `final_status_list`
/// reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinalStatus {
    /// Stones the search expects to be captured.
    pub dead: PointSet,
    /// Living stones in seki (they share liberties nobody can fill).
    pub seki: PointSet,
}

/// How sure the ownership must be for a point to count as settled (the
/// engine passes on its own only when everything is this sure).
const SETTLED: f32 = 0.85;
/// Ownership closer to zero than this is undecided.
const UNDECIDED: f32 = 0.4;

/// Dead and seki stones from ownership (+1 black, −1 white, row-major).
#[must_use]
pub fn final_status(board: &Board, ownership: &[f32]) -> FinalStatus {
    let size = board.size();
    let own = |p: Point| ownership.get(size.offset(p)).copied().unwrap_or(0.0);
    let mut dead = PointSet::new(size);
    let mut seki = PointSet::new(size);
    let mut seen = PointSet::new(size);
    for p in size.points() {
        let i = board.index(p);
        let Some(c) = board.stone(i) else { continue };
        if seen.contains(p) {
            continue;
        }
        let stones: Vec<Point> = board.chain(i).map(|s| board.point(s)).collect();
        seen.extend(stones.iter().copied());
        let mean = stones.iter().map(|&s| own(s)).sum::<f32>() / stones.len() as f32;
        let mine = if c == Color::Black { mean } else { -mean };
        if mine < 0.0 {
            dead.extend(stones);
            continue;
        }
        let in_seki = board.chain(i).any(|s| {
            board.neighbors(s).into_iter().any(|n| {
                board.is_empty(n)
                    && own(board.point(n)).abs() < UNDECIDED
                    && Color::ALL.into_iter().all(|k| {
                        !board.is_legal(n, k, Suicide::Forbidden) || is_self_atari(board, n, k)
                    })
            })
        });
        if in_seki {
            seki.extend(stones);
        }
    }
    FinalStatus { dead, seki }
}

/// What the end of the game looks like to `color`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Assessment {
    /// The count with the estimated dead stones is a win for `color`.
    pub(crate) wins_by_count: bool,
    /// Every stone and point is decided.
    pub(crate) settled: bool,
    /// Under area counting: shared points `color` can still fill safely.
    pub(crate) dame: Vec<Point>,
    /// Points next to the opponent's dead stones (for cleanup play).
    pub(crate) dead_liberties: Vec<Point>,
}

/// Assesses `game` for `color` with the search's ownership and status.
pub(crate) fn assess(
    game: &Game,
    color: Color,
    status: &FinalStatus,
    ownership: &[f32],
) -> Assessment {
    let board = game.board();
    let size = board.size();
    let counted = count(board, &status.dead, &game.count_settings());
    let wins_by_count = counted.result().winner() == Some(color);
    let own = |p: Point| ownership.get(size.offset(p)).copied().unwrap_or(0.0);
    let mut settled = true;
    let mut dame = Vec::new();
    let mut dead_liberties = Vec::new();
    for p in size.points() {
        let i = board.index(p);
        let o = own(p);
        if let Some(c) = board.stone(i) {
            if o.abs() < SETTLED && !status.seki.contains(p) {
                settled = false;
            }
            if c != color && status.dead.contains(p) {
                for n in board.neighbors(i) {
                    if board.is_empty(n) && !dead_liberties.contains(&board.point(n)) {
                        dead_liberties.push(board.point(n));
                    }
                }
            }
            continue;
        }
        let owner = counted.owner(p);
        let shared = matches!(owner, Owner::Shared | Owner::Neutral);
        let playable = board.is_legal(i, color, Suicide::Forbidden)
            && game.is_legal(color, p)
            && !board.is_eye(i, color)
            && !is_self_atari(board, i, color);
        if shared {
            if playable && counted.counting != Counting::Territory {
                dame.push(p);
            }
        } else if o.abs() < SETTLED {
            settled = false;
        }
    }
    Assessment {
        wins_by_count,
        settled,
        dame,
        dead_liberties,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shoutan_rules::Ruleset;

    fn ownership_of(board: &Board, f: impl Fn(Point) -> f32) -> Vec<f32> {
        board.size().points().map(f).collect()
    }

    #[test]
    fn a_stone_owned_by_the_other_side_is_dead() {
        // The white stone at B4 sits in black's area: the playouts give its
        // point to black, so it is dead; every black stone lives.
        let board: Board = "
            . . X . .
            . O X . .
            . . X . .
            X X X . .
            . . . . ."
            .parse()
            .unwrap();
        let status = final_status(
            &board,
            &ownership_of(&board, |p| {
                if p.col() >= 3 && p.row() <= 3 {
                    0.0
                } else {
                    0.9
                }
            }),
        );
        let b4 = Point::from_gtp("B4", board.size()).unwrap();
        assert!(status.dead.contains(b4));
        assert_eq!(status.dead.len(), 1);
        assert!(status.seki.is_empty());
    }

    #[test]
    fn area_rules_keep_dame_to_fill() {
        // Black left, white right, E... the column C between them is empty:
        // dame that black can fill under the Chinese rules, none under the
        // Japanese rules.
        let board: Board = "
            . X . O .
            . X . O .
            . X . O .
            . X . O .
            . X . O ."
            .parse()
            .unwrap();
        let ownership = ownership_of(&board, |p| match p.col() {
            0 | 1 => 1.0,
            2 => 0.0,
            _ => -1.0,
        });
        let status = final_status(&board, &ownership);
        for (rules, expected) in [(Ruleset::CHINESE, 5), (Ruleset::JAPANESE, 0)] {
            let mut game = shoutan_rules::Game::builder(board.size())
                .ruleset(rules)
                .build()
                .unwrap();
            let setup: Vec<(Point, Option<Color>)> = board.stones().collect();
            // Rebuild the position move by move: black column B, white column D.
            for (p, stone) in setup {
                if let Some(c) = stone {
                    game.set_to_move(c).unwrap();
                    game.play(c, p).unwrap();
                }
            }
            let a = assess(&game, Color::Black, &status, &ownership);
            assert_eq!(a.dame.len(), expected, "{rules}");
            assert!(a.settled, "{rules}");
        }
    }
}
