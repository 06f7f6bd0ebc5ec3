//! Dead-stone and seki estimation for a finished position: a proposal the
//! players confirm or change in counting (Art. 8, 21.4), never the final
//! word.
//!
//! Certain knowledge comes first: Benson's pass-alive chains live, and
//! stones inside pass-alive territory are dead. The rest is decided by
//! ownership from playouts that play on from the position with a little
//! weiqi sense (no filling of one's own eyes, no self-atari of two or more
//! stones, so that seki survives): a chain whose points end up mostly the
//! opponent's is dead. Seki points are then found as in counting.

use crate::benson::pass_alive;
use crate::counting::seki_points;
use crate::playout::{PlayoutPolicy, playout, playout_owner};
use crate::{Board, Color, PointIndex, PointSet, Ruleset, Suicide};

/// The estimator's proposal.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Stones proposed dead.
    pub dead: PointSet,
    /// Empty points proposed as seki (nobody's under territory counting).
    pub seki: PointSet,
    /// Expected owner of each point, row by row from the top left:
    /// +1 black … −1 white.
    pub ownership: Vec<f32>,
}

/// A chain whose points are on average owned at least this much by the
/// opponent is proposed dead.
const DEAD_THRESHOLD: f32 = 0.4;

/// A chain without any eye in its area is proposed dead unless the
/// playouts keep it at least this much its owner's (seki, or a group that
/// can still make eyes).
const EYELESS_THRESHOLD: f32 = 0.0;

/// Proposes dead stones and seki for `board` with `to_move` to play.
/// Deterministic: the playouts are seeded from the position.
#[must_use]
pub fn estimate(board: &Board, to_move: Color, ruleset: &Ruleset) -> Estimate {
    let size = board.size();
    let certain = [
        pass_alive(board, Color::Black),
        pass_alive(board, Color::White),
    ];
    let ownership = playout_ownership(board, to_move, ruleset.suicide, playouts_for(size.area()));

    let mut dead = PointSet::new(size);
    let mut decided = crate::board::CellSet::default();
    for p in size.points() {
        let i = board.index(p);
        let Some(c) = board.stone(i) else { continue };
        if !decided.insert(board.chain_id(i)) {
            continue;
        }
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let stones: Vec<PointIndex> = board.chain(i).collect();
        let points: Vec<_> = stones.iter().map(|&s| board.point(s)).collect();
        let is_dead = if points
            .iter()
            .any(|&q| certain[c.index()].stones.contains(q))
        {
            false
        } else if points
            .iter()
            .any(|&q| certain[c.opponent().index()].territory.contains(q))
        {
            true
        } else {
            let mean: f32 = points
                .iter()
                .map(|&q| ownership[size.offset(q)] * sign)
                .sum::<f32>()
                / points.len() as f32;
            mean <= -DEAD_THRESHOLD || (mean < EYELESS_THRESHOLD && eyes(board, i) == 0)
        };
        if is_dead {
            dead.extend(points);
        }
    }
    let seki = seki_points(board, &dead);
    Estimate {
        dead,
        seki,
        ownership,
    }
}

/// Eyes of the stones at `i`: groups of empty points, reachable from them
/// through their own colour and empty points, that touch no opponent stone.
fn eyes(board: &Board, i: PointIndex) -> usize {
    let Some(c) = board.stone(i) else { return 0 };
    let mut area = crate::board::CellSet::default();
    let mut stack = vec![i];
    let mut empties = Vec::new();
    area.insert(i);
    while let Some(j) = stack.pop() {
        if board.is_empty(j) {
            empties.push(j);
        }
        for n in board.neighbors(j) {
            if board.is_on_board(n) && board.stone(n) != Some(c.opponent()) && area.insert(n) {
                stack.push(n);
            }
        }
    }
    let mut done = crate::board::CellSet::default();
    let mut eyes = 0;
    for &e in &empties {
        if !done.insert(e) {
            continue;
        }
        let mut touches_opponent = false;
        let mut stack = vec![e];
        while let Some(j) = stack.pop() {
            for n in board.neighbors(j) {
                match board.stone(n) {
                    Some(x) if x != c => touches_opponent = true,
                    None if board.is_on_board(n) && done.insert(n) => stack.push(n),
                    _ => {}
                }
            }
        }
        if !touches_opponent {
            eyes += 1;
        }
    }
    eyes
}

fn playouts_for(area: usize) -> usize {
    // About 300 000 moves of playout in all: some tens of milliseconds.
    (300_000 / area.max(1)).clamp(400, 4000)
}

/// Mean final owner of every point over `n` playouts.
fn playout_ownership(board: &Board, to_move: Color, suicide: Suicide, n: usize) -> Vec<f32> {
    let size = board.size();
    let mut rng = fastrand::Rng::with_seed(board.hash() ^ to_move as u64);
    let mut totals = vec![0i32; size.area()];
    let mut scratch = board.clone();
    for k in 0..n {
        scratch.clone_from(board);
        let first = if k % 2 == 0 {
            to_move
        } else {
            to_move.opponent()
        };
        let mut policy = Sensible {
            last: None,
            suicide,
        };
        playout(
            &mut scratch,
            first,
            suicide,
            3 * size.area(),
            &mut policy,
            &mut rng,
        );
        for p in size.points() {
            totals[size.offset(p)] += match playout_owner(&scratch, scratch.index(p)) {
                Some(Color::Black) => 1,
                Some(Color::White) => -1,
                None => 0,
            };
        }
    }
    totals.into_iter().map(|t| t as f32 / n as f32).collect()
}

/// The estimator's playout policy: capture what the last move left in
/// atari, save one's own stones it put in atari, and otherwise play at
/// random, never putting two or more of one's own stones in atari without
/// capturing (so that seki survives).
struct Sensible {
    last: Option<PointIndex>,
    suicide: Suicide,
}

impl PlayoutPolicy for Sensible {
    const VETOES: bool = true;

    fn suggest(&mut self, board: &Board, c: Color, _: &mut fastrand::Rng) -> Option<PointIndex> {
        self.last.and_then(|l| answer_to(board, l, c, self.suicide))
    }

    fn accept(&mut self, board: &Board, i: PointIndex, c: Color, _: &mut fastrand::Rng) -> bool {
        !big_self_atari(board, i, c)
    }

    fn played(&mut self, _: &Board, i: PointIndex, _: Color) {
        self.last = Some(i);
    }

    fn passed(&mut self, _: Color) {
        self.last = None;
    }
}

/// The local answer to the opponent's last move at `last`: capture the
/// stones it left in atari, or save own stones it put in atari by extending
/// to a point that gives them two liberties.
fn answer_to(board: &Board, last: PointIndex, c: Color, suicide: Suicide) -> Option<PointIndex> {
    board.stone(last)?;
    let playable = |i: PointIndex| board.is_legal(i, c, suicide) && !big_self_atari(board, i, c);
    if let Some(lib) = board.atari_liberty(last)
        && playable(lib)
    {
        return Some(lib);
    }
    for n in board.neighbors(last) {
        match board.stone(n) {
            Some(x) if x != c => {
                if let Some(lib) = board.atari_liberty(n)
                    && playable(lib)
                {
                    return Some(lib);
                }
            }
            Some(_) => {
                if let Some(lib) = board.atari_liberty(n)
                    && playable(lib)
                    && !self_atari_any(board, lib, c)
                {
                    return Some(lib);
                }
            }
            None => {}
        }
    }
    None
}

/// Whether `c` at `i` leaves its chain with one liberty and captures nothing.
fn self_atari_any(board: &Board, i: PointIndex, c: Color) -> bool {
    let mut after = board.clone();
    after.play_unchecked(i, c);
    after.stone(i).is_none() || (after.last_captured().is_empty() && after.in_atari(i))
}

/// Whether `c` at `i` captures nothing and leaves a chain of two or more
/// stones with a single liberty.
fn big_self_atari(board: &Board, i: PointIndex, c: Color) -> bool {
    let neighbors = board.neighbors(i);
    let mut own = 0;
    let mut empty = 0;
    for n in neighbors {
        match board.stone(n) {
            None if board.is_on_board(n) => empty += 1,
            Some(x) if x == c => own += 1,
            Some(_) if board.in_atari(n) => return false,
            _ => {}
        }
    }
    if own == 0 || empty >= 2 {
        return false;
    }
    let mut libs: Vec<PointIndex> = neighbors
        .iter()
        .copied()
        .filter(|&n| board.is_empty(n))
        .collect();
    for n in neighbors {
        if board.stone(n) == Some(c) {
            for l in board.liberties(n) {
                if l != i && !libs.contains(&l) {
                    libs.push(l);
                    if libs.len() >= 2 {
                        return false;
                    }
                }
            }
        }
    }
    libs.len() < 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Point;

    fn at(board: &Board, s: &str) -> Point {
        Point::from_gtp(s, board.size()).unwrap()
    }

    #[test]
    fn dead_stones_inside_territory_are_found() {
        // White's lone stone at B7 and black's at G3 are dead.
        let board: Board = "
            . . . X O . . . .
            . . . X O . . . .
            . O . X O . . . .
            . . . X O . . . .
            . . . X O . . . .
            . . . X O . . . .
            . . . X O . X . .
            . . X X O . . . .
            . . . X O . . . ."
            .parse()
            .unwrap();
        let e = estimate(&board, Color::Black, &Ruleset::CHINESE);
        let expected: Vec<Point> = vec![at(&board, "B7"), at(&board, "G3")];
        assert_eq!(e.dead.iter().collect::<Vec<_>>(), expected);
        assert!(e.ownership[board.size().offset(at(&board, "A5"))] > 0.0);
        assert!(e.ownership[board.size().offset(at(&board, "J5"))] < 0.0);
    }

    #[test]
    fn seki_is_not_killed() {
        // Black B9-C9-C8 and white A8-A7…D9 share the liberties A9 and B8:
        // whoever fills one puts its own stones in atari. Both live in seki.
        let board: Board = "
            . X X O X . . . .
            O . X O X . . . .
            O O O O X . . . .
            X X X X X . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . ."
            .parse()
            .unwrap();
        let e = estimate(&board, Color::Black, &Ruleset::JAPANESE);
        assert!(
            e.dead.is_empty(),
            "dead: {:?}",
            e.dead.iter().collect::<Vec<_>>()
        );
        assert!(e.seki.contains(at(&board, "A9")));
        assert!(e.seki.contains(at(&board, "B8")));
        assert!(!e.seki.contains(at(&board, "J1")));
    }
}
