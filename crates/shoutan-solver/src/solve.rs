//! The solver's entry points. Every first move of the side to move is
//! searched twice: once with the opponent holding unlimited ko threats (a
//! win there is a win outright) and once with the mover holding them (a loss
//! there is a loss outright; a win only there is a ko). The moves are
//! searched in rounds of growing node limits, so one hard move cannot spend
//! the whole budget before the easy ones are decided.

use std::time::Instant;

use shoutan_rules::{Board, Color, Move};

use crate::Problem;
use crate::result::{Answer, Solution, Verdict};
use crate::search::{Budget, Outcome, Search};
use crate::table::key;

/// The first round's node limit per move and search; each round has four
/// times the last one's.
const FIRST_ROUND: u64 = 1_000;

/// Solves `problem` for both sides moving first, each within `budget`.
///
/// ```
/// use shoutan_rules::{Board, Color, Point};
/// use shoutan_solver::{Budget, Goal, Problem, Verdict, solve};
/// // White's corner has two eyes: black cannot kill, white need not move.
/// let board: Board = "
///     . O . O X .
///     O O O O X .
///     X X X X X .
///     . . . . . .
///     . . . . . .
///     . . . . . .".parse().unwrap();
/// let size = board.size();
/// let at = |s| Point::from_gtp(s, size).unwrap();
/// let problem = Problem::builder(board, Color::Black, at("B5"), Goal::Kill).build().unwrap();
/// let solution = solve(&problem, Budget::default());
/// assert_eq!(solution.first.verdict, Verdict::Lose);
/// assert_eq!(solution.second.verdict, Verdict::Win);
/// ```
#[must_use]
pub fn solve(problem: &Problem, budget: Budget) -> Solution {
    let start = Instant::now();
    let mut searches = [
        Search::new(problem, Color::Black, start + budget.time),
        Search::new(problem, Color::White, start + budget.time),
    ];
    let first = answer(problem, problem.to_move(), &mut searches, budget.nodes);
    let start = Instant::now();
    for s in &mut searches {
        s.set_deadline(start + budget.time);
    }
    let second = answer(
        problem,
        problem.to_move().opponent(),
        &mut searches,
        budget.nodes,
    );
    Solution { first, second }
}

/// Solves `problem` for `mover` playing first only, within `budget`.
///
/// ```
/// use shoutan_rules::{Board, Color, Move, Point};
/// use shoutan_solver::{Budget, Goal, Problem, Verdict, solve_for};
/// // Bent three in the corner: the defender lives by taking the bend.
/// let board: Board = "
///     . . O X . .
///     . O O X . .
///     O O X X . .
///     X X X . . .
///     . . . . . .
///     . . . . . .".parse().unwrap();
/// let size = board.size();
/// let at = |s| Point::from_gtp(s, size).unwrap();
/// let problem = Problem::builder(board, Color::White, at("C6"), Goal::Live).build().unwrap();
/// let answer = solve_for(&problem, Color::White, Budget::default());
/// assert_eq!(answer.verdict, Verdict::Win);
/// assert_eq!(answer.winning_moves, vec![Move::Play(at("A6"))]);
/// ```
#[must_use]
pub fn solve_for(problem: &Problem, mover: Color, budget: Budget) -> Answer {
    let deadline = Instant::now() + budget.time;
    let mut searches = [
        Search::new(problem, Color::Black, deadline),
        Search::new(problem, Color::White, deadline),
    ];
    answer(problem, mover, &mut searches, budget.nodes)
}

/// A first move and what its two searches have shown so far.
struct Candidate {
    mv: Move,
    after: Board,
    /// The opponent's outcome when the opponent has the ko threats.
    strict: Outcome,
    /// The opponent's outcome when the mover has them.
    lenient: Outcome,
}

impl Candidate {
    /// The verdict for the mover, once the searches settle it.
    fn verdict(&self) -> Option<Verdict> {
        match (self.strict, self.lenient) {
            (Outcome::Loses, _) => Some(Verdict::Win),
            (_, Outcome::Wins) => Some(Verdict::Lose),
            (Outcome::Wins, Outcome::Loses) => Some(Verdict::Ko),
            _ => None,
        }
    }
}

/// The answer for `mover` playing first.
fn answer(problem: &Problem, mover: Color, searches: &mut [Search; 2], max_nodes: u64) -> Answer {
    let start = Instant::now();
    let board = problem.board();
    let root = [key(board, mover)];
    let [black, white] = searches;
    let nodes_before = black.nodes() + white.nodes();
    let (against, with) = match mover {
        Color::Black => (white, black),
        Color::White => (black, white),
    };
    let opponent = mover.opponent();
    // The lenient search's moves include retaking a ko the position bans;
    // without the threat that needs, that move cannot win outright.
    let mut candidates: Vec<Candidate> = with
        .moves(board, mover)
        .into_iter()
        .map(|(mv, after)| Candidate {
            mv,
            after,
            strict: match mv {
                Move::Play(p) if board.ko() == Some((board.index(p), mover)) => Outcome::Wins,
                _ => Outcome::Unknown,
            },
            lenient: Outcome::Unknown,
        })
        .collect();
    let mut limit = FIRST_ROUND;
    loop {
        let spent = against.nodes() + with.nodes() - nodes_before;
        let undecided = candidates.iter().any(|c| c.verdict().is_none());
        if !undecided || spent >= max_nodes || against.past_deadline() {
            break;
        }
        for c in candidates.iter_mut().filter(|c| c.verdict().is_none()) {
            let spent = against.nodes() + with.nodes() - nodes_before;
            let left = max_nodes.saturating_sub(spent).min(limit);
            if c.strict == Outcome::Unknown {
                c.strict = against.prove(&c.after, opponent, &root, left);
            }
            if c.verdict().is_none() && c.lenient == Outcome::Unknown {
                let spent = against.nodes() + with.nodes() - nodes_before;
                let left = max_nodes.saturating_sub(spent).min(limit);
                c.lenient = with.prove(&c.after, opponent, &root, left);
            }
        }
        limit = limit.saturating_mul(4);
    }
    let mut winning_moves = Vec::new();
    let mut ko_moves = Vec::new();
    let mut unknown_moves = Vec::new();
    for c in &candidates {
        match c.verdict() {
            Some(Verdict::Win) => winning_moves.push(c.mv),
            Some(Verdict::Ko) => ko_moves.push(c.mv),
            Some(Verdict::Lose) => {}
            Some(Verdict::Unknown) | None => unknown_moves.push(c.mv),
        }
    }
    let verdict = if !winning_moves.is_empty() {
        Verdict::Win
    } else if !unknown_moves.is_empty() {
        Verdict::Unknown
    } else if !ko_moves.is_empty() {
        Verdict::Ko
    } else {
        Verdict::Lose
    };
    Answer {
        mover,
        verdict,
        winning_moves,
        ko_moves,
        unknown_moves,
        nodes: against.nodes() + with.nodes() - nodes_before,
        millis: u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
    }
}
