//! Ranks (spec §6): kyu 30 to 1, amateur dan 1 to 9 (the 2002 rules give 1
//! to 7; servers and the EGF go to 9), professional dan 1 to 9.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A player's rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rank {
    /// 级: 30 (beginner) to 1 (strongest kyu).
    Kyu(u8),
    /// 业余段: amateur dan 1 to 9.
    Dan(u8),
    /// 职业段: professional dan 1 to 9.
    Pro(u8),
}

/// Text that is not a rank.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a rank (expected 30k…1k, 1d…9d or 1p…9p; 5级, 3段, 职业9段)")]
pub struct RankError(pub String);

impl Rank {
    /// The rank on one scale in handicap stones: 30k = −30 … 1k = −1,
    /// 1d = 0 … 9d = 8. Professional ranks are closer together than amateur
    /// ones: 1p–3p count as 7d, 4p–6p as 8d, 7p–9p as 9d.
    #[must_use]
    pub fn level(self) -> i32 {
        match self {
            Rank::Kyu(k) => -i32::from(k),
            Rank::Dan(d) => i32::from(d) - 1,
            Rank::Pro(p) => 6 + (i32::from(p) - 1) / 3,
        }
    }

    /// The rank whose level is `level`, clamped to 30k…9d.
    #[must_use]
    pub fn from_level(level: i32) -> Rank {
        match level {
            l if l < 0 => Rank::Kyu(l.unsigned_abs().min(30) as u8),
            l => Rank::Dan((l + 1).min(9) as u8),
        }
    }

    /// Chinese: 5级, 3段, 职业9段.
    #[must_use]
    pub fn chinese(self) -> String {
        match self {
            Rank::Kyu(k) => format!("{k}级"),
            Rank::Dan(d) => format!("{d}段"),
            Rank::Pro(p) => format!("职业{p}段"),
        }
    }

    fn kind(self) -> u8 {
        match self {
            Rank::Kyu(_) => 0,
            Rank::Dan(_) => 1,
            Rank::Pro(_) => 2,
        }
    }

    fn number(self) -> i32 {
        match self {
            Rank::Kyu(k) => -i32::from(k),
            Rank::Dan(n) | Rank::Pro(n) => i32::from(n),
        }
    }
}

impl Ord for Rank {
    /// Stronger is greater; at one level a professional ranks above an amateur.
    fn cmp(&self, other: &Self) -> Ordering {
        (self.level(), self.kind(), self.number()).cmp(&(
            other.level(),
            other.kind(),
            other.number(),
        ))
    }
}

impl PartialOrd for Rank {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Rank {
    /// `5k`, `3d`, `9p`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rank::Kyu(k) => write!(f, "{k}k"),
            Rank::Dan(d) => write!(f, "{d}d"),
            Rank::Pro(p) => write!(f, "{p}p"),
        }
    }
}

impl FromStr for Rank {
    type Err = RankError;

    /// `5k`, `5 kyu`, `3d`, `3 dan`, `9p`, `5级`, `3段`, `业余3段`, `职业9段`,
    /// `初段` (1 dan), in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || RankError(s.to_owned());
        let t = s.trim().to_lowercase();
        let t = t.replace("初段", "1段");
        let (pro, t) = match t.strip_prefix("职业") {
            Some(rest) => (true, rest.to_owned()),
            None => (false, t.strip_prefix("业余").unwrap_or(&t).to_owned()),
        };
        let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
        let unit = t[digits.len()..].trim();
        let n: u8 = digits.parse().map_err(|_| err())?;
        let rank = match unit {
            "k" | "kyu" | "级" if !pro => Rank::Kyu(n),
            "d" | "dan" | "段" if !pro => Rank::Dan(n),
            "p" | "pro" | "段" => Rank::Pro(n),
            _ => return Err(err()),
        };
        let valid = match rank {
            Rank::Kyu(k) => (1..=30).contains(&k),
            Rank::Dan(d) | Rank::Pro(d) => (1..=9).contains(&d),
        };
        if valid { Ok(rank) } else { Err(err()) }
    }
}

impl Serialize for Rank {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Rank {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_notation() {
        assert_eq!("5k".parse(), Ok(Rank::Kyu(5)));
        assert_eq!("30 Kyu".parse(), Ok(Rank::Kyu(30)));
        assert_eq!("3D".parse(), Ok(Rank::Dan(3)));
        assert_eq!("9p".parse(), Ok(Rank::Pro(9)));
        assert_eq!("5级".parse(), Ok(Rank::Kyu(5)));
        assert_eq!("9段".parse(), Ok(Rank::Dan(9)));
        assert_eq!("业余5段".parse(), Ok(Rank::Dan(5)));
        assert!("职业九段".parse::<Rank>().is_err());
        assert_eq!("职业9段".parse(), Ok(Rank::Pro(9)));
        assert_eq!("初段".parse(), Ok(Rank::Dan(1)));
        for bad in ["", "0k", "31k", "10d", "5x", "k5", "-1d"] {
            assert!(bad.parse::<Rank>().is_err(), "{bad}");
        }
    }

    #[test]
    fn order_and_levels() {
        let r = |s: &str| s.parse::<Rank>().unwrap();
        assert!(r("1k") < r("1d"));
        assert!(r("10k") < r("9k"));
        assert!(r("7d") < r("1p"));
        assert!(r("1p") < r("2p"));
        assert_eq!(r("1d").level() - r("5k").level(), 5);
        for level in -30..=8 {
            assert_eq!(Rank::from_level(level).level(), level);
        }
        assert_eq!(r("3d").to_string(), "3d");
        assert_eq!(r("3d").chinese(), "3段");
        assert_eq!(serde_json::to_string(&r("2k")).unwrap(), "\"2k\"");
    }

    /// Every rank, both ways, as the table the browser's `rankText` is
    /// tested against too: one naming of ranks on both sides of the wire.
    #[test]
    fn every_rank_reads_as_the_shared_table_says() {
        let table = include_str!("../../../docs/api/ranks.tsv");
        let rows: Vec<(&str, &str)> = table
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split_once('\t').unwrap())
            .collect();
        let every: Vec<Rank> = (1..=30)
            .rev()
            .map(Rank::Kyu)
            .chain((1..=9).map(Rank::Dan))
            .chain((1..=9).map(Rank::Pro))
            .collect();
        assert_eq!(rows.len(), every.len());
        for (rank, (text, chinese)) in every.into_iter().zip(rows) {
            assert_eq!(rank.to_string(), text);
            assert_eq!(rank.chinese(), chinese, "{text}");
            assert_eq!(text.parse(), Ok(rank));
            assert_eq!(chinese.parse(), Ok(rank));
        }
    }
}
