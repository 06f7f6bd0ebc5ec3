//! Points of the board and their two notations: GTP (`D4`) and SGF (`dp`).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::Vertex;

/// The largest board Shoutan supports: 25×25 (GTP letters run out at 25).
pub const MAX_SIZE: u8 = 25;
/// The smallest board: 2×2.
pub const MIN_SIZE: u8 = 2;

/// The side of a square board, between 2 and 25.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct BoardSize(u8);

/// A board size outside 2..=25.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("board size {0} is not supported (sizes run from 2 to 25)")]
pub struct BoardSizeError(pub u32);

impl BoardSize {
    /// 9×9, for teaching and fast games.
    pub const NINE: BoardSize = BoardSize(9);
    /// 13×13.
    pub const THIRTEEN: BoardSize = BoardSize(13);
    /// 19×19, the standard board (Art. 1).
    pub const NINETEEN: BoardSize = BoardSize(19);
    /// The largest board, 25×25 (GTP's letters stop at Z).
    pub const LARGEST: BoardSize = BoardSize(MAX_SIZE);

    /// A size between 2 and 25.
    ///
    /// ```
    /// use shoutan_rules::BoardSize;
    /// assert_eq!(BoardSize::new(19).unwrap(), BoardSize::NINETEEN);
    /// assert!(BoardSize::new(26).is_err());
    /// ```
    pub fn new(n: u32) -> Result<BoardSize, BoardSizeError> {
        if (u32::from(MIN_SIZE)..=u32::from(MAX_SIZE)).contains(&n) {
            Ok(BoardSize(n as u8))
        } else {
            Err(BoardSizeError(n))
        }
    }

    /// The number of lines.
    #[must_use]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The number of intersections (361 on 19×19).
    #[must_use]
    pub const fn area(self) -> usize {
        self.0 as usize * self.0 as usize
    }

    /// The point at column `col` (0 = left) and row `row` (0 = top), if on this board.
    #[must_use]
    pub fn point(self, col: u8, row: u8) -> Option<Point> {
        (col < self.0 && row < self.0).then(|| Point::new(col, row))
    }

    /// Whether `p` lies on this board.
    #[must_use]
    pub const fn contains(self, p: Point) -> bool {
        p.col < self.0 && p.row < self.0
    }

    /// Every point, row by row from the top left.
    pub fn points(self) -> impl Iterator<Item = Point> {
        let n = self.0;
        (0..n).flat_map(move |row| (0..n).map(move |col| Point::new(col, row)))
    }

    /// Index of `p` in a row-major array of `area()` entries.
    #[must_use]
    pub fn offset(self, p: Point) -> usize {
        p.row as usize * self.0 as usize + p.col as usize
    }
}

impl TryFrom<u8> for BoardSize {
    type Error = BoardSizeError;
    fn try_from(n: u8) -> Result<Self, Self::Error> {
        BoardSize::new(u32::from(n))
    }
}

impl From<BoardSize> for u8 {
    fn from(s: BoardSize) -> u8 {
        s.0
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}×{0}", self.0)
    }
}

/// An intersection: column from the left, row from the top, both from 0.
///
/// A `Point` is independent of the board size; whether it lies on a given
/// board is `BoardSize::contains`. Notation needs the size (GTP counts rows
/// from the bottom), so it lives on `BoardSize`-taking functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Point {
    col: u8,
    row: u8,
}

/// Text that is not a point on the board, naming the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PointError {
    /// Not of the form letter + number (GTP) or two letters (SGF).
    #[error("{text:?} is not {} {notation} point", if *notation == "SGF" { "an" } else { "a" })]
    Malformed {
        /// The offending text.
        text: String,
        /// `GTP` or `SGF`.
        notation: &'static str,
    },
    /// GTP skips the letter I.
    #[error("{0:?}: GTP coordinates skip the letter I (H is followed by J)")]
    LetterI(String),
    /// Well formed but outside the board.
    #[error("{text:?} is off the {size} board")]
    OffBoard {
        /// The offending text.
        text: String,
        /// The board it was read for.
        size: BoardSize,
    },
}

/// GTP's column letters: no I.
pub(crate) const GTP_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

impl Point {
    /// The point at `col`, `row` (0-based, row 0 at the top).
    ///
    /// # Panics
    /// If either coordinate is 25 or more: no board is that large. Input from
    /// outside goes through [`BoardSize::point`] or the parsers instead.
    #[must_use]
    pub const fn new(col: u8, row: u8) -> Point {
        assert!(
            col < MAX_SIZE && row < MAX_SIZE,
            "point beyond the largest board"
        );
        Point { col, row }
    }

    /// Column from the left, from 0.
    #[must_use]
    pub const fn col(self) -> u8 {
        self.col
    }

    /// Row from the top, from 0.
    #[must_use]
    pub const fn row(self) -> u8 {
        self.row
    }

    /// Parses GTP notation (`D4`, `q16`; no letter I) for a board of `size`.
    ///
    /// ```
    /// use shoutan_rules::{BoardSize, Point};
    /// let p = Point::from_gtp("q16", BoardSize::NINETEEN).unwrap();
    /// assert_eq!(p.to_gtp(BoardSize::NINETEEN), "Q16");
    /// assert_eq!(p.to_sgf(), "pd");
    /// ```
    pub fn from_gtp(text: &str, size: BoardSize) -> Result<Point, PointError> {
        text.parse::<Vertex>()?.on(size)
    }

    /// GTP notation for a board of `size`: `D4`.
    #[must_use]
    pub fn to_gtp(self, size: BoardSize) -> String {
        Vertex::of(self, size).to_string()
    }

    /// Parses SGF notation (`dp`: column then row, `a` = first, lowercase up to 26).
    ///
    /// The empty string and `tt` are passes in SGF, not points; the SGF crate
    /// handles them before asking for a point.
    pub fn from_sgf(text: &str, size: BoardSize) -> Result<Point, PointError> {
        let malformed = || PointError::Malformed {
            text: text.to_owned(),
            notation: "SGF",
        };
        let bytes = text.as_bytes();
        if bytes.len() != 2 || !bytes.iter().all(u8::is_ascii_lowercase) {
            return Err(malformed());
        }
        let (col, row) = (bytes[0] - b'a', bytes[1] - b'a');
        size.point(col, row).ok_or_else(|| PointError::OffBoard {
            text: text.to_owned(),
            size,
        })
    }

    /// SGF notation: `dp`.
    #[must_use]
    pub fn to_sgf(self) -> String {
        let mut s = String::with_capacity(2);
        s.push(char::from(b'a' + self.col));
        s.push(char::from(b'a' + self.row));
        s
    }

    /// The orthogonal neighbours on a board of `size`.
    pub fn neighbors(self, size: BoardSize) -> impl Iterator<Item = Point> {
        let (c, r, n) = (
            i16::from(self.col),
            i16::from(self.row),
            i16::from(size.get()),
        );
        [(c, r - 1), (c - 1, r), (c + 1, r), (c, r + 1)]
            .into_iter()
            .filter(move |&(x, y)| x >= 0 && y >= 0 && x < n && y < n)
            .map(|(x, y)| Point::new(x as u8, y as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_round_trips_every_point_of_every_size() {
        for n in 2..=25 {
            let size = BoardSize::new(n).unwrap();
            for p in size.points() {
                assert_eq!(Point::from_gtp(&p.to_gtp(size), size), Ok(p));
                assert_eq!(Point::from_sgf(&p.to_sgf(), size), Ok(p));
            }
        }
    }

    #[test]
    fn gtp_corners_on_19() {
        let s = BoardSize::NINETEEN;
        assert_eq!(Point::from_gtp("A1", s), Ok(Point::new(0, 18)));
        assert_eq!(Point::from_gtp("T19", s), Ok(Point::new(18, 0)));
        assert_eq!(Point::from_gtp("j10", s), Ok(Point::new(8, 9)));
    }

    #[test]
    fn gtp_errors_name_the_text() {
        let s = BoardSize::NINE;
        assert_eq!(
            Point::from_gtp("I5", s),
            Err(PointError::LetterI("I5".into()))
        );
        assert_eq!(
            Point::from_gtp("K5", s),
            Err(PointError::OffBoard {
                text: "K5".into(),
                size: s
            })
        );
        assert_eq!(
            Point::from_gtp("A10", s),
            Err(PointError::OffBoard {
                text: "A10".into(),
                size: s
            })
        );
        assert_eq!(
            Point::from_gtp("A0", s),
            Err(PointError::OffBoard {
                text: "A0".into(),
                size: s
            })
        );
        for bad in ["", "5", "AA", "A-1", "A1x", "ä1", "A123"] {
            let err = Point::from_gtp(bad, s).unwrap_err();
            assert!(err.to_string().contains(&format!("{bad:?}")), "{err}");
        }
    }

    #[test]
    fn sgf_errors_name_the_text() {
        let s = BoardSize::NINE;
        assert!(matches!(
            Point::from_sgf("jj", s),
            Err(PointError::OffBoard { .. })
        ));
        assert!(matches!(
            Point::from_sgf("A", s),
            Err(PointError::Malformed { .. })
        ));
        assert!(matches!(
            Point::from_sgf("aB", s),
            Err(PointError::Malformed { .. })
        ));
    }

    #[test]
    fn sizes_outside_2_to_25_are_refused() {
        assert!(BoardSize::new(1).is_err());
        assert!(BoardSize::new(26).is_err());
        assert_eq!(BoardSize::new(25).unwrap().area(), 625);
        assert!(serde_json::from_str::<BoardSize>("30").is_err());
    }

    #[test]
    fn neighbors_stay_on_the_board() {
        let s = BoardSize::NINE;
        assert_eq!(Point::new(0, 0).neighbors(s).count(), 2);
        assert_eq!(Point::new(4, 0).neighbors(s).count(), 3);
        assert_eq!(Point::new(4, 4).neighbors(s).count(), 4);
    }
}
