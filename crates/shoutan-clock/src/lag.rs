//! Lag compensation for online play: measured network delay is credited
//! back from a bounded per-player quota, so a slow connection is not robbed
//! and a lying client cannot gain more than the quota.
//!
//! For each move, with `lag` the delay the server measured (or the client
//! claimed) and `elapsed` the time the clock ran for the move:
//!
//! ```text
//! credit = min(lag, max_credit, quota, elapsed)
//! quota' = min(quota − credit + quota_gain, max_quota)
//! ```
//!
//! The quota starts at `initial_quota`. Over n moves a player can gain at
//! most `initial_quota + (n − 1) × quota_gain`, never more than
//! `max_credit` on one move, whatever he claims. This is the scheme of
//! Lichess's lag tracker (scalachess `LagTracker`), whose defaults are ours.

use serde::{Deserialize, Serialize};

use crate::Millis;

/// The settings of lag compensation.
///
/// ```
/// use shoutan_clock::{LagPolicy, Millis};
/// let policy = LagPolicy::default();
/// // A client claims 10 s of lag on its first move, which took 12 s.
/// let credit = policy.credit(policy.initial_quota, Millis::from_secs(10), Millis::from_secs(12));
/// assert_eq!(credit.credit, Millis::from_secs(2)); // the whole initial quota, no more
/// assert_eq!(credit.quota_after, Millis::from_secs(1)); // refilled by one gain
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LagPolicy {
    /// The quota each player starts with.
    pub initial_quota: Millis,
    /// Added to the quota after every move.
    pub quota_gain: Millis,
    /// The quota never exceeds this.
    pub max_quota: Millis,
    /// The most credited on one move.
    pub max_credit: Millis,
}

impl Default for LagPolicy {
    /// Lichess's values: 2 s to start, 1 s gained per move, at most 5 s in
    /// hand and 3 s per move.
    fn default() -> LagPolicy {
        LagPolicy {
            initial_quota: Millis::from_secs(2),
            quota_gain: Millis::from_secs(1),
            max_quota: Millis::from_secs(5),
            max_credit: Millis::from_secs(3),
        }
    }
}

/// The outcome of the formula for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LagCredit {
    /// Time given back to the player for this move.
    pub credit: Millis,
    /// The player's quota for his next move.
    pub quota_after: Millis,
}

impl LagPolicy {
    /// The formula (see the module documentation): the credit for a move
    /// that took `elapsed` with measured `lag`, from a player holding
    /// `quota`.
    #[must_use]
    pub fn credit(&self, quota: Millis, lag: Millis, elapsed: Millis) -> LagCredit {
        let credit = lag.min(self.max_credit).min(quota).min(elapsed);
        LagCredit {
            credit,
            quota_after: (quota - credit + self.quota_gain).min(self.max_quota),
        }
    }

    /// The most the next move can be credited, holding `quota`: how long
    /// past the deadline a server should wait for a delayed move.
    #[must_use]
    pub fn max_next_credit(&self, quota: Millis) -> Millis {
        quota.min(self.max_credit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credit_is_bounded_by_lag_cap_quota_and_elapsed() {
        let p = LagPolicy::default();
        let ms = Millis::from_millis;
        // (quota, lag, elapsed) → (credit, quota after)
        let cases = [
            ((2000, 300, 5000), (300, 2700)), // honest small lag: all of it, quota grows
            ((5000, 9000, 9000), (3000, 3000)), // per-move cap
            ((1000, 2500, 9000), (1000, 1000)), // quota runs dry
            ((2000, 800, 500), (500, 2500)),  // never more than the move took
            ((4800, 0, 1000), (0, 5000)),     // quota capped at its maximum
        ];
        for ((quota, lag, elapsed), (credit, after)) in cases {
            let got = p.credit(ms(quota), ms(lag), ms(elapsed));
            assert_eq!(
                got,
                LagCredit {
                    credit: ms(credit),
                    quota_after: ms(after)
                },
                "{quota} {lag} {elapsed}"
            );
        }
    }
}
