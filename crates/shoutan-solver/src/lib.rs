//! A life-and-death (死活) and capturing-race (对杀) solver: given a
//! position, a target group and the region where moves may be played, it
//! decides whether the attacker can capture the target or the defender can
//! keep it, for either side moving first, and lists every winning first move.
//!
//! The search is depth-first proof-number search (df-pn) over the local
//! position; its only terminal tests are exact — the target captured, or
//! the target unconditionally alive by Benson's algorithm — so a proved
//! result is a proof, and a search out of budget says [`Verdict::Unknown`].
//!
//! # The game searched, and its limits
//! - Moves are played only on the empty points of the problem's region. A
//!   target chain with a liberty outside the region has escaped: it lives.
//! - The attacker never passes (the defender would pass back and live); the
//!   defender may, which lifts a ko ban.
//! - Ko: the simple-ko ban of the position is part of the search state. Each
//!   first move is searched with the opponent able to ignore the ban (having
//!   unlimited ko threats) and with the mover able to: a win in the first is
//!   [`Verdict::Win`], a win only in the second is [`Verdict::Ko`].
//! - Longer cycles (triple ko, eternal life) are not played by the ruleset's
//!   superko: play that repeats a position on the current line counts as the
//!   target surviving. Results that rest on such a repetition are kept out
//!   of the transposition table, so they are valid only where they were
//!   found (the graph-history interaction problem).
//! - Seki is not told apart: a target that survives in seki is reported as
//!   living ([`Verdict::Win`] for the defender, [`Verdict::Lose`] for the
//!   attacker).
//! - Positions and Benson's tests are cached by 64-bit Zobrist keys; a
//!   collision (about one in 2⁶⁴ per pair) could make a result wrong.
//!
//! # Straight three dies when the attacker takes the middle
//! ```
//! use shoutan_rules::{Board, Color, Move, Point, Ruleset};
//! use shoutan_solver::{Budget, Goal, Problem, Verdict, solve};
//! let board: Board = "
//!     . . . O X . .
//!     O O O O X . .
//!     X X X X X . .
//!     . . . . . . .
//!     . . . . . . .
//!     . . . . . . .
//!     . . . . . . .".parse().unwrap();
//! let size = board.size();
//! let at = |s| Point::from_gtp(s, size).unwrap();
//! let problem = Problem::builder(board, Color::Black, at("D7"), Goal::Kill)
//!     .ruleset(&Ruleset::CHINESE)
//!     .build()
//!     .unwrap();
//! let solution = solve(&problem, Budget::default());
//! assert_eq!(solution.first.verdict, Verdict::Win);
//! assert_eq!(solution.first.winning_moves, vec![Move::Play(at("B7"))]);
//! ```

mod problem;
mod result;
mod search;
mod solve;
mod table;

pub use problem::{Goal, Problem, ProblemBuilder, ProblemError};
pub use result::{Answer, Solution, Summary, Verdict};
pub use search::Budget;
pub use solve::{solve, solve_for};
