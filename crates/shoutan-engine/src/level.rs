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
//! | 10    | the clock, at most 3 s a move on 9×9 and 6 s on 19×19 | 0 |

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::Budget;

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

    /// What a move may take at this level on a board of `area` points:
    /// its playouts, within [`max_time`](Self::max_time) (the caller
    /// shortens it further to what the clock allows).
    #[must_use]
    pub fn budget(self, area: usize) -> Budget {
        Budget {
            playouts: self.playouts(),
            time: Some(self.max_time(area)),
        }
    }

    /// The most a move may take at this level on a board of `area` points,
    /// however much the clock allows: 3 s on 9×9 rising with the area to
    /// 6 s on 19×19 at full strength (a playing partner answers promptly),
    /// a tenth of that below full strength, where the playouts decide and
    /// this is only a safety limit.
    #[must_use]
    pub fn max_time(self, area: usize) -> Duration {
        let full = 3.0 + 3.0 * (area.saturating_sub(81) as f64 / 280.0).min(1.0);
        let secs = if self.playouts().is_some() {
            full / 10.0
        } else {
            full
        };
        Duration::from_secs_f64(secs)
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
    fn full_strength_answers_within_three_seconds_on_9x9_and_six_on_19x19() {
        assert_eq!(Level::FULL.max_time(81), Duration::from_secs(3));
        assert_eq!(
            Level::FULL.max_time(169),
            Duration::from_secs_f64(3.0 + 3.0 * 88.0 / 280.0)
        );
        assert_eq!(Level::FULL.max_time(361), Duration::from_secs(6));
        assert!(Level::new(9).unwrap().max_time(361) < Duration::from_secs(1));
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
