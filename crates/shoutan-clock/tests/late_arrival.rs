//! Late arrival at the start of a game (Art. 22.1–22.4): the time late is
//! deducted twice, up to the event's limit (inclusive: "不得超过1小时（含）");
//! beyond it the player forfeits; both beyond it, both lose. In games with
//! little or no basic time the absent player's clock runs in byo-yomi until
//! he sits down, or it expires and he forfeits.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

use shoutan_clock::{
    Arrival, Call, Clock, ClockError, ClockOptions, Flag, Instant, LateArrival, Millis, Overtime,
    Status, TimeControl,
};
use shoutan_rules::Color::{Black, White};

fn ms(n: u64) -> Millis {
    Millis::from_millis(n)
}

const START: Instant = Instant::from_millis(36_000_000);
const MIN: u64 = 60_000;

fn scheduled(control: &str, late_arrival: LateArrival) -> Clock {
    let options = ClockOptions {
        late_arrival,
        ..ClockOptions::default()
    };
    let mut clock = Clock::new(control.parse::<TimeControl>().unwrap(), options).unwrap();
    clock.schedule(Black, START).unwrap();
    clock
}

/// Same venue (15 minutes): Black 10 minutes late loses 20 minutes; the
/// game starts when he sits down.
#[test]
fn time_late_is_deducted_twice() {
    let mut clock = scheduled("1h + 5×60s byo-yomi", LateArrival::SAME_VENUE);
    assert_eq!(
        clock.sit_down(White, START - ms(5 * MIN)),
        Ok(Arrival::OnTime)
    );
    assert_eq!(clock.play(Black, START), Err(ClockError::AwaitingPlayers));
    // While he is away his clock shows the deduction so far.
    let away = clock.reading(Black, START + ms(4 * MIN));
    assert_eq!(away.main_left, ms(52 * MIN));
    let arrived = START + ms(10 * MIN);
    assert_eq!(
        clock.sit_down(Black, arrived),
        Ok(Arrival::Late {
            late: ms(10 * MIN),
            charged: ms(20 * MIN),
            periods_used: 0
        })
    );
    assert_eq!(
        clock.status(),
        &Status::Running {
            player: Black,
            since: arrived,
            banked: Millis::ZERO
        }
    );
    assert_eq!(clock.reading(Black, arrived).main_left, ms(40 * MIN));
    assert_eq!(clock.reading(White, arrived).main_left, ms(60 * MIN));
    assert_eq!(
        clock.sit_down(Black, arrived),
        Err(ClockError::NotAwaitingPlayers)
    );
}

/// The limit itself is allowed; one millisecond more is a forfeit.
#[test]
fn the_limit_is_inclusive() {
    let limit = ms(15 * MIN);
    let mut clock = scheduled("1h + 5×60s byo-yomi", LateArrival::SAME_VENUE);
    clock.sit_down(Black, START).unwrap();
    assert_eq!(clock.deadline(), Some(START + limit + ms(1)));
    let mut exactly = clock.clone();
    assert_eq!(
        exactly.sit_down(White, START + limit),
        Ok(Arrival::Late {
            late: limit,
            charged: ms(30 * MIN),
            periods_used: 0
        })
    );
    let forfeit = Flag::Forfeit {
        player: White,
        at: START + limit + ms(1),
    };
    assert_eq!(
        clock.sit_down(White, START + limit + ms(1)),
        Err(ClockError::Expired(forfeit))
    );
    assert_eq!(clock.flag(START + limit), None);
    assert_eq!(clock.record_flag(START + ms(20 * MIN)), Ok(forfeit));
    assert_eq!(forfeit.loser(), Some(White));
    assert_eq!(clock.status(), &Status::Flagged { flag: forfeit });
}

/// Both beyond the limit: both lose (Art. 22.3).
#[test]
fn both_late_beyond_the_limit_both_lose() {
    let mut clock = scheduled("3h + 5×60s byo-yomi", LateArrival::SEPARATE_VENUE);
    let fell = START + ms(60 * MIN + 1);
    assert_eq!(clock.flag(fell), Some(Flag::BothForfeit { at: fell }));
    assert_eq!(clock.record_flag(fell), Ok(Flag::BothForfeit { at: fell }));
    assert_eq!(clock.sit_down(Black, fell), Err(ClockError::Finished));
}

/// A late charge beyond the main time uses whole byo-yomi periods.
#[test]
fn a_deduction_beyond_the_main_time_uses_periods() {
    let mut clock = scheduled("1 min + 5×60s byo-yomi", LateArrival::SAME_VENUE);
    clock.sit_down(Black, START).unwrap();
    // 1.5 min late: 3 min charged = the minute of main time and 2 periods.
    assert_eq!(
        clock.sit_down(White, START + ms(90_000)),
        Ok(Arrival::Late {
            late: ms(90_000),
            charged: ms(180_000),
            periods_used: 2
        })
    );
    let white = clock.reading(White, START + ms(90_000));
    assert_eq!(
        white.overtime,
        Overtime::ByoYomi {
            periods_left: 3,
            period: ms(60_000),
            period_left: ms(60_000)
        }
    );
}

/// 30 minutes each with a 1-hour limit: at 15 minutes late the double
/// deduction has taken all his time; he loses on time then, not at the limit.
#[test]
fn a_short_game_can_be_lost_on_time_before_the_limit() {
    let mut clock = scheduled("absolute 30 min", LateArrival::SEPARATE_VENUE);
    clock.sit_down(White, START).unwrap();
    let out = START + ms(15 * MIN);
    assert_eq!(clock.deadline(), Some(out));
    let ok = clock.clone().sit_down(Black, out - ms(1));
    assert_eq!(
        ok,
        Ok(Arrival::Late {
            late: ms(15 * MIN - 1),
            charged: ms(30 * MIN - 2),
            periods_used: 0
        })
    );
    assert_eq!(
        clock.flag(out),
        Some(Flag::TimeOut {
            player: Black,
            at: out
        })
    );
    assert!(matches!(
        clock.sit_down(Black, out),
        Err(ClockError::Expired(Flag::TimeOut { .. }))
    ));
}

/// Art. 22.4, 10-second byo-yomi with no basic time: White is absent; his
/// byo-yomi is counted; he sits down in his third period and plays with what
/// is left. Had he not come, he would have forfeited when it expired.
#[test]
fn absent_players_clock_runs_in_byo_yomi() {
    let mut clock = scheduled("3×10s byo-yomi", LateArrival::ClockRuns);
    clock.sit_down(Black, START).unwrap();
    assert_eq!(clock.deadline(), Some(START + ms(30_000)));
    assert_eq!(
        clock.flag(START + ms(30_000)),
        Some(Flag::Forfeit {
            player: White,
            at: START + ms(30_000)
        })
    );
    // The timekeeper counts the absent player's byo-yomi.
    let calls: Vec<(u64, Call)> = clock
        .announcements_between(START, START + ms(10_000))
        .into_iter()
        .map(|a| ((a.at - START).as_millis(), a.call))
        .collect();
    assert_eq!(
        calls,
        [
            (5_000, Call::Seconds { secs: 5 }),
            (8_000, Call::Seconds { secs: 8 }),
            (10_000, Call::PeriodUsed { period_secs: 10 }),
            (
                10_000,
                Call::PeriodsLeft {
                    periods: 2,
                    period_secs: 10
                }
            ),
        ]
    );
    let seated = START + ms(23_000);
    assert_eq!(
        clock.sit_down(White, seated),
        Ok(Arrival::Late {
            late: ms(23_000),
            charged: ms(23_000),
            periods_used: 2
        })
    );
    // Black moves first; White then has his last period.
    clock.play(Black, seated + ms(4_000)).unwrap();
    assert_eq!(clock.deadline(), Some(seated + ms(14_000)));
}

#[test]
fn the_running_absence_clock_needs_a_clock() {
    let options = ClockOptions {
        late_arrival: LateArrival::ClockRuns,
        ..ClockOptions::default()
    };
    assert_eq!(
        Clock::new(TimeControl::None, options),
        Err(ClockError::ClockRunsNeedsClock)
    );
}

/// Without a clock only the limit applies.
#[test]
fn no_clock_still_has_a_limit() {
    let mut clock = scheduled("no clock", LateArrival::SAME_VENUE);
    clock.sit_down(White, START).unwrap();
    assert_eq!(
        clock.sit_down(Black, START + ms(MIN)),
        Ok(Arrival::Late {
            late: ms(MIN),
            charged: Millis::ZERO,
            periods_used: 0
        })
    );
    assert_eq!(clock.to_move(), Some(Black));
}
