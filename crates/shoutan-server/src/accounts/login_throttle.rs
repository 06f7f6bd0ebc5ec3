//! Failed logins slow down the one who fails, not the account: attempts are
//! counted per account *and* client address together, and past a few free
//! ones each next attempt from that pair must wait twice as long as the one
//! before (up to a cap). Someone guessing a player's password from one
//! address therefore never keeps the player, at another address, from
//! logging in with the right one. A success forgets the pair. Spraying many
//! accounts from one address is the per-address rate limit's to stop.
//!
//! In memory: a restart forgives, which is harmless for throttling.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::net::connections::AddressKey;

/// How the wait grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    /// Attempts a pair may make without waiting (typos happen).
    pub free: u32,
    /// The wait after the first attempt beyond the free ones; it doubles
    /// with each further one.
    pub first: Duration,
    /// The longest wait.
    pub cap: Duration,
    /// A pair left alone this long starts afresh.
    pub forget: Duration,
}

impl Default for Backoff {
    /// Five free attempts, then 1 s, 2 s, 4 s … up to 15 minutes; a pair
    /// is forgotten after a quiet hour.
    fn default() -> Backoff {
        Backoff {
            free: 5,
            first: Duration::from_secs(1),
            cap: Duration::from_secs(15 * 60),
            forget: Duration::from_secs(3600),
        }
    }
}

impl Backoff {
    /// The wait after the `attempts`-th attempt.
    fn wait_after(&self, attempts: u32) -> Duration {
        match attempts.checked_sub(self.free) {
            None | Some(0) => Duration::ZERO,
            Some(beyond) => {
                let doublings = (beyond - 1).min(31);
                self.first.saturating_mul(1 << doublings).min(self.cap)
            }
        }
    }
}

#[derive(Clone, Copy)]
struct Pair {
    attempts: u32,
    last: Instant,
}

/// The pairs remembered at most; past this, new pairs are not throttled
/// (the per-address limit still holds) rather than the memory growing.
const MAX_PAIRS: usize = 100_000;
/// Pairs are swept for forgotten ones when there are this many.
const SWEEP_AT: usize = 4096;

/// Login attempts by (account, address).
pub struct LoginThrottle {
    backoff: Backoff,
    pairs: Mutex<HashMap<(String, AddressKey), Pair>>,
}

impl LoginThrottle {
    /// A throttle with this backoff.
    #[must_use]
    pub fn new(backoff: Backoff) -> LoginThrottle {
        LoginThrottle {
            backoff,
            pairs: Mutex::new(HashMap::new()),
        }
    }

    /// Records an attempt on `account` (its name key) from `address` at
    /// `now`, or, if the pair must still wait, how long. An attempt counts
    /// as it starts, so a burst of parallel guesses is throttled too.
    pub fn attempt(
        &self,
        account: &str,
        address: AddressKey,
        now: Instant,
    ) -> Result<(), Duration> {
        let Ok(mut pairs) = self.pairs.lock() else {
            return Ok(());
        };
        let forget = self.backoff.forget;
        if pairs.len() >= SWEEP_AT {
            pairs.retain(|_, p| now.duration_since(p.last) < forget);
        }
        let key = (account.to_owned(), address);
        if pairs.len() >= MAX_PAIRS && !pairs.contains_key(&key) {
            return Ok(());
        }
        let pair = pairs.entry(key).or_insert(Pair {
            attempts: 0,
            last: now,
        });
        let since = now.duration_since(pair.last);
        if since >= forget {
            pair.attempts = 0;
        }
        let wait = self.backoff.wait_after(pair.attempts);
        if pair.attempts > 0 && since < wait {
            return Err(wait - since);
        }
        pair.attempts += 1;
        pair.last = now;
        Ok(())
    }

    /// The right password: the pair starts afresh.
    pub fn succeeded(&self, account: &str, address: AddressKey) {
        if let Ok(mut pairs) = self.pairs.lock() {
            pairs.remove(&(account.to_owned(), address));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_per_pair_and_never_touch_another_address() {
        let key = |ip: &str| AddressKey::of(ip.parse().unwrap());
        let (guesser, owner) = (key("203.0.113.9"), key("198.51.100.7"));
        let throttle = LoginThrottle::new(Backoff::default());
        let t0 = Instant::now();
        for _ in 0..5 {
            assert!(throttle.attempt("ke jie", guesser, t0).is_ok());
        }
        // The sixth attempt is free too (it is the first beyond the free
        // ones); the seventh must wait a second, the eighth two, then four.
        assert!(throttle.attempt("ke jie", guesser, t0).is_ok());
        assert_eq!(
            throttle.attempt("ke jie", guesser, t0),
            Err(Duration::from_secs(1))
        );
        let mut t = t0 + Duration::from_secs(1);
        assert!(throttle.attempt("ke jie", guesser, t).is_ok());
        assert_eq!(
            throttle.attempt("ke jie", guesser, t),
            Err(Duration::from_secs(2))
        );
        t += Duration::from_secs(2);
        assert!(throttle.attempt("ke jie", guesser, t).is_ok());
        assert_eq!(
            throttle.attempt("ke jie", guesser, t + Duration::from_secs(1)),
            Err(Duration::from_secs(3))
        );
        // The owner, elsewhere, is never held up; another account from the
        // guesser's address neither.
        assert!(throttle.attempt("ke jie", owner, t).is_ok());
        assert!(throttle.attempt("lee", guesser, t).is_ok());
        // The wait is capped.
        for _ in 0..40 {
            t += Duration::from_secs(15 * 60);
            assert!(throttle.attempt("ke jie", guesser, t).is_ok());
        }
        assert_eq!(
            throttle.attempt("ke jie", guesser, t),
            Err(Duration::from_secs(15 * 60))
        );
        // A success forgets the pair; so does a quiet hour.
        throttle.succeeded("ke jie", guesser);
        assert!(throttle.attempt("ke jie", guesser, t).is_ok());
        for _ in 0..6 {
            let _ = throttle.attempt("lee", guesser, t);
        }
        assert!(throttle.attempt("lee", guesser, t).is_err());
        assert!(
            throttle
                .attempt("lee", guesser, t + Duration::from_secs(3600))
                .is_ok()
        );
    }
}
