//! Light playouts: uniformly random legal moves that do not fill the
//! mover's own single-point eye, until both pass. The speed benchmark of the
//! board, and the raw material of ownership estimates.

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
pub fn light_playout(
    board: &mut Board,
    mut to_move: Color,
    suicide: Suicide,
    max_moves: usize,
    rng: &mut fastrand::Rng,
) -> PlayoutEnd {
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && moves < max_moves {
        match random_move(board, to_move, suicide, rng) {
            Some(i) => {
                board.play_unchecked(i, to_move);
                passes = 0;
                moves += 1;
            }
            None => {
                board.clear_ko();
                passes += 1;
            }
        }
        to_move = to_move.opponent();
    }
    PlayoutEnd { moves, to_move }
}

/// A uniformly random legal point for `c` that is not `c`'s own eye.
#[inline]
pub fn random_move(
    board: &Board,
    c: Color,
    suicide: Suicide,
    rng: &mut fastrand::Rng,
) -> Option<PointIndex> {
    board.playable_from(rng.u32(..), c, suicide)
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
