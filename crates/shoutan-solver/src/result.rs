//! What a solve found: for each side moving first, whether it reaches its
//! aim, and with which first moves.

use shoutan_rules::{Color, Move};

/// The outcome for the player moving first, from their point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// They reach their aim even if the opponent has unlimited ko threats.
    Win,
    /// They reach it only by winning a ko: they win when they have
    /// unlimited ko threats and lose when the opponent has.
    Ko,
    /// They fail even with unlimited ko threats.
    Lose,
    /// The budget ran out before a proof.
    Unknown,
}

/// The result for one side moving first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The player moving first.
    pub mover: Color,
    /// The outcome for them.
    pub verdict: Verdict,
    /// Every first move that wins outright (a pass when tenuki does).
    pub winning_moves: Vec<Move>,
    /// Every first move that wins only a ko.
    pub ko_moves: Vec<Move>,
    /// First moves the budget left undecided: while there are any, the
    /// two lists above may be incomplete.
    pub unknown_moves: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub millis: u64,
}

/// The results for both sides moving first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The problem's player to move plays first.
    pub first: Answer,
    /// Their opponent plays first (what happens if they tenuki now).
    pub second: Answer,
}
