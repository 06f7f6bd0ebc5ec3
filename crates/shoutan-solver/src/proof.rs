//! One question about a position, settled by one search: does the player
//! to move reach the aim — capture the target, or keep it (alive or in
//! seki) — with the side given holding every ko threat? Cheaper than
//! [`solve_for`](crate::solve_for), which searches every first move: for a
//! judge that needs the verdict and not the list (a problem's try, judged
//! move by move).

use std::time::Instant;

use shoutan_rules::Color;

use crate::Problem;
use crate::search::{Budget, Game, Outcome, Search, Threats};

/// What one search showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proof {
    /// `Some(true)`: the player to move reaches the aim; `Some(false)`:
    /// he cannot; `None`: the budget ran out first.
    pub wins: Option<bool>,
    /// Positions searched: how hard the proof was.
    pub nodes: u64,
}

/// Whether `problem`'s player to move reaches the aim when `threats` has
/// unlimited ko threats, within `budget`.
///
/// ```
/// use shoutan_rules::{Board, Color, Point};
/// use shoutan_solver::{Budget, Goal, Problem, prove};
/// // Straight three: black to play kills at the middle, even with white
/// // holding every ko threat.
/// let board: Board = "
///     . . . O X .
///     O O O O X .
///     X X X X X .
///     . . . . . .
///     . . . . . .
///     . . . . . .".parse().unwrap();
/// let size = board.size();
/// let at = |s| Point::from_gtp(s, size).unwrap();
/// let problem = Problem::builder(board, Color::Black, at("D6"), Goal::Kill).build().unwrap();
/// assert_eq!(prove(&problem, Color::White, Budget::default()).wins, Some(true));
/// ```
#[must_use]
pub fn prove(problem: &Problem, threats: Color, budget: Budget) -> Proof {
    let deadline = Instant::now() + budget.time;
    let mut search = Search::new(problem, Game::Capture, threats, deadline);
    let outcome = search.prove(
        problem.board(),
        problem.to_move(),
        Threats::Unlimited,
        &[],
        budget.nodes,
    );
    Proof {
        wins: match outcome {
            Outcome::Wins => Some(true),
            Outcome::Loses => Some(false),
            Outcome::Unknown => None,
        },
        nodes: search.nodes(),
    }
}
