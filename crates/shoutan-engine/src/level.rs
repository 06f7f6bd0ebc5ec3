//! Playing levels for human opponents, from beginner (1) to full strength
//! (10). A level is a number of visits per move and a temperature: above
//! zero the move is drawn among the legal moves in proportion to
//! `(visits + prior)^(1/temperature)` instead of always taking the best,
//! so the weakest levels play the network's policy flattened — natural
//! shapes with the mistakes of weaker players rather than random blunders
//! — and stronger ones search more and choose more sharply.
//!
//! | level | visits per move | temperature |
//! |------:|----------------:|------------:|
//! | 1     | 1               | 3.0         |
//! | 2     | 1               | 2.0         |
//! | 3     | 1               | 1.5         |
//! | 4     | 1               | 1.0         |
//! | 5     | 1               | 0.7         |
//! | 6     | 4               | 0.5         |
//! | 7     | 16              | 0.3         |
//! | 8     | 64              | 0.15        |
//! | 9     | 256             | 0           |
//! | 10    | the clock, at most 3 s a move on 9×9 and 6 s on 19×19 | 0 |
//!
//! Each level's rank on each board is measured ([`Level::measured_ranks`]):
//! fitted by `shoutan bench levels` to the games in `data/levels.tsv`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::Serialize;
use shoutan_rules::Rank;

use crate::Budget;

/// A playing level between 1 and 10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// A number that is no level.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("level {0:?} is not between 1 (beginner) and 10 (full strength)")]
pub struct LevelError(pub String);

/// The strength of a level on one board size, as measured: the KGS rank of
/// the player it plays like (the README's "Levels" says how it was found).
/// Serialised as `{"size": 19, "rank": "6k"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MeasuredRank {
    /// The side of the board it was measured on.
    pub size: u8,
    /// The rank: `12k`, `1d`.
    pub rank: Rank,
}

const fn on(size: u8, rank: Rank) -> MeasuredRank {
    MeasuredRank { size, rank }
}

/// What each level measured, level 1 first, smallest board first.
const MEASURED: [&[MeasuredRank]; 10] = [
    &[on(9, Rank::Kyu(9)), on(19, Rank::Kyu(9))],
    &[on(9, Rank::Kyu(8)), on(19, Rank::Kyu(8))],
    &[on(9, Rank::Kyu(7)), on(19, Rank::Kyu(6))],
    &[on(9, Rank::Kyu(6)), on(19, Rank::Kyu(4))],
    &[on(9, Rank::Kyu(5)), on(19, Rank::Kyu(2))],
    &[on(9, Rank::Kyu(3)), on(19, Rank::Dan(1))],
    &[on(9, Rank::Kyu(1)), on(19, Rank::Dan(2))],
    &[on(9, Rank::Dan(1)), on(19, Rank::Dan(2))],
    &[on(9, Rank::Dan(1)), on(19, Rank::Dan(2))],
    &[on(9, Rank::Dan(1)), on(19, Rank::Dan(2))],
];

const TABLE: [(u64, f32); 9] = [
    (1, 3.0),
    (1, 2.0),
    (1, 1.5),
    (1, 1.0),
    (1, 0.7),
    (4, 0.5),
    (16, 0.3),
    (64, 0.15),
    (256, 0.0),
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

    /// Visits per move; `None` at full strength, which follows the clock.
    #[must_use]
    pub fn visits(self) -> Option<u64> {
        TABLE.get(usize::from(self.0) - 1).map(|&(p, _)| p)
    }

    /// Randomness of the move choice (0: always the most searched move).
    #[must_use]
    pub fn temperature(self) -> f32 {
        TABLE.get(usize::from(self.0) - 1).map_or(0.0, |&(_, t)| t)
    }

    /// Its rank on each board size it was measured on, smallest first.
    #[must_use]
    pub fn measured_ranks(self) -> &'static [MeasuredRank] {
        MEASURED[usize::from(self.0 - 1)]
    }

    /// The rank its account declares: the one measured on 9×9, the board
    /// every level was measured on (so the levels declare in their order).
    #[must_use]
    pub fn declared_rank(self) -> Rank {
        self.measured_ranks()[0].rank
    }

    /// What a move may take at this level on a board of `area` points:
    /// its visits, within [`max_time`](Self::max_time) (the caller
    /// shortens it further to what the clock allows).
    #[must_use]
    pub fn budget(self, area: usize) -> Budget {
        Budget {
            visits: self.visits(),
            time: Some(Level::max_time(area)),
        }
    }

    /// The most a move may take on a board of `area` points, however much
    /// the clock allows: 3 s on 9×9 rising with the area to 6 s on 19×19
    /// (a playing partner answers promptly). The same at every level: below
    /// full strength the visits decide, and this limit only keeps a slow
    /// machine from stretching a move.
    #[must_use]
    pub fn max_time(area: usize) -> Duration {
        Duration::from_secs_f64(3.0 + 3.0 * (area.saturating_sub(81) as f64 / 280.0).min(1.0))
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
        let mut previous = (0, f32::INFINITY);
        for n in 1..=9 {
            let level = Level::new(n).unwrap();
            let now = (level.visits().unwrap(), level.temperature());
            assert!(
                now.0 >= previous.0 && now.1 < previous.1,
                "level {n}: more visits or a sharper choice than the one below"
            );
            previous = now;
        }
        assert_eq!(Level::FULL.visits(), None);
        assert_eq!(Level::FULL.temperature(), 0.0);
        assert!(Level::BEGINNER.temperature() > Level::new(5).unwrap().temperature());
    }

    #[test]
    fn full_strength_answers_within_three_seconds_on_9x9_and_six_on_19x19() {
        assert_eq!(Level::max_time(81), Duration::from_secs(3));
        assert_eq!(
            Level::max_time(169),
            Duration::from_secs_f64(3.0 + 3.0 * 88.0 / 280.0)
        );
        assert_eq!(Level::max_time(361), Duration::from_secs(6));
    }

    #[test]
    fn every_level_was_measured_on_9x9_and_grows_stronger_on_each_board() {
        let levels: Vec<Level> = (1..=10).map(|n| Level::new(n).unwrap()).collect();
        for level in &levels {
            let measured = level.measured_ranks();
            assert_eq!(measured[0].size, 9, "level {level}");
            assert!(
                measured.windows(2).all(|w| w[0].size < w[1].size),
                "level {level}: smallest board first"
            );
            assert_eq!(level.declared_rank(), measured[0].rank);
        }
        for size in [9, 19] {
            let ranks: Vec<Rank> = levels
                .iter()
                .filter_map(|l| l.measured_ranks().iter().find(|m| m.size == size))
                .map(|m| m.rank)
                .collect();
            assert!(
                ranks.windows(2).all(|w| w[0] <= w[1]),
                "{size}×{size}: {ranks:?}"
            );
        }
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
