//! Points of a problem's region that are interchangeable: the outside
//! liberties of a capturing race, whose order of filling changes nothing.
//!
//! A class is a set of empty points of the region each of which touches
//! only two chains and other points of the class: `X`, an attacker chain
//! that touches the target and lies wholly outside the region, and `W`, a
//! defender chain with a liberty outside the region (which can never be
//! filled, so `W` can never be captured). A stone played on any point of
//! the class joins `X` or `W`, whichever its colour, and an empty one is a
//! liberty of both and of nothing else; once `X` is captured the target has
//! a liberty outside the region, and the fight is over. So two positions
//! alike but for which points of a class hold which stones are worth the
//! same: the search keys them alike, by the number of each colour on the
//! class, and plays only on the first empty point of each class.
//!
//! Without this, a race against n outside liberties is searched once for
//! every order in which they are filled: the search grew four times or more
//! with each liberty.

use std::collections::{BTreeMap, HashSet};

use shoutan_rules::{Board, Color, PointIndex};

/// The classes of one problem, found in its position.
pub(crate) struct Interchangeable {
    /// Each class's points, in index order: the canonical position puts the
    /// attacker's stones first, then the defender's.
    classes: Vec<Vec<PointIndex>>,
    /// The class of each cell, by index.
    class_of: Vec<Option<usize>>,
    attacker: Color,
}

impl Interchangeable {
    /// The classes in `board` when `target`'s owner defends and moves are
    /// played on `cells` (`in_region` flags them by cell).
    pub(crate) fn find(
        board: &Board,
        target: PointIndex,
        cells: &[PointIndex],
        in_region: impl Fn(PointIndex) -> bool,
    ) -> Interchangeable {
        let Some(defender) = board.stone(target) else {
            return Interchangeable {
                classes: Vec::new(),
                class_of: Vec::new(),
                attacker: Color::Black,
            };
        };
        let attacker = defender.opponent();
        let target_chain = board.chain_id(target);
        let touches_target = |x: PointIndex| {
            board.chain(x).any(|s| {
                board
                    .neighbors(s)
                    .into_iter()
                    .any(|n| board.stone(n) == Some(defender) && board.chain_id(n) == target_chain)
            })
        };
        // The (X, W) pair of each point that touches exactly one of each
        // kind of chain and otherwise only empty points of the region.
        let mut pair_of: BTreeMap<PointIndex, (PointIndex, PointIndex)> = BTreeMap::new();
        for &i in cells {
            if !board.is_empty(i) {
                continue;
            }
            let mut x = HashSet::new();
            let mut w = HashSet::new();
            let mut fits = true;
            for n in board.neighbors(i) {
                match board.stone(n) {
                    Some(c) if c == attacker => {
                        let whole_outside = board.chain(n).all(|s| !in_region(s));
                        if whole_outside && touches_target(n) {
                            x.insert(board.chain_id(n));
                        } else {
                            fits = false;
                        }
                    }
                    Some(_) => {
                        let uncapturable = board.liberties(n).into_iter().any(|l| !in_region(l));
                        if uncapturable {
                            w.insert(board.chain_id(n));
                        } else {
                            fits = false;
                        }
                    }
                    None if board.is_empty(n) && !in_region(n) => fits = false,
                    None => {}
                }
            }
            if fits && x.len() == 1 && w.len() == 1 {
                let pair = (x.into_iter().next(), w.into_iter().next());
                if let (Some(x), Some(w)) = pair {
                    pair_of.insert(i, (x, w));
                }
            }
        }
        // Every empty neighbour must be a point of the same class.
        loop {
            let misfits: Vec<PointIndex> = pair_of
                .iter()
                .filter(|&(&i, pair)| {
                    board
                        .neighbors(i)
                        .into_iter()
                        .any(|n| board.is_empty(n) && pair_of.get(&n) != Some(pair))
                })
                .map(|(&i, _)| i)
                .collect();
            if misfits.is_empty() {
                break;
            }
            for i in misfits {
                pair_of.remove(&i);
            }
        }
        let mut by_pair: BTreeMap<(PointIndex, PointIndex), Vec<PointIndex>> = BTreeMap::new();
        for (i, pair) in pair_of {
            by_pair.entry(pair).or_default().push(i);
        }
        let classes: Vec<Vec<PointIndex>> = by_pair.into_values().filter(|c| c.len() > 1).collect();
        let mut class_of = Vec::new();
        for (k, class) in classes.iter().enumerate() {
            for &i in class {
                if class_of.len() <= i.get() {
                    class_of.resize(i.get() + 1, None);
                }
                class_of[i.get()] = Some(k);
            }
        }
        Interchangeable {
            classes,
            class_of,
            attacker,
        }
    }

    /// [`Board::hash`] with each class's stones moved to its canonical
    /// places: the attacker's on its first points, the defender's next.
    pub(crate) fn hash(&self, board: &Board) -> u64 {
        let mut hash = board.hash();
        let attacker = self.attacker;
        for class in &self.classes {
            let mut counts = [0usize; 2];
            for &i in class {
                if let Some(c) = board.stone(i) {
                    hash ^= Board::stone_hash(i, c);
                    counts[usize::from(c != attacker)] += 1;
                }
            }
            let colors = std::iter::repeat_n(attacker, counts[0])
                .chain(std::iter::repeat_n(attacker.opponent(), counts[1]));
            for (&i, c) in class.iter().zip(colors) {
                hash ^= Board::stone_hash(i, c);
            }
        }
        hash
    }

    /// Whether a move at the empty point `i` stands for another: an empty
    /// point of its class comes before it.
    pub(crate) fn stands_for_another(&self, board: &Board, i: PointIndex) -> bool {
        let Some(&Some(k)) = self.class_of.get(i.get()) else {
            return false;
        };
        self.classes[k]
            .iter()
            .take_while(|&&j| j != i)
            .any(|&j| board.is_empty(j))
    }
}

#[cfg(test)]
mod tests {
    use shoutan_rules::Point;

    use super::*;

    /// White's straight three on the first line against black's wall,
    /// whose liberties A4 to D4 lie under white's outer wall:
    /// ```text
    ///   A B C D E F G
    /// 5 O O O O O O O
    /// 4 . . . . O O O
    /// 3 X X X X X X X
    /// 2 X O O O O O X
    /// 1 X O . . . O X
    /// ```
    const RACE: &str = "
        . . . . . . .
        . . . . . . .
        O O O O O O O
        . . . . O O O
        X X X X X X X
        X O O O O O X
        X O . . . O X";

    fn at(board: &Board, s: &str) -> PointIndex {
        board.index(Point::from_gtp(s, board.size()).unwrap())
    }

    /// The classes when the region is white's group, its eye and `extra`.
    fn classes(board: &Board, extra: &[&str]) -> Interchangeable {
        let target = at(board, "B1");
        let mut cells: Vec<PointIndex> = board.chain(target).collect();
        for p in ["C1", "D1", "E1"].iter().chain(extra) {
            cells.push(at(board, p));
        }
        let region = cells.clone();
        Interchangeable::find(board, target, &cells, |i| region.contains(&i))
    }

    #[test]
    fn a_race_s_outside_liberties_are_one_class() {
        let mut board: Board = RACE.parse().unwrap();
        let found = classes(&board, &["A4", "B4", "C4", "D4"]);
        let libs: Vec<PointIndex> = ["A4", "B4", "C4", "D4"].map(|p| at(&board, p)).into();
        let mut class = found.classes.concat();
        class.sort();
        assert_eq!(class, libs);
        // The eye's points touch the target: never interchangeable.
        assert!(!found.stands_for_another(&board, at(&board, "D1")));
        assert!(!found.stands_for_another(&board, libs[0]));
        assert!(found.stands_for_another(&board, libs[3]));
        // Black on A4 and white on B4, or white on A4 and black on C4: the
        // same count of each, the same key.
        let before = found.hash(&board);
        board.play_unchecked(libs[0], Color::Black);
        board.play_unchecked(libs[1], Color::White);
        let one = found.hash(&board);
        let mut other: Board = RACE.parse().unwrap();
        other.play_unchecked(libs[2], Color::Black);
        other.play_unchecked(libs[0], Color::White);
        assert_eq!(found.hash(&other), one);
        assert_ne!(one, before);
        assert_ne!(other.hash(), board.hash());
        // Two black stones are not one of each.
        let mut two_black: Board = RACE.parse().unwrap();
        two_black.play_unchecked(libs[1], Color::Black);
        two_black.play_unchecked(libs[3], Color::Black);
        assert_ne!(found.hash(&two_black), one);
    }

    #[test]
    fn the_wall_inside_the_region_makes_no_class() {
        let board: Board = RACE.parse().unwrap();
        // Black's wall at A3 in the region: capturing it would not end the
        // fight, so where its liberties are filled may matter.
        let found = classes(&board, &["A4", "B4", "C4", "D4", "A3"]);
        assert!(found.classes.is_empty());
    }
}
