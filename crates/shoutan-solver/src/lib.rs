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
//! - Whether the target can be captured is a game in which the defender
//!   may pass and the attacker passes only to wait out a ko ban where the
//!   threats are counted (with unlimited ones waiting gains nothing): his
//!   tenuki lifts the ban, so a ko the defender cannot close he takes
//!   again, and any other pass the defender would answer with one and live.
//! - Ko: the simple-ko ban of the position is part of the search state. Each
//!   first move is searched with the opponent able to ignore the ban (having
//!   unlimited ko threats) and with the mover able to: a win in the first is
//!   [`Verdict::Win`], a win only in the second is [`Verdict::Ko`] (the
//!   second is not needed while no position searched has banned a retake,
//!   for then who holds the threats changes nothing). A ko is
//!   then searched again with the threats counted, each retake of a banned
//!   ko spending one, to find which side must find threats and how many
//!   more than the other side it needs ([`Ko`]): one in a direct ko, more in
//!   an approach ko. A ko that asks threats of whichever side starts it,
//!   the group living in seki meanwhile, is a ten-thousand-year ko
//!   ([`Solution::is_ten_thousand_year_ko`]).
//! - Longer cycles (triple ko, eternal life) are not played by the ruleset's
//!   superko: play that repeats a position on the current line counts as the
//!   target surviving. Results that rest on such a repetition are kept out
//!   of the transposition table, so they are valid only where they were
//!   found (the graph-history interaction problem).
//! - Seki: a defender's first move that keeps the target outright is
//!   searched again in a second game, in which the defender wins only by
//!   reaching unconditional life (Benson's test, after capturing whatever
//!   it must) or escaping, both sides may pass, and any repetition (two
//!   passes in a row are one) counts against the defender, the attacker
//!   holding the ko threats. If the defender cannot force life there, the
//!   target lives only in seki: [`Verdict::Seki`] for the defender, whose
//!   verdict is [`Verdict::Unknown`] while that search is undecided. The
//!   attacker's verdict does not change: held to seki, it has failed to
//!   kill ([`Verdict::Lose`]). So a target kept only by an endless cycle, or
//!   alive in a way Benson's test cannot reach by moves inside the region
//!   (say, eyes shared with a chain of its own that is not itself
//!   unconditionally alive), is reported as seki; a move that keeps the
//!   target in seki outright but would make it live by winning a ko is
//!   seki; and a move that keeps it only by a ko is [`Verdict::Ko`],
//!   whether life or seki follows.
//! - A race's outside liberties that touch only the attacker's wall (lying
//!   wholly outside the region, and touching the target) and a defender
//!   chain that can never be captured are interchangeable: positions that
//!   differ only in which of them hold which stones share a key, and only
//!   the first empty one is played (see `interchangeable.rs`).
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

mod interchangeable;
mod problem;
mod proof;
mod result;
mod search;
mod solve;
mod table;

pub use problem::{Goal, Problem, ProblemBuilder, ProblemError};
pub use proof::{Proof, prove};
pub use result::{Answer, Ko, MAX_KO_THREATS, Solution, Summary, Verdict};
pub use search::Budget;
pub use solve::{solve, solve_for};
