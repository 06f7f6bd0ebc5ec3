//! A reading of one player's clock at an instant: what the display shows,
//! and the answer to "how much time do I have" (Art. 16.2).

use serde::{Deserialize, Serialize};
use shoutan_rules::Color;

use crate::Millis;

/// One player's clock at an instant. Times are exact; the texts round down
/// to the second, so they never promise more than is left — except in a
/// byo-yomi period that is not the last, which counts down to 1 second
/// (rounded up): the next period follows, and "0 left" would be false.
///
/// ```
/// use shoutan_clock::{ByoYomi, Clock, ClockOptions, Instant, Millis, TimeControl};
/// use shoutan_rules::Color;
/// let control = TimeControl::from(ByoYomi::new(Millis::ZERO, 3, Millis::from_secs(60)).unwrap());
/// let mut clock = Clock::new(control, ClockOptions::default()).unwrap();
/// let t0 = Instant::from_millis(0);
/// clock.start(Color::Black, t0).unwrap();
/// let reading = clock.reading(Color::Black, t0 + Millis::from_secs(95));
/// assert_eq!(reading.text_en(), "byo-yomi: 2 periods of 60s left, 0:25 left in this one");
/// assert_eq!(reading.text_zh(), "读秒：还剩2分，本次还剩25秒");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reading {
    /// Whose clock.
    pub player: Color,
    /// True while this player's time is running.
    pub running: bool,
    /// Main (basic) time left; for absolute and Fischer time, all the time
    /// left.
    pub main_left: Millis,
    /// The overtime stage: what comes (or came) after the main time.
    pub overtime: Overtime,
    /// Time until this player's flag falls if he does not move; `None`
    /// without a clock.
    pub total_left: Option<Millis>,
}

/// The overtime part of a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Overtime {
    /// No overtime: absolute time, Fischer, or no clock.
    None,
    /// Byo-yomi.
    ByoYomi {
        /// Periods left, counting the current one.
        periods_left: u32,
        /// The length of one period.
        period: Millis,
        /// Time left in the current period (a full period while in main
        /// time).
        period_left: Millis,
    },
    /// Moves per period.
    MovesPerPeriod {
        /// Moves still to make in the current (or, in main time, the first)
        /// period.
        moves_left: u32,
        /// Time left for them.
        period_left: Millis,
    },
    /// Simple per-move time.
    PerMove {
        /// Time left for this move.
        left: Millis,
    },
}

impl Reading {
    /// True once the main time is used and overtime (byo-yomi, the periods
    /// of moves-per-period) has begun.
    #[must_use]
    pub fn in_overtime(&self) -> bool {
        self.main_left.is_zero()
            && matches!(
                self.overtime,
                Overtime::ByoYomi { .. } | Overtime::MovesPerPeriod { .. }
            )
    }

    /// True when nothing is left: the flag has fallen.
    #[must_use]
    pub fn timed_out(&self) -> bool {
        self.total_left == Some(Millis::ZERO)
    }

    /// The answer to "how much time do I have", in English.
    #[must_use]
    pub fn text_en(&self) -> String {
        if self.total_left.is_none() {
            return "no time limit".to_owned();
        }
        if self.timed_out() {
            return "out of time".to_owned();
        }
        let main = self.main_left.clock_face();
        match self.overtime {
            Overtime::None => format!("{main} left"),
            Overtime::ByoYomi {
                periods_left,
                period,
                ..
            } if !self.in_overtime() => {
                format!(
                    "{main} main time, then {periods_left}×{} byo-yomi",
                    period.secs_text()
                )
            }
            Overtime::ByoYomi {
                periods_left: 1,
                period_left,
                ..
            } => {
                format!("byo-yomi: last period, {} left", period_left.clock_face())
            }
            Overtime::ByoYomi {
                periods_left,
                period,
                period_left,
            } => format!(
                "byo-yomi: {periods_left} periods of {} left, {} left in this one",
                period.secs_text(),
                period_left.ceil_second().clock_face()
            ),
            Overtime::MovesPerPeriod {
                moves_left,
                period_left,
            } => {
                let moves = if moves_left == 1 { "move" } else { "moves" };
                let period = format!("{moves_left} {moves} in {}", period_left.clock_face());
                if self.in_overtime() {
                    period
                } else {
                    format!("{main} main time, then {period}")
                }
            }
            Overtime::PerMove { left } => format!("{} for this move", left.clock_face()),
        }
    }

    /// The answer to "how much time do I have", in Chinese, as a
    /// timekeeper gives it (还剩×分 for 60-second byo-yomi).
    #[must_use]
    pub fn text_zh(&self) -> String {
        if self.total_left.is_none() {
            return "不计时".to_owned();
        }
        if self.timed_out() {
            return "超时".to_owned();
        }
        let main = self.main_left.text_zh();
        let minute = Millis::from_secs(60);
        match self.overtime {
            Overtime::None => format!("还剩{main}"),
            Overtime::ByoYomi {
                periods_left,
                period,
                ..
            } if !self.in_overtime() => {
                format!(
                    "基本用时还剩{main}，之后读秒{periods_left}次{}秒",
                    period.secs_number()
                )
            }
            Overtime::ByoYomi {
                periods_left: 1,
                period,
                period_left,
            } => {
                let last = if period == minute {
                    "最后1分钟"
                } else {
                    "最后一次"
                };
                format!("读秒：{last}，还剩{}", period_left.text_zh())
            }
            Overtime::ByoYomi {
                periods_left,
                period,
                period_left,
            } => {
                let unit = if period == minute { "分" } else { "次" };
                format!(
                    "读秒：还剩{periods_left}{unit}，本次还剩{}",
                    period_left.ceil_second().text_zh()
                )
            }
            Overtime::MovesPerPeriod {
                moves_left,
                period_left,
            } => {
                if self.in_overtime() {
                    format!("本节还剩{moves_left}手，{}", period_left.text_zh())
                } else {
                    format!(
                        "基本用时还剩{main}，之后{}{moves_left}手",
                        period_left.text_zh()
                    )
                }
            }
            Overtime::PerMove { left } => format!("本步还剩{}", left.text_zh()),
        }
    }
}
