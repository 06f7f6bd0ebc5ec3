//! 计时: every time system of the Chinese Weiqi Competition Rules as a pure,
//! deterministic clock. It never reads the system clock: each operation is
//! given its [`Instant`], so every behaviour is exact to the millisecond and
//! testable. No I/O, no async.
//!
//! - [`TimeControl`]: the settings — no clock, absolute (包干), byo-yomi (读秒,
//!   also as "reserve N minutes"), moves per period (定时限步制, with or
//!   without carry-over), Fischer, per-move — with a description that
//!   parses back and a mapping to and from SGF `TM`/`OT` (and YuanYu's
//!   `TC`/`TT`).
//! - [`Clock`]: one game's two clocks as a state machine — start or late
//!   arrival, moves, pause, adjournment, flags, the end — serialisable so a
//!   restart restores it exactly.
//! - [`Announcement`]s: the timekeeper's calls with their instants, in
//!   Chinese and English; [`Reading`]s: what the display shows and "how much
//!   time do I have".
//!
//! Article numbers (`Art. 12.3`) refer to the 2002 rules as digested in the
//! project's `docs/spec/time.md`.
//!
//! # A game in byo-yomi
//! ```
//! use shoutan_clock::{ByoYomi, Clock, ClockOptions, Instant, Millis, TimeControl};
//! use shoutan_rules::Color;
//! let control: TimeControl = "1 min + 3×30s byo-yomi".parse().unwrap();
//! let mut clock = Clock::new(control, ClockOptions::default()).unwrap();
//! let t0 = Instant::from_millis(0);
//! let secs = |s| t0 + Millis::from_secs(s);
//! clock.start(Color::Black, t0).unwrap();
//! clock.play(Color::Black, secs(50)).unwrap(); // 10 s of main time left
//! clock.play(Color::White, secs(55)).unwrap();
//! // Black uses his 10 s, then 35 s of byo-yomi: one period is gone.
//! let played = clock.play(Color::Black, secs(100)).unwrap();
//! assert_eq!(played.periods_used, 1);
//! assert_eq!(played.reading.text_en(), "byo-yomi: 2 periods of 30s left, 0:30 left in this one");
//! ```
//!
//! # Time-out: the deadline, the flag, and Art. 22.5
//! ```
//! use shoutan_clock::{Clock, ClockError, ClockOptions, Flag, Instant, Millis, TimeOutRule};
//! use shoutan_rules::Color;
//! let options = ClockOptions { on_time_out: TimeOutRule::Pass, ..ClockOptions::default() };
//! let mut clock = Clock::new("1×30s byo-yomi".parse().unwrap(), options).unwrap();
//! let t0 = Instant::from_millis(0);
//! clock.start(Color::Black, t0).unwrap();
//! let deadline = clock.deadline().unwrap(); // one timer for the server
//! assert_eq!(deadline, t0 + Millis::from_secs(30));
//! assert_eq!(clock.flag(deadline - Millis::from_millis(1)), None);
//! // A move at the very instant is too late, and changes nothing.
//! assert!(matches!(clock.play(Color::Black, deadline), Err(ClockError::Expired(_))));
//! // Under Art. 22.5 the time-out is a pass; white's clock runs from it.
//! let flag = clock.record_flag(deadline).unwrap();
//! assert_eq!(flag, Flag::TimeOutPass { player: Color::Black, at: deadline });
//! assert_eq!(clock.to_move(), Some(Color::White));
//! ```
//!
//! # Announcements for the server to schedule
//! ```
//! use shoutan_clock::{Call, Clock, ClockOptions, Instant, Millis};
//! use shoutan_rules::Color;
//! let mut clock = Clock::new("1×60s byo-yomi".parse().unwrap(), ClockOptions::default()).unwrap();
//! let t0 = Instant::from_millis(0);
//! clock.start(Color::White, t0).unwrap();
//! let next = clock.next_announcement(t0).unwrap();
//! assert_eq!((next.at, next.call), (t0 + Millis::from_secs(30), Call::Seconds { secs: 30 }));
//! let last = clock.announcements_between(t0, t0 + Millis::from_secs(60)).pop().unwrap();
//! assert_eq!((last.at, last.text_zh()), (clock.deadline().unwrap(), "10".to_owned()));
//! ```
//!
//! # Lag compensation
//! The server passes the network delay it measured for a move
//! ([`Clock::play_with_lag`]); with a [`LagPolicy`] the clock credits back
//!
//! ```text
//! credit = min(lag, max_credit, quota, time the move took)
//! quota' = min(quota − credit + quota_gain, max_quota)
//! ```
//!
//! The quota starts at `initial_quota`, so over n moves a player gains at
//! most `initial_quota + (n − 1) × quota_gain`, and never more than
//! `max_credit` on one move, whatever his client claims (Lichess's scheme and
//! defaults: 2 s, +1 s per move, at most 5 s held and 3 s per move). A move is
//! in time if the time charged after the credit is; a server that
//! compensates lag declares a flag at [`Clock::deadline`] plus
//! [`Clock::max_lag_credit`].
//!
//! # Server downtime
//! The clock is pure, so time while the server was down would be charged
//! like any other. [`Clock::excuse_downtime`] moves the running clock's
//! reference instant later by the time to forgive; the policy is the
//! server's (the usual one: forgive from the last persisted event, or last
//! heartbeat, to the restart).
//!
//! # A server's order of work
//! Before applying an event at instant `t`, record any flag that fell by
//! `t` (`while clock.flag(t).is_some() { clock.record_flag(t) }`, acting on
//! each: a loss, a forfeit, or under Art. 22.5 a pass to record in the
//! game); emit the calls `announcements_between(last, t)`; then apply the
//! event.

mod announcement;
mod clock;
mod flag;
mod instant;
mod lag;
mod late_arrival;
mod millis;
mod player_time;
mod reading;
mod sgf_time;
mod time_control;
mod time_control_text;

pub use announcement::{Announcement, Call};
pub use clock::{Clock, ClockError, ClockOptions, Played, Status};
pub use flag::{Flag, TimeOutRule};
pub use instant::Instant;
pub use lag::{LagCredit, LagPolicy};
pub use late_arrival::{Arrival, LateArrival};
pub use millis::{DurationError, Millis};
pub use reading::{Overtime, Reading};
pub use sgf_time::{SgfTime, SgfTimeError};
pub use time_control::{
    Absolute, ByoYomi, Fischer, Leftover, MovesPerPeriod, PerMove, TimeControl, TimeControlError,
};
pub use time_control_text::TimeControlParseError;
