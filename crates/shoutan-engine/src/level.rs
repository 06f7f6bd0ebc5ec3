//! Playing levels for human opponents, from beginner (1) to full strength
//! (10). A level is a number of playouts per move and a temperature: above
//! zero the move is drawn among the searched moves in proportion to
//! `visits^(1/temperature)` instead of always taking the most searched one,
//! so weaker levels make the natural-looking mistakes of weaker players
//! rather than random blunders.
//!
//! | level | playouts per move | temperature |
//! |------:|------------------:|------------:|
//! | 1     | 30                | 1.5         |
//! | 2     | 60                | 1.2         |
//! | 3     | 120               | 1.0         |
//! | 4     | 250               | 0.8         |
//! | 5     | 500               | 0.6         |
//! | 6     | 1 000             | 0.45        |
//! | 7     | 2 500             | 0.3         |
//! | 8     | 6 000             | 0.15        |
//! | 9     | 15 000            | 0           |
//! | 10    | the clock (or 2 s a move without one) | 0 |

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A playing level between 1 and 10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// A number that is no level.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("level {0:?} is not between 1 (beginner) and 10 (full strength)")]
pub struct LevelError(pub String);

const TABLE: [(u64, f32); 9] = [
    (30, 1.5),
    (60, 1.2),
    (120, 1.0),
    (250, 0.8),
    (500, 0.6),
    (1_000, 0.45),
    (2_500, 0.3),
    (6_000, 0.15),
    (15_000, 0.0),
];

impl Level {
    /// The weakest level.
    pub const BEGINNER: Level = Level(1);
    /// Full strength: thinks as long as the clock allows.
    pub const FULL: Level = Level(10);

    /// The level `n`, between 1 and 10.
    pub fn new(n: u8) -> Result<Level, LevelError> {
        if (1..=10).contains(&n) {
            Ok(Level(n))
        } else {
            Err(LevelError(n.to_string()))
        }
    }

    /// The number.
    #[must_use]
    pub fn get(self) -> u8 {
        self.0
    }

    /// Playouts per move; `None` at full strength, which follows the clock.
    #[must_use]
    pub fn playouts(self) -> Option<u64> {
        TABLE.get(usize::from(self.0) - 1).map(|&(p, _)| p)
    }

    /// Randomness of the move choice (0: always the most searched move).
    #[must_use]
    pub fn temperature(self) -> f32 {
        TABLE.get(usize::from(self.0) - 1).map_or(0.0, |&(_, t)| t)
    }

    /// Thinking time per move at full strength when the game has no clock.
    #[must_use]
    pub fn default_time(self) -> Duration {
        Duration::from_secs(2)
    }
}

impl FromStr for Level {
    type Err = LevelError;
    fn from_str(s: &str) -> Result<Level, LevelError> {
        s.trim()
            .parse::<u8>()
            .ok()
            .and_then(|n| Level::new(n).ok())
            .ok_or_else(|| LevelError(s.to_owned()))
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_stronger() {
        let mut previous = 0;
        for n in 1..=9 {
            let level = Level::new(n).unwrap();
            let playouts = level.playouts().unwrap();
            assert!(playouts > previous, "level {n}");
            previous = playouts;
        }
        assert_eq!(Level::FULL.playouts(), None);
        assert_eq!(Level::FULL.temperature(), 0.0);
        assert!(Level::BEGINNER.temperature() > Level::new(5).unwrap().temperature());
    }

    #[test]
    fn only_one_to_ten_are_levels() {
        assert!(Level::new(0).is_err());
        assert!(Level::new(11).is_err());
        assert_eq!("7".parse::<Level>(), Ok(Level(7)));
        assert!(
            "seven"
                .parse::<Level>()
                .unwrap_err()
                .to_string()
                .contains("seven")
        );
    }
}
