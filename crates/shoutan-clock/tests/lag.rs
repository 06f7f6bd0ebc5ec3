//! Lag compensation: measured network delay is credited back from a
//! bounded quota, so a slow connection is not robbed and a lying client
//! cannot gain more than the quota (the formula is in the crate docs).

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

use shoutan_clock::{Clock, ClockError, ClockOptions, Instant, LagPolicy, Millis};
use shoutan_rules::Color::{Black, White};

fn ms(n: u64) -> Millis {
    Millis::from_millis(n)
}

fn online(control: &str) -> Clock {
    let options = ClockOptions {
        lag: Some(LagPolicy::default()),
        ..ClockOptions::default()
    };
    Clock::new(control.parse().unwrap(), options).unwrap()
}

/// A client claims 3 s of lag on every move (each takes 10 s on the
/// server): after the initial quota it gets no more than the quota refills,
/// 1 s per move.
#[test]
fn a_lying_client_exhausts_its_quota() {
    let mut clock = online("absolute 1h");
    let mut now = Instant::from_millis(0);
    clock.start(Black, now).unwrap();
    // (credit, charged, quota after)
    let rows = [
        (2_000, 8_000, 1_000), // initial 2 s, all of it
        (1_000, 9_000, 1_000),
        (1_000, 9_000, 1_000),
        (1_000, 9_000, 1_000),
    ];
    for (credit, used, quota) in rows {
        now = now + Millis::from_secs(10);
        let played = clock.play_with_lag(Black, now, ms(3_000)).unwrap();
        assert_eq!(
            (played.lag_credit, played.used, clock.lag_quota(Black)),
            (ms(credit), ms(used), ms(quota))
        );
        now = now + Millis::from_secs(1);
        clock.play(White, now).unwrap();
    }
    // White reported no lag: his quota filled up to the maximum.
    assert_eq!(clock.lag_quota(White), ms(5_000));
}

/// An honest 300 ms delay is credited in full, and the quota grows.
#[test]
fn an_honest_delay_is_credited() {
    let mut clock = online("5 min + 5s Fischer");
    clock.start(Black, Instant::from_millis(0)).unwrap();
    let played = clock
        .play_with_lag(Black, Instant::from_millis(4_300), ms(300))
        .unwrap();
    assert_eq!(
        (played.elapsed, played.lag_credit, played.used),
        (ms(4_300), ms(300), ms(4_000))
    );
    assert_eq!(played.reading.main_left, ms(301_000));
    assert_eq!(clock.lag_quota(Black), ms(2_700));
}

/// A move that reaches the server after the deadline is in time if its
/// lag credit brings it back inside; the server waits that long before
/// declaring the flag.
#[test]
fn a_delayed_move_after_the_deadline() {
    let mut clock = online("absolute 1 min");
    clock.start(Black, Instant::from_millis(0)).unwrap();
    let deadline = clock.deadline().unwrap();
    assert_eq!(clock.max_lag_credit(), ms(2_000));
    let late = deadline + ms(1_500);
    let mut too_little = clock.clone();
    assert!(matches!(
        too_little.play_with_lag(Black, late, ms(1_500)),
        Err(ClockError::Expired(_))
    ));
    let played = clock.play_with_lag(Black, late, ms(1_600)).unwrap();
    assert_eq!(played.reading.total_left, Some(ms(100)));
}

/// Without a policy nothing is credited.
#[test]
fn no_policy_no_credit() {
    let mut clock = Clock::new("absolute 1 min".parse().unwrap(), ClockOptions::default()).unwrap();
    clock.start(Black, Instant::from_millis(0)).unwrap();
    let played = clock
        .play_with_lag(Black, Instant::from_millis(5_000), ms(900))
        .unwrap();
    assert_eq!((played.lag_credit, played.used), (Millis::ZERO, ms(5_000)));
    assert_eq!(clock.max_lag_credit(), Millis::ZERO);
}
