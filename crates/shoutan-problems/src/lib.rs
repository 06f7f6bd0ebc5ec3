//! Shoutan's problem library: life and death (死活), capturing races (对杀)
//! and tactics (手筋 — the ladder 征, the net 枷, the throw-in 扑, the
//! snapback 倒扑, 接不归) in graded sets, from a beginner's first captures
//! to dan-level reading.
//!
//! Each set is an SGF collection embedded in the crate: one game tree per
//! problem, the setup stones in the root with `PL` (who plays), `TR` on a
//! stone of the group at stake and `VW` (the rectangle moves are played in,
//! and shown), and one child node per correct first move. A problem's goal
//! follows from the mark: the mover's own group must live, the opponent's
//! must die. Every recorded answer is the solver's: the tests prove each
//! problem with `shoutan_solver` and require its winning first moves to be
//! exactly those recorded.
//!
//! # Examples
//! ```
//! use shoutan_problems::{find, library};
//! use shoutan_solver::{Budget, Verdict, solve_for};
//! let total: usize = library().iter().map(|s| s.problems.len()).sum();
//! assert!(total > 0);
//! let entry = find("rumen-chizi", 1).unwrap();
//! let answer = solve_for(&entry.problem(), entry.to_move, Budget::default());
//! assert_eq!(answer.verdict, Verdict::Win);
//! assert!(answer.winning_moves.iter().all(|m| entry.answers.contains(m)));
//! ```

mod attempt;
mod entry;
mod grade;
mod library;
mod proverb;
mod set;
mod solution;

pub use attempt::{JUDGE_TIME, Judgement, MAX_LINE, STEP_NODES, TryError, judge};
pub use entry::Entry;
pub use grade::Grade;
pub use library::{PROBLEM_BUDGET, find, library};
pub use proverb::{CLAIM_BUDGET, Claim, Diagram, Proverb, proverbs};
pub use set::ProblemSet;
pub use solution::{Variation, solution};
