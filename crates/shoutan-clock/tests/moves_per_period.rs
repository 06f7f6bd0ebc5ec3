//! 定时限步制 (Art. 12.5) and Canadian overtime: after the main time, a
//! number of moves within each period; time left when the moves are done
//! carries over to the next period (定时限步制) or is lost (Canadian).

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

use shoutan_clock::{
    Clock, ClockError, ClockOptions, Flag, Instant, Leftover, Millis, MovesPerPeriod, Overtime,
    TimeControl,
};
use shoutan_rules::Color::{Black, White};

fn ms(n: u64) -> Millis {
    Millis::from_millis(n)
}

/// After each of Black's moves: main left, moves left, period left, and
/// whether a new period began.
type After = (u64, u32, u64, bool);

/// 1 minute, then 3 moves per 30 seconds. Black thinks `used` ms; White
/// answers in 1 s each time. Returns the clock for the time-out check.
fn replay(leftover: Leftover, rows: &[(u64, After)]) -> (Clock, Instant) {
    let control: TimeControl =
        MovesPerPeriod::new(Millis::from_secs(60), 3, Millis::from_secs(30), leftover)
            .unwrap()
            .into();
    let mut clock = Clock::new(control, ClockOptions::default()).unwrap();
    let mut now = Instant::from_millis(0);
    clock.start(Black, now).unwrap();
    for &(used, (main, moves, period, new_period)) in rows {
        now = now + ms(used);
        let played = clock.play(Black, now).unwrap();
        assert_eq!(played.reading.main_left, ms(main), "after {used}");
        assert_eq!(
            played.reading.overtime,
            Overtime::MovesPerPeriod {
                moves_left: moves,
                period_left: ms(period)
            },
            "after {used}"
        );
        assert_eq!(played.new_period, new_period, "after {used}");
        now = now + Millis::from_secs(1);
        clock.play(White, now).unwrap();
    }
    (clock, now)
}

#[test]
fn carry_over_adds_the_time_left_to_the_next_period() {
    let (mut clock, now) = replay(
        Leftover::CarriedOver,
        &[
            (50_000, (10_000, 3, 30_000, false)), // main time
            (15_000, (0, 2, 25_000, false)), // 10 s of main, 5 s of the period: first move of it
            (10_000, (0, 1, 15_000, false)),
            (5_000, (0, 3, 40_000, true)), // 3 moves done, 10 s left: next period 30 + 10
            (39_999, (0, 2, 1, false)),    // 1 ms left for 2 moves
        ],
    );
    // The period runs out at exactly 1 ms.
    let deadline = now + ms(1);
    assert_eq!(clock.deadline(), Some(deadline));
    assert_eq!(
        clock.play(Black, deadline),
        Err(ClockError::Expired(Flag::TimeOut {
            player: Black,
            at: deadline
        }))
    );
}

#[test]
fn canadian_overtime_loses_the_time_left() {
    let (clock, now) = replay(
        Leftover::Lost,
        &[
            (50_000, (10_000, 3, 30_000, false)),
            (15_000, (0, 2, 25_000, false)),
            (10_000, (0, 1, 15_000, false)),
            (5_000, (0, 3, 30_000, true)), // 10 s left are lost
            (29_999, (0, 2, 1, false)),
        ],
    );
    assert_eq!(clock.deadline(), Some(now + ms(1)));
    let reading = clock.reading(Black, now);
    assert_eq!(reading.text_en(), "2 moves in 0:00");
    assert_eq!(reading.text_zh(), "本节还剩2手，0秒");
}

#[test]
fn moving_exactly_when_main_time_ends_counts_in_the_first_period() {
    let control: TimeControl = "1 min + 2 moves / 30s (carry over)".parse().unwrap();
    let mut clock = Clock::new(control, ClockOptions::default()).unwrap();
    clock.start(Black, Instant::from_millis(0)).unwrap();
    let reading = clock.reading(Black, Instant::from_millis(59_999));
    assert_eq!(reading.text_en(), "0:00 main time, then 2 moves in 0:30");
    assert_eq!(reading.text_zh(), "基本用时还剩0秒，之后30秒2手");
    let played = clock.play(Black, Instant::from_millis(60_000)).unwrap();
    assert_eq!(
        played.reading.overtime,
        Overtime::MovesPerPeriod {
            moves_left: 1,
            period_left: ms(30_000)
        }
    );
}
