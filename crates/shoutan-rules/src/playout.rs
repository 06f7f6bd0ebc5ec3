//! Light playouts: uniformly random legal moves that do not fill the
//! mover's own single-point eye, until both pass. The speed benchmark of the
//! board, and the raw material of ownership estimates.

use crate::board::{AnyStride, FixedStride, Stride};
use crate::{Board, Color, PointIndex, Suicide};

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutEnd {
    /// Stones played.
    pub moves: usize,
    /// The player who would move next.
    pub to_move: Color,
}

/// Plays a light playout on `board` from `to_move`, at most `max_moves`
/// stones. Ko is simple ko (a playout needs no superko: a cycle ends at the
/// move limit).
///
/// The loop plays Black then White, each turn with a constant colour: every
/// colour-dependent code, shift and table offset of the candidate test and
/// of `play` then folds into the instructions instead of being recomputed
/// every move.
pub fn light_playout(
    board: &mut Board,
    to_move: Color,
    suicide: Suicide,
    max_moves: usize,
    rng: &mut fastrand::Rng,
) -> PlayoutEnd {
    // One copy of the loop per usual board size, each with the stride a
    // constant, and per suicide rule, each with the rule a constant.
    match board.size().get() {
        9 => by_rule(board, to_move, suicide, max_moves, rng, FixedStride::<10>),
        13 => by_rule(board, to_move, suicide, max_moves, rng, FixedStride::<14>),
        19 => by_rule(board, to_move, suicide, max_moves, rng, FixedStride::<20>),
        _ => by_rule(board, to_move, suicide, max_moves, rng, AnyStride),
    }
}

/// [`light_playout`] on a board of stride `st`, one copy per suicide rule.
#[inline(always)]
fn by_rule(
    board: &mut Board,
    to_move: Color,
    suicide: Suicide,
    max_moves: usize,
    rng: &mut fastrand::Rng,
    st: impl Stride,
) -> PlayoutEnd {
    match suicide {
        Suicide::Forbidden => playout(board, to_move, Suicide::Forbidden, max_moves, rng, st),
        Suicide::MultiStoneOnly => {
            playout(board, to_move, Suicide::MultiStoneOnly, max_moves, rng, st)
        }
        Suicide::Allowed => playout(board, to_move, Suicide::Allowed, max_moves, rng, st),
    }
}

/// [`light_playout`] under one suicide rule and stride, inlined into each arm.
#[inline(always)]
fn playout(
    board: &mut Board,
    to_move: Color,
    suicide: Suicide,
    max_moves: usize,
    outer: &mut fastrand::Rng,
    st: impl Stride,
) -> PlayoutEnd {
    let mut run = Run {
        passes: 0,
        moves: 0,
        max_moves,
    };
    // The generator's state in a local, not behind `outer`, so it need not
    // be stored and loaded again every draw.
    let mut local = outer.clone();
    let rng = &mut local;
    if to_move == Color::White && run.goes_on() {
        run.turn(board, Color::White, suicide, rng, st);
    }
    let end = loop {
        if !run.goes_on() {
            break run.end(Color::Black);
        }
        run.turn(board, Color::Black, suicide, rng, st);
        if !run.goes_on() {
            break run.end(Color::White);
        }
        run.turn(board, Color::White, suicide, rng, st);
    };
    *outer = local;
    end
}

/// The progress of a playout: consecutive passes and stones played.
struct Run {
    passes: u32,
    moves: usize,
    max_moves: usize,
}

impl Run {
    /// Whether the playout continues: not two passes in a row, stones left.
    #[inline(always)]
    fn goes_on(&self) -> bool {
        self.passes < 2 && self.moves < self.max_moves
    }

    /// One turn of `c`: a random candidate, or a pass (which lifts the ko ban).
    #[inline(always)]
    fn turn(
        &mut self,
        board: &mut Board,
        c: Color,
        suicide: Suicide,
        rng: &mut fastrand::Rng,
        st: impl Stride,
    ) {
        match board.choose(c, suicide, rng, st) {
            Some(i) => {
                board.play_as(i, c, suicide, st);
                self.passes = 0;
                self.moves += 1;
            }
            None => {
                board.clear_ko();
                self.passes += 1;
            }
        }
    }

    fn end(&self, to_move: Color) -> PlayoutEnd {
        PlayoutEnd {
            moves: self.moves,
            to_move,
        }
    }
}

/// A uniformly random legal point for `c` (simple ko included, superko
/// not) that is not `c`'s own eye, or `None` when there is none.
#[inline]
pub fn random_move(
    board: &Board,
    c: Color,
    suicide: Suicide,
    rng: &mut fastrand::Rng,
) -> Option<PointIndex> {
    board.choose_by_scan(c, suicide, rng)
}

/// Tromp–Taylor area of a finished playout, black minus white: stones plus
/// empty points whose neighbours are all one colour (after a light playout
/// every empty point is a single-point eye or dame).
#[must_use]
pub fn playout_area(board: &Board) -> i32 {
    let mut score = 0;
    for p in board.size().points() {
        let i = board.index(p);
        score += match board.stone(i) {
            Some(Color::Black) => 1,
            Some(Color::White) => -1,
            None => {
                let mut seen = [false, false];
                for n in board.neighbors(i) {
                    if let Some(c) = board.stone(n) {
                        seen[c.index()] = true;
                    }
                }
                match seen {
                    [true, false] => 1,
                    [false, true] => -1,
                    _ => 0,
                }
            }
        };
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardSize;

    #[test]
    fn playouts_end_with_only_eyes_and_dame_left() {
        let mut rng = fastrand::Rng::with_seed(7);
        for size in [BoardSize::NINE, BoardSize::NINETEEN] {
            let mut board = Board::new(size);
            let end = light_playout(&mut board, Color::Black, Suicide::Forbidden, 1000, &mut rng);
            assert!(end.moves > size.area() / 2);
            for &i in board.empty_points() {
                let legal_non_eye = Color::ALL
                    .into_iter()
                    .any(|c| !board.is_eye(i, c) && board.is_legal(i, c, Suicide::Forbidden));
                assert!(
                    !legal_non_eye,
                    "a playout stopped with a playable point left"
                );
            }
            let area = playout_area(&board);
            assert!(area.unsigned_abs() as usize <= size.area());
        }
    }
}
