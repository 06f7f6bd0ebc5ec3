//! Time controls (Art. 12): the settings of a game's clock, one variant per
//! system of docs/spec/time.md. Every value is valid by construction: the
//! constructors and deserialisation check the settings.

use serde::{Deserialize, Serialize};

use crate::Millis;

/// The settings of a game's clock, the same for both players.
///
/// Built from a validated system (`ByoYomi::new(..)?.into()`), parsed from
/// its description, or mapped from SGF (`TimeControl::from_sgf`).
///
/// ```
/// use shoutan_clock::{ByoYomi, Millis, TimeControl};
/// // The Chinese formulation: 2 hours, reserving 5 minutes for byo-yomi …
/// let chinese = ByoYomi::reserving(Millis::from_hours(2), 5).unwrap();
/// // … is 1h 55 min of main time followed by 5 periods of 60 seconds.
/// assert_eq!(chinese.main(), Millis::from_mins(115));
/// let control = TimeControl::from(chinese);
/// assert_eq!(control.to_string(), "1h 55 min + 5×60s byo-yomi");
/// assert_eq!(control.text_zh(), "基本时限2小时，保留5分钟读秒");
/// assert_eq!("1h 55 min + 5×60s byo-yomi".parse::<TimeControl>(), Ok(control));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "TimeControlRecord", into = "TimeControlRecord")]
pub enum TimeControl {
    /// No clock (不计时).
    None,
    /// 包干用时制 (sudden death): running out loses (Art. 12.4).
    Absolute(Absolute),
    /// 读秒 (Art. 12.3): main time, then periods.
    ByoYomi(ByoYomi),
    /// 定时限步制: main time, then a number of moves in each period.
    MovesPerPeriod(MovesPerPeriod),
    /// Fischer increment: time added after each move, up to an optional cap.
    Fischer(Fischer),
    /// Simple per-move time: each move has the same time, nothing saved.
    PerMove(PerMove),
}

/// Settings that make no clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Absolute and Fischer time need time to start with.
    #[error("the main time must be above zero")]
    NoMainTime,
    /// Byo-yomi without periods is absolute time.
    #[error("byo-yomi needs at least one period")]
    NoPeriods,
    /// A period (or per-move time) of no time cannot be played.
    #[error("a period must be longer than zero")]
    EmptyPeriod,
    /// Byo-yomi is counted aloud in seconds.
    #[error("byo-yomi periods and per-move times are whole seconds, not {0}")]
    PeriodNotWholeSeconds(Millis),
    /// Moves per period needs at least one move per period.
    #[error("a period must require at least one move")]
    NoMoves,
    /// Fischer with no increment is absolute time: say so.
    #[error("a Fischer increment must be above zero (use absolute time)")]
    NoIncrement,
    /// The cap is the most a player can hold; he starts with the main time.
    #[error("the Fischer maximum {max} is below the main time {main}")]
    MaxBelowMain {
        /// The main time.
        main: Millis,
        /// The cap.
        max: Millis,
    },
    /// The reserve comes out of the basic time.
    #[error("cannot reserve {minutes} min of a basic time of {basic} for byo-yomi")]
    ReserveExceedsBasic {
        /// The basic time.
        basic: Millis,
        /// The minutes to reserve.
        minutes: u32,
    },
}

/// 包干用时制: one block of time for the whole game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Absolute {
    main: Millis,
}

impl Absolute {
    /// Absolute time of `main` (above zero).
    pub fn new(main: Millis) -> Result<Absolute, TimeControlError> {
        if main.is_zero() {
            return Err(TimeControlError::NoMainTime);
        }
        Ok(Absolute { main })
    }

    /// The time for the whole game.
    #[must_use]
    pub fn main(&self) -> Millis {
        self.main
    }
}

/// 读秒 (Art. 12.3): after the main time, each move has one period; a move
/// made within it costs nothing, each full period used costs one period,
/// and running out in the last period is a time-out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ByoYomi {
    main: Millis,
    periods: u32,
    period: Millis,
}

impl ByoYomi {
    /// `main` time (may be zero), then `periods` periods of `period`
    /// (whole seconds).
    pub fn new(main: Millis, periods: u32, period: Millis) -> Result<ByoYomi, TimeControlError> {
        if periods == 0 {
            return Err(TimeControlError::NoPeriods);
        }
        check_period(period)?;
        Ok(ByoYomi {
            main,
            periods,
            period,
        })
    }

    /// The Chinese formulation (Art. 12.3): a basic time of which `minutes`
    /// minutes are reserved for byo-yomi, counted in 60-second periods.
    pub fn reserving(basic: Millis, minutes: u32) -> Result<ByoYomi, TimeControlError> {
        let reserve = Millis::from_mins(u64::from(minutes));
        let main = basic
            .checked_sub(reserve)
            .ok_or(TimeControlError::ReserveExceedsBasic { basic, minutes })?;
        ByoYomi::new(main, minutes, Millis::from_secs(60))
    }

    /// The main time, before byo-yomi starts.
    #[must_use]
    pub fn main(&self) -> Millis {
        self.main
    }

    /// The number of periods.
    #[must_use]
    pub fn periods(&self) -> u32 {
        self.periods
    }

    /// The length of one period.
    #[must_use]
    pub fn period(&self) -> Millis {
        self.period
    }

    /// The basic time of the Chinese formulation: main time plus all the
    /// periods.
    #[must_use]
    pub fn basic(&self) -> Millis {
        self.main + self.period.saturating_mul(u64::from(self.periods))
    }
}

/// What happens to time left in a period when its moves are done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Leftover {
    /// 定时限步制 (Art. 12.5): the time left is added to the next period.
    CarriedOver,
    /// Canadian overtime: the time left is lost; each period starts afresh.
    Lost,
}

/// 定时限步制 / Canadian overtime: after the main time, `moves` moves must
/// be made within each period (for example 15 moves per 10 minutes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MovesPerPeriod {
    main: Millis,
    moves: u32,
    period: Millis,
    leftover: Leftover,
}

impl MovesPerPeriod {
    /// `main` time (may be zero), then `moves` moves per `period`.
    pub fn new(
        main: Millis,
        moves: u32,
        period: Millis,
        leftover: Leftover,
    ) -> Result<MovesPerPeriod, TimeControlError> {
        if moves == 0 {
            return Err(TimeControlError::NoMoves);
        }
        if period.is_zero() {
            return Err(TimeControlError::EmptyPeriod);
        }
        Ok(MovesPerPeriod {
            main,
            moves,
            period,
            leftover,
        })
    }

    /// The main time, before the periods start.
    #[must_use]
    pub fn main(&self) -> Millis {
        self.main
    }

    /// The moves to make in each period.
    #[must_use]
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// The length of one period.
    #[must_use]
    pub fn period(&self) -> Millis {
        self.period
    }

    /// Whether time left in a period carries over to the next.
    #[must_use]
    pub fn leftover(&self) -> Leftover {
        self.leftover
    }
}

/// Fischer increment: `increment` is added after each move; a player never
/// holds more than `max`, if there is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fischer {
    main: Millis,
    increment: Millis,
    max: Option<Millis>,
}

impl Fischer {
    /// Start with `main`, gain `increment` per move, hold at most `max`.
    pub fn new(
        main: Millis,
        increment: Millis,
        max: Option<Millis>,
    ) -> Result<Fischer, TimeControlError> {
        if main.is_zero() {
            return Err(TimeControlError::NoMainTime);
        }
        if increment.is_zero() {
            return Err(TimeControlError::NoIncrement);
        }
        if let Some(max) = max
            && max < main
        {
            return Err(TimeControlError::MaxBelowMain { main, max });
        }
        Ok(Fischer {
            main,
            increment,
            max,
        })
    }

    /// The time each player starts with.
    #[must_use]
    pub fn main(&self) -> Millis {
        self.main
    }

    /// The time added after each move.
    #[must_use]
    pub fn increment(&self) -> Millis {
        self.increment
    }

    /// The most time a player can hold.
    #[must_use]
    pub fn max(&self) -> Option<Millis> {
        self.max
    }
}

/// Simple per-move time: each move must be made within `time`; nothing is
/// saved. The clock treats it as byo-yomi with one period and no main time
/// (same calls, same Art. 22.5 option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PerMove {
    time: Millis,
}

impl PerMove {
    /// `time` per move (whole seconds).
    pub fn new(time: Millis) -> Result<PerMove, TimeControlError> {
        check_period(time)?;
        Ok(PerMove { time })
    }

    /// The time for each move.
    #[must_use]
    pub fn time(&self) -> Millis {
        self.time
    }
}

fn check_period(period: Millis) -> Result<(), TimeControlError> {
    if period.is_zero() {
        Err(TimeControlError::EmptyPeriod)
    } else if !period.is_whole_secs() {
        Err(TimeControlError::PeriodNotWholeSeconds(period))
    } else {
        Ok(())
    }
}

impl TimeControl {
    /// The byo-yomi periods a player has once the main time is gone: count
    /// and length. Per-move time is one period. `None` for systems without
    /// byo-yomi.
    #[must_use]
    pub fn byo_yomi_periods(&self) -> Option<(u32, Millis)> {
        match self {
            TimeControl::ByoYomi(b) => Some((b.periods, b.period)),
            TimeControl::PerMove(p) => Some((1, p.time)),
            _ => None,
        }
    }

    /// The main time each player starts with (zero for per-move time and no
    /// clock).
    #[must_use]
    pub fn main(&self) -> Millis {
        match self {
            TimeControl::None | TimeControl::PerMove(_) => Millis::ZERO,
            TimeControl::Absolute(a) => a.main,
            TimeControl::ByoYomi(b) => b.main,
            TimeControl::MovesPerPeriod(m) => m.main,
            TimeControl::Fischer(f) => f.main,
        }
    }
}

impl From<Absolute> for TimeControl {
    fn from(a: Absolute) -> TimeControl {
        TimeControl::Absolute(a)
    }
}

impl From<ByoYomi> for TimeControl {
    fn from(b: ByoYomi) -> TimeControl {
        TimeControl::ByoYomi(b)
    }
}

impl From<MovesPerPeriod> for TimeControl {
    fn from(m: MovesPerPeriod) -> TimeControl {
        TimeControl::MovesPerPeriod(m)
    }
}

impl From<Fischer> for TimeControl {
    fn from(f: Fischer) -> TimeControl {
        TimeControl::Fischer(f)
    }
}

impl From<PerMove> for TimeControl {
    fn from(p: PerMove) -> TimeControl {
        TimeControl::PerMove(p)
    }
}

/// The stored form: plain fields, checked on the way in.
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(tag = "system", rename_all = "snake_case", deny_unknown_fields)]
enum TimeControlRecord {
    None,
    Absolute {
        main: Millis,
    },
    ByoYomi {
        main: Millis,
        periods: u32,
        period: Millis,
    },
    MovesPerPeriod {
        main: Millis,
        moves: u32,
        period: Millis,
        leftover: Leftover,
    },
    Fischer {
        main: Millis,
        increment: Millis,
        max: Option<Millis>,
    },
    PerMove {
        time: Millis,
    },
}

impl TryFrom<TimeControlRecord> for TimeControl {
    type Error = TimeControlError;
    fn try_from(r: TimeControlRecord) -> Result<TimeControl, TimeControlError> {
        Ok(match r {
            TimeControlRecord::None => TimeControl::None,
            TimeControlRecord::Absolute { main } => Absolute::new(main)?.into(),
            TimeControlRecord::ByoYomi {
                main,
                periods,
                period,
            } => ByoYomi::new(main, periods, period)?.into(),
            TimeControlRecord::MovesPerPeriod {
                main,
                moves,
                period,
                leftover,
            } => MovesPerPeriod::new(main, moves, period, leftover)?.into(),
            TimeControlRecord::Fischer {
                main,
                increment,
                max,
            } => Fischer::new(main, increment, max)?.into(),
            TimeControlRecord::PerMove { time } => PerMove::new(time)?.into(),
        })
    }
}

impl From<TimeControl> for TimeControlRecord {
    fn from(c: TimeControl) -> TimeControlRecord {
        match c {
            TimeControl::None => TimeControlRecord::None,
            TimeControl::Absolute(Absolute { main }) => TimeControlRecord::Absolute { main },
            TimeControl::ByoYomi(ByoYomi {
                main,
                periods,
                period,
            }) => TimeControlRecord::ByoYomi {
                main,
                periods,
                period,
            },
            TimeControl::MovesPerPeriod(MovesPerPeriod {
                main,
                moves,
                period,
                leftover,
            }) => TimeControlRecord::MovesPerPeriod {
                main,
                moves,
                period,
                leftover,
            },
            TimeControl::Fischer(Fischer {
                main,
                increment,
                max,
            }) => TimeControlRecord::Fischer {
                main,
                increment,
                max,
            },
            TimeControl::PerMove(PerMove { time }) => TimeControlRecord::PerMove { time },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_that_make_no_clock_are_refused() {
        let s = Millis::from_secs;
        assert_eq!(
            Absolute::new(Millis::ZERO),
            Err(TimeControlError::NoMainTime)
        );
        assert_eq!(
            ByoYomi::new(s(60), 0, s(30)),
            Err(TimeControlError::NoPeriods)
        );
        assert_eq!(
            ByoYomi::new(s(60), 3, Millis::ZERO),
            Err(TimeControlError::EmptyPeriod)
        );
        assert_eq!(
            ByoYomi::new(s(60), 3, Millis::from_millis(30_500)),
            Err(TimeControlError::PeriodNotWholeSeconds(
                Millis::from_millis(30_500)
            ))
        );
        assert_eq!(
            MovesPerPeriod::new(s(60), 0, s(600), Leftover::Lost),
            Err(TimeControlError::NoMoves)
        );
        assert_eq!(
            Fischer::new(s(300), Millis::ZERO, None),
            Err(TimeControlError::NoIncrement)
        );
        assert_eq!(
            Fischer::new(s(300), s(10), Some(s(200))),
            Err(TimeControlError::MaxBelowMain {
                main: s(300),
                max: s(200)
            })
        );
        assert_eq!(
            PerMove::new(Millis::ZERO),
            Err(TimeControlError::EmptyPeriod)
        );
        assert_eq!(
            ByoYomi::reserving(Millis::from_mins(4), 5),
            Err(TimeControlError::ReserveExceedsBasic {
                basic: Millis::from_mins(4),
                minutes: 5
            })
        );
    }

    #[test]
    fn reserving_the_whole_basic_time_is_pure_byo_yomi() {
        let b = ByoYomi::reserving(Millis::from_mins(5), 5).unwrap();
        assert_eq!(
            (b.main(), b.periods(), b.period()),
            (Millis::ZERO, 5, Millis::from_secs(60))
        );
        assert_eq!(b.basic(), Millis::from_mins(5));
    }

    #[test]
    fn stored_settings_are_checked_when_read() {
        let json = r#"{"system":"byo_yomi","main":3600000,"periods":0,"period":60000}"#;
        let err = serde_json::from_str::<TimeControl>(json).unwrap_err();
        assert!(err.to_string().contains("at least one period"), "{err}");
        let json = r#"{"system":"byo_yomi","main":3600000,"periods":5,"period":60000}"#;
        let control: TimeControl = serde_json::from_str(json).unwrap();
        assert_eq!(
            control,
            ByoYomi::new(Millis::from_hours(1), 5, Millis::from_secs(60))
                .unwrap()
                .into()
        );
        assert_eq!(serde_json::to_string(&control).unwrap(), json);
    }
}
