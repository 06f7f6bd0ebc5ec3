//! The rank a player shows, as Fox moves its 段位 and OGS marks a new
//! rating: while the rating is provisional (deviation above
//! [`PROVISIONAL_DEVIATION`]) the rank it corresponds to is shown with a
//! "?"; once it settles that rank is fixed, and it moves one step only
//! after [`RUN`] rated games in a row after each of which the rating
//! pointed past it in the same direction (promotion above, demotion
//! below). A game after which the rating points to the shown rank again
//! breaks the run. One lucky or unlucky game never moves the rank.

use serde::Serialize;
use shoutan_rules::Rank;
use shoutan_store::{RankStanding, Rating, User};

use crate::rating::{PROVISIONAL_DEVIATION, rank_of};

/// Rated games in a row, each leaving the rating past the shown rank on the
/// same side, that move it one step.
pub const RUN: i32 = 3;

/// The standing after a rated game that left the rating at `after`.
#[must_use]
pub fn next_standing(before: Option<RankStanding>, after: Rating) -> Option<RankStanding> {
    let pointed = rank_of(after.rating);
    let Some(standing) = before else {
        // Settling fixes the rank the rating has reached.
        return (after.deviation <= PROVISIONAL_DEVIATION).then_some(RankStanding {
            shown: pointed,
            streak: 0,
        });
    };
    let streak = match pointed.level().cmp(&standing.shown.level()) {
        std::cmp::Ordering::Greater => standing.streak.max(0) + 1,
        std::cmp::Ordering::Less => standing.streak.min(0) - 1,
        std::cmp::Ordering::Equal => 0,
    };
    Some(if streak.abs() >= RUN {
        RankStanding {
            shown: Rank::from_level(standing.shown.level() + streak.signum()),
            streak: 0,
        }
    } else {
        RankStanding {
            shown: standing.shown,
            streak,
        }
    })
}

/// The rank `user` shows: the settled one, or while provisional the rank
/// of the rating.
#[must_use]
pub fn shown_rank(user: &User) -> Rank {
    user.standing
        .map_or_else(|| rank_of(user.rating.rating), |s| s.shown)
}

/// What a player's rating shows.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RatingView {
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// The rank shown (see the module's rule).
    pub rank: Rank,
    /// The rank the rating itself corresponds to.
    pub rating_rank: Rank,
    /// True until the rating settles: the rank is shown with a "?".
    pub provisional: bool,
    /// The run so far: rated games in a row with the rating above the shown
    /// rank (positive) or below it (negative).
    pub streak: i32,
    /// The run that moves the shown rank ([`RUN`]).
    pub run: i32,
}

impl RatingView {
    /// The view of `user`'s rating.
    #[must_use]
    pub fn of(user: &User) -> RatingView {
        let r = user.rating;
        RatingView {
            rating: (r.rating * 10.0).round() / 10.0,
            deviation: (r.deviation * 10.0).round() / 10.0,
            rank: shown_rank(user),
            rating_rank: rank_of(r.rating),
            provisional: user.standing.is_none(),
            streak: user.standing.map_or(0, |s| s.streak),
            run: RUN,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shoutan_rules::rank_scale::ogs;

    fn rating_at(rank: &str, deviation: f64) -> Rating {
        let level = rank.parse::<Rank>().unwrap().level();
        Rating {
            rating: ogs::rating(level),
            deviation,
            volatility: 0.06,
        }
    }

    fn standing(rank: &str, streak: i32) -> Option<RankStanding> {
        Some(RankStanding {
            shown: rank.parse().unwrap(),
            streak,
        })
    }

    #[test]
    fn provisional_until_the_deviation_settles() {
        assert_eq!(next_standing(None, rating_at("3d", 200.0)), None);
        assert_eq!(
            next_standing(None, rating_at("1k", PROVISIONAL_DEVIATION)),
            standing("1k", 0)
        );
    }

    #[test]
    fn a_rank_moves_only_after_a_run_in_one_direction() {
        let above = rating_at("2d", 90.0);
        let below = rating_at("2k", 90.0);
        let level = rating_at("1d", 90.0);
        let mut s = standing("1d", 0);
        for expected in [standing("1d", 1), standing("1d", 2), standing("2d", 0)] {
            s = next_standing(s, above);
            assert_eq!(s, expected);
        }
        // A game back at the shown rank breaks a run; a turn restarts it.
        let s = next_standing(standing("1d", 2), level);
        assert_eq!(s, standing("1d", 0));
        assert_eq!(next_standing(standing("1d", 2), below), standing("1d", -1));
        let mut s = standing("1d", -2);
        s = next_standing(s, below);
        assert_eq!(
            s,
            standing("1k", 0),
            "demoted one step, not to the rating's 2k"
        );
    }
}
