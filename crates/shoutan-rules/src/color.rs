//! The two colours of stones.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A player's colour. Black moves first in an even game (Art. 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// 黑
    Black,
    /// 白
    White,
}

impl Color {
    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: for arrays indexed by colour.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `B` or `W`, as SGF and the international result notation write it.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// 黑 or 白.
    #[must_use]
    pub const fn chinese(self) -> &'static str {
        match self {
            Color::Black => "黑",
            Color::White => "白",
        }
    }

    /// `black` or `white`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text was not a colour.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a colour (expected b, w, black or white)")]
pub struct ColorError(pub String);

impl FromStr for Color {
    type Err = ColorError;

    /// Accepts `b`, `w`, `black`, `white` in any case, as GTP does.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Color::Black),
            "w" | "white" => Ok(Color::White),
            _ => Err(ColorError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_gtp_colors_in_any_case() {
        assert_eq!("B".parse::<Color>(), Ok(Color::Black));
        assert_eq!("white".parse::<Color>(), Ok(Color::White));
        assert_eq!("WHITE".parse::<Color>(), Ok(Color::White));
        let err = "red".parse::<Color>().unwrap_err();
        assert!(err.to_string().contains("\"red\""));
    }

    #[test]
    fn opponent_is_an_involution() {
        for c in Color::ALL {
            assert_ne!(c, c.opponent());
            assert_eq!(c, c.opponent().opponent());
        }
    }
}
