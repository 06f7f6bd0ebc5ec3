//! Flags: a clock running out, and what it means for the game.

use serde::{Deserialize, Serialize};
use shoutan_rules::Color;

use crate::Instant;

/// What a time-out in byo-yomi means (Art. 22.5), a per-game option.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeOutRule {
    /// 超时判负: running out loses.
    #[default]
    Lose,
    /// Art. 22.5: running out in the last period of byo-yomi (or of per-move
    /// time) counts as a pass (弃权一次) instead, and play goes on under the
    /// same byo-yomi. Other systems still lose on time.
    Pass,
}

/// A clock that ran out, at the exact instant it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "flag", rename_all = "snake_case")]
pub enum Flag {
    /// 超时判负: the player ran out of time and loses.
    TimeOut {
        /// Who ran out.
        player: Color,
        /// When.
        at: Instant,
    },
    /// Art. 22.5: the player ran out in his last period; this counts as a
    /// pass (record it in the game) and the opponent's clock now runs.
    TimeOutPass {
        /// Who passes.
        player: Color,
        /// When.
        at: Instant,
    },
    /// The player did not sit down in time (Art. 22.1–22.2, 22.4) and
    /// loses by forfeit.
    Forfeit {
        /// Who forfeits.
        player: Color,
        /// When.
        at: Instant,
    },
    /// Neither player sat down in time: both lose (Art. 22.3).
    BothForfeit {
        /// When.
        at: Instant,
    },
}

impl Flag {
    /// The instant the clock ran out.
    #[must_use]
    pub fn at(&self) -> Instant {
        match *self {
            Flag::TimeOut { at, .. }
            | Flag::TimeOutPass { at, .. }
            | Flag::Forfeit { at, .. }
            | Flag::BothForfeit { at } => at,
        }
    }

    /// True if the flag ends the game (all but Art. 22.5's pass).
    #[must_use]
    pub fn ends_game(&self) -> bool {
        !matches!(self, Flag::TimeOutPass { .. })
    }

    /// The loser, if the flag makes exactly one.
    #[must_use]
    pub fn loser(&self) -> Option<Color> {
        match *self {
            Flag::TimeOut { player, .. } | Flag::Forfeit { player, .. } => Some(player),
            Flag::TimeOutPass { .. } | Flag::BothForfeit { .. } => None,
        }
    }
}

impl std::fmt::Display for Flag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Flag::TimeOut { player, at } => write!(f, "{player} ran out of time at {at}"),
            Flag::TimeOutPass { player, at } => {
                write!(f, "{player} ran out of time at {at}: a pass (Art. 22.5)")
            }
            Flag::Forfeit { player, at } => write!(f, "{player} forfeits for absence at {at}"),
            Flag::BothForfeit { at } => write!(f, "both players forfeit for absence at {at}"),
        }
    }
}
