//! A value for each colour: black's and white's, indexed by [`Color`].

use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

use crate::Color;

/// A pair of values, black's and white's, read and written by colour
/// (`scores[Color::White]`) instead of by a position in an array.
///
/// ```
/// use shoutan_rules::{ByColor, Color};
/// let mut captures = ByColor::new(0u32, 0);
/// captures[Color::White] += 3;
/// assert_eq!(captures.map(|n| n * 2), ByColor::new(0, 6));
/// assert_eq!(serde_json::to_string(&captures).unwrap(), r#"{"black":0,"white":3}"#);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ByColor<T> {
    /// Black's.
    pub black: T,
    /// White's.
    pub white: T,
}

impl<T> ByColor<T> {
    /// Black's value and white's.
    pub const fn new(black: T, white: T) -> ByColor<T> {
        ByColor { black, white }
    }

    /// Each colour's value, computed from the colour.
    pub fn of(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        ByColor {
            black: f(Color::Black),
            white: f(Color::White),
        }
    }

    /// Each value transformed.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor {
            black: f(self.black),
            white: f(self.white),
        }
    }

    /// Whether `f` holds for both values.
    pub fn all(&self, mut f: impl FnMut(&T) -> bool) -> bool {
        f(&self.black) && f(&self.white)
    }

    /// Whether `f` holds for either value.
    pub fn any(&self, mut f: impl FnMut(&T) -> bool) -> bool {
        f(&self.black) || f(&self.white)
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    fn index(&self, color: Color) -> &T {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    fn index_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}
