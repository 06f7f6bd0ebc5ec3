//! The procedure around the moves (Art. 14, 22): pause (暂停), adjournment
//! with a sealed move (封棋), the end of the game, a restart of the server
//! (the stored clock restores exactly), and the downtime hook.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

use shoutan_clock::{
    Clock, ClockError, ClockOptions, Instant, LagPolicy, Millis, Overtime, Status, TimeControl,
};
use shoutan_rules::Color::{Black, White};

fn ms(n: u64) -> Millis {
    Millis::from_millis(n)
}

fn at(n: u64) -> Instant {
    Instant::from_millis(n)
}

fn clock(control: &str) -> Clock {
    Clock::new(
        control.parse::<TimeControl>().unwrap(),
        ClockOptions::default(),
    )
    .unwrap()
}

/// Paused 40 s into a byo-yomi period, the turn goes on where it stopped:
/// 19.999 s more is still in the period, 20 s more has used it.
#[test]
fn a_pause_keeps_the_time_of_the_turn() {
    for (after_resume, periods_used) in [(19_999, 0), (20_000, 1)] {
        let mut clock = clock("3×60s byo-yomi");
        clock.start(Black, at(0)).unwrap();
        clock.pause(at(40_000)).unwrap();
        assert_eq!(
            clock.status(),
            &Status::Paused {
                player: Black,
                banked: ms(40_000)
            }
        );
        assert_eq!(clock.deadline(), None);
        assert_eq!(clock.play(Black, at(50_000)), Err(ClockError::Paused));
        assert_eq!(clock.pause(at(50_000)), Err(ClockError::Paused));
        // Lunch: an hour passes, nothing runs.
        let reading = clock.reading(Black, at(3_640_000));
        assert!(!reading.running);
        assert_eq!(
            reading.overtime,
            Overtime::ByoYomi {
                periods_left: 3,
                period: ms(60_000),
                period_left: ms(20_000)
            }
        );
        clock.resume(at(3_640_000)).unwrap();
        assert_eq!(clock.deadline(), Some(at(3_640_000 + 140_000)));
        let played = clock.play(Black, at(3_640_000 + after_resume)).unwrap();
        assert_eq!(
            played.periods_used, periods_used,
            "{after_resume} ms after resuming"
        );
        assert_eq!(played.elapsed, ms(40_000 + after_resume));
    }
}

#[test]
fn pausing_after_the_flag_fell_is_too_late() {
    let mut clock = clock("absolute 1 min");
    clock.start(White, at(0)).unwrap();
    assert!(matches!(
        clock.pause(at(60_000)),
        Err(ClockError::Expired(_))
    ));
    assert_eq!(clock.resume(at(60_000)), Err(ClockError::NotSuspended));
}

/// 封棋: the player to move hands in his sealed move; his time is charged
/// as for a move; on resumption the opponent's clock runs.
#[test]
fn adjournment_with_a_sealed_move() {
    let mut clock = clock("1h + 5×60s byo-yomi");
    clock.start(Black, at(0)).unwrap();
    clock.play(Black, at(600_000)).unwrap();
    // White thinks 25 minutes over his sealed move.
    let sealed = clock.adjourn(at(2_100_000)).unwrap();
    assert_eq!((sealed.player, sealed.used), (White, ms(1_500_000)));
    assert_eq!(clock.status(), &Status::Adjourned { player: Black });
    assert_eq!(clock.to_move(), Some(Black));
    assert_eq!(clock.deadline(), None);
    assert_eq!(clock.play(Black, at(3_000_000)), Err(ClockError::Adjourned));
    // Next morning: the sealed move is played, Black's clock runs.
    let morning = 86_400_000;
    clock.resume(at(morning)).unwrap();
    assert_eq!(clock.reading(White, at(morning)).main_left, ms(2_100_000));
    assert_eq!(
        clock.reading(Black, at(morning + 1_000)).main_left,
        ms(2_999_000)
    );
    assert_eq!(
        clock.play(Black, at(morning + 1_000)).unwrap().used,
        ms(1_000)
    );
}

/// A clock written to storage and read back mid-game behaves identically.
#[test]
fn a_restart_restores_the_clock_exactly() {
    let options = ClockOptions {
        lag: Some(LagPolicy::default()),
        ..ClockOptions::default()
    };
    let mut clock = Clock::new("10 min + 3×30s byo-yomi".parse().unwrap(), options).unwrap();
    clock.start(Black, at(0)).unwrap();
    // 10 min and 49.6 s of byo-yomi after the lag credit: one period used.
    assert_eq!(
        clock
            .play_with_lag(Black, at(650_000), ms(400))
            .unwrap()
            .periods_used,
        1
    );
    clock.play(White, at(651_000)).unwrap();
    clock.pause(at(670_000)).unwrap();
    clock.resume(at(800_000)).unwrap();
    let stored = serde_json::to_string(&clock).unwrap();
    let restored: Clock = serde_json::from_str(&stored).unwrap();
    assert_eq!(restored, clock);
    assert_eq!(restored.deadline(), clock.deadline());
    assert_eq!(
        restored.reading(Black, at(820_000)),
        clock.reading(Black, at(820_000))
    );
    let (mut a, mut b) = (clock.clone(), restored);
    assert_eq!(a.play(Black, at(830_000)), b.play(Black, at(830_000)));
    assert_eq!(a.lag_quota(Black), b.lag_quota(Black));
}

#[test]
fn a_stored_clock_that_cannot_be_is_refused() {
    let mut clock = clock("3×30s byo-yomi");
    clock.start(Black, at(0)).unwrap();
    clock.pause(at(10_000)).unwrap();
    let stored = serde_json::to_value(&clock).unwrap();
    // More time banked than the player has.
    let mut bad = stored.clone();
    bad["status"]["banked"] = serde_json::json!(90_000);
    let err = serde_json::from_value::<Clock>(bad).unwrap_err();
    assert!(
        err.to_string().contains("more than the player's time"),
        "{err}"
    );
    // More periods than the time control gives.
    let mut bad = stored;
    bad["times"]["white"]["periods"] = serde_json::json!(4);
    let err = serde_json::from_value::<Clock>(bad).unwrap_err();
    assert!(
        err.to_string().contains("does not fit the time control"),
        "{err}"
    );
}

/// The server was down from 10 s to 70 s into Black's turn and forgives the
/// downtime: a move at 80 s is charged 20 s.
#[test]
fn downtime_excused_is_not_charged() {
    let mut clock = clock("absolute 5 min");
    clock.start(Black, at(0)).unwrap();
    assert_eq!(clock.deadline(), Some(at(300_000)));
    clock.excuse_downtime(ms(60_000));
    assert_eq!(clock.deadline(), Some(at(360_000)));
    assert_eq!(clock.play(Black, at(80_000)).unwrap().used, ms(20_000));
    // Nothing running: nothing to shift.
    clock.pause(at(90_000)).unwrap();
    let paused = clock.clone();
    clock.excuse_downtime(ms(60_000));
    assert_eq!(clock, paused);
}

#[test]
fn a_finished_clock_refuses_everything() {
    let mut clock = clock("absolute 5 min");
    clock.start(Black, at(0)).unwrap();
    clock.stop(at(1_000)).unwrap();
    assert_eq!(clock.play(Black, at(2_000)), Err(ClockError::Finished));
    assert_eq!(clock.pause(at(2_000)), Err(ClockError::Finished));
    assert_eq!(clock.resume(at(2_000)), Err(ClockError::Finished));
    assert_eq!(clock.start(Black, at(2_000)), Err(ClockError::Finished));
    assert_eq!(clock.to_move(), None);
    assert_eq!(
        clock.reading(Black, at(9_000)).total_left,
        Some(ms(299_000))
    );
}
