//! The server's clock: wall-clock milliseconds since the Unix epoch that
//! never go backwards, so that an NTP step cannot make a game's clock see
//! time run backwards (which [`shoutan_clock::Clock`] refuses).

use std::sync::atomic::{AtomicU64, Ordering};

use shoutan_clock::Instant;

static LAST: AtomicU64 = AtomicU64::new(0);

/// Now, as an instant for the game clocks: the wall clock, or the last
/// instant handed out if the wall clock went back.
#[must_use]
pub fn now() -> Instant {
    let wall = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    let previous = LAST.fetch_max(wall, Ordering::Relaxed);
    Instant::from_millis(previous.max(wall))
}

/// Now, in milliseconds since the Unix epoch, as the store keeps instants.
#[must_use]
pub fn now_millis() -> i64 {
    millis(now())
}

/// An instant as the store keeps it.
#[must_use]
pub fn millis(at: Instant) -> i64 {
    i64::try_from(at.as_millis()).unwrap_or(i64::MAX)
}

/// A stored instant as the clocks take it (instants before the epoch are
/// the epoch).
#[must_use]
pub fn instant(ms: i64) -> Instant {
    Instant::from_millis(u64::try_from(ms).unwrap_or(0))
}

/// The tokio deadline for a clock instant.
#[must_use]
pub fn deadline(at: Instant) -> tokio::time::Instant {
    let from_now = at - now();
    tokio::time::Instant::now() + std::time::Duration::from_millis(from_now.as_millis())
}

/// An instant (ms since the Unix epoch) as people read it: `2026-12-05
/// 09:30 UTC` (the minute is enough for the end of a mute or a suspension).
#[must_use]
pub fn utc_text(ms: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000) {
        Ok(t) => format!(
            "{}-{:02}-{:02} {:02}:{:02} UTC",
            t.year(),
            u8::from(t.month()),
            t.day(),
            t.hour(),
            t.minute()
        ),
        Err(_) => format!("{ms} ms after 1970"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn now_never_goes_back() {
        let a = now();
        let b = now();
        assert!(b >= a);
        assert!(
            now_millis() > 1_600_000_000_000,
            "the wall clock is in ms since 1970"
        );
        assert_eq!(instant(millis(a)), a);
        assert_eq!(instant(-5), Instant::ORIGIN);
    }

    #[test]
    fn instants_read_as_utc_minutes() {
        assert_eq!(utc_text(1_796_463_000_000), "2026-12-05 09:30 UTC");
        assert_eq!(utc_text(0), "1970-01-01 00:00 UTC");
    }
}
