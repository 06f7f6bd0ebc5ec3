//! Ladder reading (征子): whether a chain in atari that runs along its last
//! liberty is caught by ataris from alternating sides, read move by move on
//! copies of the board. The runner escapes when it reaches three
//! liberties or can capture an attacking stone; a ladder breaker on the
//! way shows up as the extension that gains those liberties.

use shoutan_rules::{Board, Color, PointIndex, Suicide};

use crate::tactics::Few;

/// Plies read before a ladder is given up as unclear (and counted as an
/// escape): a ladder across the 19×19 board takes about 70.
const MAX_PLIES: usize = 160;

/// Boards reused from one reading to the next.
#[derive(Default)]
pub(crate) struct Ladders {
    pool: Vec<Board>,
}

impl Ladders {
    /// Whether the chain at `prey`, in atari and its owner to move, is
    /// caught: it cannot capture an attacking stone, and extending on its
    /// liberty leads to capture whatever it does.
    pub(crate) fn caught(&mut self, board: &Board, prey: PointIndex) -> bool {
        self.runner_caught(board, prey, 0)
    }

    /// Whether the chain at `prey`, with two liberties and the attacker to
    /// move, is caught by an atari on one of them.
    pub(crate) fn caught_after_atari(&mut self, board: &Board, prey: PointIndex) -> bool {
        self.attacker_catches(board, prey, 0)
    }

    fn runner_caught(&mut self, board: &Board, prey: PointIndex, plies: usize) -> bool {
        let Some(c) = board.stone(prey) else {
            return false;
        };
        let Some(lib) = board.atari_liberty(prey) else {
            return false;
        };
        if plies >= MAX_PLIES || can_capture_a_neighbour(board, prey, c) {
            return false;
        }
        if !board.is_legal(lib, c, Suicide::Forbidden) {
            return true;
        }
        let mut next = self.take(board);
        next.play_unchecked(lib, c);
        let caught = match count_liberties(&next, lib) {
            0 | 1 => true,
            2 => self.attacker_catches(&next, lib, plies + 1),
            _ => false,
        };
        self.pool.push(next);
        caught
    }

    fn attacker_catches(&mut self, board: &Board, prey: PointIndex, plies: usize) -> bool {
        let Some(c) = board.stone(prey) else {
            return false;
        };
        let attacker = c.opponent();
        let libs = liberties(board, prey);
        if libs.len() != 2 || plies >= MAX_PLIES {
            return false;
        }
        for &atari in libs.as_slice() {
            if !board.is_legal(atari, attacker, Suicide::Forbidden) {
                continue;
            }
            let mut next = self.take(board);
            next.play_unchecked(atari, attacker);
            let caught = next.in_atari(prey) && self.runner_caught(&next, prey, plies + 1);
            self.pool.push(next);
            if caught {
                return true;
            }
        }
        false
    }

    /// A board from the pool, set to `board`.
    fn take(&mut self, board: &Board) -> Board {
        match self.pool.pop() {
            Some(mut b) => {
                b.clone_from(board);
                b
            }
            None => board.clone(),
        }
    }
}

/// Whether `c`'s chain at `prey` touches an opponent chain in atari.
fn can_capture_a_neighbour(board: &Board, prey: PointIndex, c: Color) -> bool {
    board.chain(prey).any(|s| {
        board
            .neighbors(s)
            .into_iter()
            .any(|n| board.stone(n) == Some(c.opponent()) && board.in_atari(n))
    })
}

/// Up to three distinct liberties of the chain at `i`.
pub(crate) fn liberties(board: &Board, i: PointIndex) -> Few<3> {
    let mut libs = Few::<3>::new(i);
    for s in board.chain(i) {
        for n in board.neighbors(s) {
            if board.is_empty(n) && !libs.add(n) {
                return libs;
            }
        }
    }
    libs
}

/// The liberties of the chain at `i`, counted up to 3.
pub(crate) fn count_liberties(board: &Board, i: PointIndex) -> usize {
    if board.in_atari(i) {
        return 1;
    }
    liberties(board, i).len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shoutan_rules::Point;

    fn at(board: &Board, s: &str) -> PointIndex {
        board.index(Point::from_gtp(s, board.size()).unwrap())
    }

    fn board(s: &str) -> Board {
        s.parse().unwrap()
    }

    /// A white stone at C3 in atari (its liberty is D3): extending there
    /// leaves two liberties, and the ataris from alternating sides drive it
    /// diagonally towards the top right.
    const LADDER: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X . . . . . .
        . X O . . . . . .
        . . X X . . . . .
        . . . . . . . . .";

    #[test]
    fn a_working_ladder_catches_the_runner() {
        let b = board(LADDER);
        assert!(b.in_atari(at(&b, "C3")));
        assert!(Ladders::default().caught(&b, at(&b, "C3")));
    }

    #[test]
    fn a_ladder_breaker_saves_the_runner() {
        // The same ladder with a white stone at G7 on its path.
        let mut b = board(LADDER);
        let breaker = Point::from_gtp("G7", b.size()).unwrap();
        b.set_stones([(breaker, Some(Color::White))]).unwrap();
        assert!(!Ladders::default().caught(&b, at(&b, "C3")));
    }

    #[test]
    fn a_runner_that_can_capture_escapes() {
        // Black's C2 is in atari and extending to D2 leaves it one liberty,
        // but White's C1 beside it is in atari too: taking it at D1 saves
        // Black. Without the black stone at B1, C1 has two liberties and
        // Black is caught.
        let b = board(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . O O . . . . .
            . O X . O . . . .
            . X O . . . . . .",
        );
        let prey = at(&b, "C2");
        assert!(b.in_atari(prey) && b.in_atari(at(&b, "C1")));
        assert!(!Ladders::default().caught(&b, prey));
        let mut without = b.clone();
        let b1 = Point::from_gtp("B1", b.size()).unwrap();
        without.set_stones([(b1, None)]).unwrap();
        assert!(Ladders::default().caught(&without, prey));
    }

    #[test]
    fn an_atari_that_starts_a_working_ladder_is_found() {
        // White's C3 has two liberties, C2 and D3: either atari starts a
        // ladder that works on the empty board. White's G2, with black
        // stones on two sides only, has two liberties but runs free.
        let b = board(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . X . . . . . .
            . X O . . . . . .
            . . . X . . O X .
            . . . . . . X . .",
        );
        assert!(Ladders::default().caught_after_atari(&b, at(&b, "C3")));
        assert_eq!(count_liberties(&b, at(&b, "G2")), 2);
        assert!(!Ladders::default().caught_after_atari(&b, at(&b, "G2")));
    }
}
