//! The clock of one game: both players' time, whose is running, and every
//! step of the procedure (Art. 14, 22): start or late arrival, moves,
//! pause, adjournment with a sealed move, flags, the end of the game.

use serde::{Deserialize, Serialize};
use shoutan_rules::{ByColor, Color};

use crate::late_arrival::Absence;
use crate::player_time::PlayerTime;
use crate::{
    Arrival, Flag, Instant, LagPolicy, LateArrival, Millis, Reading, TimeControl, TimeOutRule,
};

/// The per-game options of a clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockOptions {
    /// What a time-out in byo-yomi means (Art. 22.5). Default: it loses.
    pub on_time_out: TimeOutRule,
    /// The event's rule for late arrival (Art. 22.1–22.4). Default: 15
    /// minutes, deducted twice.
    pub late_arrival: LateArrival,
    /// Lag compensation for online play; `None` (the default) credits
    /// nothing.
    pub lag: Option<LagPolicy>,
}

/// Where the clock is in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Status {
    /// Set up, not started.
    NotStarted,
    /// Scheduled to start at `scheduled`; waiting for the players to sit
    /// down (`seated`).
    AwaitingPlayers {
        /// Who moves first once the game starts.
        to_move: Color,
        /// The scheduled start.
        scheduled: Instant,
        /// When each player sat down, if he has.
        seated: ByColor<Option<Instant>>,
    },
    /// `player`'s time runs from `since`, after `banked` already used in
    /// this turn before a pause.
    Running {
        /// Whose time runs.
        player: Color,
        /// Since when.
        since: Instant,
        /// Time of this turn used before a pause.
        banked: Millis,
    },
    /// 暂停: both clocks stopped in `player`'s turn, `banked` of it used.
    Paused {
        /// Whose turn it is.
        player: Color,
        /// Time of this turn used so far.
        banked: Millis,
    },
    /// 封棋: the game is adjourned; the opponent sealed a move and `player`
    /// is to answer it when play resumes.
    Adjourned {
        /// Who moves when play resumes.
        player: Color,
    },
    /// The game ended at `at`; nothing runs.
    Stopped {
        /// When.
        at: Instant,
    },
    /// A flag ended the game.
    Flagged {
        /// Which.
        flag: Flag,
    },
}

/// What a move did to the mover's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// Who moved.
    pub player: Color,
    /// The time the clock ran for this move.
    pub elapsed: Millis,
    /// Lag compensation credited back.
    pub lag_credit: Millis,
    /// The time charged: `elapsed − lag_credit`.
    pub used: Millis,
    /// Byo-yomi periods used up by this move (each full period used).
    pub periods_used: u32,
    /// Fischer time added (after the cap).
    pub increment: Millis,
    /// Moves per period: this move completed a period; a new one began.
    pub new_period: bool,
    /// The mover's clock after the move.
    pub reading: Reading,
}

/// An operation the clock cannot do; the clock is left unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// Instants must not go back before the clock's last event.
    #[error("time went backwards: {at} is before the clock's last event at {last}")]
    TimeWentBackwards {
        /// The instant given.
        at: Instant,
        /// The last event's instant.
        last: Instant,
    },
    /// The clock has not started.
    #[error("the clock has not started")]
    NotStarted,
    /// The clock was already started or scheduled.
    #[error("the clock has already started")]
    AlreadyStarted,
    /// The clock is paused.
    #[error("the clock is paused (暂停): resume it first")]
    Paused,
    /// The game is adjourned.
    #[error("the game is adjourned (封棋): resume it first")]
    Adjourned,
    /// Not both players have sat down.
    #[error("the game has not started: the players have not both sat down")]
    AwaitingPlayers,
    /// Sitting down outside the wait for players.
    #[error("the clock is not waiting for players to sit down")]
    NotAwaitingPlayers,
    /// Resuming what is not paused or adjourned.
    #[error("the clock is not paused or adjourned")]
    NotSuspended,
    /// The game is over.
    #[error("the game's clock has stopped")]
    Finished,
    /// A move by the player whose clock is not running.
    #[error("it is {to_move}'s turn, not {player}'s")]
    NotYourTurn {
        /// Who tried to move.
        player: Color,
        /// Whose turn it is.
        to_move: Color,
    },
    /// A player sat down twice.
    #[error("{0} has already sat down")]
    AlreadySeated(Color),
    /// A clock ran out before the operation's instant: record the flag.
    #[error("too late: {0}; record the flag first")]
    Expired(Flag),
    /// Recording a flag when nothing has run out.
    #[error("no clock has run out at {0}")]
    NoFlag(Instant),
    /// Art. 22.5's option without byo-yomi.
    #[error("a time-out can count as a pass (Art. 22.5) only under byo-yomi or per-move time")]
    PassNeedsByoYomi,
    /// Art. 22.4's running clock without a clock.
    #[error("an absent player's clock cannot run (Art. 22.4) in a game without a clock")]
    ClockRunsNeedsClock,
    /// A stored clock that cannot have come from this crate.
    #[error("the stored clock is inconsistent: {0}")]
    Inconsistent(&'static str),
}

/// The clock of one game.
///
/// Every operation is told its instant; instants must not go backwards.
/// An operation that fails returns an error and leaves the clock as it was.
/// A move after the running player's deadline fails with
/// [`ClockError::Expired`]: the caller records the flag
/// ([`Clock::record_flag`]) and the game acts on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ClockRecord", into = "ClockRecord")]
pub struct Clock {
    control: TimeControl,
    options: ClockOptions,
    times: ByColor<PlayerTime>,
    lag_quota: ByColor<Millis>,
    status: Status,
    last: Option<Instant>,
}

impl Clock {
    /// A clock for one game, not started.
    pub fn new(control: TimeControl, options: ClockOptions) -> Result<Clock, ClockError> {
        check_options(&control, &options)?;
        let quota = options.lag.map_or(Millis::ZERO, |lag| lag.initial_quota);
        Ok(Clock {
            control,
            options,
            times: ByColor::of(|_| PlayerTime::new(&control)),
            lag_quota: ByColor::new(quota, quota),
            status: Status::NotStarted,
            last: None,
        })
    }

    /// The time control.
    #[must_use]
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// The per-game options.
    #[must_use]
    pub fn options(&self) -> &ClockOptions {
        &self.options
    }

    /// Where the clock is in the game.
    #[must_use]
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// Whose turn it is, while the game is on (running, paused, adjourned or
    /// waiting to start).
    #[must_use]
    pub fn to_move(&self) -> Option<Color> {
        match self.status {
            Status::AwaitingPlayers {
                to_move: player, ..
            }
            | Status::Running { player, .. }
            | Status::Paused { player, .. }
            | Status::Adjourned { player } => Some(player),
            Status::NotStarted | Status::Stopped { .. } | Status::Flagged { .. } => None,
        }
    }

    /// The lag quota `player` holds (zero without lag compensation).
    #[must_use]
    pub fn lag_quota(&self, player: Color) -> Millis {
        self.lag_quota[player]
    }

    /// Starts the game now: `to_move`'s time runs from `at`.
    pub fn start(&mut self, to_move: Color, at: Instant) -> Result<(), ClockError> {
        self.check_time(at)?;
        self.check_not_started()?;
        self.status = Status::Running {
            player: to_move,
            since: at,
            banked: Millis::ZERO,
        };
        self.last = Some(at);
        Ok(())
    }

    /// Schedules the game to start at `scheduled` once both players sit
    /// down ([`Clock::sit_down`]); a player not seated by then is late
    /// (Art. 22.1–22.4). If both sit down early, the clock starts at
    /// `scheduled`: a move before it costs nothing.
    pub fn schedule(&mut self, to_move: Color, scheduled: Instant) -> Result<(), ClockError> {
        self.check_not_started()?;
        self.status = Status::AwaitingPlayers {
            to_move,
            scheduled,
            seated: ByColor::new(None, None),
        };
        Ok(())
    }

    /// `player` sits down at `at`. Late, he is charged per the event's rule
    /// (see [`LateArrival`]). When both are seated, the clock of the player
    /// to move starts: at the scheduled start, or when the later of them sat
    /// down.
    pub fn sit_down(&mut self, player: Color, at: Instant) -> Result<Arrival, ClockError> {
        self.check_time(at)?;
        let (to_move, scheduled, mut seated) = match self.status {
            Status::AwaitingPlayers {
                to_move,
                scheduled,
                seated,
            } => (to_move, scheduled, seated),
            Status::Stopped { .. } | Status::Flagged { .. } => return Err(ClockError::Finished),
            _ => return Err(ClockError::NotAwaitingPlayers),
        };
        if seated[player].is_some() {
            return Err(ClockError::AlreadySeated(player));
        }
        if let Some(flag) = self.flag(at) {
            return Err(ClockError::Expired(flag));
        }
        let late = at - scheduled;
        let time = self.times[player];
        let arrival = if late.is_zero() {
            Arrival::OnTime
        } else if time.allowance(&self.control).is_none() {
            Arrival::Late {
                late,
                charged: Millis::ZERO,
                periods_used: 0,
            }
        } else {
            let charged = self.options.late_arrival.charge(late);
            let spent = time
                .spend(&self.control, charged)
                .ok_or(ClockError::Expired(Flag::TimeOut { player, at }))?;
            self.times[player] = spent.after;
            Arrival::Late {
                late,
                charged,
                periods_used: spent.periods_used,
            }
        };
        seated[player] = Some(at);
        self.status = match seated {
            ByColor {
                black: Some(black),
                white: Some(white),
            } => Status::Running {
                player: to_move,
                since: scheduled.max(black).max(white),
                banked: Millis::ZERO,
            },
            _ => Status::AwaitingPlayers {
                to_move,
                scheduled,
                seated,
            },
        };
        self.last = Some(at);
        Ok(arrival)
    }

    /// A move (or pass) by `player`, the player to move, at `at`: charges
    /// his time, applies the byo-yomi, period and increment rules, and
    /// starts the opponent's clock.
    pub fn play(&mut self, player: Color, at: Instant) -> Result<Played, ClockError> {
        self.play_with_lag(player, at, Millis::ZERO)
    }

    /// [`Clock::play`] with the network delay measured for this move, which
    /// is credited back within the lag quota (see [`LagPolicy`]). The move
    /// is in time if the time charged after the credit is.
    pub fn play_with_lag(
        &mut self,
        player: Color,
        at: Instant,
        lag: Millis,
    ) -> Result<Played, ClockError> {
        let played = self.charge_move(player, at, lag)?;
        self.status = Status::Running {
            player: player.opponent(),
            since: at,
            banked: Millis::ZERO,
        };
        Ok(played)
    }

    /// 封棋: the player to move hands in his sealed move at `at`. His time
    /// is charged as for a move; the clock stops until [`Clock::resume`],
    /// when the sealed move is played and the opponent's time runs. (A
    /// sealed move on an occupied point is a pass: the game's concern.)
    pub fn adjourn(&mut self, at: Instant) -> Result<Played, ClockError> {
        let (player, ..) = self.running()?;
        let played = self.charge_move(player, at, Millis::ZERO)?;
        self.status = Status::Adjourned {
            player: player.opponent(),
        };
        Ok(played)
    }

    /// 暂停 (Art. 14): both clocks stop; the time of the turn so far is
    /// kept.
    pub fn pause(&mut self, at: Instant) -> Result<(), ClockError> {
        self.check_time(at)?;
        let (player, since, banked) = self.running()?;
        if let Some(flag) = self.flag(at) {
            return Err(ClockError::Expired(flag));
        }
        self.status = Status::Paused {
            player,
            banked: banked + (at - since),
        };
        self.last = Some(at);
        Ok(())
    }

    /// Resumes a paused or adjourned game at `at`: the player to move's time
    /// runs from then. Call it at the scheduled time of resumption: a
    /// player late after a pause is charged by his running clock and no
    /// more (Art. 22.1: "进入自然计时状态").
    pub fn resume(&mut self, at: Instant) -> Result<(), ClockError> {
        self.check_time(at)?;
        let (player, banked) = match self.status {
            Status::Paused { player, banked } => (player, banked),
            Status::Adjourned { player } => (player, Millis::ZERO),
            Status::Stopped { .. } | Status::Flagged { .. } => return Err(ClockError::Finished),
            _ => return Err(ClockError::NotSuspended),
        };
        self.status = Status::Running {
            player,
            since: at,
            banked,
        };
        self.last = Some(at);
        Ok(())
    }

    /// The game ended at `at` (resignation, counting, agreement, or Art.
    /// 12.4's stopping of the clock): the running player's time is charged
    /// (a part period of byo-yomi costs nothing) and nothing runs any more.
    pub fn stop(&mut self, at: Instant) -> Result<(), ClockError> {
        self.check_time(at)?;
        if let Some(flag) = self.flag(at) {
            return Err(ClockError::Expired(flag));
        }
        let charge = match self.status {
            Status::Running {
                player,
                since,
                banked,
            } => Some((player, banked + (at - since))),
            Status::Paused { player, banked } => Some((player, banked)),
            Status::NotStarted | Status::AwaitingPlayers { .. } | Status::Adjourned { .. } => None,
            Status::Stopped { .. } | Status::Flagged { .. } => return Err(ClockError::Finished),
        };
        if let Some((player, used)) = charge {
            let time = &mut self.times[player];
            let spent = time
                .spend(&self.control, used)
                .ok_or(ClockError::Expired(Flag::TimeOut { player, at }))?;
            *time = spent.after;
        }
        self.status = Status::Stopped { at };
        self.last = Some(at);
        Ok(())
    }

    /// The instant the next flag falls if nothing happens first: the
    /// running player's time-out, or an absent player's forfeit. A server
    /// sets one timer for it (plus [`Clock::max_lag_credit`] if it
    /// compensates lag).
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        self.next_flag().map(|flag| flag.at())
    }

    /// The most lag credit the running player's next move can get: how
    /// long after [`Clock::deadline`] a delayed move may still be in time.
    #[must_use]
    pub fn max_lag_credit(&self) -> Millis {
        match (self.status, self.options.lag) {
            (Status::Running { player, .. }, Some(lag)) => {
                lag.max_next_credit(self.lag_quota(player))
            }
            _ => Millis::ZERO,
        }
    }

    /// Has a clock run out by `at`? The flag carries the exact instant it
    /// fell, which is the same whenever the question is asked.
    #[must_use]
    pub fn flag(&self, at: Instant) -> Option<Flag> {
        self.next_flag().filter(|flag| flag.at() <= at)
    }

    /// Records the flag that fell by `at` (see [`Clock::flag`]). A time-out
    /// or forfeit ends the game's clock. Under Art. 22.5 a time-out in the
    /// last period is a pass: the player keeps his last period and the
    /// opponent's time runs from the instant of the time-out; the opponent
    /// may himself have run out by `at`, so ask again.
    pub fn record_flag(&mut self, at: Instant) -> Result<Flag, ClockError> {
        self.check_time(at)?;
        let flag = self.flag(at).ok_or(ClockError::NoFlag(at))?;
        self.status = match flag {
            Flag::TimeOutPass { player, at: fell } => {
                let time = &mut self.times[player];
                *time = time.last_period(&self.control);
                Status::Running {
                    player: player.opponent(),
                    since: fell,
                    banked: Millis::ZERO,
                }
            }
            _ => Status::Flagged { flag },
        };
        self.last = Some(at);
        Ok(flag)
    }

    /// The server-downtime hook: moves the running clock's reference
    /// instant (or the scheduled start) `by` later, so that time while the
    /// server was down is not charged. The policy (forgive all of the
    /// downtime, part of it, or none) is the server's; call this once on
    /// restart with the time to forgive, before any other operation.
    pub fn excuse_downtime(&mut self, by: Millis) {
        match &mut self.status {
            Status::Running { since, .. } => *since = *since + by,
            Status::AwaitingPlayers { scheduled, .. } => *scheduled = *scheduled + by,
            _ => {}
        }
    }

    /// `player`'s clock at `at`: what the display shows and what "how much
    /// time do I have" answers. A player not yet seated is shown with his
    /// lateness charged so far.
    #[must_use]
    pub fn reading(&self, player: Color, at: Instant) -> Reading {
        let time = self.times[player];
        let (running, elapsed) = match self.status {
            Status::Running {
                player: p,
                since,
                banked,
            } if p == player => (true, banked + (at - since)),
            Status::Paused { player: p, banked } if p == player => (false, banked),
            Status::AwaitingPlayers {
                scheduled, seated, ..
            } if seated[player].is_none() => {
                (true, self.options.late_arrival.charge(at - scheduled))
            }
            Status::Flagged {
                flag: Flag::TimeOut { player: p, .. },
            } if p == player => (false, Millis::MAX),
            _ => (false, Millis::ZERO),
        };
        time.reading(&self.control, player, running, elapsed)
    }

    /// `player`'s time between turns (for the announcements).
    pub(crate) fn time(&self, player: Color) -> PlayerTime {
        self.times[player]
    }

    /// The flag that falls next if nothing happens.
    fn next_flag(&self) -> Option<Flag> {
        match self.status {
            Status::Running {
                player,
                since,
                banked,
            } => {
                let allowance = self.time(player).allowance(&self.control)?;
                let at = since + (allowance - banked);
                Some(match self.options.on_time_out {
                    TimeOutRule::Pass => Flag::TimeOutPass { player, at },
                    TimeOutRule::Lose => Flag::TimeOut { player, at },
                })
            }
            Status::AwaitingPlayers {
                scheduled, seated, ..
            } => {
                let expiries: Vec<_> = Color::ALL
                    .into_iter()
                    .filter(|&p| seated[p].is_none())
                    .filter_map(|p| {
                        let allowance = self.time(p).allowance(&self.control);
                        let (at, how) = self.options.late_arrival.expiry(scheduled, allowance)?;
                        Some((at, p, how))
                    })
                    .collect();
                let first = expiries.iter().map(|&(at, ..)| at).min()?;
                let mut falling = expiries.into_iter().filter(|&(at, ..)| at == first);
                match (falling.next(), falling.next()) {
                    (Some(_), Some(_)) => Some(Flag::BothForfeit { at: first }),
                    (Some((at, player, Absence::Forfeit)), None) => {
                        Some(Flag::Forfeit { player, at })
                    }
                    (Some((at, player, Absence::OutOfTime)), None) => {
                        Some(Flag::TimeOut { player, at })
                    }
                    (None, _) => None,
                }
            }
            _ => None,
        }
    }

    /// Charges a move by `player` at `at`, without switching the clock.
    fn charge_move(
        &mut self,
        player: Color,
        at: Instant,
        lag: Millis,
    ) -> Result<Played, ClockError> {
        self.check_time(at)?;
        let (to_move, since, banked) = self.running()?;
        if player != to_move {
            return Err(ClockError::NotYourTurn { player, to_move });
        }
        let elapsed = banked + (at - since);
        let (lag_credit, quota_after) = match self.options.lag {
            Some(policy) => {
                let credit = policy.credit(self.lag_quota[player], lag, elapsed);
                (credit.credit, credit.quota_after)
            }
            None => (Millis::ZERO, self.lag_quota[player]),
        };
        let used = elapsed - lag_credit;
        let spent = self.times[player]
            .spend(&self.control, used)
            .ok_or_else(|| {
                ClockError::Expired(self.next_flag().unwrap_or(Flag::TimeOut { player, at }))
            })?;
        let done = spent.after.finish_move(&self.control);
        self.times[player] = done.after;
        self.lag_quota[player] = quota_after;
        self.last = Some(at);
        Ok(Played {
            player,
            elapsed,
            lag_credit,
            used,
            periods_used: spent.periods_used,
            increment: done.increment,
            new_period: done.new_period,
            reading: done
                .after
                .reading(&self.control, player, false, Millis::ZERO),
        })
    }

    /// The running player, since when, and the turn's banked time; or why
    /// nothing runs.
    fn running(&self) -> Result<(Color, Instant, Millis), ClockError> {
        match self.status {
            Status::Running {
                player,
                since,
                banked,
            } => Ok((player, since, banked)),
            Status::NotStarted => Err(ClockError::NotStarted),
            Status::AwaitingPlayers { .. } => Err(ClockError::AwaitingPlayers),
            Status::Paused { .. } => Err(ClockError::Paused),
            Status::Adjourned { .. } => Err(ClockError::Adjourned),
            Status::Stopped { .. } | Status::Flagged { .. } => Err(ClockError::Finished),
        }
    }

    fn check_not_started(&self) -> Result<(), ClockError> {
        match self.status {
            Status::NotStarted => Ok(()),
            Status::Stopped { .. } | Status::Flagged { .. } => Err(ClockError::Finished),
            _ => Err(ClockError::AlreadyStarted),
        }
    }

    fn check_time(&self, at: Instant) -> Result<(), ClockError> {
        match self.last {
            Some(last) if at < last => Err(ClockError::TimeWentBackwards { at, last }),
            _ => Ok(()),
        }
    }
}

fn check_options(control: &TimeControl, options: &ClockOptions) -> Result<(), ClockError> {
    if options.on_time_out == TimeOutRule::Pass && control.byo_yomi_periods().is_none() {
        return Err(ClockError::PassNeedsByoYomi);
    }
    if options.late_arrival == LateArrival::ClockRuns && *control == TimeControl::None {
        return Err(ClockError::ClockRunsNeedsClock);
    }
    Ok(())
}

/// The stored form of a clock, checked on the way in.
#[derive(Clone, Serialize, Deserialize)]
struct ClockRecord {
    control: TimeControl,
    options: ClockOptions,
    times: ByColor<PlayerTime>,
    lag_quota: ByColor<Millis>,
    status: Status,
    last: Option<Instant>,
}

impl TryFrom<ClockRecord> for Clock {
    type Error = ClockError;
    fn try_from(r: ClockRecord) -> Result<Clock, ClockError> {
        check_options(&r.control, &r.options)?;
        if !r.times.all(|t| t.is_valid_for(&r.control)) {
            return Err(ClockError::Inconsistent(
                "a player's time does not fit the time control",
            ));
        }
        let banked = match r.status {
            Status::Running { player, banked, .. } | Status::Paused { player, banked } => {
                Some((player, banked))
            }
            _ => None,
        };
        if let Some((player, banked)) = banked
            && r.times[player]
                .allowance(&r.control)
                .is_some_and(|allowance| banked >= allowance)
        {
            return Err(ClockError::Inconsistent(
                "the turn has used more than the player's time",
            ));
        }
        Ok(Clock {
            control: r.control,
            options: r.options,
            times: r.times,
            lag_quota: r.lag_quota,
            status: r.status,
            last: r.last,
        })
    }
}

impl From<Clock> for ClockRecord {
    fn from(c: Clock) -> ClockRecord {
        ClockRecord {
            control: c.control,
            options: c.options,
            times: c.times,
            lag_quota: c.lag_quota,
            status: c.status,
            last: c.last,
        }
    }
}
