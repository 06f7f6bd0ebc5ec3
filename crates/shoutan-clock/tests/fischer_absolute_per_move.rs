//! Absolute time (包干, Art. 12.4), Fischer increment with a cap, simple
//! per-move time, and no clock: move by move to the millisecond.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

use shoutan_clock::{
    Clock, ClockError, ClockOptions, Flag, Instant, Millis, Overtime, TimeControl,
};
use shoutan_rules::Color::{Black, White};

fn ms(n: u64) -> Millis {
    Millis::from_millis(n)
}

/// Black thinks `used` ms each row, White answers in 1 ms; returns the
/// total Black has left after each move, and the fischer increments.
fn black_moves(control: &str, used: &[u64]) -> (Clock, Instant, Vec<(u64, u64)>) {
    let control: TimeControl = control.parse().unwrap();
    let mut clock = Clock::new(control, ClockOptions::default()).unwrap();
    let mut now = Instant::from_millis(0);
    clock.start(Black, now).unwrap();
    let mut after = Vec::new();
    for &u in used {
        now = now + ms(u);
        let played = clock.play(Black, now).unwrap();
        let left = played
            .reading
            .total_left
            .map_or(u64::MAX, Millis::as_millis);
        after.push((left, played.increment.as_millis()));
        now = now + ms(1);
        clock.play(White, now).unwrap();
    }
    (clock, now, after)
}

#[test]
fn absolute_time_runs_down_to_the_millisecond() {
    let (mut clock, now, after) = black_moves("absolute 1 min", &[30_000, 29_999]);
    assert_eq!(after, [(30_000, 0), (1, 0)]);
    let deadline = now + ms(1);
    assert_eq!(clock.deadline(), Some(deadline));
    assert_eq!(clock.reading(Black, now).text_en(), "0:00 left");
    assert_eq!(
        clock.play(Black, deadline),
        Err(ClockError::Expired(Flag::TimeOut {
            player: Black,
            at: deadline
        }))
    );
    assert_eq!(
        clock.record_flag(deadline),
        Ok(Flag::TimeOut {
            player: Black,
            at: deadline
        })
    );
}

#[test]
fn fischer_adds_the_increment_up_to_the_cap() {
    let (clock, now, after) = black_moves(
        "1 min + 10s Fischer (max 1 min 15s)",
        &[5_000, 1_000, 500, 74_999],
    );
    assert_eq!(
        after,
        [
            (65_000, 10_000), // 55 + 10
            (74_000, 10_000), // 64 + 10
            (75_000, 1_500),  // 73.5 + 10, capped at 75
            (10_001, 10_000), // 0.001 + 10
        ]
    );
    assert_eq!(clock.deadline(), Some(now + ms(10_001)));
    let reading = clock.reading(Black, now + ms(5_000));
    assert_eq!(
        (reading.text_en(), reading.text_zh()),
        ("0:05 left".to_owned(), "还剩5秒".to_owned())
    );
}

#[test]
fn fischer_with_no_time_left_is_a_time_out_not_an_increment() {
    let (mut clock, now, _) = black_moves("1 min + 10s Fischer", &[]);
    let deadline = now + Millis::from_secs(60);
    assert_eq!(
        clock.play(Black, deadline),
        Err(ClockError::Expired(Flag::TimeOut {
            player: Black,
            at: deadline
        }))
    );
    assert!(clock.play(Black, deadline - ms(1)).is_ok());
}

#[test]
fn per_move_time_is_the_same_for_every_move() {
    let (mut clock, now, after) = black_moves("30s per move", &[29_999, 1, 29_999]);
    assert_eq!(after, [(30_000, 0); 3]);
    let reading = clock.reading(Black, now + ms(12_500));
    assert_eq!(reading.overtime, Overtime::PerMove { left: ms(17_500) });
    assert_eq!(reading.text_en(), "0:17 for this move");
    assert_eq!(reading.text_zh(), "本步还剩17秒");
    assert!(matches!(
        clock.play(Black, now + ms(30_000)),
        Err(ClockError::Expired(_))
    ));
}

#[test]
fn no_clock_never_runs_out() {
    let (clock, now, after) = black_moves("no clock", &[86_400_000, 3]);
    assert_eq!(after, [(u64::MAX, 0); 2]);
    assert_eq!(clock.deadline(), None);
    assert_eq!(clock.flag(now + Millis::from_hours(10_000)), None);
    assert_eq!(clock.reading(Black, now).text_en(), "no time limit");
    assert_eq!(clock.reading(White, now).text_zh(), "不计时");
    assert!(
        clock
            .announcements_between(now, now + Millis::from_hours(1))
            .is_empty()
    );
}
