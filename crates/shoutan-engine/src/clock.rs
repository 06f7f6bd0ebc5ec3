//! Time management from the game's clock (`docs/spec/time.md`): the time control
//! agreed for the game, the clock's current reading as GTP's `time_left`
//! gives it, how long to think for the next move, and how a move's time is
//! charged to the clock.

use std::time::Duration;

/// A time control as GTP and KGS describe them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeControl {
    /// No clock.
    #[default]
    None,
    /// Basic time only (包干用时制): running out loses.
    Absolute {
        /// Basic time.
        main: Duration,
    },
    /// Basic time, then `periods` periods of `period` each (读秒): a move
    /// made within a period costs nothing; each period overrun is lost.
    ByoYomi {
        /// Basic time.
        main: Duration,
        /// Length of one period.
        period: Duration,
        /// Number of periods.
        periods: u32,
    },
    /// Basic time, then `stones` moves in each `period` (定时限步制,
    /// Canadian overtime).
    Canadian {
        /// Basic time.
        main: Duration,
        /// Length of one period.
        period: Duration,
        /// Moves to make in each period.
        stones: u32,
    },
}

/// What a player's clock shows, in GTP's `time_left` terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// Basic time left, or the time left in the current period.
    pub time_left: Duration,
    /// 0 in basic time; in overtime, the byo-yomi periods left or the moves
    /// still to make in this Canadian period.
    pub stones: u32,
}

/// The clock ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("time is up")]
pub struct TimeOut;

/// What the network and the process cost on each move, kept in reserve.
const LAG: Duration = Duration::from_millis(250);
/// The least any move is given.
const MIN_THINK: Duration = Duration::from_millis(20);

impl TimeControl {
    /// The reading of a clock that has not started.
    #[must_use]
    pub fn start(&self) -> ClockReading {
        let main = match *self {
            TimeControl::None => Duration::ZERO,
            TimeControl::Absolute { main }
            | TimeControl::ByoYomi { main, .. }
            | TimeControl::Canadian { main, .. } => main,
        };
        if main.is_zero() {
            // No basic time: overtime from the first move.
            match *self {
                TimeControl::ByoYomi {
                    period, periods, ..
                } => {
                    return ClockReading {
                        time_left: period,
                        stones: periods,
                    };
                }
                TimeControl::Canadian { period, stones, .. } => {
                    return ClockReading {
                        time_left: period,
                        stones,
                    };
                }
                _ => {}
            }
        }
        ClockReading {
            time_left: main,
            stones: 0,
        }
    }

    /// How long to think about the next move, given the clock and how many
    /// moves the game has had on a board of `area` points; `None` without a
    /// clock.
    ///
    /// In basic time the time left is shared over the moves the player can
    /// still expect to make (about 45 % of the board's points for each side
    /// in a whole game, never fewer than a tenth), plus part of one period;
    /// in byo-yomi most of a period is used; in Canadian overtime the time
    /// left is shared over the stones left. A reserve for lag is always kept.
    ///
    /// ```
    /// use std::time::Duration;
    /// use shoutan_engine::{ClockReading, TimeControl};
    /// let byo = TimeControl::ByoYomi {
    ///     main: Duration::ZERO,
    ///     period: Duration::from_secs(30),
    ///     periods: 3,
    /// };
    /// let t = byo.think_time(&byo.start(), 120, 361).unwrap();
    /// assert!(t > Duration::from_secs(20) && t < Duration::from_secs(30));
    /// ```
    #[must_use]
    pub fn think_time(
        &self,
        clock: &ClockReading,
        moves_played: usize,
        area: usize,
    ) -> Option<Duration> {
        let expected = (area as f64 * 0.45 - moves_played as f64 / 2.0)
            .max(area as f64 / 10.0)
            .max(1.0);
        let left = clock.time_left.saturating_sub(LAG);
        let share = |extra: Duration| left.div_f64(expected) + extra;
        let t = match *self {
            TimeControl::None => return None,
            TimeControl::Absolute { .. } => share(Duration::ZERO),
            TimeControl::ByoYomi { period, .. } if clock.stones == 0 => {
                share(period.mul_f64(0.5)).min(left + period.mul_f64(0.8))
            }
            TimeControl::ByoYomi { .. } => left.mul_f64(0.85),
            TimeControl::Canadian { period, stones, .. } if clock.stones == 0 => {
                share(period.div_f64(f64::from(stones.max(1))).mul_f64(0.5))
            }
            TimeControl::Canadian { .. } => {
                left.div_f64(f64::from(clock.stones.max(1))).mul_f64(0.9)
            }
        };
        Some(t.max(MIN_THINK))
    }

    /// The clock after a move that took `used`, or the time-out.
    pub fn charge(&self, clock: &ClockReading, used: Duration) -> Result<ClockReading, TimeOut> {
        let overtime = |overrun: Duration| -> Result<ClockReading, TimeOut> {
            match *self {
                TimeControl::None => Ok(*clock),
                TimeControl::Absolute { .. } => Err(TimeOut),
                TimeControl::ByoYomi {
                    period, periods, ..
                } => byo_yomi(period, periods, overrun),
                TimeControl::Canadian { period, stones, .. } => {
                    canadian(period, stones, period, stones, overrun)
                }
            }
        };
        match *self {
            TimeControl::None => Ok(*clock),
            _ if clock.stones == 0 => match clock.time_left.checked_sub(used) {
                Some(left) => Ok(ClockReading {
                    time_left: left,
                    stones: 0,
                }),
                None => overtime(used - clock.time_left),
            },
            TimeControl::ByoYomi { period, .. } => {
                if used <= clock.time_left {
                    Ok(ClockReading {
                        time_left: period,
                        stones: clock.stones,
                    })
                } else {
                    byo_yomi(period, clock.stones, used)
                }
            }
            TimeControl::Canadian { period, stones, .. } => {
                canadian(period, stones, clock.time_left, clock.stones, used)
            }
            TimeControl::Absolute { .. } => Err(TimeOut),
        }
    }
}

/// A move that took `used` in byo-yomi with `periods` left: every full
/// period used up is lost.
fn byo_yomi(period: Duration, periods: u32, used: Duration) -> Result<ClockReading, TimeOut> {
    if period.is_zero() {
        return Err(TimeOut);
    }
    let lost = (used.as_nanos() / period.as_nanos()) as u32;
    if lost >= periods {
        return Err(TimeOut);
    }
    Ok(ClockReading {
        time_left: period,
        stones: periods - lost,
    })
}

/// A move that took `used` in a Canadian period with `time_left` for
/// `stones_left` moves; a completed period starts a fresh one.
fn canadian(
    period: Duration,
    stones: u32,
    time_left: Duration,
    stones_left: u32,
    used: Duration,
) -> Result<ClockReading, TimeOut> {
    let left = time_left.checked_sub(used).ok_or(TimeOut)?;
    if stones_left <= 1 {
        Ok(ClockReading {
            time_left: period,
            stones: stones.max(1),
        })
    } else {
        Ok(ClockReading {
            time_left: left,
            stones: stones_left - 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: u64) -> Duration {
        Duration::from_secs(x)
    }

    #[test]
    fn byo_yomi_periods_are_lost_one_by_one() {
        // docs/spec/time.md §2: basic time, then periods; a move inside a period
        // costs nothing, each full period used costs one.
        let tc = TimeControl::ByoYomi {
            main: s(10),
            period: s(30),
            periods: 3,
        };
        let clock = tc.start();
        assert_eq!(
            clock,
            ClockReading {
                time_left: s(10),
                stones: 0
            }
        );
        let clock = tc.charge(&clock, s(4)).unwrap();
        assert_eq!(clock.time_left, s(6));
        // 6 s of basic time and 35 s more: the first period is used up.
        let clock = tc.charge(&clock, s(41)).unwrap();
        assert_eq!(
            clock,
            ClockReading {
                time_left: s(30),
                stones: 2
            }
        );
        // 29 s within a period costs nothing.
        let clock = tc.charge(&clock, s(29)).unwrap();
        assert_eq!(clock.stones, 2);
        // 61 s uses both remaining periods: time is up.
        assert_eq!(tc.charge(&clock, s(61)), Err(TimeOut));
    }

    #[test]
    fn canadian_periods_restart_after_their_stones() {
        let tc = TimeControl::Canadian {
            main: Duration::ZERO,
            period: s(60),
            stones: 2,
        };
        let clock = tc.start();
        assert_eq!(
            clock,
            ClockReading {
                time_left: s(60),
                stones: 2
            }
        );
        let clock = tc.charge(&clock, s(50)).unwrap();
        assert_eq!(
            clock,
            ClockReading {
                time_left: s(10),
                stones: 1
            }
        );
        assert_eq!(tc.charge(&clock, s(11)), Err(TimeOut));
        let clock = tc.charge(&clock, s(9)).unwrap();
        assert_eq!(
            clock,
            ClockReading {
                time_left: s(60),
                stones: 2
            }
        );
    }

    #[test]
    fn absolute_time_runs_out() {
        let tc = TimeControl::Absolute { main: s(5) };
        let clock = tc.charge(&tc.start(), s(3)).unwrap();
        assert_eq!(tc.charge(&clock, s(3)), Err(TimeOut));
    }

    #[test]
    fn think_time_spreads_basic_time_and_keeps_a_reserve() {
        let tc = TimeControl::Absolute { main: s(600) };
        let early = tc.think_time(&tc.start(), 0, 361).unwrap();
        // 600 s over about 162 moves: between 3 and 4 s.
        assert!(
            early > Duration::from_millis(3000) && early < s(4),
            "{early:?}"
        );
        let nearly_out = ClockReading {
            time_left: Duration::from_millis(300),
            stones: 0,
        };
        let t = tc.think_time(&nearly_out, 100, 361).unwrap();
        assert!(t < Duration::from_millis(100), "{t:?}");
        let canadian = TimeControl::Canadian {
            main: Duration::ZERO,
            period: s(100),
            stones: 10,
        };
        let t = canadian
            .think_time(
                &ClockReading {
                    time_left: s(50),
                    stones: 5,
                },
                50,
                81,
            )
            .unwrap();
        assert!(t > s(8) && t < s(10), "{t:?}");
        assert_eq!(
            TimeControl::None.think_time(
                &ClockReading {
                    time_left: s(1),
                    stones: 0
                },
                0,
                81
            ),
            None
        );
    }
}
