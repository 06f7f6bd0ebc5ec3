//! Star points and fixed handicap placements (Art. 10, spec §6).
//!
//! Fixed placements follow the GTP specification's `fixed_handicap` table,
//! which GNU Go, Sabaki and GoGui expect; the expected points in the tests
//! below are what GNU Go 3.8 answers to `fixed_handicap`.

use crate::{BoardSize, Point};

/// Distance of the corner star points from the edge, in lines (3 on boards
/// from 7 to 12, 4 from 13 up); `None` below 7, where there are none.
fn corner_line(size: BoardSize) -> Option<u8> {
    match size.get() {
        0..=6 => None,
        7..=12 => Some(3),
        _ => Some(4),
    }
}

/// The star points (星位) drawn on the board: the four corner points, plus
/// the centre (天元) on odd boards, plus the side points on odd boards from
/// 15 up — 9 on 19×19, 5 on 13×13 and 9×9. Boards below 7 have only a
/// centre point when odd.
#[must_use]
pub fn star_points(size: BoardSize) -> Vec<Point> {
    let n = size.get();
    let odd = n % 2 == 1;
    let mid = n / 2;
    let Some(line) = corner_line(size) else {
        return if odd && n >= 5 {
            vec![Point::new(mid, mid)]
        } else {
            Vec::new()
        };
    };
    let (lo, hi) = (line - 1, n - line);
    let mut stars = vec![
        Point::new(lo, lo),
        Point::new(hi, lo),
        Point::new(lo, hi),
        Point::new(hi, hi),
    ];
    if odd {
        stars.push(Point::new(mid, mid));
        if n >= 15 {
            stars.extend([
                Point::new(mid, lo),
                Point::new(lo, mid),
                Point::new(hi, mid),
                Point::new(mid, hi),
            ]);
        }
    }
    stars
}

/// A handicap the fixed table does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HandicapError {
    /// Fewer than 2 or more than the board allows.
    #[error("a fixed handicap of {stones} is not possible on {size} (from 2 to {max})")]
    Count {
        /// Requested stones.
        stones: u32,
        /// The board.
        size: BoardSize,
        /// The largest fixed handicap on this board (0 if none).
        max: u8,
    },
}

/// The largest fixed handicap on a board: 9 on odd boards from 9 up, 4 on
/// 7×7 and on even boards from 8 up, none below 7.
#[must_use]
pub fn max_fixed_handicap(size: BoardSize) -> u8 {
    let n = size.get();
    match n {
        0..=6 => 0,
        7 => 4,
        _ if n.is_multiple_of(2) => 4,
        _ => 9,
    }
}

/// The points of a fixed handicap of `stones` stones, per the GTP table.
///
/// ```
/// use shoutan_rules::{fixed_handicap, BoardSize};
/// let size = BoardSize::NINETEEN;
/// let points: Vec<String> =
///     fixed_handicap(size, 3).unwrap().iter().map(|p| p.to_gtp(size)).collect();
/// assert_eq!(points, ["D4", "Q16", "D16"]);
/// ```
pub fn fixed_handicap(size: BoardSize, stones: u32) -> Result<Vec<Point>, HandicapError> {
    let max = max_fixed_handicap(size);
    if stones < 2 || stones > u32::from(max) {
        return Err(HandicapError::Count { stones, size, max });
    }
    let n = size.get();
    let line = corner_line(size).unwrap_or(3);
    let (lo, hi, mid) = (line - 1, n - line, n / 2);
    let lower_left = Point::new(lo, hi);
    let upper_right = Point::new(hi, lo);
    let upper_left = Point::new(lo, lo);
    let lower_right = Point::new(hi, hi);
    let centre = Point::new(mid, mid);
    let (left, right) = (Point::new(lo, mid), Point::new(hi, mid));
    let (top, bottom) = (Point::new(mid, lo), Point::new(mid, hi));
    let mut points = vec![lower_left, upper_right];
    if stones >= 3 {
        points.push(upper_left);
    }
    if stones >= 4 {
        points.push(lower_right);
    }
    if stones >= 6 {
        points.extend([left, right]);
    }
    if stones >= 8 {
        points.extend([top, bottom]);
    }
    if stones % 2 == 1 && stones >= 5 {
        points.push(centre);
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted_gtp(size: u32, stones: u32) -> Vec<String> {
        let size = BoardSize::new(size).unwrap();
        let mut v: Vec<String> = fixed_handicap(size, stones)
            .unwrap()
            .iter()
            .map(|p| p.to_gtp(size))
            .collect();
        v.sort();
        v
    }

    fn sorted(s: &str) -> Vec<String> {
        let mut v: Vec<String> = s.split_whitespace().map(str::to_owned).collect();
        v.sort();
        v
    }

    /// What GNU Go 3.8 answers to `fixed_handicap N` (facts from the GTP table).
    #[test]
    fn agrees_with_gnu_go() {
        let table = [
            (7, 2, "E5 C3"),
            (7, 4, "C5 E5 C3 E3"),
            (9, 2, "G7 C3"),
            (9, 3, "C7 G7 C3"),
            (9, 5, "C7 G7 E5 C3 G3"),
            (9, 6, "C7 G7 C5 G5 C3 G3"),
            (9, 7, "C7 G7 C5 E5 G5 C3 G3"),
            (9, 8, "C7 E7 G7 C5 G5 C3 E3 G3"),
            (9, 9, "C7 E7 G7 C5 E5 G5 C3 E3 G3"),
            (10, 4, "C8 H8 C3 H3"),
            (13, 5, "D10 K10 G7 D4 K4"),
            (13, 9, "D10 G10 K10 D7 G7 K7 D4 G4 K4"),
            (19, 2, "Q16 D4"),
            (19, 3, "D16 Q16 D4"),
            (19, 4, "D16 Q16 D4 Q4"),
            (19, 5, "D16 Q16 K10 D4 Q4"),
            (19, 6, "D16 Q16 D10 Q10 D4 Q4"),
            (19, 7, "D16 Q16 D10 K10 Q10 D4 Q4"),
            (19, 8, "D16 K16 Q16 D10 Q10 D4 K4 Q4"),
            (19, 9, "D16 K16 Q16 D10 K10 Q10 D4 K4 Q4"),
        ];
        for (size, stones, expected) in table {
            assert_eq!(
                sorted_gtp(size, stones),
                sorted(expected),
                "{size}×{size} H{stones}"
            );
        }
    }

    #[test]
    fn impossible_handicaps_are_refused() {
        assert!(fixed_handicap(BoardSize::new(8).unwrap(), 5).is_err());
        assert!(fixed_handicap(BoardSize::new(6).unwrap(), 2).is_err());
        let err = fixed_handicap(BoardSize::NINETEEN, 10).unwrap_err();
        assert!(err.to_string().contains("from 2 to 9"));
        assert!(fixed_handicap(BoardSize::NINETEEN, 1).is_err());
    }

    #[test]
    fn star_points_of_the_usual_boards() {
        assert_eq!(star_points(BoardSize::NINETEEN).len(), 9);
        assert_eq!(star_points(BoardSize::THIRTEEN).len(), 5);
        assert_eq!(star_points(BoardSize::NINE).len(), 5);
        assert!(star_points(BoardSize::NINE).contains(&Point::new(2, 2)));
        assert!(star_points(BoardSize::NINETEEN).contains(&Point::new(9, 9)));
        assert_eq!(
            star_points(BoardSize::new(5).unwrap()),
            vec![Point::new(2, 2)]
        );
        assert!(star_points(BoardSize::new(4).unwrap()).is_empty());
    }
}
