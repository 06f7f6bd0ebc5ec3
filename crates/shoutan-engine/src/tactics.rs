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
