//! The rating scales a rank is read on, each written once: every rating,
//! engine level and tournament conversion goes through these.
//!
//! Both start from [`Rank::level`](crate::Rank::level), the rank in handicap stones (30k = −30,
//! 1k = −1, 1d = 0, 9d = 8; 1p–3p as 7d, 4p–6p as 8d, 7p–9p as 9d).
//!
//! - [`egf`]: the European Go Federation's scale, which OpenGotha files
//!   carry: 100 points a grade, **1 dan = 2100** (1 kyu = 2000, 30 kyu =
//!   −900, 9 dan = 2900, 1p = 2700).
//! - [`ogs`]: OGS's published curve, on which the server's Glicko-2
//!   ratings live: `rating = 525 · e^(k / 23.15)` with `k` the ranks above
//!   30 kyu at the rank's lower edge: **1 dan ≈ 1918**, 5 kyu ≈ 1546,
//!   30 kyu = 525, 9 dan ≈ 2710.
//!
//! ```
//! use shoutan_rules::Rank;
//! use shoutan_rules::rank_scale::{egf, ogs};
//!
//! assert_eq!(egf::rating(Rank::Dan(1)), 2100.0);
//! assert_eq!(egf::rank(2049.0), Rank::Kyu(1));
//! assert_eq!(ogs::rank(ogs::rating(Rank::Kyu(5).level())), Rank::Kyu(5));
//! ```

/// The EGF scale: 100 points a grade, 1 dan at 2100.
pub mod egf {
    use crate::Rank;

    /// The rating of 1 dan.
    pub const ONE_DAN: f64 = 2100.0;
    /// The points between two grades.
    pub const GRADE: f64 = 100.0;

    /// The middle of the band of rank level `level` ([`Rank::level`]).
    #[must_use]
    pub fn rating_of_level(level: i32) -> f64 {
        ONE_DAN + GRADE * f64::from(level)
    }

    /// The middle of `rank`'s band.
    #[must_use]
    pub fn rating(rank: Rank) -> f64 {
        rating_of_level(rank.level())
    }

    /// The amateur rank whose band (half a grade either side of its
    /// middle) holds `rating`, clamped to 30k…9d.
    #[must_use]
    pub fn rank(rating: f64) -> Rank {
        let level = ((rating - ONE_DAN) / GRADE + 0.5).floor();
        Rank::from_level(level.clamp(-30.0, 8.0) as i32)
    }
}

/// OGS's rating curve, `rating = 525 · e^(k / 23.15)`.
pub mod ogs {
    use crate::Rank;

    /// The rating of 30 kyu (`k` = 0).
    pub const BASE: f64 = 525.0;
    /// The ranks in which the rating grows by a factor of e.
    pub const RANKS_PER_E: f64 = 23.15;

    /// The rating `strength` ranks above 30 kyu.
    #[must_use]
    pub fn rating_of_strength(strength: f64) -> f64 {
        BASE * (strength / RANKS_PER_E).exp()
    }

    /// A rating in ranks above 30 kyu: the scale on which ranks are equally
    /// wide.
    #[must_use]
    pub fn strength(rating: f64) -> f64 {
        (rating.max(1.0) / BASE).ln() * RANKS_PER_E
    }

    /// The rating at the lower edge of rank level `level`
    /// ([`Rank::level`]).
    #[must_use]
    pub fn rating(level: i32) -> f64 {
        rating_of_strength(f64::from(level + 30))
    }

    /// The rank a rating falls in (30k…9d).
    #[must_use]
    pub fn rank(rating: f64) -> Rank {
        // A hair of tolerance so that rating(l) reads back as l.
        Rank::from_level((strength(rating) + 1e-9).floor() as i32 - 30)
    }
}

/// Both scales agree on the order of ranks and read their own ratings back.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rank;

    fn every_amateur_rank() -> impl Iterator<Item = Rank> {
        (-30..=8).map(Rank::from_level)
    }

    #[test]
    fn the_anchors_are_as_documented() {
        assert_eq!(egf::rating(Rank::Dan(1)), 2100.0);
        assert_eq!(egf::rating(Rank::Kyu(1)), 2000.0);
        assert_eq!(egf::rating(Rank::Kyu(30)), -900.0);
        assert_eq!(egf::rating(Rank::Pro(1)), 2700.0);
        assert_eq!(ogs::rating(-30), 525.0);
        assert!((ogs::rating(0) - 1918.0).abs() < 1.0, "{}", ogs::rating(0));
        assert!(
            (ogs::rating(-5) - 1546.0).abs() < 1.0,
            "{}",
            ogs::rating(-5)
        );
        assert!((ogs::rating(8) - 2710.0).abs() < 1.0, "{}", ogs::rating(8));
    }

    #[test]
    fn each_scale_reads_its_ratings_back_as_their_ranks() {
        for rank in every_amateur_rank() {
            assert_eq!(egf::rank(egf::rating(rank)), rank);
            assert_eq!(egf::rank(egf::rating(rank) + 49.0), rank);
            assert_eq!(egf::rank(egf::rating(rank) - 50.0), rank);
            assert_eq!(ogs::rank(ogs::rating(rank.level())), rank);
            assert_eq!(ogs::rank(ogs::rating(rank.level() + 1) - 0.01), rank);
        }
        assert_eq!(egf::rank(-5000.0), Rank::Kyu(30));
        assert_eq!(egf::rank(5000.0), Rank::Dan(9));
        assert_eq!(ogs::rank(0.0), Rank::Kyu(30));
    }

    #[test]
    fn strength_is_the_inverse_of_the_curve() {
        for s in [0.0, 12.5, 30.0, 38.9] {
            assert!((ogs::strength(ogs::rating_of_strength(s)) - s).abs() < 1e-9);
        }
    }
}
