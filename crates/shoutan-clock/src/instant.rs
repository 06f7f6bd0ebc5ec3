//! Instants: the timestamps the caller gives the clock.

use std::fmt;
use std::ops::{Add, Sub};

use serde::{Deserialize, Serialize};

use crate::Millis;

/// A moment, in milliseconds from an origin the caller chooses (the Unix
/// epoch, the server's start, the start of a test). The clock never reads
/// the time itself: every operation is told when it happens.
///
/// ```
/// use shoutan_clock::{Instant, Millis};
/// let t0 = Instant::from_millis(1_000);
/// let t1 = t0 + Millis::from_secs(30);
/// assert_eq!(t1 - t0, Millis::from_secs(30));
/// assert_eq!(t0 - t1, Millis::ZERO); // an earlier instant is no time later
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Instant(u64);

impl Instant {
    /// The origin.
    pub const ORIGIN: Instant = Instant(0);

    /// `ms` milliseconds after the origin.
    #[must_use]
    pub const fn from_millis(ms: u64) -> Instant {
        Instant(ms)
    }

    /// Milliseconds since the origin.
    #[must_use]
    pub const fn as_millis(self) -> u64 {
        self.0
    }
}

impl Add<Millis> for Instant {
    type Output = Instant;
    /// Saturates at the last representable instant ("never").
    fn add(self, d: Millis) -> Instant {
        Instant(self.0.saturating_add(d.as_millis()))
    }
}

impl Sub<Millis> for Instant {
    type Output = Instant;
    /// Saturates at the origin.
    fn sub(self, d: Millis) -> Instant {
        Instant(self.0.saturating_sub(d.as_millis()))
    }
}

impl Sub for Instant {
    type Output = Millis;
    /// The time from `earlier` to `self`; zero if `earlier` is not earlier.
    fn sub(self, earlier: Instant) -> Millis {
        Millis::from_millis(self.0.saturating_sub(earlier.0))
    }
}

impl fmt::Display for Instant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ms", self.0)
    }
}
