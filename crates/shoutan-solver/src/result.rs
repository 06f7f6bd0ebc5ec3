//! What a solve found: for each side moving first, whether it reaches its
//! aim, and with which first moves.

use serde::Serialize;
use shoutan_rules::{Color, Move};

use crate::Problem;

/// The outcome for the player moving first, from their point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// They reach their aim even if the opponent has unlimited ko threats.
    Win,
    /// They reach it only by winning a ko: they win when they have
    /// unlimited ko threats and lose when the opponent has.
    Ko,
    /// They keep the group, but only in seki: the defender's outcome when
    /// it survives outright yet cannot force unconditional life. (An
    /// attacker held to seki has failed: [`Verdict::Lose`].)
    Seki,
    /// They fail even with unlimited ko threats.
    Lose,
    /// The budget ran out before a proof.
    Unknown,
}

/// The most ko threats a ko is counted up to; a ko that asks more of its
/// finder is told as asking more than this.
pub const MAX_KO_THREATS: u8 = 4;

/// What a ko asks of the two sides, found by searching it again with the
/// threats counted: the side that loses it when neither side has a threat
/// must find them, and needs this many more than its opponent has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Ko {
    /// The side that must find ko threats.
    pub finder: Color,
    /// How many more threats than its opponent the finder needs: 1 in a
    /// direct ko (紧劫), n + 1 in an approach ko (缓n气劫) in which it must
    /// first play n approach moves; `None` when more than
    /// [`MAX_KO_THREATS`].
    pub threats: Option<u8>,
}

impl Ko {
    /// The approach moves the finder must play before the ko is direct: 0
    /// in a direct ko, `None` when the threats were too many to count.
    #[must_use]
    pub fn approach_moves(&self) -> Option<u8> {
        self.threats.map(|t| t - 1)
    }

    /// The ko `mover` reaches, counted from `wins(holder, n)`: whether the
    /// mover wins it when `holder` has `n` threats and the other side none.
    /// The side that loses it with no threats on either side must find
    /// them, and the count is the fewest with which it wins. `None` when a
    /// `wins` it asks is not known.
    ///
    /// ```
    /// use shoutan_rules::Color;
    /// use shoutan_solver::Ko;
    /// // White wins the ko black reaches once white has two threats.
    /// let ko = Ko::counted(Color::Black, |holder, n| {
    ///     Some(!(holder == Color::White && n >= 2))
    /// });
    /// assert_eq!(ko, Some(Ko { finder: Color::White, threats: Some(2) }));
    /// ```
    pub fn counted(mover: Color, mut wins: impl FnMut(Color, u8) -> Option<bool>) -> Option<Ko> {
        let finder = if wins(mover, 0)? {
            mover.opponent()
        } else {
            mover
        };
        // The finder's opponent keeps winning while the finder has too few.
        for t in 1..=MAX_KO_THREATS {
            if wins(finder, t)? == (finder == mover) {
                return Some(Ko {
                    finder,
                    threats: Some(t),
                });
            }
        }
        Some(Ko {
            finder,
            threats: None,
        })
    }

    /// What this ko asks of `mover`, who reaches it: the threats he must
    /// find, or minus those his opponent must (more than
    /// [`MAX_KO_THREATS`] counted as one more). Of his kos, the one asking
    /// least is his best.
    #[must_use]
    pub fn asked_of(&self, mover: Color) -> i16 {
        let threats = i16::from(self.threats.unwrap_or(MAX_KO_THREATS + 1));
        if self.finder == mover {
            threats
        } else {
            -threats
        }
    }
}

/// The result for one side moving first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The player moving first.
    pub mover: Color,
    /// The outcome for them.
    pub verdict: Verdict,
    /// Every first move that wins outright (a pass when tenuki does); for
    /// the defender, those that reach unconditional life.
    pub winning_moves: Vec<Move>,
    /// The defender's first moves that keep the group outright, but only
    /// in seki (always empty for the attacker).
    pub seki_moves: Vec<Move>,
    /// Every first move that wins only a ko (for the defender: keeps the
    /// group only by winning a ko, in life or in seki).
    pub ko_moves: Vec<Move>,
    /// First moves the budget left undecided: while there are any, the
    /// three lists above may be incomplete.
    pub unknown_moves: Vec<Move>,
    /// The ko of the move in `ko_moves` that asks least of the mover, when
    /// the verdict is [`Verdict::Ko`] or [`Verdict::Seki`] (the defender
    /// may then try for life by a ko, and a pass, which only waits, is no
    /// try); `None` otherwise, or when the budget ran out before its
    /// threats were counted.
    pub ko: Option<Ko>,
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

/// A solution as `shoutan solve --json` prints it and the server answers
/// it: the group, whether its opponent moving first kills it and how,
/// whether its owner moving first saves it and how, and the work done.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// A stone of the group, in GTP notation.
    pub group: String,
    /// The outcome for the attacker moving first.
    pub to_kill: Verdict,
    /// Its first moves that kill: outright when there are any, else those
    /// that win a ko.
    pub kill: Vec<String>,
    /// The outcome for the defender moving first.
    pub to_live: Verdict,
    /// Its first moves that save the group: those that make it live when
    /// there are any, else those that keep it in seki, else those that win
    /// a ko.
    pub live: Vec<String>,
    /// Positions searched for both.
    pub nodes: u64,
    /// Milliseconds spent for both.
    pub ms: u64,
}

impl Solution {
    /// Whether the fight is a ten-thousand-year ko (万年劫): left alone the
    /// group lives in seki, and whichever side starts the ko must find the
    /// threats to win it, so neither wants to.
    #[must_use]
    pub fn is_ten_thousand_year_ko(&self) -> bool {
        let starter_finds = |a: &Answer, verdict: Verdict| {
            a.verdict == verdict && a.ko.is_some_and(|ko| ko.finder == a.mover)
        };
        let (one, other) = (&self.first, &self.second);
        (starter_finds(one, Verdict::Ko) && starter_finds(other, Verdict::Seki))
            || (starter_finds(one, Verdict::Seki) && starter_finds(other, Verdict::Ko))
    }

    /// The answer for `mover` playing first.
    #[must_use]
    pub fn of(&self, mover: Color) -> &Answer {
        if self.first.mover == mover {
            &self.first
        } else {
            &self.second
        }
    }

    /// The summary of this solution of `problem`.
    #[must_use]
    pub fn summary(&self, problem: &Problem) -> Summary {
        let size = problem.board().size();
        let (kill, live) = (self.of(problem.attacker()), self.of(problem.defender()));
        let moves = |a: &Answer| {
            let reaching = match a.verdict {
                Verdict::Win => &a.winning_moves,
                Verdict::Seki => &a.seki_moves,
                Verdict::Ko => &a.ko_moves,
                Verdict::Lose | Verdict::Unknown => return Vec::new(),
            };
            reaching.iter().map(|m| m.to_gtp(size)).collect()
        };
        Summary {
            group: problem.target().to_gtp(size),
            to_kill: kill.verdict,
            kill: moves(kill),
            to_live: live.verdict,
            live: moves(live),
            nodes: kill.nodes + live.nodes,
            ms: kill.millis + live.millis,
        }
    }
}
