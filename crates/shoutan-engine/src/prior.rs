//! Prior knowledge for new tree nodes: before a move has been searched it
//! starts with pseudo-results that say what a player sees at a glance —
//! captures and escapes are urgent, self-atari is bad, good shape and
//! answering the last move are natural, the first and second lines of an
//! empty area are slow. Moves into one's own eye are left out of the tree.

use shoutan_rules::{Board, Color, Point, PointIndex, Suicide};

use crate::pattern::is_good_shape;
use crate::tactics::{captures, escapes, is_self_atari};
use crate::tree::{NewChild, PASS};

/// Pseudo-visits and wins, added up from the heuristics that apply.
#[derive(Clone, Copy)]
struct Prior {
    visits: f32,
    wins: f32,
}

impl Prior {
    const EVEN: Prior = Prior {
        visits: 10.0,
        wins: 5.0,
    };

    fn add(&mut self, visits: f32, wins: f32) {
        self.visits += visits;
        self.wins += wins;
    }

    fn child(self, mv: u16) -> NewChild {
        NewChild {
            mv,
            prior_visits: self.visits.min(1000.0) as u16,
            prior_wins: (2.0 * self.wins).min(2000.0) as u16,
        }
    }
}

/// Reused buffers.
#[derive(Default)]
pub(crate) struct PriorScratch {
    urgent: Vec<PointIndex>,
}

/// The children of a position with `c` to move and their priors, written to
/// `out`: every empty point that is legal, allowed by `allowed` (the root
/// checks superko there) and not `c`'s own eye, then the pass.
pub(crate) fn children(
    board: &Board,
    c: Color,
    last: Option<PointIndex>,
    allowed: &dyn Fn(PointIndex) -> bool,
    scratch: &mut PriorScratch,
    out: &mut Vec<NewChild>,
) {
    out.clear();
    let size = board.size();
    let n = i32::from(size.get());
    // Escapes for every chain of `c` in atari anywhere on the board.
    let urgent = &mut scratch.urgent;
    urgent.clear();
    for p in size.points() {
        let i = board.index(p);
        if board.stone(i) == Some(c) && board.chain_id(i) == i && board.in_atari(i) {
            escapes(board, i, c, urgent);
        }
    }
    let stones = board.stone_count(Color::Black) + board.stone_count(Color::White);
    let opening = stones * 4 < size.area();
    for p in size.points() {
        let i = board.index(p);
        if !board.is_empty(i)
            || board.is_eye(i, c)
            || !board.is_legal(i, c, Suicide::Forbidden)
            || !allowed(i)
        {
            continue;
        }
        let mut prior = Prior::EVEN;
        let takes = captures(board, i, c);
        if takes {
            let biggest = board
                .neighbors(i)
                .into_iter()
                .filter(|&m| board.stone(m) == Some(c.opponent()) && board.in_atari(m))
                .map(|m| board.chain_len(m))
                .max()
                .unwrap_or(1) as f32;
            let w = (10.0 + 4.0 * biggest).min(40.0);
            prior.add(w, w);
        }
        if urgent.contains(&i) {
            prior.add(15.0, 15.0);
        }
        if !takes && is_self_atari(board, i, c) {
            prior.add(20.0, 0.0);
        }
        if is_good_shape(board, i) {
            prior.add(10.0, 10.0);
        }
        if let Some(l) = last
            && near(board, i, l)
        {
            prior.add(6.0, 5.0);
        }
        if quiet(board, i) {
            match line(p, n) {
                1 => prior.add(15.0, 0.0),
                2 => prior.add(10.0, 2.0),
                // The third and fourth lines open a big board; on small
                // boards the centre is as good.
                3 | 4 if opening => prior.add(10.0, 8.0),
                _ if opening && n <= 13 => prior.add(10.0, 8.0),
                _ => {}
            }
        }
        out.push(prior.child(i.get() as u16));
    }
    out.push(
        Prior {
            visits: 20.0,
            wins: 2.0,
        }
        .child(PASS),
    );
}

/// The line a point is on, counted from the nearest edge (1 = first line).
fn line(p: Point, n: i32) -> i32 {
    let (x, y) = (i32::from(p.col()), i32::from(p.row()));
    1 + x.min(y).min(n - 1 - x).min(n - 1 - y)
}

/// Whether `i` is within two steps (Chebyshev distance 2) of `l`.
fn near(board: &Board, i: PointIndex, l: PointIndex) -> bool {
    let (a, b) = (board.point(i), board.point(l));
    a.col().abs_diff(b.col()) <= 2 && a.row().abs_diff(b.row()) <= 2
}

/// Whether no stone stands within Manhattan distance 2 of `i`.
fn quiet(board: &Board, i: PointIndex) -> bool {
    for n in board.neighbors(i) {
        if board.stone(n).is_some() {
            return false;
        }
        if board.is_on_board(n) {
            for m in board.neighbors(n) {
                if board.stone(m).is_some() {
                    return false;
                }
            }
        }
    }
    board.diagonals(i).iter().all(|&d| board.stone(d).is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prior_of(board: &Board, c: Color, s: &str, last: Option<&str>) -> (u16, u16) {
        let at = |s: &str| board.index(Point::from_gtp(s, board.size()).unwrap());
        let mut out = Vec::new();
        children(
            board,
            c,
            last.map(at),
            &|_| true,
            &mut PriorScratch::default(),
            &mut out,
        );
        let mv = at(s).get() as u16;
        let child = out
            .iter()
            .find(|k| k.mv == mv)
            .expect("the move is a child");
        (child.prior_visits, child.prior_wins)
    }

    fn rate((v, w): (u16, u16)) -> f32 {
        f32::from(w) / (2.0 * f32::from(v))
    }

    #[test]
    fn capture_beats_self_atari() {
        // Black to play: C1 takes the white stone at C2; A5 would leave a
        // black stone with the single liberty A4.
        let board: Board = "
            . O . . .
            . . . . .
            . . X . .
            . X O X .
            . . . . ."
            .parse()
            .unwrap();
        let capture = rate(prior_of(&board, Color::Black, "C1", None));
        let self_atari = rate(prior_of(&board, Color::Black, "A5", None));
        assert!(capture > 0.7, "{capture}");
        assert!(self_atari < 0.3, "{self_atari}");
    }

    #[test]
    fn own_eyes_are_not_children_and_pass_always_is() {
        let board: Board = "
            . X . . .
            X X . . .
            . . . . .
            . . . . .
            . . . . ."
            .parse()
            .unwrap();
        let mut out = Vec::new();
        children(
            &board,
            Color::Black,
            None,
            &|_| true,
            &mut PriorScratch::default(),
            &mut out,
        );
        let eye = board
            .index(Point::from_gtp("A5", board.size()).unwrap())
            .get() as u16;
        assert!(!out.iter().any(|k| k.mv == eye));
        assert_eq!(out.last().map(|k| k.mv), Some(PASS));
        // 25 points, 3 stones, 1 eye: 21 moves and the pass.
        assert_eq!(out.len(), 22);
    }

    #[test]
    fn the_first_line_of_an_empty_board_is_slow() {
        let board = Board::new(shoutan_rules::BoardSize::NINETEEN);
        let edge = rate(prior_of(&board, Color::Black, "A10", None));
        let third = rate(prior_of(&board, Color::Black, "C10", None));
        let fourth = rate(prior_of(&board, Color::Black, "D16", None));
        assert!(
            edge < 0.3 && third > 0.55 && fourth > 0.55,
            "{edge} {third} {fourth}"
        );
    }
}
