//! One player's time left, and the exact rules that charge it: a move in a
//! byo-yomi period costs nothing, each full period used costs one, the
//! last period running out is a time-out; moves per period count down and
//! renew; Fischer adds its increment.

use serde::{Deserialize, Serialize};
use shoutan_rules::Color;

use crate::reading::{Overtime, Reading};
use crate::{Leftover, Millis, TimeControl};

/// What one player has left between turns. Which fields mean something
/// depends on the time control; the others are zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PlayerTime {
    /// Main time left; for absolute and Fischer time, all the time left.
    pub main: Millis,
    /// Byo-yomi: periods left.
    pub periods: u32,
    /// Moves per period: time left in the current (or first) period.
    pub period_left: Millis,
    /// Moves per period: moves left in the current (or first) period.
    pub moves_left: u32,
}

/// The result of time running off a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Spent {
    pub after: PlayerTime,
    /// Byo-yomi periods used up.
    pub periods_used: u32,
}

/// The bookkeeping of a completed move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveDone {
    pub after: PlayerTime,
    /// Fischer: the time actually added (the cap may cut it).
    pub increment: Millis,
    /// Moves per period: the move completed a period and a new one began.
    pub new_period: bool,
}

impl PlayerTime {
    /// A fresh clock.
    pub fn new(control: &TimeControl) -> PlayerTime {
        let mut time = PlayerTime {
            main: control.main(),
            periods: 0,
            period_left: Millis::ZERO,
            moves_left: 0,
        };
        match control {
            TimeControl::ByoYomi(b) => time.periods = b.periods(),
            TimeControl::MovesPerPeriod(m) => {
                time.period_left = m.period();
                time.moves_left = m.moves();
            }
            _ => {}
        }
        time
    }

    /// Whether this state can arise under `control` (checked when a stored
    /// clock is read back).
    pub fn is_valid_for(&self, control: &TimeControl) -> bool {
        let no_periods = self.periods == 0;
        let no_moves = self.moves_left == 0 && self.period_left.is_zero();
        match control {
            TimeControl::None | TimeControl::PerMove(_) => *self == PlayerTime::new(control),
            TimeControl::Absolute(a) => {
                !self.main.is_zero() && self.main <= a.main() && no_periods && no_moves
            }
            TimeControl::Fischer(f) => {
                !self.main.is_zero()
                    && f.max().is_none_or(|max| self.main <= max)
                    && no_periods
                    && no_moves
            }
            TimeControl::ByoYomi(b) => {
                self.main <= b.main() && (1..=b.periods()).contains(&self.periods) && no_moves
            }
            TimeControl::MovesPerPeriod(m) => {
                self.main <= m.main()
                    && no_periods
                    && (1..=m.moves()).contains(&self.moves_left)
                    && !self.period_left.is_zero()
                    && (m.leftover() == Leftover::CarriedOver || self.period_left <= m.period())
            }
        }
    }

    /// The time this player may use in one turn before his flag falls;
    /// `None` without a clock.
    pub fn allowance(&self, control: &TimeControl) -> Option<Millis> {
        match control {
            TimeControl::None => None,
            TimeControl::Absolute(_) | TimeControl::Fischer(_) => Some(self.main),
            TimeControl::ByoYomi(b) => {
                Some(self.main + b.period().saturating_mul(u64::from(self.periods)))
            }
            TimeControl::MovesPerPeriod(_) => Some(self.main + self.period_left),
            TimeControl::PerMove(p) => Some(p.time()),
        }
    }

    /// The state after `used` has run off this clock and the player pressed
    /// it, before the bookkeeping of a move; `None` if `used` reaches the
    /// allowance (a move at exactly the last instant is too late, as the
    /// rules count "10" with the move as a minute used).
    pub fn spend(&self, control: &TimeControl, used: Millis) -> Option<Spent> {
        let mut after = *self;
        let mut periods_used = 0;
        let main_after = self.main.checked_sub(used).filter(|m| !m.is_zero());
        match control {
            TimeControl::None => {}
            TimeControl::Absolute(_) | TimeControl::Fischer(_) => after.main = main_after?,
            TimeControl::PerMove(p) => {
                if used >= p.time() {
                    return None;
                }
            }
            TimeControl::ByoYomi(b) => match main_after {
                Some(main) => after.main = main,
                None => {
                    let (full, _) = (used - self.main).div_rem(b.period());
                    let full = u32::try_from(full).ok().filter(|&k| k < self.periods)?;
                    after.main = Millis::ZERO;
                    after.periods -= full;
                    periods_used = full;
                }
            },
            TimeControl::MovesPerPeriod(_) => match main_after {
                Some(main) => after.main = main,
                None => {
                    let over = used - self.main;
                    after.main = Millis::ZERO;
                    after.period_left = self
                        .period_left
                        .checked_sub(over)
                        .filter(|p| !p.is_zero())?;
                }
            },
        }
        Some(Spent {
            after,
            periods_used,
        })
    }

    /// The bookkeeping of a move made with this much time left: the Fischer
    /// increment, the count of moves in the period.
    pub fn finish_move(self, control: &TimeControl) -> MoveDone {
        let mut done = MoveDone {
            after: self,
            increment: Millis::ZERO,
            new_period: false,
        };
        match control {
            TimeControl::Fischer(f) => {
                let raised = self.main + f.increment();
                let capped = f.max().map_or(raised, |max| raised.min(max));
                done.after.main = capped;
                done.increment = capped - self.main;
            }
            TimeControl::MovesPerPeriod(m) if self.main.is_zero() => {
                done.after.moves_left -= 1;
                if done.after.moves_left == 0 {
                    let carried = match m.leftover() {
                        Leftover::CarriedOver => self.period_left,
                        Leftover::Lost => Millis::ZERO,
                    };
                    done.after.moves_left = m.moves();
                    done.after.period_left = m.period() + carried;
                    done.new_period = true;
                }
            }
            _ => {}
        }
        done
    }

    /// Art. 22.5: after a time-out converted into a pass, the player goes on
    /// in the last period of the same byo-yomi.
    pub fn last_period(self, control: &TimeControl) -> PlayerTime {
        match control {
            TimeControl::ByoYomi(_) => PlayerTime {
                main: Millis::ZERO,
                periods: 1,
                ..self
            },
            _ => self,
        }
    }

    /// The clock face after `elapsed` of this turn (`running` says whether
    /// the time is running now).
    pub fn reading(
        &self,
        control: &TimeControl,
        player: Color,
        running: bool,
        elapsed: Millis,
    ) -> Reading {
        let total_left = self.allowance(control).map(|a| a - elapsed);
        let spent = self.spend(control, elapsed);
        let after = spent.map_or(
            PlayerTime {
                main: Millis::ZERO,
                periods: 0,
                period_left: Millis::ZERO,
                ..*self
            },
            |s| s.after,
        );
        let overtime = match control {
            TimeControl::None | TimeControl::Absolute(_) | TimeControl::Fischer(_) => {
                Overtime::None
            }
            TimeControl::ByoYomi(b) => {
                // In byo-yomi each period restarts; in main time a full one waits.
                let period_left = match (spent, elapsed.checked_sub(self.main)) {
                    (None, _) => Millis::ZERO,
                    (Some(_), Some(over)) => b.period() - over.div_rem(b.period()).1,
                    (Some(_), None) => b.period(),
                };
                Overtime::ByoYomi {
                    periods_left: after.periods,
                    period: b.period(),
                    period_left,
                }
            }
            TimeControl::MovesPerPeriod(_) => Overtime::MovesPerPeriod {
                moves_left: after.moves_left,
                period_left: after.period_left,
            },
            TimeControl::PerMove(p) => Overtime::PerMove {
                left: if spent.is_some() {
                    p.time() - elapsed
                } else {
                    Millis::ZERO
                },
            },
        };
        Reading {
            player,
            running,
            main_left: after.main,
            overtime,
            total_left,
        }
    }
}
