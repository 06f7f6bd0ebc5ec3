//! Ratings: Glicko-2 (Glickman 2012) updated after every rated game, as
//! Lichess and OGS do, computed with the `skillratings` crate; and the rank
//! a rating corresponds to.
//!
//! Ratings and ranks are tied by OGS's published formula,
//! `rating = 525 · e^(k / 23.15)` where `k` counts ranks from 30 kyu
//! (`k` = 0) to 1 dan (`k` = 30): 1 dan is about 1918, 5 kyu about 1546,
//! 9 dan about 2710. A newcomer starts at the rating of the rank he
//! declares, with the deviation of someone unknown (350).
//!
//! A handicap game is rated as an even game between black, strengthened by
//! the handicap (in ranks), and white; the change is then applied to
//! black's own rating.

use serde::Serialize;
use shoutan_rules::{Color, GameResult, Rank};
use shoutan_store::Rating;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// A deviation above this marks the rating (and its rank) provisional.
pub const PROVISIONAL_DEVIATION: f64 = 160.0;

/// The deviation of a newcomer.
pub const NEWCOMER_DEVIATION: f64 = 350.0;

/// The volatility of a newcomer (Glickman's suggestion).
pub const NEWCOMER_VOLATILITY: f64 = 0.06;

/// Ranks counted from 30 kyu = 0 to 1 dan = 30.
fn rank_number(level: i32) -> f64 {
    f64::from(level + 30)
}

/// The rating at the middle of a rank level ([`Rank::level`]).
#[must_use]
pub fn rating_of_level(level: i32) -> f64 {
    525.0 * (rank_number(level) / 23.15).exp()
}

/// The rank a rating corresponds to (30k…9d).
#[must_use]
pub fn rank_of(rating: f64) -> Rank {
    let k = (rating.max(1.0) / 525.0).ln() * 23.15;
    // A hair of tolerance so that rating_of_level(l) reads back as l.
    Rank::from_level((k + 1e-9).floor() as i32 - 30)
}

/// The starting rating of a player who declares `rank`.
#[must_use]
pub fn newcomer(rank: Rank) -> Rating {
    Rating {
        rating: rating_of_level(rank.level()),
        deviation: NEWCOMER_DEVIATION,
        volatility: NEWCOMER_VOLATILITY,
    }
}

/// What a rating shows: the number, its rank, and whether it is settled.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RatingView {
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// The rank it corresponds to.
    pub rank: Rank,
    /// True while the deviation is above 160: the rank is a guess.
    pub provisional: bool,
}

impl From<Rating> for RatingView {
    fn from(r: Rating) -> RatingView {
        RatingView {
            rating: (r.rating * 10.0).round() / 10.0,
            deviation: (r.deviation * 10.0).round() / 10.0,
            rank: rank_of(r.rating),
            provisional: r.deviation > PROVISIONAL_DEVIATION,
        }
    }
}

fn g2(r: Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

fn ours(r: Glicko2Rating) -> Rating {
    Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// Black's and white's new ratings after a game with `result`, black having
/// had `handicap` ranks of handicap; `None` for results that rate nobody
/// (no result, replay, both lose).
#[must_use]
pub fn after_game(
    black: Rating,
    white: Rating,
    handicap: i32,
    result: GameResult,
) -> Option<(Rating, Rating)> {
    let outcome = match result {
        GameResult::Win {
            winner: Color::Black,
            ..
        } => Outcomes::WIN,
        GameResult::Win {
            winner: Color::White,
            ..
        } => Outcomes::LOSS,
        GameResult::Draw => Outcomes::DRAW,
        GameResult::NoResult | GameResult::Replay | GameResult::BothLose => return None,
    };
    let strength = |r: Rating| (r.rating.max(1.0) / 525.0).ln() * 23.15;
    let black_strengthened = Rating {
        rating: 525.0 * ((strength(black) + f64::from(handicap)) / 23.15).exp(),
        ..black
    };
    let (b, w) = glicko2(
        &g2(black_strengthened),
        &g2(white),
        &outcome,
        &Glicko2Config::new(),
    );
    let black_after = Rating {
        rating: black.rating + (b.rating - black_strengthened.rating),
        ..ours(b)
    };
    Some((black_after, ours(w)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shoutan_rules::WinBy;
    use skillratings::glicko2::glicko2_rating_period;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// Glickman, "Example of the Glicko-2 system" (2012), §"Example
    /// calculation": a 1500/200/0.06 player beats a 1400/30, loses to a
    /// 1550/100 and to a 1700/300 in one period; he ends at 1464.06,
    /// deviation 151.52, volatility 0.05999 (τ = 0.5).
    #[test]
    fn glickmans_published_example() {
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let after = glicko2_rating_period(
            &player,
            &[
                (opponent(1400.0, 30.0), Outcomes::WIN),
                (opponent(1550.0, 100.0), Outcomes::LOSS),
                (opponent(1700.0, 300.0), Outcomes::LOSS),
            ],
            &Glicko2Config {
                tau: 0.5,
                ..Glicko2Config::new()
            },
        );
        assert!(close(after.rating, 1464.06, 0.01), "{}", after.rating);
        assert!(close(after.deviation, 151.52, 0.01), "{}", after.deviation);
        assert!(
            close(after.volatility, 0.05999, 0.00001),
            "{}",
            after.volatility
        );
    }

    fn win(winner: Color) -> GameResult {
        GameResult::Win {
            winner,
            by: WinBy::Resignation,
        }
    }

    #[test]
    fn an_even_game_between_newcomers() {
        let n = newcomer(Rank::Kyu(5));
        let (b, w) = after_game(n, n, 0, win(Color::Black)).unwrap();
        // Symmetric: black gains what white loses; both become surer.
        assert!(b.rating > n.rating && w.rating < n.rating);
        assert!(close(b.rating - n.rating, n.rating - w.rating, 1e-6));
        assert!(b.deviation < n.deviation && close(b.deviation, w.deviation, 1e-9));
        let (d1, d2) = after_game(n, n, 0, GameResult::Draw).unwrap();
        assert!(close(d1.rating, n.rating, 1e-6) && close(d2.rating, n.rating, 1e-6));
        assert!(after_game(n, n, 0, GameResult::NoResult).is_none());
    }

    #[test]
    fn a_handicap_win_is_worth_less_than_an_even_one() {
        let weak = newcomer(Rank::Kyu(9));
        let strong = newcomer(Rank::Kyu(5));
        let (even, _) = after_game(weak, strong, 0, win(Color::Black)).unwrap();
        let (four_stones, _) = after_game(weak, strong, 4, win(Color::Black)).unwrap();
        assert!(even.rating - weak.rating > four_stones.rating - weak.rating);
        assert!(four_stones.rating > weak.rating);
    }

    #[test]
    fn ranks_and_ratings_follow_the_ogs_curve() {
        assert!(close(rating_of_level(Rank::Dan(1).level()), 1918.0, 1.0));
        assert!(close(rating_of_level(Rank::Kyu(5).level()), 1546.0, 1.0));
        for level in -30..=8 {
            assert_eq!(rank_of(rating_of_level(level)).level(), level);
        }
        assert_eq!(rank_of(1917.0), Rank::Kyu(1));
        assert_eq!(rank_of(50.0), Rank::Kyu(30));
        assert_eq!(rank_of(9000.0), Rank::Dan(9));
        let view = RatingView::from(newcomer(Rank::Dan(3)));
        assert_eq!(view.rank, Rank::Dan(3));
        assert!(view.provisional);
    }
}
