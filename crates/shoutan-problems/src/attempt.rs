//! A player's try at a problem, judged move by move by the solver: a move
//! is right when the player still reaches the aim against every answer
//! (even with the opponent holding every ko threat), and the opponent
//! answers a right move with its strongest resistance — the answer that
//! costs the solver the most to refute — and a wrong one with a refutation.
//! The problem is solved once nothing the opponent plays, even twice in a
//! row, changes the outcome.
//!
//! The judge keeps no state: the client sends the whole line of its try
//! and every earlier move is judged again, so an opponent's move in the
//! line must be the very answer the judge gives. Each search is held to
//! [`STEP_NODES`] positions, so the answers are the same on every request
//! and every server; the whole judgement is held to [`JUDGE_TIME`], past
//! which it is unsettled rather than guessed.

use std::time::{Duration, Instant};

use shoutan_rules::{Board, BoardError, Color, Move, Point, is_pass_alive};
use shoutan_solver::{Answer, Budget, Problem, Proof, prove, solve_for};

/// The positions one search of a try may spend.
pub const STEP_NODES: u64 = 200_000;

/// The time one judgement (of a line, or a solution tree) may take.
pub const JUDGE_TIME: Duration = Duration::from_secs(10);

/// The longest line a try may have (moves of both sides).
pub const MAX_LINE: usize = 40;

/// The verdict on the player's latest move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// The move keeps the win. `reply` is the opponent's answer; `None`
    /// when the problem is solved.
    Right {
        /// The opponent's strongest resistance.
        reply: Option<Point>,
    },
    /// The move fails; `refutation` is the opponent's answer that shows
    /// it (`None` when the failure needs no answer: the player's own
    /// stones are taken or the target has escaped).
    Wrong {
        /// The opponent's refuting move.
        refutation: Option<Point>,
    },
}

impl Judgement {
    /// Whether this ends the try: a wrong move, or the problem solved.
    #[must_use]
    pub fn ends(self) -> bool {
        !matches!(self, Judgement::Right { reply: Some(_) })
    }
}

/// Why a line cannot be judged. `ply` counts the line's moves from 0.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TryError {
    /// No move, or more than [`MAX_LINE`].
    #[error("a try is 1 to {MAX_LINE} moves, the player's first; this one has {0}")]
    Length(usize),
    /// The line ends with the opponent's move, which is the server's to play.
    #[error("the line ends with the opponent's move: the last move must be the player's")]
    EndsWithReply,
    /// A move outside the problem's area.
    #[error("move {} at {point} is outside the problem's area", ply + 1)]
    Outside {
        /// Where in the line.
        ply: usize,
        /// The point, in GTP notation.
        point: String,
    },
    /// A move against the rules.
    #[error("move {} at {point} is illegal: {reason}", ply + 1)]
    Illegal {
        /// Where in the line.
        ply: usize,
        /// The point, in GTP notation.
        point: String,
        /// Why.
        reason: BoardError,
    },
    /// An opponent's move that is not the answer the judge gave.
    #[error("move {} should be the opponent's answer {expected}, not {got}", ply + 1)]
    NotTheReply {
        /// Where in the line.
        ply: usize,
        /// The answer the judge gives.
        expected: String,
        /// The move in the line.
        got: String,
    },
    /// Moves after the try ended (a wrong move, or the problem solved).
    #[error("the try ended at move {}; start again to play on", ply + 1)]
    Over {
        /// The move that ended it.
        ply: usize,
    },
    /// The solver could not settle a move within its budget.
    #[error("the solver could not settle move {} within its budget", ply + 1)]
    Unsettled {
        /// Where in the line.
        ply: usize,
    },
}

/// Judges the last move of `line`, a try at `problem` whose player is the
/// problem's player to move; every earlier move is checked as described in
/// the module documentation.
pub fn judge(problem: &Problem, line: &[Point]) -> Result<Judgement, TryError> {
    if line.is_empty() || line.len() > MAX_LINE {
        return Err(TryError::Length(line.len()));
    }
    if line.len().is_multiple_of(2) {
        return Err(TryError::EndsWithReply);
    }
    let judge = Judge::new(problem);
    let player = problem.to_move();
    let size = problem.board().size();
    let mut board = problem.board().clone();
    let mut expected: Option<Point> = None;
    for (ply, &p) in line.iter().enumerate() {
        if let Some(e) = expected.take()
            && e != p
        {
            return Err(TryError::NotTheReply {
                ply,
                expected: e.to_gtp(size),
                got: p.to_gtp(size),
            });
        }
        let mover = if ply % 2 == 0 {
            player
        } else {
            player.opponent()
        };
        board = play(problem, board, ply, p, mover)?;
        if ply % 2 == 1 {
            continue;
        }
        let judgement = judge
            .after_move(&board, p)
            .ok_or(TryError::Unsettled { ply })?;
        if ply + 1 == line.len() {
            return Ok(judgement);
        }
        match judgement {
            Judgement::Right { reply: Some(r) } => expected = Some(r),
            _ => return Err(TryError::Over { ply }),
        }
    }
    Err(TryError::EndsWithReply)
}

/// `board` after `mover` plays `p`, refused outside the region or against
/// the rules.
fn play(
    problem: &Problem,
    mut board: Board,
    ply: usize,
    p: Point,
    mover: Color,
) -> Result<Board, TryError> {
    let size = board.size();
    if !size.contains(p) || !problem.region().contains(p) {
        return Err(TryError::Outside {
            ply,
            point: p.to_gtp(size),
        });
    }
    let i = board.index(p);
    board
        .play(i, mover, problem.suicide())
        .map_err(|reason| TryError::Illegal {
            ply,
            point: p.to_gtp(size),
            reason,
        })?;
    Ok(board)
}

/// Whether the fight at `board` is over in `player`'s favour whoever moves:
/// the target taken by an attacking player, or kept for good (escaped or
/// unconditionally alive) by a defending one.
fn won_outright(problem: &Problem, board: &Board, player: Color) -> bool {
    let target = problem.target();
    match board.get(target) {
        None => player == problem.attacker(),
        Some(_) if player == problem.attacker() => false,
        Some(_) => {
            let i = board.index(target);
            let escaped = board
                .liberties(i)
                .iter()
                .any(|&l| !problem.region().contains(board.point(l)));
            escaped || is_pass_alive(board, target)
        }
    }
}

/// The judge of one problem, within one judgement's time.
pub(crate) struct Judge<'a> {
    problem: &'a Problem,
    deadline: Instant,
}

impl<'a> Judge<'a> {
    /// A judge of `problem` whose time starts now.
    pub(crate) fn new(problem: &'a Problem) -> Judge<'a> {
        Judge {
            problem,
            deadline: Instant::now() + JUDGE_TIME,
        }
    }

    /// One search's budget: its positions, and what is left of the time.
    fn budget(&self) -> Budget {
        Budget {
            nodes: STEP_NODES,
            time: self.deadline.saturating_duration_since(Instant::now()),
        }
    }

    /// The answer of `mover` playing first at `board`, every first move
    /// searched; `None` when the target is gone (the attacker has won).
    pub(crate) fn answer(&self, board: &Board, mover: Color) -> Option<Answer> {
        let next = self.problem.next(board.clone(), mover)?;
        Some(solve_for(&next, mover, self.budget()))
    }

    /// Whether `mover`, to play at `board`, reaches the aim with `threats`
    /// holding every ko threat (one search); `None` when the target is
    /// gone.
    fn proof(&self, board: &Board, mover: Color, threats: Color) -> Option<Proof> {
        let next = self.problem.next(board.clone(), mover)?;
        Some(prove(&next, threats, self.budget()))
    }

    /// The verdict on the player's move at `last` that made `board`;
    /// `None` when the solver cannot settle it.
    pub(crate) fn after_move(&self, board: &Board, last: Point) -> Option<Judgement> {
        let player = self.problem.to_move();
        if won_outright(self.problem, board, player) {
            return Some(Judgement::Right { reply: None });
        }
        let opponent = player.opponent();
        let Some(theirs) = self.proof(board, opponent, opponent) else {
            // The target is gone: a defending player has lost it.
            return Some(Judgement::Wrong { refutation: None });
        };
        match theirs.wins? {
            true => {
                let refuting = self.answer(board, opponent)?;
                Some(Judgement::Wrong {
                    refutation: first_point(&refuting),
                })
            }
            false => self.resistance(board, last),
        }
    }

    /// After a right move: the opponent's answer that costs the most
    /// positions to refute, or no answer when none needs one (the opponent
    /// fails even with two moves in a row); `None` when a search is
    /// unsettled.
    fn resistance(&self, board: &Board, last: Point) -> Option<Judgement> {
        let player = self.problem.to_move();
        let opponent = player.opponent();
        let mut hardest: Option<(u64, Point)> = None;
        let mut settled = true;
        for (p, after) in answers(self.problem, board, opponent, last) {
            if won_outright(self.problem, &after, player) {
                continue;
            }
            let Some(ours) = self.proof(&after, player, opponent) else {
                continue;
            };
            ours.wins?;
            if hardest.is_none_or(|(nodes, _)| ours.nodes > nodes) {
                hardest = Some((ours.nodes, p));
            }
            if settled && let Some(twice) = self.proof(&after, opponent, opponent) {
                settled = !twice.wins?;
            }
        }
        Some(Judgement::Right {
            reply: if settled {
                None
            } else {
                hardest.map(|(_, p)| p)
            },
        })
    }
}

/// The opponent's answers looked at after the player's move at `last`:
/// the legal moves inside the region within two points of the target's
/// stones or beside `last` — where a local fight's answers are. Moves
/// further away are not tried as replies, nor in the test that the problem
/// is settled; in a problem's region they neither save nor take the target
/// sooner (a ladder breaker would, and is outside the region).
fn answers(problem: &Problem, board: &Board, mover: Color, last: Point) -> Vec<(Point, Board)> {
    let stones: Vec<Point> = match board.get(problem.target()) {
        Some(_) => board
            .chain(board.index(problem.target()))
            .map(|i| board.point(i))
            .collect(),
        None => Vec::new(),
    };
    let near = |p: Point, q: Point, reach: u8| {
        p.col().abs_diff(q.col()) + p.row().abs_diff(q.row()) <= reach
    };
    problem
        .region()
        .iter()
        .filter(|&p| near(p, last, 1) || stones.iter().any(|&s| near(p, s, 2)))
        .filter_map(|p| Some((p, played(problem, board, p, mover)?)))
        .collect()
}

/// `board` after `mover` plays `p`, if legal.
pub(crate) fn played(problem: &Problem, board: &Board, p: Point, mover: Color) -> Option<Board> {
    let mut next = board.clone();
    let i = next.index(p);
    next.play(i, mover, problem.suicide()).ok()?;
    Some(next)
}

/// The opponent's first move that reaches its aim (outright, else in
/// seki, else by ko).
fn first_point(a: &Answer) -> Option<Point> {
    [&a.winning_moves, &a.seki_moves, &a.ko_moves]
        .into_iter()
        .flatten()
        .find_map(|m| match m {
            Move::Play(p) => Some(*p),
            Move::Pass => None,
        })
}
