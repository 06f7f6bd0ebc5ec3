//! Ratings: Glicko-2 (Glickman 2012) updated after every rated game, as
//! Lichess and OGS do, computed with the `skillratings` crate; and the rank
//! a rating corresponds to.
//!
//! Ratings and ranks are tied by OGS's published formula
//! ([`shoutan_rules::rank_scale::ogs`]): 1 dan is about 1918, 5 kyu about
//! 1546, 9 dan about 2710. A newcomer starts at the rating of the rank he
//! declares, with the deviation of someone unknown (350).
//!
//! A handicap game is rated as an even game between black, strengthened by
//! the handicap (in ranks), and white; the change is then applied to
//! black's own rating.
//!
//! One 19×19 game moves a rating by at most [`PROVISIONAL_STEP`] ranks
//! while it is provisional and [`SETTLED_STEP`] once it has settled
//! (deviation at most [`PROVISIONAL_DEVIATION`]). Glicko-2 alone moves two
//! newcomers two ranks each for one game, as though the rank each declared
//! were no evidence at all, and a settled 1 dan a third of a rank for a
//! surprising result; the rank shown moves only after a run (`rank_rule`).
//!
//! A game on a small board counts as part of a 19×19 game
//! ([`board_weight`]), its change and its step alike: fewer choices decide
//! it, so one 9×9 game says less about a player (OGS and Fox weigh or
//! rate small boards apart likewise).

use shoutan_rules::rank_scale::ogs;
use shoutan_rules::{BoardSize, Color, GameResult, Rank};
use shoutan_store::Rating;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// A deviation above this marks the rating (and its rank) provisional.
pub const PROVISIONAL_DEVIATION: f64 = 160.0;

/// The most one game moves a settled rating, in ranks.
pub const SETTLED_STEP: f64 = 0.25;

/// The most one game moves a provisional rating, in ranks.
pub const PROVISIONAL_STEP: f64 = 1.0;

/// How much a game on a board of `size` counts toward a rating, beside a
/// 19×19 game: the share of the 19×19 board's points it has (9×9 about a
/// fifth, 13×13 about a half), larger boards no more than 19×19.
#[must_use]
pub fn board_weight(size: BoardSize) -> f64 {
    (size.area() as f64 / BoardSize::NINETEEN.area() as f64).min(1.0)
}

/// The deviation of a newcomer.
pub const NEWCOMER_DEVIATION: f64 = 350.0;

/// The volatility of a newcomer (Glickman's suggestion).
pub const NEWCOMER_VOLATILITY: f64 = 0.06;

/// The rank a rating corresponds to (30k…9d).
#[must_use]
pub fn rank_of(rating: f64) -> Rank {
    ogs::rank(rating)
}

/// The starting rating of a player who declares `rank`: the middle of
/// that rank, so that his first games move it before the rank shown.
#[must_use]
pub fn newcomer(rank: Rank) -> Rating {
    Rating {
        rating: ogs::rating_of_strength(f64::from(rank.level() + 30) + 0.5),
        deviation: NEWCOMER_DEVIATION,
        volatility: NEWCOMER_VOLATILITY,
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

/// Black's and white's new ratings after a game on a board of `size`
/// with `result`, black having had `handicap` ranks of handicap; `None`
/// for results that rate nobody (no result, replay, both lose).
#[must_use]
pub fn after_game(
    black: Rating,
    white: Rating,
    size: BoardSize,
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
    let black_strengthened = Rating {
        rating: ogs::rating_of_strength(ogs::strength(black.rating) + f64::from(handicap)),
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
    let weight = board_weight(size);
    Some((
        damped(black, black_after, weight),
        damped(white, ours(w), weight),
    ))
}

/// The player's and the problem's ratings after a player's first try of a
/// problem (死活题): a Glicko-2 game between the two, won by the player
/// when he solved it, as Lichess rates puzzles. A problem's rating reads as
/// a rank on the games' scale ("a 5 kyu problem"), and so does the
/// player's problem rating; one try moves either by at most
/// [`PROVISIONAL_STEP`] while provisional and [`SETTLED_STEP`] once
/// settled, as a game does.
#[must_use]
pub fn after_try(player: Rating, problem: Rating, solved: bool) -> (Rating, Rating) {
    let outcome = if solved {
        Outcomes::WIN
    } else {
        Outcomes::LOSS
    };
    let (p, q) = glicko2(&g2(player), &g2(problem), &outcome, &Glicko2Config::new());
    (damped(player, ours(p), 1.0), damped(problem, ours(q), 1.0))
}

/// The way from `before` to `after` taken only `weight` of the way (the
/// board's weight: the game counts as that much of a 19×19 game), then
/// held within that much of one game's step from `before`:
/// [`PROVISIONAL_STEP`] while provisional, [`SETTLED_STEP`] once settled.
fn damped(before: Rating, after: Rating, weight: f64) -> Rating {
    let step = weight
        * if before.deviation > PROVISIONAL_DEVIATION {
            PROVISIONAL_STEP
        } else {
            SETTLED_STEP
        };
    let toward = |from: f64, to: f64| from + weight * (to - from);
    let from = ogs::strength(before.rating);
    let to = toward(from, ogs::strength(after.rating)).clamp(from - step, from + step);
    Rating {
        rating: ogs::rating_of_strength(to),
        deviation: toward(before.deviation, after.deviation),
        volatility: toward(before.volatility, after.volatility),
    }
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
        let (b, w) = after_game(n, n, BoardSize::NINETEEN, 0, win(Color::Black)).unwrap();
        // Symmetric: black gains the ranks white loses; both become surer.
        assert!(b.rating > n.rating && w.rating < n.rating);
        let s = ogs::strength(n.rating);
        assert!(close(
            ogs::strength(b.rating) - s,
            s - ogs::strength(w.rating),
            1e-6
        ));
        assert!(b.deviation < n.deviation && close(b.deviation, w.deviation, 1e-9));
        let (d1, d2) = after_game(n, n, BoardSize::NINETEEN, 0, GameResult::Draw).unwrap();
        assert!(close(d1.rating, n.rating, 1e-6) && close(d2.rating, n.rating, 1e-6));
        assert!(after_game(n, n, BoardSize::NINETEEN, 0, GameResult::NoResult).is_none());
    }

    #[test]
    fn a_handicap_win_is_worth_less_than_an_even_one() {
        let settled = |rank| Rating {
            deviation: 60.0,
            ..newcomer(rank)
        };
        let (weak, strong) = (settled(Rank::Kyu(6)), settled(Rank::Kyu(5)));
        let (even, _) =
            after_game(weak, strong, BoardSize::NINETEEN, 0, win(Color::Black)).unwrap();
        let (one_stone, _) =
            after_game(weak, strong, BoardSize::NINETEEN, 1, win(Color::Black)).unwrap();
        assert!(even.rating - weak.rating > one_stone.rating - weak.rating);
        assert!(one_stone.rating > weak.rating);
    }

    #[test]
    fn ranks_and_ratings_follow_the_ogs_curve() {
        assert!(close(ogs::rating(Rank::Dan(1).level()), 1918.0, 1.0));
        assert!(close(ogs::rating(Rank::Kyu(5).level()), 1546.0, 1.0));
        for level in -30..=8 {
            assert_eq!(rank_of(ogs::rating(level)).level(), level);
        }
        assert_eq!(rank_of(1917.0), Rank::Kyu(1));
        assert_eq!(rank_of(50.0), Rank::Kyu(30));
        assert_eq!(rank_of(9000.0), Rank::Dan(9));
        assert_eq!(rank_of(newcomer(Rank::Dan(3)).rating), Rank::Dan(3));
    }

    #[test]
    fn a_settled_rating_moves_at_most_a_quarter_rank_per_game() {
        let settled = Rating {
            deviation: 80.0,
            ..newcomer(Rank::Kyu(1))
        };
        let strong = Rating {
            deviation: 60.0,
            ..newcomer(Rank::Dan(3))
        };
        let (upset, _) =
            after_game(settled, strong, BoardSize::NINETEEN, 0, win(Color::Black)).unwrap();
        let gained = ogs::strength(upset.rating) - ogs::strength(settled.rating);
        assert!(close(gained, SETTLED_STEP, 1e-9), "{gained}");
        // A newcomer moves further, a rank at most: his first games find
        // his level, but the rank he declared is evidence too.
        let fresh = newcomer(Rank::Kyu(1));
        let (found, _) =
            after_game(fresh, strong, BoardSize::NINETEEN, 0, win(Color::Black)).unwrap();
        let gained = ogs::strength(found.rating) - ogs::strength(fresh.rating);
        assert!(close(gained, PROVISIONAL_STEP, 1e-9), "{gained}");
    }

    /// The game players complained of: two newcomers, 3 kyu and 2 kyu, one
    /// rated 9×9 game. Glicko-2 alone moved both by 162 points, over two
    /// ranks (3k to "1k?", 2k to "5k?").
    #[test]
    fn one_small_board_game_between_newcomers_moves_them_a_quarter_rank_at_most() {
        let (three_kyu, two_kyu) = (newcomer(Rank::Kyu(3)), newcomer(Rank::Kyu(2)));
        let undamped = glicko2(
            &g2(three_kyu),
            &g2(two_kyu),
            &Outcomes::WIN,
            &Glicko2Config::new(),
        );
        assert!(ogs::strength(undamped.0.rating) - ogs::strength(three_kyu.rating) > 2.0);
        let (b, w) = after_game(three_kyu, two_kyu, BoardSize::NINE, 0, win(Color::Black)).unwrap();
        let (gained, lost) = (
            ogs::strength(b.rating) - ogs::strength(three_kyu.rating),
            ogs::strength(two_kyu.rating) - ogs::strength(w.rating),
        );
        let step = board_weight(BoardSize::NINE) * PROVISIONAL_STEP;
        assert!(gained > 0.0 && gained <= step + 1e-9, "{gained}");
        assert!(lost > 0.0 && lost <= step + 1e-9, "{lost}");
        assert_eq!(rank_of(b.rating), Rank::Kyu(3));
        assert_eq!(rank_of(w.rating), Rank::Kyu(2));
        // Both are surer of their level, if less than after a 19×19 game.
        let (b19, _) = after_game(
            three_kyu,
            two_kyu,
            BoardSize::NINETEEN,
            0,
            win(Color::Black),
        )
        .unwrap();
        assert!(b19.deviation < b.deviation && b.deviation < three_kyu.deviation);
        assert!(b19.rating > b.rating);
    }

    #[test]
    fn boards_weigh_by_their_points() {
        let weight = |n| board_weight(BoardSize::new(n).unwrap());
        assert!(close(weight(19), 1.0, 1e-12));
        assert!(close(weight(13), 169.0 / 361.0, 1e-12));
        assert!(close(weight(9), 81.0 / 361.0, 1e-12));
        assert!(close(weight(25), 1.0, 1e-12));
    }

    /// A problem is a player to the problem ratings: solving one lowers it
    /// and raises the solver, failing it the other way; a harder problem
    /// solved gains more; one try moves a provisional rating at most a rank.
    #[test]
    fn a_first_try_of_a_problem_moves_both_ratings() {
        let at = |level: i32, deviation: f64| Rating {
            rating: ogs::rating(level),
            deviation,
            volatility: NEWCOMER_VOLATILITY,
        };
        let newcomer = at(-10, NEWCOMER_DEVIATION);
        let problem = at(-12, NEWCOMER_DEVIATION);
        let (solver, solved) = after_try(newcomer, problem, true);
        assert!(solver.rating > newcomer.rating && solved.rating < problem.rating);
        let (failer, failed) = after_try(newcomer, problem, false);
        assert!(failer.rating < newcomer.rating && failed.rating > problem.rating);
        for r in [solver, failer] {
            let moved = (ogs::strength(r.rating) - ogs::strength(newcomer.rating)).abs();
            assert!(moved <= PROVISIONAL_STEP + 1e-9, "{moved} ranks");
        }
        let settled = at(-10, 60.0);
        let gain = |level| after_try(settled, at(level, 60.0), true).0.rating - settled.rating;
        assert!(gain(-8) > gain(-12), "{} vs {}", gain(-8), gain(-12));
    }
}
