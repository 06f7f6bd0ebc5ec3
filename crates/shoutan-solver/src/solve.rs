//! The solver's entry points. Every first move of the side to move is
//! searched twice in the capture game: once with the opponent holding
//! unlimited ko threats (a win there is a win outright) and once with the
//! mover holding them (a loss there is a loss outright; a win only there is
//! a ko). A defender's first move that keeps the target outright is searched
//! a third time, in the life game with the attacker holding the threats: the
//! target lives if the defender can force unconditional life, else it lives
//! only in seki. The moves are searched in rounds of growing node limits, so
//! one hard move cannot spend the whole budget before the easy ones are
//! decided. When the best a side can do is a ko (or seki, beside which the
//! defender may try a ko), each ko move is searched again with the threats
//! counted, to tell a direct ko from an approach ko and who must find the
//! threats.

use std::time::Instant;

use shoutan_rules::{Board, Color, Move};

use crate::Problem;
use crate::result::{Answer, Ko, Solution, Verdict};
use crate::search::{Budget, Game, Outcome, Search, Threats};

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
    let mut searches = Searches::new(problem, start + budget.time);
    let first = answer(problem, problem.to_move(), &mut searches, budget.nodes);
    searches.set_deadline(Instant::now() + budget.time);
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
    let mut searches = Searches::new(problem, deadline);
    answer(problem, mover, &mut searches, budget.nodes)
}

/// The searches of one problem, kept for both sides moving first so that
/// their transposition tables are shared.
struct Searches {
    /// The capture game with black holding the ko threats.
    black: Search,
    /// The capture game with white holding them.
    white: Search,
    /// The life game with the attacker holding them.
    life: Search,
    /// The capture game with black holding a counted number of threats.
    counted_black: Search,
    /// The capture game with white holding a counted number of threats.
    counted_white: Search,
}

impl Searches {
    fn new(problem: &Problem, deadline: Instant) -> Searches {
        Searches {
            black: Search::new(problem, Game::Capture, Color::Black, deadline),
            white: Search::new(problem, Game::Capture, Color::White, deadline),
            life: Search::new(problem, Game::Life, problem.attacker(), deadline),
            counted_black: Search::new(problem, Game::Capture, Color::Black, deadline),
            counted_white: Search::new(problem, Game::Capture, Color::White, deadline),
        }
    }

    fn all(&mut self) -> [&mut Search; 5] {
        [
            &mut self.black,
            &mut self.white,
            &mut self.life,
            &mut self.counted_black,
            &mut self.counted_white,
        ]
    }

    fn set_deadline(&mut self, deadline: Instant) {
        for search in self.all() {
            search.set_deadline(deadline);
        }
    }

    fn nodes(&mut self) -> u64 {
        self.all().iter().map(|s| s.nodes()).sum()
    }

    fn counted(&mut self, holder: Color) -> &mut Search {
        match holder {
            Color::Black => &mut self.counted_black,
            Color::White => &mut self.counted_white,
        }
    }
}

/// A first move and what its searches have shown so far.
struct Candidate {
    mv: Move,
    after: Board,
    /// Whether the move retakes a ko the position bans, which costs the
    /// mover a threat.
    retakes: bool,
    /// The opponent's outcome when the opponent has the ko threats.
    strict: Outcome,
    /// The opponent's outcome when the mover has them.
    lenient: Outcome,
    /// The attacker's outcome in the life game, with the attacker holding
    /// the threats: searched only after a defender's move that keeps the
    /// target outright.
    life: Outcome,
}

impl Candidate {
    /// The verdict for the mover, once the searches settle it; `defending`
    /// when the mover owns the target, and a move that keeps it must also
    /// be told apart as life or seki.
    fn verdict(&self, defending: bool) -> Option<Verdict> {
        match (self.strict, self.lenient) {
            (Outcome::Loses, _) if defending => match self.life {
                Outcome::Loses => Some(Verdict::Win),
                Outcome::Wins => Some(Verdict::Seki),
                Outcome::Unknown => None,
            },
            (Outcome::Loses, _) => Some(Verdict::Win),
            (_, Outcome::Wins) => Some(Verdict::Lose),
            (Outcome::Wins, Outcome::Loses) => Some(Verdict::Ko),
            _ => None,
        }
    }
}

/// The answer for `mover` playing first.
fn answer(problem: &Problem, mover: Color, searches: &mut Searches, max_nodes: u64) -> Answer {
    let start = Instant::now();
    let board = problem.board();
    let root = [searches.black.key(board, mover, Threats::Unlimited)];
    let nodes_before = searches.nodes();
    let defending = mover == problem.defender();
    let opponent = mover.opponent();
    // The lenient search's moves include retaking a ko the position bans;
    // without the threat that needs, that move cannot win outright.
    let with = match mover {
        Color::Black => &searches.black,
        Color::White => &searches.white,
    };
    let mut candidates: Vec<Candidate> = with
        .moves(board, mover, Threats::Unlimited)
        .into_iter()
        .map(|(mv, after, _)| {
            let retakes =
                matches!(mv, Move::Play(p) if board.ko() == Some((board.index(p), mover)));
            Candidate {
                mv,
                after,
                retakes,
                strict: if retakes {
                    Outcome::Wins
                } else {
                    Outcome::Unknown
                },
                lenient: Outcome::Unknown,
                life: Outcome::Unknown,
            }
        })
        .collect();
    // The counted searches run after the rounds: their nodes are fixed
    // during them.
    let counted = searches.counted_black.nodes() + searches.counted_white.nodes();
    let mut limit = FIRST_ROUND;
    loop {
        let spent = searches.nodes() - nodes_before;
        let undecided = candidates.iter().any(|c| c.verdict(defending).is_none());
        if !undecided || spent >= max_nodes || searches.black.past_deadline() {
            break;
        }
        for c in candidates
            .iter_mut()
            .filter(|c| c.verdict(defending).is_none())
        {
            let Searches {
                black, white, life, ..
            } = &mut *searches;
            let (against, with) = match mover {
                Color::Black => (&mut *white, &mut *black),
                Color::White => (&mut *black, &mut *white),
            };
            let left = |against: &Search, with: &Search, life: &Search| {
                let spent = against.nodes() + with.nodes() + life.nodes() + counted - nodes_before;
                max_nodes.saturating_sub(spent).min(limit)
            };
            if c.strict == Outcome::Unknown {
                let left = left(against, with, life);
                c.strict = against.prove(&c.after, opponent, Threats::Unlimited, &root, left);
                // Where no ko ban was met, who holds the threats is moot.
                if c.strict == Outcome::Wins && against.ko_free() {
                    c.lenient = Outcome::Wins;
                }
            }
            // Keeping the target outright settles the capture game.
            if c.strict != Outcome::Loses
                && c.verdict(defending).is_none()
                && c.lenient == Outcome::Unknown
            {
                let left = left(against, with, life);
                c.lenient = with.prove(&c.after, opponent, Threats::Unlimited, &root, left);
            }
            if defending && c.strict == Outcome::Loses && c.life == Outcome::Unknown {
                // No history: a tenuki answered by a tenuki gives the
                // defender the problem's position to play again, not a
                // repetition (a real cycle is caught one round later).
                let left = left(against, with, life);
                c.life = life.prove(&c.after, opponent, Threats::Unlimited, &[], left);
            }
        }
        limit = limit.saturating_mul(4);
    }
    let mut winning_moves = Vec::new();
    let mut seki_moves = Vec::new();
    let mut ko_moves = Vec::new();
    let mut unknown_moves = Vec::new();
    for c in &candidates {
        match c.verdict(defending) {
            Some(Verdict::Win) => winning_moves.push(c.mv),
            Some(Verdict::Seki) => seki_moves.push(c.mv),
            Some(Verdict::Ko) => ko_moves.push(c.mv),
            Some(Verdict::Lose) => {}
            Some(Verdict::Unknown) | None => unknown_moves.push(c.mv),
        }
    }
    let verdict = if !winning_moves.is_empty() {
        Verdict::Win
    } else if !unknown_moves.is_empty() {
        Verdict::Unknown
    } else if !seki_moves.is_empty() {
        Verdict::Seki
    } else if !ko_moves.is_empty() {
        Verdict::Ko
    } else {
        Verdict::Lose
    };
    let ko = if matches!(verdict, Verdict::Ko | Verdict::Seki) {
        // Beside a seki, the ko is the defender's try for life: waiting (a
        // pass) is no try.
        let tries: Vec<&Candidate> = candidates
            .iter()
            .filter(|c| c.verdict(defending) == Some(Verdict::Ko))
            .filter(|c| !(verdict == Verdict::Seki && c.mv == Move::Pass))
            .collect();
        let mut kos = Vec::new();
        for c in tries.iter().copied() {
            let spent = searches.nodes() - nodes_before;
            match count_threats(board, c, mover, searches, max_nodes.saturating_sub(spent)) {
                Some(ko) => kos.push(ko),
                None => break,
            }
        }
        (kos.len() == tries.len())
            .then(|| kos.into_iter().min_by_key(|ko| ko.asked_of(mover)))
            .flatten()
    } else {
        None
    };
    Answer {
        mover,
        verdict,
        winning_moves,
        seki_moves,
        ko_moves,
        unknown_moves,
        ko,
        nodes: searches.nodes() - nodes_before,
        millis: u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
    }
}

/// What the ko after the first move `c` asks of each side: whether the
/// mover wins it with no threats on either side, and then how many the
/// opponent (else the mover) must find; `None` when the budget of
/// `max_nodes` runs out first.
fn count_threats(
    board: &Board,
    c: &Candidate,
    mover: Color,
    searches: &mut Searches,
    max_nodes: u64,
) -> Option<Ko> {
    let opponent = mover.opponent();
    let start = searches.nodes();
    Ko::counted(mover, |holder, before| {
        let mut left_threats = before;
        if c.retakes {
            // The first move itself was a threat's retake.
            if holder != mover || left_threats == 0 {
                return Some(false);
            }
            left_threats -= 1;
        }
        let spent = searches.nodes() - start;
        let search = searches.counted(holder);
        if search.past_deadline() {
            return None;
        }
        let root = [search.key(board, mover, Threats::Left(before))];
        let left = max_nodes.saturating_sub(spent);
        match search.prove(&c.after, opponent, Threats::Left(left_threats), &root, left) {
            Outcome::Loses => Some(true),
            Outcome::Wins => Some(false),
            Outcome::Unknown => None,
        }
    })
}
