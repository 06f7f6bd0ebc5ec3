//! A set of points of one board: dead stones, territory, seki.

use serde::{Deserialize, Serialize};

use crate::{BoardSize, Point};

/// A set of points of a board of one size, as a bitmap.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PointSet {
    size: BoardSize,
    bits: Vec<u64>,
}

impl PointSet {
    /// The empty set.
    #[must_use]
    pub fn new(size: BoardSize) -> PointSet {
        PointSet {
            size,
            bits: vec![0; size.area().div_ceil(64)],
        }
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// Adds `p`; true if it was not there. `p` must be on the board.
    pub fn insert(&mut self, p: Point) -> bool {
        let o = self.size.offset(p);
        let fresh = self.bits[o / 64] & (1 << (o % 64)) == 0;
        self.bits[o / 64] |= 1 << (o % 64);
        fresh
    }

    /// Removes `p`; true if it was there.
    pub fn remove(&mut self, p: Point) -> bool {
        let o = self.size.offset(p);
        let was = self.bits[o / 64] & (1 << (o % 64)) != 0;
        self.bits[o / 64] &= !(1 << (o % 64));
        was
    }

    /// Whether `p` is in the set (false for points off the board).
    #[must_use]
    pub fn contains(&self, p: Point) -> bool {
        if !self.size.contains(p) {
            return false;
        }
        let o = self.size.offset(p);
        self.bits[o / 64] & (1 << (o % 64)) != 0
    }

    /// Number of points.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|&w| w == 0)
    }

    /// The points, row by row.
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.size.points().filter(|&p| self.contains(p))
    }
}

impl Extend<Point> for PointSet {
    fn extend<I: IntoIterator<Item = Point>>(&mut self, iter: I) {
        for p in iter {
            self.insert(p);
        }
    }
}
