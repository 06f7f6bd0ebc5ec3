//! Byo-yomi (读秒, Art. 12.3), move by move to the millisecond: a move
//! within the period costs nothing, each full period used costs one (a move
//! at exactly 60 s has used the minute: "裁判员读出'10'而棋手同时落子…均应判为
//! 已使用1分钟"), and running out in the last period is a time-out — or,
//! under Art. 22.5, a pass.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

use shoutan_clock::{
    ByoYomi, Clock, ClockError, ClockOptions, Flag, Instant, Millis, Overtime, Status, TimeControl,
    TimeOutRule,
};
use shoutan_rules::Color::{self, Black, White};

fn ms(n: u64) -> Millis {
    Millis::from_millis(n)
}

fn at(n: u64) -> Instant {
    Instant::from_millis(n)
}

fn byo_yomi(main_secs: u64, periods: u32, period_secs: u64) -> TimeControl {
    ByoYomi::new(
        Millis::from_secs(main_secs),
        periods,
        Millis::from_secs(period_secs),
    )
    .unwrap()
    .into()
}

/// The mover's clock after a move: main time left, periods left, periods
/// the move used.
type After = (u64, u32, u32);

/// 1 minute of main time, then 3 periods of 60 seconds. Black starts at 0;
/// each row is a move at an absolute instant in ms.
#[test]
fn moves_at_the_boundaries_of_a_period() {
    let rows: &[(Color, u64, After)] = &[
        // Black thinks 30 s: main time.
        (Black, 30_000, (30_000, 3, 0)),
        // White uses exactly his minute of main time: in byo-yomi, no period used.
        (White, 90_000, (0, 3, 0)),
        // Black: 30 s of main, then 59.999 s of byo-yomi: free.
        (Black, 179_999, (0, 3, 0)),
        // White in byo-yomi: 59.999 s costs nothing.
        (White, 239_998, (0, 3, 0)),
        // Black: exactly 60 s costs a period.
        (Black, 299_998, (0, 2, 1)),
        // White: 60.001 s costs a period (1 ms into the next).
        (White, 359_999, (0, 2, 1)),
        // Black: 119.999 s: one full period used, the second almost.
        (Black, 479_998, (0, 1, 1)),
        // White: 119.999 s likewise: both now in the last period.
        (White, 599_997, (0, 1, 1)),
        // Black in the last period: 59.999 s is still in time, and free.
        (Black, 659_996, (0, 1, 0)),
    ];
    let mut clock = Clock::new(byo_yomi(60, 3, 60), ClockOptions::default()).unwrap();
    clock.start(Black, at(0)).unwrap();
    for &(player, instant, (main, periods, used)) in rows {
        let played = clock.play(player, at(instant)).unwrap();
        assert_eq!(played.periods_used, used, "{player} at {instant}");
        assert_eq!(played.reading.main_left, ms(main), "{player} at {instant}");
        assert_eq!(
            played.reading.overtime,
            Overtime::ByoYomi {
                periods_left: periods,
                period: ms(60_000),
                period_left: ms(60_000)
            },
            "{player} at {instant}"
        );
    }
    // White, in his last period, moves at exactly 60 s: too late.
    let deadline = at(659_996 + 60_000);
    assert_eq!(clock.deadline(), Some(deadline));
    let before = clock.clone();
    assert_eq!(
        clock.play(White, deadline),
        Err(ClockError::Expired(Flag::TimeOut {
            player: White,
            at: deadline
        }))
    );
    assert_eq!(clock, before, "a refused move changes nothing");
    assert_eq!(clock.flag(deadline - ms(1)), None);
    assert_eq!(
        clock.record_flag(deadline + ms(250)),
        Ok(Flag::TimeOut {
            player: White,
            at: deadline
        })
    );
    assert_eq!(
        clock.status(),
        &Status::Flagged {
            flag: Flag::TimeOut {
                player: White,
                at: deadline
            }
        }
    );
    assert!(clock.reading(White, deadline).timed_out());
    assert_eq!(
        clock.play(White, deadline + ms(300)),
        Err(ClockError::Finished)
    );
}

/// A long move from main time uses the main time first, then whole
/// periods; what is left of the period is not carried.
#[test]
fn one_long_move_uses_main_time_then_whole_periods() {
    let mut clock = Clock::new(byo_yomi(600, 5, 30), ClockOptions::default()).unwrap();
    clock.start(Black, at(0)).unwrap();
    // 10 min + 95 s: 3 full periods of 30 s, 5 s into the fourth.
    let played = clock.play(Black, at(695_000)).unwrap();
    assert_eq!(played.periods_used, 3);
    assert_eq!(played.reading.main_left, Millis::ZERO);
    assert_eq!(
        played.reading.overtime,
        Overtime::ByoYomi {
            periods_left: 2,
            period: ms(30_000),
            period_left: ms(30_000)
        }
    );
    assert_eq!(played.reading.total_left, Some(ms(60_000)));
}

/// The reading while the clock runs: the current period counts down and a
/// period used is gone at once. A period that is not the last says 1 second
/// in its last second, never 0 (the next period follows); the last one
/// rounds down, promising nothing more than is left.
#[test]
fn readings_while_the_period_runs() {
    let mut clock = Clock::new(byo_yomi(10, 3, 60), ClockOptions::default()).unwrap();
    clock.start(Black, at(0)).unwrap();
    // (instant, main left, periods left, period left, text)
    let rows: &[(u64, u64, u32, u64, &str, &str)] = &[
        (
            0,
            10_000,
            3,
            60_000,
            "0:10 main time, then 3×60s byo-yomi",
            "基本用时还剩10秒，之后读秒3次60秒",
        ),
        (
            9_999,
            1,
            3,
            60_000,
            "0:00 main time, then 3×60s byo-yomi",
            "基本用时还剩0秒，之后读秒3次60秒",
        ),
        (
            10_000,
            0,
            3,
            60_000,
            "byo-yomi: 3 periods of 60s left, 1:00 left in this one",
            "读秒：还剩3分，本次还剩1分钟",
        ),
        (
            45_500,
            0,
            3,
            24_500,
            "byo-yomi: 3 periods of 60s left, 0:25 left in this one",
            "读秒：还剩3分，本次还剩25秒",
        ),
        (
            69_001,
            0,
            3,
            999,
            "byo-yomi: 3 periods of 60s left, 0:01 left in this one",
            "读秒：还剩3分，本次还剩1秒",
        ),
        (
            70_000,
            0,
            2,
            60_000,
            "byo-yomi: 2 periods of 60s left, 1:00 left in this one",
            "读秒：还剩2分，本次还剩1分钟",
        ),
        (
            130_001,
            0,
            1,
            59_999,
            "byo-yomi: last period, 0:59 left",
            "读秒：最后1分钟，还剩59秒",
        ),
        (
            189_500,
            0,
            1,
            500,
            "byo-yomi: last period, 0:00 left",
            "读秒：最后1分钟，还剩0秒",
        ),
        (190_000, 0, 0, 0, "out of time", "超时"),
    ];
    for &(instant, main, periods, period_left, en, zh) in rows {
        let r = clock.reading(Black, at(instant));
        assert!(r.running);
        assert_eq!(r.main_left, ms(main), "at {instant}");
        assert_eq!(
            r.overtime,
            Overtime::ByoYomi {
                periods_left: periods,
                period: ms(60_000),
                period_left: ms(period_left)
            },
            "at {instant}"
        );
        assert_eq!(
            (r.text_en().as_str(), r.text_zh().as_str()),
            (en, zh),
            "at {instant}"
        );
    }
    // White's clock does not run meanwhile.
    let white = clock.reading(White, at(100_000));
    assert!(!white.running);
    assert_eq!(white.total_left, Some(ms(190_000)));
}

/// "2 hours, reserve 5 minutes" (Art. 12.3): byo-yomi starts at 1h 55 min.
#[test]
fn the_chinese_reserve_formulation() {
    let control: TimeControl = ByoYomi::reserving(Millis::from_hours(2), 5).unwrap().into();
    let mut clock = Clock::new(control, ClockOptions::default()).unwrap();
    clock.start(Black, at(0)).unwrap();
    let main = Millis::from_mins(115).as_millis();
    assert_eq!(clock.deadline(), Some(at(7_200_000)));
    let played = clock.play(Black, at(main + 59_999)).unwrap();
    assert_eq!(
        (played.periods_used, played.reading.total_left),
        (0, Some(ms(300_000)))
    );
    clock.play(White, at(main + 60_000)).unwrap();
    let played = clock.play(Black, at(main + 120_000)).unwrap();
    assert_eq!(played.periods_used, 1);
    assert_eq!(played.reading.text_zh(), "读秒：还剩4分，本次还剩1分钟");
}

/// Art. 22.5: on the player's request a time-out in the last period is a
/// pass (弃权一次), and play goes on under the same byo-yomi.
#[test]
fn art_22_5_time_out_in_the_last_period_becomes_a_pass() {
    let options = ClockOptions {
        on_time_out: TimeOutRule::Pass,
        ..ClockOptions::default()
    };
    let mut clock = Clock::new(byo_yomi(0, 2, 30), options).unwrap();
    clock.start(Black, at(0)).unwrap();
    // Black uses one period on his first move (35 s), White answers at once.
    assert_eq!(clock.play(Black, at(35_000)).unwrap().periods_used, 1);
    clock.play(White, at(36_000)).unwrap();
    // Black's last period runs out at 66 s.
    let fell = at(66_000);
    assert_eq!(clock.deadline(), Some(fell));
    assert_eq!(clock.flag(at(65_999)), None);
    // The server learns of it a little later; the pass is at the instant it fell.
    let flag = clock.record_flag(at(66_400)).unwrap();
    assert_eq!(
        flag,
        Flag::TimeOutPass {
            player: Black,
            at: fell
        }
    );
    assert!(!flag.ends_game());
    assert_eq!(
        clock.status(),
        &Status::Running {
            player: White,
            since: fell,
            banked: Millis::ZERO
        }
    );
    // White's time runs from the instant of the pass, not from when it was recorded.
    assert_eq!(
        clock.reading(White, at(66_400)).overtime,
        Overtime::ByoYomi {
            periods_left: 2,
            period: ms(30_000),
            period_left: ms(29_600),
        }
    );
    clock.play(White, at(70_000)).unwrap();
    // Black plays on in the same last period, with a full 30 s again.
    let black = clock.reading(Black, at(70_000));
    assert_eq!(
        black.overtime,
        Overtime::ByoYomi {
            periods_left: 1,
            period: ms(30_000),
            period_left: ms(30_000)
        }
    );
    assert_eq!(clock.deadline(), Some(at(100_000)));
    // And runs out again: another pass (two passes in a row end the game: the game's concern).
    assert_eq!(
        clock.record_flag(at(100_000)),
        Ok(Flag::TimeOutPass {
            player: Black,
            at: at(100_000)
        })
    );
}

#[test]
fn art_22_5_is_an_option_of_byo_yomi_only() {
    let options = ClockOptions {
        on_time_out: TimeOutRule::Pass,
        ..ClockOptions::default()
    };
    let absolute: TimeControl = "absolute 1h".parse().unwrap();
    assert_eq!(
        Clock::new(absolute, options),
        Err(ClockError::PassNeedsByoYomi)
    );
    let per_move: TimeControl = "30s per move".parse().unwrap();
    assert!(Clock::new(per_move, options).is_ok());
}

/// The end of the game charges the running player; a part period is free.
#[test]
fn stopping_at_the_end_of_the_game() {
    let mut clock = Clock::new(byo_yomi(0, 3, 60), ClockOptions::default()).unwrap();
    clock.start(Black, at(0)).unwrap();
    clock.play(Black, at(10_000)).unwrap();
    // White resigns 130 s into his turn: two periods used.
    clock.stop(at(140_000)).unwrap();
    assert_eq!(clock.status(), &Status::Stopped { at: at(140_000) });
    assert_eq!(
        clock.reading(White, at(200_000)).total_left,
        Some(ms(60_000))
    );
    assert_eq!(clock.deadline(), None);
    assert_eq!(clock.stop(at(150_000)), Err(ClockError::Finished));
}

#[test]
fn wrong_player_and_time_going_backwards_are_refused() {
    let mut clock = Clock::new(byo_yomi(60, 3, 30), ClockOptions::default()).unwrap();
    assert_eq!(clock.play(Black, at(0)), Err(ClockError::NotStarted));
    clock.start(Black, at(1_000)).unwrap();
    assert_eq!(
        clock.start(White, at(1_000)),
        Err(ClockError::AlreadyStarted)
    );
    assert_eq!(
        clock.play(White, at(2_000)),
        Err(ClockError::NotYourTurn {
            player: White,
            to_move: Black
        })
    );
    clock.play(Black, at(5_000)).unwrap();
    let before = clock.clone();
    assert_eq!(
        clock.play(White, at(4_999)),
        Err(ClockError::TimeWentBackwards {
            at: at(4_999),
            last: at(5_000)
        })
    );
    assert_eq!(clock, before);
    assert_eq!(
        clock.record_flag(at(6_000)),
        Err(ClockError::NoFlag(at(6_000)))
    );
}
