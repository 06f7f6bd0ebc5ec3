//! The transposition table: proof and disproof numbers of positions met
//! before, so that transpositions are searched once. Only results that do
//! not depend on the path by which a position was reached are kept final.

use std::collections::HashMap;

use shoutan_rules::{Board, Color, situation};

use crate::search::Threats;

/// Entries kept before the table is emptied and refilled: a bound on memory
/// (each entry is some 24 bytes with the map's overhead).
const MAX_ENTRIES: usize = 4_000_000;

/// Proof and disproof numbers from the point of view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Numbers {
    /// The effort still needed to prove the player to move wins (0: proved).
    pub phi: u64,
    /// The effort still needed to prove they lose (0: proved).
    pub delta: u64,
}

/// Positions keyed by [`key`].
#[derive(Default)]
pub(crate) struct Table {
    map: HashMap<u64, Numbers>,
}

impl Table {
    pub(crate) fn get(&self, key: u64) -> Option<Numbers> {
        self.map.get(&key).copied()
    }

    pub(crate) fn put(&mut self, key: u64, numbers: Numbers) {
        if self.map.len() >= MAX_ENTRIES {
            self.map.clear();
        }
        self.map.insert(key, numbers);
    }
}

/// splitmix64, to derive well-mixed keys for ko bans from their cell.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of a search state: `stones`, the hash of the stones (those
/// outside the region never change, so hashing the whole board is hashing
/// the region), the player to move, `board`'s simple-ko ban, which changes
/// what may be played, and the ko threats the holder has left.
pub(crate) fn key(stones: u64, board: &Board, to_move: Color, threats: Threats) -> u64 {
    let ko = board.ko().map_or(0, |(i, c)| {
        mix(0x6b6f_0000 ^ ((i.get() as u64) << 1) ^ c.index() as u64)
    });
    let left = match threats {
        Threats::Unlimited => 0,
        Threats::Left(n) => mix(0x7468_0000 ^ u64::from(n)),
    };
    situation(stones, to_move) ^ ko ^ left
}
