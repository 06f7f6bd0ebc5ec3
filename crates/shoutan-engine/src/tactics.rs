//! Cheap tactical facts the board does not answer directly, built on its
//! public API: how many liberties a move would leave, which moves save a
//! chain in atari, which capture. Written for speed: no allocation, early
//! exits as soon as the answer is known.

use shoutan_rules::{Board, Color, PointIndex};

/// Up to `N` distinct points, on the stack.
#[derive(Clone, Copy)]
pub(crate) struct Few<const N: usize> {
    items: [PointIndex; N],
    len: usize,
}

impl<const N: usize> Few<N> {
    pub(crate) fn new(fill: PointIndex) -> Self {
        Few {
            items: [fill; N],
            len: 0,
        }
    }

    /// Adds `p` if new; false once the set is full and `p` did not fit.
    #[inline]
    pub(crate) fn add(&mut self, p: PointIndex) -> bool {
        if self.items[..self.len].contains(&p) {
            return true;
        }
        if self.len == N {
            return false;
        }
        self.items[self.len] = p;
        self.len += 1;
        true
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[PointIndex] {
        &self.items[..self.len]
    }
}

/// Whether a stone of `c` at the empty point `i` would capture something.
#[inline]
#[must_use]
pub fn captures(board: &Board, i: PointIndex, c: Color) -> bool {
    board
        .neighbors(i)
        .into_iter()
        .any(|n| board.stone(n) == Some(c.opponent()) && board.in_atari(n))
}

/// Whether a stone of `c` at the empty point `i` would be left with one
/// liberty (or none) without capturing: a self-atari. The move is assumed
/// legal.
#[must_use]
pub fn is_self_atari(board: &Board, i: PointIndex, c: Color) -> bool {
    !captures(board, i, c) && liberties_after(board, i, c) <= 1
}

/// The number of liberties, counted up to 2, that the chain of a stone of
/// `c` at `i` would have (captures not counted).
#[must_use]
pub fn liberties_after(board: &Board, i: PointIndex, c: Color) -> usize {
    let mut libs = Few::<2>::new(i);
    for n in board.neighbors(i) {
        if board.is_empty(n) && !libs.add(n) {
            return 2;
        }
    }
    let mut walked = Few::<4>::new(i);
    for n in board.neighbors(i) {
        if board.stone(n) != Some(c) {
            continue;
        }
        let id = board.chain_id(n);
        if walked.as_slice().contains(&id) {
            continue;
        }
        walked.add(id);
        for s in board.chain(n) {
            for m in board.neighbors(s) {
                if m != i && board.is_empty(m) && !libs.add(m) {
                    return 2;
                }
            }
        }
    }
    libs.len()
}

/// The moves that save the chain of `c` at `stone`, which is in atari:
/// capturing a neighbouring chain in atari, or extending on the liberty when
/// that gives two liberties or more. Written into `out`.
pub fn escapes(board: &Board, stone: PointIndex, c: Color, out: &mut Vec<PointIndex>) {
    let Some(lib) = board.atari_liberty(stone) else {
        return;
    };
    for s in board.chain(stone) {
        for n in board.neighbors(s) {
            if board.stone(n) == Some(c.opponent())
                && let Some(take) = board.atari_liberty(n)
                && !out.contains(&take)
            {
                out.push(take);
            }
        }
    }
    if !out.contains(&lib) && liberties_after(board, lib, c) >= 2 {
        out.push(lib);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shoutan_rules::Point;

    fn at(board: &Board, s: &str) -> PointIndex {
        board.index(Point::from_gtp(s, board.size()).unwrap())
    }

    #[test]
    fn self_atari_is_told_from_safe_moves() {
        let board: Board = "
            . X . . .
            X . X . .
            . X . . .
            . . . . .
            . . . . ."
            .parse()
            .unwrap();
        // B4 for white: all four neighbours black, nothing captured.
        assert!(is_self_atari(&board, at(&board, "B4"), Color::White));
        // A5 for white: neighbours A4 (black) and B5 (black): no liberty.
        assert!(is_self_atari(&board, at(&board, "A5"), Color::White));
        // C5 for white: neighbours B5 black, D5 empty, C4 black: one liberty.
        assert!(is_self_atari(&board, at(&board, "C5"), Color::White));
        // D4 for white: three empty neighbours.
        assert!(!is_self_atari(&board, at(&board, "D4"), Color::White));
        // B4 for black joins four stones around it: many liberties.
        assert!(!is_self_atari(&board, at(&board, "B4"), Color::Black));
    }

    #[test]
    fn a_capture_is_not_a_self_atari() {
        // White at A1 has no empty neighbour but takes the black stone at A2.
        let board: Board = "
            . . . .
            O . . .
            X O . .
            . X O ."
            .parse()
            .unwrap();
        assert!(captures(&board, at(&board, "A1"), Color::White));
        assert!(!is_self_atari(&board, at(&board, "A1"), Color::White));
    }

    #[test]
    fn escapes_extend_or_capture() {
        // The black stone at B2 is in atari (its liberty is B1), and the
        // white stone at A2 next to it is in atari too (its liberty is A1).
        let board: Board = "
            . . . . .
            . . . . .
            X O . . .
            O X O . .
            . . . . ."
            .parse()
            .unwrap();
        let stone = at(&board, "B2");
        assert!(board.in_atari(stone));
        let mut out = Vec::new();
        escapes(&board, stone, Color::Black, &mut out);
        // Capturing A2 at A1 saves it; extending to B1 gives B1 the liberties
        // A1 and C1.
        let mut names: Vec<String> = out
            .iter()
            .map(|&i| board.point(i).to_gtp(board.size()))
            .collect();
        names.sort();
        assert_eq!(names, ["A1", "B1"]);
    }
}
