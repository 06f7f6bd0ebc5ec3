//! Benson's pass-alive analysis: chains that no sequence of opponent moves
//! can capture even if their owner always passes, and the regions they
//! enclose where the opponent cannot live. These are certain; everything
//! else the estimator only guesses.

use crate::board::CellSet;
use crate::{Board, Color, Point, PointIndex, PointSet};

/// The pass-alive chains of one colour and the territory they make certain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassAlive {
    /// Stones of pass-alive chains.
    pub stones: PointSet,
    /// Points (empty or opponent stones) of enclosed regions where the
    /// opponent can never make life: every empty point there touches a
    /// pass-alive chain.
    pub territory: PointSet,
}

struct Region {
    points: Vec<PointIndex>,
    /// Chains (by chain id) of the colour touching the region.
    chains: Vec<PointIndex>,
    /// Chains for which every empty point of the region is a liberty.
    vital_to: Vec<PointIndex>,
}

/// Benson's algorithm for `color` on `board`.
///
/// Regions are the maximal connected sets of points not holding `color`'s
/// stones. A region is vital to a chain when each of its empty points is a
/// liberty of that chain. Repeatedly drop the chains with fewer than two
/// vital regions, and the regions touching a dropped chain; what remains is
/// pass-alive.
#[must_use]
pub fn pass_alive(board: &Board, color: Color) -> PassAlive {
    let size = board.size();
    let mut region_seen = CellSet::default();
    let mut regions = Vec::new();
    for p in size.points() {
        let i = board.index(p);
        if board.stone(i) == Some(color) || region_seen.contains(i) {
            continue;
        }
        regions.push(region_at(board, color, i, &mut region_seen));
    }
    let mut chains: Vec<PointIndex> = Vec::new();
    for p in size.points() {
        let i = board.index(p);
        if board.stone(i) == Some(color) && board.chain_id(i) == i {
            chains.push(i);
        }
    }
    // Chain heads are chain ids; `chain_id` of any stone names its chain.
    let mut alive_chains: Vec<PointIndex> = chains.iter().map(|&h| board.chain_id(h)).collect();
    let mut alive_regions: Vec<bool> = vec![true; regions.len()];
    loop {
        let before = (
            alive_chains.len(),
            alive_regions.iter().filter(|&&a| a).count(),
        );
        alive_chains.retain(|&chain| {
            regions
                .iter()
                .zip(&alive_regions)
                .filter(|(r, alive)| **alive && r.vital_to.contains(&chain))
                .count()
                >= 2
        });
        for (r, alive) in regions.iter().zip(alive_regions.iter_mut()) {
            if *alive && r.chains.iter().any(|c| !alive_chains.contains(c)) {
                *alive = false;
            }
        }
        let after = (
            alive_chains.len(),
            alive_regions.iter().filter(|&&a| a).count(),
        );
        if after == before {
            break;
        }
    }
    let mut stones = PointSet::new(size);
    for &chain in &alive_chains {
        stones.extend(board.chain(chain).map(|s| board.point(s)));
    }
    let mut territory = PointSet::new(size);
    for (r, _) in regions
        .iter()
        .zip(&alive_regions)
        .filter(|(r, alive)| **alive && !r.chains.is_empty() && !r.vital_to.is_empty())
    {
        territory.extend(r.points.iter().map(|&i| board.point(i)));
    }
    PassAlive { stones, territory }
}

fn region_at(board: &Board, color: Color, start: PointIndex, seen: &mut CellSet) -> Region {
    let mut points = Vec::new();
    let mut chains: Vec<PointIndex> = Vec::new();
    let mut stack = vec![start];
    seen.insert(start);
    while let Some(i) = stack.pop() {
        points.push(i);
        for n in board.neighbors(i) {
            if !board.is_on_board(n) {
                continue;
            }
            if board.stone(n) == Some(color) {
                let id = board.chain_id(n);
                if !chains.contains(&id) {
                    chains.push(id);
                }
            } else if seen.insert(n) {
                stack.push(n);
            }
        }
    }
    let vital_to = chains
        .iter()
        .copied()
        .filter(|&chain| {
            points.iter().filter(|&&i| board.is_empty(i)).all(|&i| {
                board
                    .neighbors(i)
                    .iter()
                    .any(|&n| board.stone(n) == Some(color) && board.chain_id(n) == chain)
            })
        })
        .collect();
    Region {
        points,
        chains,
        vital_to,
    }
}

/// Whether `p` holds a stone of a pass-alive chain of its colour.
#[must_use]
pub fn is_pass_alive(board: &Board, p: Point) -> bool {
    board
        .get(p)
        .is_some_and(|c| pass_alive(board, c).stones.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(board: &Board, s: &str) -> Point {
        Point::from_gtp(s, board.size()).unwrap()
    }

    #[test]
    fn two_eyes_are_pass_alive_one_is_not() {
        let board: Board = "
            . X . X O . . . .
            X X X X O . . . .
            O O O O O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            O O O . . . . . .
            X X O . . . . . .
            . X O . . . . . ."
            .parse()
            .unwrap();
        let black = pass_alive(&board, Color::Black);
        assert!(
            black.stones.contains(at(&board, "A8")),
            "two eyes A9 and C9"
        );
        assert!(black.territory.contains(at(&board, "A9")));
        assert!(
            !black.stones.contains(at(&board, "B1")),
            "one eye at A1 only"
        );
        assert!(
            !is_pass_alive(&board, at(&board, "E9")),
            "white's wall is open"
        );
    }

    #[test]
    fn opponent_stones_in_a_small_enclosed_region_are_dead() {
        // Black's corner group has eyes at A9 and at the region B6-C6-D6…
        let board: Board = "
            . X . . X O . . .
            X X O . X O . . .
            X X X X X O . . .
            O O O O O O . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . ."
            .parse()
            .unwrap();
        let black = pass_alive(&board, Color::Black);
        assert!(black.stones.contains(at(&board, "A7")));
        assert!(
            black.territory.contains(at(&board, "C8")),
            "the white stone's region"
        );
        assert!(black.territory.contains(at(&board, "D9")));
    }

    #[test]
    fn empty_board_has_nothing_alive() {
        let board = Board::new(crate::BoardSize::NINE);
        assert!(pass_alive(&board, Color::Black).stones.is_empty());
        assert!(pass_alive(&board, Color::White).territory.is_empty());
    }
}
