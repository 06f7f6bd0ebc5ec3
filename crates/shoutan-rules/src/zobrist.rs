//! Zobrist keys: one random 64-bit key per (cell, colour), fixed at compile
//! time so hashes are the same in every process (the server stores them).

use crate::Color;

/// Cells of the padded array of the largest board: (25 + 2) rows of 26, plus one.
pub(crate) const MAX_CELLS: usize = 27 * 26 + 1;

/// `MAX_CELLS` rounded up to a power of two, so a masked index is always in
/// range and per-cell arrays need no bounds checks.
pub(crate) const CELLS: usize = MAX_CELLS.next_power_of_two();

/// splitmix64, a standard way to expand a counter into well-mixed keys.
const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn keys() -> [[u64; CELLS]; 2] {
    let mut k = [[0; CELLS]; 2];
    let mut i = 0;
    while i < CELLS {
        k[0][i] = splitmix(0x5348_4f55_5441_4e00 ^ (2 * i as u64));
        k[1][i] = splitmix(0x5348_4f55_5441_4e00 ^ (2 * i as u64 + 1));
        i += 1;
    }
    k
}

static KEYS: [[u64; CELLS]; 2] = keys();

/// Xored into a position's hash when white is to move (situational superko).
pub(crate) const WHITE_TO_MOVE: u64 = splitmix(0x7768_6974_6520_746f);

/// The key of a stone of colour `c` on cell `cell`.
#[inline]
pub(crate) fn key(c: Color, cell: usize) -> u64 {
    KEYS[c.index()][cell & (CELLS - 1)]
}

/// The key of a position with `to_move` to play: board hash plus side to move.
#[inline]
#[must_use]
pub fn situation(board_hash: u64, to_move: Color) -> u64 {
    match to_move {
        Color::Black => board_hash,
        Color::White => board_hash ^ WHITE_TO_MOVE,
    }
}
