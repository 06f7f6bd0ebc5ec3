//! A point as GTP names it (`D4`), before the board is known.
//!
//! GTP counts rows from the bottom, so the same name is a different
//! [`Point`] on each board size. Messages and logs that name points without
//! their board (a client's move, a game's log) hold a [`Vertex`]: read and
//! checked once, where the text arrives, and placed on the board with
//! [`Vertex::on`] where the size is known.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::point::{BoardSize, GTP_LETTERS, Point, PointError};

/// A column letter (A–Z without I) and a row number counted from the
/// bottom (up to two digits), as GTP writes them; whether the point is on a
/// given board is for [`Vertex::on`].
///
/// ```
/// use shoutan_rules::{BoardSize, Point, Vertex};
/// let v: Vertex = "q16".parse().unwrap();
/// assert_eq!(v.to_string(), "Q16");
/// assert_eq!(v.on(BoardSize::NINETEEN), Ok(Point::new(15, 3)));
/// assert!(v.on(BoardSize::NINE).is_err());
/// assert!("I5".parse::<Vertex>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vertex {
    /// Index into [`GTP_LETTERS`].
    col: u8,
    /// GTP's row number, from the bottom.
    number: u8,
}

impl Vertex {
    /// The name of `point` on a board of `size`.
    #[must_use]
    pub fn of(point: Point, size: BoardSize) -> Vertex {
        Vertex {
            col: point.col(),
            number: size.get() - point.row(),
        }
    }

    /// The point this names on a board of `size`.
    pub fn on(self, size: BoardSize) -> Result<Point, PointError> {
        let n = size.get();
        if self.number == 0 || self.number > n || self.col >= n {
            return Err(PointError::OffBoard {
                text: self.to_string(),
                size,
            });
        }
        Ok(Point::new(self.col, n - self.number))
    }
}

impl FromStr for Vertex {
    type Err = PointError;

    /// Reads GTP notation, in either case, around spaces.
    fn from_str(text: &str) -> Result<Vertex, PointError> {
        let malformed = || PointError::Malformed {
            text: text.to_owned(),
            notation: "GTP",
        };
        let mut chars = text.trim().chars();
        let letter = chars.next().ok_or_else(malformed)?.to_ascii_uppercase();
        if letter == 'I' {
            return Err(PointError::LetterI(text.to_owned()));
        }
        let col = GTP_LETTERS
            .iter()
            .position(|&l| char::from(l) == letter)
            .ok_or_else(malformed)?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(malformed());
        }
        let number = digits.parse().map_err(|_| malformed())?;
        Ok(Vertex {
            col: col as u8,
            number,
        })
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(GTP_LETTERS[usize::from(self.col)]),
            self.number
        )
    }
}

impl Serialize for Vertex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Vertex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Vertex, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_of_every_size_is_named_and_found_again() {
        for n in 2..=25 {
            let size = BoardSize::new(n).unwrap();
            for p in size.points() {
                let v = Vertex::of(p, size);
                assert_eq!(v.to_string(), p.to_gtp(size));
                assert_eq!(v.to_string().parse(), Ok(v));
                assert_eq!(v.on(size), Ok(p));
            }
        }
    }

    #[test]
    fn the_board_decides_what_a_name_means() {
        let d4: Vertex = "d4".parse().unwrap();
        // Row 4 from the bottom is row 5 from the top on 9×9, 15 on 19×19.
        assert_eq!(d4.on(BoardSize::NINE), Ok(Point::new(3, 5)));
        assert_eq!(d4.on(BoardSize::NINETEEN), Ok(Point::new(3, 15)));
        for off in ["K5", "A10", "A0"] {
            let v: Vertex = off.parse().unwrap();
            assert_eq!(
                v.on(BoardSize::NINE),
                Err(PointError::OffBoard {
                    text: off.into(),
                    size: BoardSize::NINE
                })
            );
        }
    }

    #[test]
    fn a_name_that_is_not_gtp_is_refused_where_it_is_read() {
        assert_eq!(
            "I5".parse::<Vertex>(),
            Err(PointError::LetterI("I5".into()))
        );
        for bad in ["", "5", "AA", "A-1", "A1x", "ä1", "A123"] {
            let err = bad.parse::<Vertex>().unwrap_err();
            assert!(err.to_string().contains(&format!("{bad:?}")), "{err}");
        }
        assert!(serde_json::from_str::<Vertex>(r#""Z99""#).is_ok());
        assert!(serde_json::from_str::<Vertex>(r#""I9""#).is_err());
        assert!(serde_json::from_str::<Vertex>("4").is_err());
        assert_eq!(
            serde_json::to_string(&"t19".parse::<Vertex>().unwrap()).unwrap(),
            r#""T19""#
        );
    }
}
