//! Late arrival at the board (Art. 22.1–22.4).
//!
//! While a player has not sat down, his clock is thought of as running from
//! the scheduled start: at double speed under [`LateArrival::DeductTwice`]
//! (the time late is deducted twice), at normal speed under
//! [`LateArrival::ClockRuns`] (按时缺席读秒). When he sits down, that much
//! is charged to his clock as time is charged for a move (main time first,
//! then whole byo-yomi periods). If the charge would use up all his time
//! before he arrives, he loses on time at that instant; beyond the event's
//! limit he forfeits.

use serde::{Deserialize, Serialize};

use crate::{Instant, Millis};

/// An event's rule for players late at the start of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum LateArrival {
    /// Art. 22.1–22.2: the time late is deducted twice from the player's
    /// time; later than `limit` (the limit itself is still allowed: "不得超过
    /// 1小时（含）") he forfeits. Both beyond the limit: both lose (Art. 22.3).
    DeductTwice {
        /// The longest a player may be late.
        limit: Millis,
    },
    /// Art. 22.4, for games with little or no basic time: the absent
    /// player's clock runs (in byo-yomi, when there is no basic time); he may
    /// sit down while it runs, and forfeits when it runs out.
    ClockRuns,
}

impl LateArrival {
    /// Venue and lodging apart: up to 1 hour late (Art. 22.1).
    pub const SEPARATE_VENUE: LateArrival = LateArrival::DeductTwice {
        limit: Millis::from_hours(1),
    };

    /// Venue and lodging together, and online play: up to 15 minutes late
    /// (Art. 22.2).
    pub const SAME_VENUE: LateArrival = LateArrival::DeductTwice {
        limit: Millis::from_mins(15),
    };

    /// How much clock time `late` costs an absent player.
    pub(crate) fn charge(&self, late: Millis) -> Millis {
        match self {
            LateArrival::DeductTwice { .. } => late.saturating_mul(2),
            LateArrival::ClockRuns => late,
        }
    }

    /// When a player still absent loses, given the time `allowance` his
    /// clock holds: the instant and whether it is a forfeit (else a loss on
    /// time). `None`: he can never lose by absence.
    pub(crate) fn expiry(
        &self,
        scheduled: Instant,
        allowance: Option<Millis>,
    ) -> Option<(Instant, Absence)> {
        match *self {
            LateArrival::DeductTwice { limit } => {
                let forfeit = scheduled + limit + Millis::from_millis(1);
                // 2 × late ≥ allowance ⇔ late ≥ ⌈allowance / 2⌉.
                let out =
                    allowance.map(|a| scheduled + Millis::from_millis(a.as_millis().div_ceil(2)));
                Some(match out {
                    Some(out) if out < forfeit => (out, Absence::OutOfTime),
                    _ => (forfeit, Absence::Forfeit),
                })
            }
            LateArrival::ClockRuns => allowance.map(|a| (scheduled + a, Absence::Forfeit)),
        }
    }
}

impl Default for LateArrival {
    /// [`LateArrival::SAME_VENUE`].
    fn default() -> LateArrival {
        LateArrival::SAME_VENUE
    }
}

/// How an absent player loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Absence {
    /// Late beyond the limit, or his absence clock ran out (Art. 22.4).
    Forfeit,
    /// The doubled deduction used up all his time.
    OutOfTime,
}

/// What sitting down cost a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "arrival", rename_all = "snake_case")]
pub enum Arrival {
    /// At or before the scheduled start: nothing charged.
    OnTime,
    /// Late, within the limit.
    Late {
        /// How late.
        late: Millis,
        /// The clock time charged for it (twice `late`, or `late` when his
        /// clock ran).
        charged: Millis,
        /// Byo-yomi periods the charge used up.
        periods_used: u32,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_itself_is_allowed_one_millisecond_more_is_not() {
        let t0 = Instant::from_millis(1_000_000);
        let rule = LateArrival::SEPARATE_VENUE;
        let (at, how) = rule.expiry(t0, Some(Millis::from_hours(3))).unwrap();
        assert_eq!(
            (at, how),
            (t0 + Millis::from_millis(3_600_001), Absence::Forfeit)
        );
    }

    #[test]
    fn doubled_deduction_can_use_up_a_short_game_before_the_limit() {
        let t0 = Instant::from_millis(0);
        // 30 minutes each, 1 hour limit: 15 minutes late costs all 30.
        let (at, how) = LateArrival::SEPARATE_VENUE
            .expiry(t0, Some(Millis::from_mins(30)))
            .unwrap();
        assert_eq!((at, how), (t0 + Millis::from_mins(15), Absence::OutOfTime));
        // An odd allowance: 2 × late must reach it.
        let (at, _) = LateArrival::SAME_VENUE
            .expiry(t0, Some(Millis::from_millis(1001)))
            .unwrap();
        assert_eq!(at, t0 + Millis::from_millis(501));
    }

    #[test]
    fn without_a_clock_only_the_limit_applies() {
        let t0 = Instant::from_millis(0);
        assert_eq!(
            LateArrival::SAME_VENUE.expiry(t0, None),
            Some((t0 + Millis::from_millis(900_001), Absence::Forfeit))
        );
        assert_eq!(LateArrival::ClockRuns.expiry(t0, None), None);
    }
}
