//! Amounts of score: komi, margins, compensations.
//!
//! One unit serves both counting traditions: the half point, which is also
//! the quarter 子. Under area counting one intersection is one point and one
//! 子, and a margin of 1 子 between the players is 2 points (spec §5), so
//! komi 7.5 = 3¾ 子 and a margin of ¼ 子 = ½ point are whole numbers here.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A score amount in half points (= quarter 子).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(i32);

/// Text or a number that is not a multiple of half a point.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a score in points (a multiple of 0.5, such as 7.5 or -3)")]
pub struct ScoreError(pub String);

impl Score {
    /// Nothing.
    pub const ZERO: Score = Score(0);

    /// `n` half points.
    #[must_use]
    pub const fn from_half_points(n: i32) -> Score {
        Score(n)
    }

    /// `n` whole points (目 or, under area counting, intersections).
    #[must_use]
    pub const fn from_points(n: i32) -> Score {
        Score(2 * n)
    }

    /// `n` whole 子 (one 子 is two points of margin).
    #[must_use]
    pub const fn from_zi(n: i32) -> Score {
        Score(4 * n)
    }

    /// The amount in half points.
    #[must_use]
    pub const fn half_points(self) -> i32 {
        self.0
    }

    /// The amount in points, as a float for display and JSON.
    #[must_use]
    pub fn points(self) -> f64 {
        f64::from(self.0) / 2.0
    }

    /// Reads a float that must be a multiple of 0.5.
    pub fn try_from_points(points: f64) -> Result<Score, ScoreError> {
        let halves = points * 2.0;
        if halves.is_finite() && halves.fract() == 0.0 && halves.abs() < 1e6 {
            Ok(Score(halves as i32))
        } else {
            Err(ScoreError(points.to_string()))
        }
    }

    /// The absolute amount.
    #[must_use]
    pub const fn abs(self) -> Score {
        Score(self.0.abs())
    }

    /// The amount in 子 as Chinese writes it: `3/4`, `1又1/4`, `2`, `1又1/2`.
    #[must_use]
    pub fn zi_text(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let quarters = self.0.unsigned_abs();
        let (whole, frac) = (quarters / 4, quarters % 4);
        let frac = ["", "1/4", "1/2", "3/4"][frac as usize];
        match (whole, frac) {
            (w, "") => format!("{sign}{w}"),
            (0, f) => format!("{sign}{f}"),
            (w, f) => format!("{sign}{w}又{f}"),
        }
    }

    /// The amount in 目 as Chinese writes it: `6目半`, `半目`, `3目`.
    #[must_use]
    pub fn mu_text(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let halves = self.0.unsigned_abs();
        match (halves / 2, halves % 2) {
            (0, 1) => format!("{sign}半目"),
            (w, 1) => format!("{sign}{w}目半"),
            (w, _) => format!("{sign}{w}目"),
        }
    }
}

impl std::ops::Add for Score {
    type Output = Score;
    fn add(self, rhs: Score) -> Score {
        Score(self.0 + rhs.0)
    }
}

impl std::ops::Sub for Score {
    type Output = Score;
    fn sub(self, rhs: Score) -> Score {
        Score(self.0 - rhs.0)
    }
}

impl std::ops::Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl std::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, rhs: i32) -> Score {
        Score(self.0 * rhs)
    }
}

impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, rhs: Score) {
        self.0 += rhs.0;
    }
}

impl fmt::Display for Score {
    /// Points, with `.5` where needed: `7.5`, `-3`, `0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 % 2 == 0 {
            write!(f, "{}", self.0 / 2)
        } else {
            let sign = if self.0 < 0 { "-" } else { "" };
            write!(f, "{sign}{}.5", self.0.unsigned_abs() / 2)
        }
    }
}

impl FromStr for Score {
    type Err = ScoreError;

    /// Points: `7.5`, `6.5`, `0`, `-3`, `0.5`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let valid = !t.is_empty()
            && t.bytes()
                .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'+');
        let value: f64 = if valid {
            t.parse().map_err(|_| ScoreError(s.to_owned()))?
        } else {
            return Err(ScoreError(s.to_owned()));
        };
        Score::try_from_points(value).map_err(|_| ScoreError(s.to_owned()))
    }
}

impl Serialize for Score {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 % 2 == 0 {
            s.serialize_i32(self.0 / 2)
        } else {
            s.serialize_f64(self.points())
        }
    }
}

impl<'de> Deserialize<'de> for Score {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let points = f64::deserialize(d)?;
        Score::try_from_points(points).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_texts() {
        assert_eq!(Score::from_half_points(3).zi_text(), "3/4");
        assert_eq!(Score::from_half_points(5).zi_text(), "1又1/4");
        assert_eq!(Score::from_half_points(8).zi_text(), "2");
        assert_eq!(Score::from_half_points(6).zi_text(), "1又1/2");
        assert_eq!(Score::from_half_points(13).mu_text(), "6目半");
        assert_eq!(Score::from_half_points(1).mu_text(), "半目");
        assert_eq!(Score::from_points(3).mu_text(), "3目");
    }

    #[test]
    fn komi_parses_and_prints() {
        assert_eq!("7.5".parse::<Score>(), Ok(Score::from_half_points(15)));
        assert_eq!("-3".parse::<Score>(), Ok(Score::from_points(-3)));
        assert_eq!(Score::from_half_points(-1).to_string(), "-0.5");
        assert_eq!(Score::from_half_points(15).to_string(), "7.5");
        for bad in ["7.25", "abc", "", "nan", "inf", "1e9"] {
            assert!(bad.parse::<Score>().is_err(), "{bad}");
        }
    }

    #[test]
    fn json_is_a_number_of_points() {
        let k: Score = serde_json::from_str("7.5").unwrap();
        assert_eq!(k, Score::from_half_points(15));
        assert_eq!(serde_json::to_string(&k).unwrap(), "7.5");
        assert_eq!(serde_json::to_string(&Score::from_points(6)).unwrap(), "6");
        assert!(serde_json::from_str::<Score>("0.3").is_err());
    }
}
