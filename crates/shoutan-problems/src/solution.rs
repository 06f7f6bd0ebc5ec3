//! A problem's solution as a variation tree, the way problem books print
//! it: each right first move with the line the judge plays out (the
//! opponent's strongest resistance and the player's answer, to the end),
//! and the tempting wrong first moves — the target's liberties and the
//! points beside the answer — with the refutation that punishes them.

use serde::Serialize;
use shoutan_rules::{Board, Point};
use shoutan_solver::{Problem, Verdict};

use crate::attempt::{Judge, Judgement, MAX_LINE, played};

/// Wrong first moves shown at most.
const WRONG_SHOWN: usize = 3;

/// A move of the solution and what follows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Variation {
    /// The move, in GTP notation.
    #[serde(rename = "move")]
    pub point: String,
    /// For the player's first moves: whether it is right.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correct: Option<bool>,
    /// The moves that follow.
    pub children: Vec<Variation>,
}

/// The solution tree of `problem` whose right first moves are `answers`.
#[must_use]
pub fn solution(problem: &Problem, answers: &[Point]) -> Vec<Variation> {
    let judge = Judge::new(problem);
    let player = problem.to_move();
    let size = problem.board().size();
    let mut tree = Vec::new();
    for &first in answers {
        let Some(board) = played(problem, problem.board(), first, player) else {
            continue;
        };
        tree.push(Variation {
            point: first.to_gtp(size),
            correct: Some(true),
            children: main_line(&judge, problem, board, first, 1),
        });
    }
    for p in tempting(problem, answers) {
        if tree.len() >= answers.len() + WRONG_SHOWN {
            break;
        }
        let Some(board) = played(problem, problem.board(), p, player) else {
            continue;
        };
        if let Some(Judgement::Wrong { refutation }) = judge.after_move(&board, p) {
            tree.push(Variation {
                point: p.to_gtp(size),
                correct: Some(false),
                children: refutation
                    .map(|r| leaf(r.to_gtp(size)))
                    .into_iter()
                    .collect(),
            });
        }
    }
    tree
}

/// The line after the player's right move made `board` (`ply` moves
/// played): the judge's reply, the player's first right answer, and on.
fn main_line(
    judge: &Judge,
    problem: &Problem,
    board: Board,
    last: Point,
    ply: usize,
) -> Vec<Variation> {
    let player = problem.to_move();
    let size = board.size();
    if ply + 2 > MAX_LINE {
        return Vec::new();
    }
    let Some(Judgement::Right { reply: Some(reply) }) = judge.after_move(&board, last) else {
        return Vec::new();
    };
    let Some(answered) = played(problem, &board, reply, player.opponent()) else {
        return Vec::new();
    };
    let next = next_right(judge, problem, &answered).map(|(p, after)| Variation {
        point: p.to_gtp(size),
        correct: None,
        children: main_line(judge, problem, after, p, ply + 2),
    });
    vec![Variation {
        point: reply.to_gtp(size),
        correct: None,
        children: next.into_iter().collect(),
    }]
}

/// The player's first move at `board` that the judge calls right.
fn next_right(judge: &Judge, problem: &Problem, board: &Board) -> Option<(Point, Board)> {
    let player = problem.to_move();
    let answer = judge.answer(board, player)?;
    if answer.verdict != Verdict::Win {
        return None;
    }
    answer.winning_moves.iter().find_map(|m| {
        let shoutan_rules::Move::Play(p) = *m else {
            return None;
        };
        let after = played(problem, board, p, player)?;
        matches!(judge.after_move(&after, p), Some(Judgement::Right { .. })).then_some((p, after))
    })
}

/// The wrong first moves a player is likely to try: the target's
/// liberties, then the points beside the answers, in the region.
fn tempting(problem: &Problem, answers: &[Point]) -> Vec<Point> {
    let board = problem.board();
    let size = board.size();
    let target = board.index(problem.target());
    let mut out: Vec<Point> = board
        .liberties(target)
        .into_iter()
        .map(|l| board.point(l))
        .collect();
    for a in answers {
        out.extend(a.neighbors(size));
    }
    let mut seen = Vec::new();
    out.retain(|p| {
        let fresh = !answers.contains(p)
            && !seen.contains(p)
            && problem.region().contains(*p)
            && board.get(*p).is_none();
        seen.push(*p);
        fresh
    });
    out
}

fn leaf(point: String) -> Variation {
    Variation {
        point,
        correct: None,
        children: Vec::new(),
    }
}
