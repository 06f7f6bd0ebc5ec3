//! Time management from the game's clock (`docs/spec/time.md`): under the
//! game's [`TimeControl`] (the clock crate's, the one authority on time
//! systems), the clock's reading as GTP's `time_left` gives it, how long to
//! think for the next move, and how a move's time is charged to it.

use std::time::Duration;

use shoutan_clock::{Leftover, Millis, MovesPerPeriod, TimeControl};

/// What a player's clock shows, in GTP's `time_left` terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// Basic time left (all the time left under absolute and Fischer time),
    /// or the time left in the current period or for this move.
    pub time_left: Duration,
    /// 0 in basic time; in overtime, the byo-yomi periods left or the moves
    /// still to make in this period; 1 under per-move time, whose every
    /// move is a period of its own.
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

fn duration(ms: Millis) -> Duration {
    Duration::from_millis(ms.as_millis())
}

impl ClockReading {
    /// The reading of a clock under `control` that has not started.
    #[must_use]
    pub fn start(control: &TimeControl) -> ClockReading {
        let (period, stones) = match control {
            TimeControl::ByoYomi(b) => (b.period(), b.periods()),
            TimeControl::MovesPerPeriod(m) => (m.period(), m.moves()),
            TimeControl::PerMove(p) => (p.time(), 1),
            TimeControl::None | TimeControl::Absolute(_) | TimeControl::Fischer(_) => {
                (Millis::ZERO, 0)
            }
        };
        let main = control.main();
        if main.is_zero() && stones > 0 {
            // No basic time: overtime from the first move.
            ClockReading {
                time_left: duration(period),
                stones,
            }
        } else {
            ClockReading {
                time_left: duration(main),
                stones: 0,
            }
        }
    }

    /// How long to think about the next move under `control`, given how
    /// many moves the game has had on a board of `area` points; `None`
    /// without a clock.
    ///
    /// In basic time the time left is shared over the moves the player can
    /// still expect to make (about 45 % of the board's points for each side
    /// in a whole game, never fewer than a tenth), plus part of one period
    /// or of the Fischer increment (which comes only after the move, so
    /// never beyond the time left); in byo-yomi and per-move time most of
    /// the period is used; in a period of moves its time left is shared
    /// over the moves left. A reserve for lag is always kept.
    ///
    /// ```
    /// use std::time::Duration;
    /// use shoutan_clock::{ByoYomi, Millis, TimeControl};
    /// use shoutan_engine::ClockReading;
    /// let byo = TimeControl::from(ByoYomi::new(Millis::ZERO, 3, Millis::from_secs(30)).unwrap());
    /// let t = ClockReading::start(&byo).think_time(&byo, 120, 361).unwrap();
    /// assert!(t > Duration::from_secs(20) && t < Duration::from_secs(30));
    /// ```
    #[must_use]
    pub fn think_time(
        &self,
        control: &TimeControl,
        moves_played: usize,
        area: usize,
    ) -> Option<Duration> {
        let expected = (area as f64 * 0.45 - moves_played as f64 / 2.0)
            .max(area as f64 / 10.0)
            .max(1.0);
        let left = self.time_left.saturating_sub(LAG);
        let share = |extra: Duration| left.div_f64(expected) + extra;
        let in_main = self.stones == 0;
        let t = match control {
            TimeControl::None => return None,
            TimeControl::Absolute(_) => share(Duration::ZERO),
            TimeControl::Fischer(f) => share(duration(f.increment()).mul_f64(0.8)).min(left),
            TimeControl::ByoYomi(b) if in_main => {
                let period = duration(b.period());
                share(period.mul_f64(0.5)).min(left + period.mul_f64(0.8))
            }
            TimeControl::ByoYomi(_) | TimeControl::PerMove(_) => left.mul_f64(0.85),
            TimeControl::MovesPerPeriod(m) if in_main => share(
                duration(m.period())
                    .div_f64(f64::from(m.moves()))
                    .mul_f64(0.5),
            ),
            TimeControl::MovesPerPeriod(_) => {
                left.div_f64(f64::from(self.stones.max(1))).mul_f64(0.9)
            }
        };
        Some(t.max(MIN_THINK))
    }

    /// The reading after a move under `control` that took `used`, or the
    /// time-out.
    pub fn charge(&self, control: &TimeControl, used: Duration) -> Result<ClockReading, TimeOut> {
        match control {
            TimeControl::None => Ok(*self),
            TimeControl::Fischer(f) => {
                let left =
                    self.time_left.checked_sub(used).ok_or(TimeOut)? + duration(f.increment());
                Ok(ClockReading {
                    time_left: f.max().map_or(left, |max| left.min(duration(max))),
                    stones: 0,
                })
            }
            // Nothing is saved: the next move has the whole time again.
            TimeControl::PerMove(_) if used < self.time_left => Ok(ClockReading::start(control)),
            TimeControl::PerMove(_) => Err(TimeOut),
            _ if self.stones == 0 => match self.time_left.checked_sub(used) {
                Some(left) => Ok(ClockReading {
                    time_left: left,
                    stones: 0,
                }),
                None => overtime(control, used - self.time_left),
            },
            TimeControl::ByoYomi(b) if used <= self.time_left => Ok(ClockReading {
                time_left: duration(b.period()),
                stones: self.stones,
            }),
            TimeControl::ByoYomi(b) => byo_yomi(duration(b.period()), self.stones, used),
            TimeControl::MovesPerPeriod(m) => {
                moves_per_period(m, self.time_left, self.stones, used)
            }
            TimeControl::Absolute(_) => Err(TimeOut),
        }
    }
}

/// The move that used up the basic time and `overrun` more: charged to the
/// first period; without overtime, the time-out.
fn overtime(control: &TimeControl, overrun: Duration) -> Result<ClockReading, TimeOut> {
    match control {
        TimeControl::ByoYomi(b) => byo_yomi(duration(b.period()), b.periods(), overrun),
        TimeControl::MovesPerPeriod(m) => {
            moves_per_period(m, duration(m.period()), m.moves(), overrun)
        }
        _ => Err(TimeOut),
    }
}

/// A move that took `used` in byo-yomi with `periods` left: every full
/// period used up is lost.
fn byo_yomi(period: Duration, periods: u32, used: Duration) -> Result<ClockReading, TimeOut> {
    let lost = used
        .as_nanos()
        .checked_div(period.as_nanos())
        .and_then(|lost| u32::try_from(lost).ok())
        .filter(|&lost| lost < periods)
        .ok_or(TimeOut)?;
    Ok(ClockReading {
        time_left: period,
        stones: periods - lost,
    })
}

/// A move that took `used` in a period with `time_left` for `moves_left`
/// moves; a completed period starts the next, with the time left carried
/// over or lost as the control says.
fn moves_per_period(
    control: &MovesPerPeriod,
    time_left: Duration,
    moves_left: u32,
    used: Duration,
) -> Result<ClockReading, TimeOut> {
    let left = time_left.checked_sub(used).ok_or(TimeOut)?;
    if moves_left > 1 {
        return Ok(ClockReading {
            time_left: left,
            stones: moves_left - 1,
        });
    }
    let carried = match control.leftover() {
        Leftover::CarriedOver => left,
        Leftover::Lost => Duration::ZERO,
    };
    Ok(ClockReading {
        time_left: duration(control.period()) + carried,
        stones: control.moves(),
    })
}

#[cfg(test)]
mod tests {
    use shoutan_clock::{Absolute, ByoYomi, Fischer, PerMove};

    use super::*;

    fn s(x: u64) -> Duration {
        Duration::from_secs(x)
    }

    fn ms(x: u64) -> Millis {
        Millis::from_secs(x)
    }

    fn reading(secs: u64, stones: u32) -> ClockReading {
        ClockReading {
            time_left: s(secs),
            stones,
        }
    }

    fn canadian(main: u64, moves: u32, period: u64, leftover: Leftover) -> TimeControl {
        MovesPerPeriod::new(ms(main), moves, ms(period), leftover)
            .unwrap()
            .into()
    }

    #[test]
    fn byo_yomi_periods_are_lost_one_by_one() {
        // docs/spec/time.md §2: basic time, then periods; a move inside a period
        // costs nothing, each full period used costs one.
        let tc = TimeControl::from(ByoYomi::new(ms(10), 3, ms(30)).unwrap());
        let clock = ClockReading::start(&tc);
        assert_eq!(clock, reading(10, 0));
        let clock = clock.charge(&tc, s(4)).unwrap();
        assert_eq!(clock.time_left, s(6));
        // 6 s of basic time and 35 s more: the first period is used up.
        let clock = clock.charge(&tc, s(41)).unwrap();
        assert_eq!(clock, reading(30, 2));
        // 29 s within a period costs nothing.
        let clock = clock.charge(&tc, s(29)).unwrap();
        assert_eq!(clock.stones, 2);
        // 61 s uses both remaining periods: time is up.
        assert_eq!(clock.charge(&tc, s(61)), Err(TimeOut));
    }

    #[test]
    fn canadian_periods_restart_after_their_stones() {
        let tc = canadian(0, 2, 60, Leftover::Lost);
        let clock = ClockReading::start(&tc);
        assert_eq!(clock, reading(60, 2));
        let clock = clock.charge(&tc, s(50)).unwrap();
        assert_eq!(clock, reading(10, 1));
        assert_eq!(clock.charge(&tc, s(11)), Err(TimeOut));
        // The 1 s left is lost: the next period starts afresh.
        let clock = clock.charge(&tc, s(9)).unwrap();
        assert_eq!(clock, reading(60, 2));
    }

    #[test]
    fn carried_over_time_joins_the_next_period() {
        // 定时限步制 (Art. 12.5): what is left of a period is added to the next.
        let tc = canadian(0, 2, 60, Leftover::CarriedOver);
        let clock = ClockReading::start(&tc).charge(&tc, s(20)).unwrap();
        assert_eq!(clock, reading(40, 1));
        let clock = clock.charge(&tc, s(10)).unwrap();
        assert_eq!(clock, reading(90, 2));
    }

    #[test]
    fn basic_time_overrun_is_charged_to_the_first_period() {
        let tc = canadian(10, 3, 60, Leftover::Lost);
        let clock = ClockReading::start(&tc);
        assert_eq!(clock, reading(10, 0));
        // 10 s of basic time and 15 s of the first period, one move made.
        assert_eq!(clock.charge(&tc, s(25)).unwrap(), reading(45, 2));
        assert_eq!(clock.charge(&tc, s(71)), Err(TimeOut));
    }

    #[test]
    fn absolute_time_runs_out() {
        let tc = TimeControl::from(Absolute::new(ms(5)).unwrap());
        let clock = ClockReading::start(&tc).charge(&tc, s(3)).unwrap();
        assert_eq!(clock.charge(&tc, s(3)), Err(TimeOut));
    }

    #[test]
    fn fischer_adds_the_increment_up_to_the_cap() {
        let tc = TimeControl::from(Fischer::new(ms(60), ms(10), Some(ms(65))).unwrap());
        let clock = ClockReading::start(&tc);
        assert_eq!(clock, reading(60, 0));
        let clock = clock.charge(&tc, s(8)).unwrap();
        assert_eq!(clock, reading(62, 0));
        // 62 − 1 + 10 is above the cap of 65 s.
        let clock = clock.charge(&tc, s(1)).unwrap();
        assert_eq!(clock, reading(65, 0));
        // The increment comes after the move: too late to save it.
        assert_eq!(clock.charge(&tc, s(66)), Err(TimeOut));
        let uncapped = TimeControl::from(Fischer::new(ms(60), ms(10), None).unwrap());
        let clock = ClockReading::start(&uncapped)
            .charge(&uncapped, s(1))
            .unwrap();
        assert_eq!(clock, reading(69, 0));
    }

    #[test]
    fn per_move_time_is_renewed_and_never_saved() {
        let tc = TimeControl::from(PerMove::new(ms(30)).unwrap());
        let clock = ClockReading::start(&tc);
        assert_eq!(clock, reading(30, 1));
        assert_eq!(clock.charge(&tc, s(1)).unwrap(), reading(30, 1));
        assert_eq!(
            clock.charge(&tc, Duration::from_millis(29_999)).unwrap(),
            reading(30, 1)
        );
        // As the clock counts it: a move at the last instant is too late.
        assert_eq!(clock.charge(&tc, s(30)), Err(TimeOut));
        assert_eq!(reading(12, 1).charge(&tc, s(13)), Err(TimeOut));
    }

    #[test]
    fn think_time_spreads_basic_time_and_keeps_a_reserve() {
        let tc = TimeControl::from(Absolute::new(ms(600)).unwrap());
        let early = ClockReading::start(&tc).think_time(&tc, 0, 361).unwrap();
        // 600 s over about 162 moves: between 3 and 4 s.
        assert!(
            early > Duration::from_millis(3000) && early < s(4),
            "{early:?}"
        );
        let nearly_out = ClockReading {
            time_left: Duration::from_millis(300),
            stones: 0,
        };
        let t = nearly_out.think_time(&tc, 100, 361).unwrap();
        assert!(t < Duration::from_millis(100), "{t:?}");
        let canadian = canadian(0, 10, 100, Leftover::Lost);
        let t = reading(50, 5).think_time(&canadian, 50, 81).unwrap();
        assert!(t > s(8) && t < s(10), "{t:?}");
        assert_eq!(reading(1, 0).think_time(&TimeControl::None, 0, 81), None);
    }

    #[test]
    fn think_time_counts_on_the_fischer_increment_and_the_per_move_time() {
        let tc = TimeControl::from(Fischer::new(ms(600), ms(10), None).unwrap());
        let t = ClockReading::start(&tc).think_time(&tc, 0, 361).unwrap();
        // 600 s over about 162 moves, and 8 s of the 10 s increment.
        assert!(t > s(11) && t < s(12), "{t:?}");
        // With 5 s left, the increment cannot be spent before it comes.
        let t = reading(5, 0).think_time(&tc, 100, 361).unwrap();
        assert!(t <= s(5) - LAG, "{t:?}");
        let per_move = TimeControl::from(PerMove::new(ms(10)).unwrap());
        let t = ClockReading::start(&per_move)
            .think_time(&per_move, 0, 361)
            .unwrap();
        assert!(t > s(8) && t < s(10), "{t:?}");
    }
}
