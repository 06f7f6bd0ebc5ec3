//! The eight symmetries of the square board, numbered as KataGo numbers
//! them (`kata-raw-nn 0` … `7`): bit 0 flips the rows, bit 1 the columns,
//! bit 2 transposes. The network sees the position turned by the symmetry
//! and its spatial outputs are turned back, so an evaluation under any
//! symmetry answers for the position as it stands; averaging several
//! smooths the network's own asymmetries.

use std::fmt;

/// One of the eight symmetries of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Symmetry(u8);

/// A number that names no symmetry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("symmetry {0} is not one of 0 to 7")]
pub struct SymmetryError(pub u32);

impl Symmetry {
    /// The identity: the position as it stands.
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// The symmetry numbered `n` (0 to 7).
    pub fn new(n: u32) -> Result<Symmetry, SymmetryError> {
        u8::try_from(n)
            .ok()
            .filter(|&n| n < 8)
            .map(Symmetry)
            .ok_or(SymmetryError(n))
    }

    /// Its number.
    #[must_use]
    pub fn get(self) -> u8 {
        self.0
    }

    fn flips_rows(self) -> bool {
        self.0 & 1 != 0
    }

    fn flips_columns(self) -> bool {
        self.0 & 2 != 0
    }

    fn transposes(self) -> bool {
        self.0 & 4 != 0
    }

    /// Where the point at `(row, col)` of the position goes in what the
    /// network sees.
    #[must_use]
    pub fn to_network(self, row: usize, col: usize, size: usize) -> (usize, usize) {
        let (flip_rows, flip_cols) = if self.transposes() {
            (self.flips_columns(), self.flips_rows())
        } else {
            (self.flips_rows(), self.flips_columns())
        };
        self.place(row, col, size, flip_rows, flip_cols)
    }

    /// Where a point of the network's view comes back to in the position:
    /// the inverse of [`to_network`](Self::to_network).
    #[must_use]
    pub fn to_position(self, row: usize, col: usize, size: usize) -> (usize, usize) {
        self.place(row, col, size, self.flips_rows(), self.flips_columns())
    }

    /// KataGo's copy with symmetry: a transpose first exchanges rows and
    /// columns, then the flips choose which end each runs from.
    fn place(
        self,
        row: usize,
        col: usize,
        size: usize,
        flip_rows: bool,
        flip_cols: bool,
    ) -> (usize, usize) {
        let (r, c) = if self.transposes() {
            (col, row)
        } else {
            (row, col)
        };
        (
            if flip_rows { size - 1 - r } else { r },
            if flip_cols { size - 1 - c } else { c },
        )
    }

    /// `planes` (each `size × size`, row by row) as the network sees them.
    pub(crate) fn planes_to_network(self, planes: &[f32], size: usize) -> Vec<f32> {
        let area = size * size;
        let mut out = vec![0.0; planes.len()];
        for (src, dst) in planes.chunks_exact(area).zip(out.chunks_exact_mut(area)) {
            for row in 0..size {
                for col in 0..size {
                    let (r, c) = self.to_network(row, col, size);
                    dst[r * size + c] = src[row * size + col];
                }
            }
        }
        out
    }

    /// One output plane of the network's view, back in the position's.
    pub(crate) fn plane_to_position(self, plane: &[f32], size: usize) -> Vec<f32> {
        let mut out = vec![0.0; plane.len()];
        for row in 0..size {
            for col in 0..size {
                let (r, c) = self.to_position(row, col, size);
                out[r * size + c] = plane[row * size + col];
            }
        }
        out
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_turns_back_what_input_turned() {
        for size in [1, 2, 5, 9, 19] {
            let plane: Vec<f32> = (0..size * size).map(|i| i as f32).collect();
            for s in Symmetry::ALL {
                let seen = s.planes_to_network(&plane, size);
                assert_eq!(s.plane_to_position(&seen, size), plane, "{s} on {size}");
            }
        }
    }

    #[test]
    fn the_eight_are_distinct_and_numbered_as_katago() {
        // A 3×3 plane with 0 1 2 / 3 4 5 / 6 7 8: symmetry 1 flips the rows
        // (y), 2 the columns (x), 4 transposes.
        let plane: Vec<f32> = (0..9).map(|i| i as f32).collect();
        let seen = |n: u32| {
            Symmetry::new(n)
                .unwrap()
                .planes_to_network(&plane, 3)
                .iter()
                .map(|&v| v as u8)
                .collect::<Vec<u8>>()
        };
        assert_eq!(seen(1), [6, 7, 8, 3, 4, 5, 0, 1, 2]);
        assert_eq!(seen(2), [2, 1, 0, 5, 4, 3, 8, 7, 6]);
        assert_eq!(seen(4), [0, 3, 6, 1, 4, 7, 2, 5, 8]);
        let all: std::collections::HashSet<Vec<u8>> = (0..8).map(seen).collect();
        assert_eq!(all.len(), 8);
        assert!(Symmetry::new(8).is_err());
    }
}
