//! The timekeeper's calls in byo-yomi (读秒, Art. 12.3), as typed events at
//! exact instants.
//!
//! For 60-second periods the calls are the rules' own, counted from the
//! start of each period: "30秒", "40秒", "50秒", "55秒", "58秒", then at 60
//! seconds "1分" (a period used) and "还剩×分" (periods left). In the last
//! period: "30秒", "40秒", "50秒", then "1" … "10" one second apart; "10"
//! falls at the instant of the time-out.
//!
//! Other period lengths follow the same principle (Art. 12.3 leaves the
//! details to the event): the calls keep **their distance from the end of
//! the period** — 30, 20, 10, 5 and 2 seconds before it, those that fall
//! inside the period — and the last period ends with the same count to
//! "10" over its last ten seconds (over all of it, if it is shorter). So a
//! 30-second period calls "10秒", "20秒", "25秒", "28秒", "30秒", "还剩×次",
//! and its last period "10秒", "20秒", "1" … "10"; a 10-second period calls
//! "5秒", "8秒", "10秒", and its last period counts "1" … "10". Where the
//! period is not 60 seconds, the period-used call names its length and
//! periods are counted as 次 (times).
//!
//! Per-move time is called as a last period on every move. Moves per
//! period, absolute and Fischer time have no calls in the rules. A player
//! absent under [`crate::LateArrival::ClockRuns`] has his byo-yomi called
//! like a running clock.

use serde::{Deserialize, Serialize};
use shoutan_rules::Color;

use crate::{Clock, Instant, LateArrival, Millis, Status, TimeControl};

/// One call of the timekeeper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Announcement {
    /// When it is called.
    pub at: Instant,
    /// Whose clock it concerns.
    pub player: Color,
    /// What is called.
    pub call: Call,
}

/// What the timekeeper calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "call", rename_all = "snake_case")]
pub enum Call {
    /// "30秒": so many seconds of the current period used.
    Seconds {
        /// Seconds used.
        secs: u32,
    },
    /// "1分": the period is used up ("30秒" for a 30-second period).
    PeriodUsed {
        /// The period's length in seconds.
        period_secs: u32,
    },
    /// "还剩×分": periods left after one was used up.
    PeriodsLeft {
        /// Periods left.
        periods: u32,
        /// The period's length in seconds.
        period_secs: u32,
    },
    /// "1" … "10": the count at the end of the last period; "10" is the
    /// time-out.
    Count {
        /// The number called.
        n: u32,
    },
}

impl Call {
    /// The words in Chinese, as the rules give them.
    #[must_use]
    pub fn text_zh(&self) -> String {
        match *self {
            Call::Seconds { secs } => format!("{secs}秒"),
            Call::PeriodUsed { period_secs: 60 } => "1分".to_owned(),
            Call::PeriodUsed { period_secs } => format!("{period_secs}秒"),
            Call::PeriodsLeft {
                periods,
                period_secs: 60,
            } => format!("还剩{periods}分"),
            Call::PeriodsLeft { periods, .. } => format!("还剩{periods}次"),
            Call::Count { n } => n.to_string(),
        }
    }

    /// The words in English.
    #[must_use]
    pub fn text_en(&self) -> String {
        let plural =
            |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        match *self {
            Call::Seconds { secs } => plural(secs, "second", "seconds"),
            Call::PeriodUsed { period_secs: 60 } => "1 minute".to_owned(),
            Call::PeriodUsed { period_secs } => plural(period_secs, "second", "seconds"),
            Call::PeriodsLeft {
                periods,
                period_secs: 60,
            } => format!("{} left", plural(periods, "minute", "minutes")),
            Call::PeriodsLeft { periods, .. } => {
                format!("{} left", plural(periods, "period", "periods"))
            }
            Call::Count { n } => n.to_string(),
        }
    }
}

impl Announcement {
    /// The words in Chinese.
    #[must_use]
    pub fn text_zh(&self) -> String {
        self.call.text_zh()
    }

    /// The words in English.
    #[must_use]
    pub fn text_en(&self) -> String {
        self.call.text_en()
    }
}

/// The calls of one period, as (seconds from its start, call): `secs`
/// long, the last one or with `left_after` periods after it.
fn period_calls(secs: u32, last: bool, left_after: u32) -> Vec<(u32, Call)> {
    let before_end: &[u32] = if last {
        &[30, 20, 10]
    } else {
        &[30, 20, 10, 5, 2]
    };
    let mut calls: Vec<(u32, Call)> = before_end
        .iter()
        .filter(|&&d| secs > d)
        .map(|&d| (secs - d, Call::Seconds { secs: secs - d }))
        .collect();
    if last {
        calls.extend(
            (1..=10u32)
                .filter(|&n| secs + n > 10)
                .map(|n| (secs + n - 10, Call::Count { n })),
        );
    } else {
        calls.push((secs, Call::PeriodUsed { period_secs: secs }));
        calls.push((
            secs,
            Call::PeriodsLeft {
                periods: left_after,
                period_secs: secs,
            },
        ));
    }
    calls
}

/// One clock counted in byo-yomi: `player`'s time runs from `since`, with
/// `banked` of the turn used before; the byo-yomi starts once `main` of
/// the turn is used, and has `periods` of `period`.
struct Countdown {
    player: Color,
    since: Instant,
    banked: Millis,
    main: Millis,
    periods: u32,
    period: Millis,
}

impl Countdown {
    /// The calls at turn times in `(lo, hi]`.
    fn calls(&self, lo: Millis, hi: Millis) -> Vec<Announcement> {
        let secs = u32::try_from(self.period.whole_secs()).unwrap_or(u32::MAX);
        let first = lo
            .checked_sub(self.main)
            .map_or(0, |into| into.div_rem(self.period).0);
        let first = u32::try_from(first).unwrap_or(u32::MAX);
        let mut out = Vec::new();
        for i in first..self.periods {
            let start = self.main + self.period.saturating_mul(u64::from(i));
            if start >= hi {
                break;
            }
            let left_after = self.periods - 1 - i;
            for (offset, call) in period_calls(secs, left_after == 0, left_after) {
                let turn_time = start + Millis::from_secs(u64::from(offset));
                if turn_time > lo && turn_time <= hi {
                    out.push(Announcement {
                        at: self.since + (turn_time - self.banked),
                        player: self.player,
                        call,
                    });
                }
            }
        }
        out
    }

    /// The turn time at instant `at` (never before the turn's banked time:
    /// calls before a pause were made before it).
    fn turn_time(&self, at: Instant) -> Millis {
        self.banked + (at - self.since)
    }
}

impl Clock {
    /// The calls made after `from`, up to and including `to`, in order
    /// (calls at the same instant: "1分" before "还剩×分", black before
    /// white). They follow the clock as it is: a move, pause or flag
    /// changes what comes next, so ask again after each. A call at the very
    /// instant of a move belongs before it (a move at exactly 60 seconds has
    /// used the minute).
    ///
    /// ```
    /// use shoutan_clock::{ByoYomi, Clock, ClockOptions, Instant, Millis, TimeControl};
    /// use shoutan_rules::Color;
    /// let control = TimeControl::from(ByoYomi::new(Millis::ZERO, 5, Millis::from_secs(60)).unwrap());
    /// let mut clock = Clock::new(control, ClockOptions::default()).unwrap();
    /// let t0 = Instant::from_millis(0);
    /// clock.start(Color::Black, t0).unwrap();
    /// let calls: Vec<String> = clock
    ///     .announcements_between(t0, t0 + Millis::from_secs(60))
    ///     .iter()
    ///     .map(|a| a.text_zh())
    ///     .collect();
    /// assert_eq!(calls, ["30秒", "40秒", "50秒", "55秒", "58秒", "1分", "还剩4分"]);
    /// ```
    #[must_use]
    pub fn announcements_between(&self, from: Instant, to: Instant) -> Vec<Announcement> {
        let mut calls: Vec<Announcement> = self
            .countdowns()
            .iter()
            .flat_map(|c| c.calls(c.turn_time(from), c.turn_time(to)))
            .collect();
        calls.sort_by_key(|a| (a.at, a.player));
        calls
    }

    /// The first call after `after`, for setting a timer. Several calls
    /// may share its instant: fetch them all with
    /// `announcements_between(after, next.at)`.
    #[must_use]
    pub fn next_announcement(&self, after: Instant) -> Option<Announcement> {
        self.countdowns()
            .iter()
            .filter_map(|c| {
                // Every period has a call, so the next one is at most two
                // periods past the end of the main time or `after`.
                let lo = c.turn_time(after);
                let hi = lo.max(c.main) + c.period.saturating_mul(2);
                c.calls(lo, hi).into_iter().next()
            })
            .min_by_key(|a| (a.at, a.player))
    }

    /// The clocks being counted in byo-yomi now.
    fn countdowns(&self) -> Vec<Countdown> {
        let control = self.control();
        let countdown = |player: Color, since: Instant, banked: Millis| {
            let time = self.time(player);
            let (periods, period) = match control {
                TimeControl::ByoYomi(b) => (time.periods, b.period()),
                TimeControl::PerMove(p) => (1, p.time()),
                _ => return None,
            };
            Some(Countdown {
                player,
                since,
                banked,
                main: time.main,
                periods,
                period,
            })
        };
        match *self.status() {
            Status::Running {
                player,
                since,
                banked,
            } => countdown(player, since, banked).into_iter().collect(),
            Status::AwaitingPlayers {
                scheduled, seated, ..
            } if self.options().late_arrival == LateArrival::ClockRuns => Color::ALL
                .into_iter()
                .filter(|&p| seated[p].is_none())
                .filter_map(|p| countdown(p, scheduled, Millis::ZERO))
                .collect(),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(secs: u32, last: bool, left_after: u32) -> Vec<(u32, String)> {
        period_calls(secs, last, left_after)
            .into_iter()
            .map(|(at, call)| (at, call.text_zh()))
            .collect()
    }

    #[test]
    fn scaled_calls_keep_their_distance_from_the_end() {
        let s = |v: &[(u32, &str)]| {
            v.iter()
                .map(|&(t, c)| (t, c.to_owned()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            texts(30, false, 2),
            s(&[
                (10, "10秒"),
                (20, "20秒"),
                (25, "25秒"),
                (28, "28秒"),
                (30, "30秒"),
                (30, "还剩2次")
            ])
        );
        assert_eq!(
            texts(10, false, 1),
            s(&[(5, "5秒"), (8, "8秒"), (10, "10秒"), (10, "还剩1次")])
        );
        let last30: Vec<_> = texts(30, true, 0);
        assert_eq!(
            &last30[..3],
            &s(&[(10, "10秒"), (20, "20秒"), (21, "1")])[..]
        );
        assert_eq!(last30.last(), Some(&(30, "10".to_owned())));
        let last10 = texts(10, true, 0);
        assert_eq!(last10.first(), Some(&(1, "1".to_owned())));
        assert_eq!(last10.len(), 10);
        let last5 = texts(5, true, 0);
        assert_eq!(
            last5,
            s(&[(1, "6"), (2, "7"), (3, "8"), (4, "9"), (5, "10")])
        );
    }

    #[test]
    fn english_words() {
        assert_eq!(Call::Seconds { secs: 30 }.text_en(), "30 seconds");
        assert_eq!(Call::PeriodUsed { period_secs: 60 }.text_en(), "1 minute");
        assert_eq!(
            Call::PeriodsLeft {
                periods: 1,
                period_secs: 60
            }
            .text_en(),
            "1 minute left"
        );
        assert_eq!(
            Call::PeriodsLeft {
                periods: 3,
                period_secs: 30
            }
            .text_en(),
            "3 periods left"
        );
        assert_eq!(Call::Count { n: 7 }.text_en(), "7");
    }
}
