//! A token-bucket limit per key (a client address, an account): a burst of
//! `burst` attempts, then one more every `refill`. In memory: a restart
//! forgives, which is harmless for login throttling.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A limit: `burst` attempts at once, one more each `refill`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// Attempts available at once.
    pub burst: u32,
    /// Time to earn one attempt back.
    pub refill: Duration,
}

impl Limit {
    /// `burst` attempts, one more every `refill`.
    #[must_use]
    pub const fn new(burst: u32, refill: Duration) -> Limit {
        Limit { burst, refill }
    }
}

#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Buckets by key.
pub struct RateLimiter {
    limit: Limit,
    buckets: Mutex<HashMap<String, Bucket>>,
}

/// Buckets not touched for this long are full again and can be forgotten.
const SWEEP_EVERY: usize = 4096;

impl RateLimiter {
    /// A limiter with this limit for every key.
    #[must_use]
    pub fn new(limit: Limit) -> RateLimiter {
        RateLimiter {
            limit,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one attempt for `key` at `now`; if none is left, the wait until
    /// one is.
    pub fn attempt(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let Ok(mut buckets) = self.buckets.lock() else {
            return Ok(());
        };
        let burst = f64::from(self.limit.burst);
        let per_sec = 1.0 / self.limit.refill.as_secs_f64().max(1e-3);
        if buckets.len() >= SWEEP_EVERY {
            buckets
                .retain(|_, b| b.tokens + now.duration_since(b.at).as_secs_f64() * per_sec < burst);
        }
        let bucket = buckets.entry(key.to_owned()).or_insert(Bucket {
            tokens: burst,
            at: now,
        });
        let earned = now.duration_since(bucket.at).as_secs_f64() * per_sec;
        bucket.tokens = (bucket.tokens + earned).min(burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / per_sec))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_per_refill_per_key() {
        let limiter = RateLimiter::new(Limit::new(3, Duration::from_secs(10)));
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(limiter.attempt("1.2.3.4", t0).is_ok());
        }
        let wait = limiter.attempt("1.2.3.4", t0).unwrap_err();
        assert_eq!(wait.as_secs(), 10);
        // Another key has its own bucket.
        assert!(limiter.attempt("5.6.7.8", t0).is_ok());
        // Five seconds later half a token is back: still no.
        let wait = limiter
            .attempt("1.2.3.4", t0 + Duration::from_secs(5))
            .unwrap_err();
        assert_eq!(wait.as_secs(), 5);
        // Ten seconds on, one attempt, and only one.
        let t1 = t0 + Duration::from_secs(10);
        assert!(limiter.attempt("1.2.3.4", t1).is_ok());
        assert!(limiter.attempt("1.2.3.4", t1).is_err());
    }
}
