//! Properties over random games of every time system: time never increases
//! except by increments, lag credits and moves-per-period refills; a flag
//! falls at exactly one instant; the calls come in order, never after the
//! move that ends the period, and agree with the periods the move used; a
//! pause changes none of it; the stored clock is the clock.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

use proptest::prelude::*;
use shoutan_clock::{
    Absolute, Announcement, ByoYomi, Call, Clock, ClockError, ClockOptions, Fischer, Instant,
    LagPolicy, Leftover, Millis, MovesPerPeriod, PerMove, Played, TimeControl,
};
use shoutan_rules::Color;

fn ms(n: u64) -> Millis {
    Millis::from_millis(n)
}

fn any_control() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        Just(TimeControl::None),
        (1..=600_000u64).prop_map(|m| Absolute::new(ms(m)).unwrap().into()),
        (0..=120_000u64, 1..=5u32, 1..=60u64).prop_map(|(m, n, s)| ByoYomi::new(
            ms(m),
            n,
            Millis::from_secs(s)
        )
        .unwrap()
        .into()),
        (0..=120_000u64, 1..=5u32, 1_000..=60_000u64, any::<bool>()).prop_map(
            |(m, n, p, carry)| {
                let leftover = if carry {
                    Leftover::CarriedOver
                } else {
                    Leftover::Lost
                };
                MovesPerPeriod::new(ms(m), n, ms(p), leftover)
                    .unwrap()
                    .into()
            }
        ),
        (
            1..=120_000u64,
            1..=20_000u64,
            proptest::option::of(0..=60_000u64)
        )
            .prop_map(
                |(m, i, max)| Fischer::new(ms(m), ms(i), max.map(|x| ms(m + x)))
                    .unwrap()
                    .into()
            ),
        (1..=60u64).prop_map(|s| PerMove::new(Millis::from_secs(s)).unwrap().into()),
    ]
}

fn byo_yomi_control() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        (0..=90_000u64, 1..=4u32, 1..=60u64).prop_map(|(m, n, s)| ByoYomi::new(
            ms(m),
            n,
            Millis::from_secs(s)
        )
        .unwrap()
        .into()),
        (1..=60u64).prop_map(|s| PerMove::new(Millis::from_secs(s)).unwrap().into()),
    ]
}

/// Thinking time, in thousandths of the time the player has left: mostly
/// well inside it, sometimes past it (so that games run long and still
/// meet every flag).
fn think_permille() -> impl Strategy<Value = u64> {
    prop_oneof![9 => 0..=300u64, 1 => 0..=1_100u64]
}

/// `permille` thousandths of what `player` has left at `now` (of 100 s
/// without a clock).
fn thinking_time(clock: &Clock, player: Color, now: Instant, permille: u64) -> Millis {
    let left = clock
        .reading(player, now)
        .total_left
        .unwrap_or(Millis::from_secs(100));
    ms(left.as_millis() * permille / 1000)
}

fn total(clock: &Clock, player: Color, at: Instant) -> u64 {
    clock
        .reading(player, at)
        .total_left
        .map_or(u64::MAX, Millis::as_millis)
}

/// Checks that the flag falls at `deadline` and at no other instant.
fn flag_falls_once(clock: &Clock, now: Instant) -> Result<(), TestCaseError> {
    let Some(deadline) = clock.deadline() else {
        prop_assert_eq!(clock.flag(Instant::from_millis(u64::MAX)), None);
        return Ok(());
    };
    let flag = clock.flag(deadline);
    prop_assert_eq!(flag.map(|f| f.at()), Some(deadline));
    prop_assert_eq!(clock.flag(deadline + ms(123_456)), flag);
    if deadline > now {
        prop_assert_eq!(clock.flag(deadline - ms(1)), None);
        let player = clock.to_move().unwrap();
        prop_assert!(clock.clone().play(player, deadline - ms(1)).is_ok());
    }
    let player = clock.to_move().unwrap();
    prop_assert_eq!(
        clock.clone().play(player, deadline),
        Err(ClockError::Expired(flag.unwrap()))
    );
    Ok(())
}

/// The time the move's charge should take off the mover's total, given
/// his total and main time at the start of the turn.
fn check_accounting(
    control: &TimeControl,
    before: u64,
    main_before: Millis,
    after: u64,
    played: &Played,
) -> Result<(), TestCaseError> {
    let used = played.used.as_millis();
    let increment = played.increment.as_millis();
    match control {
        TimeControl::None => prop_assert_eq!(after, u64::MAX),
        TimeControl::Absolute(_) | TimeControl::Fischer(_) => {
            prop_assert_eq!(after, before - used + increment)
        }
        TimeControl::PerMove(_) => prop_assert_eq!(after, before),
        TimeControl::ByoYomi(b) => {
            let main_used = used.min(main_before.as_millis());
            let periods = u64::from(played.periods_used) * b.period().as_millis();
            prop_assert_eq!(after, before - main_used - periods);
        }
        TimeControl::MovesPerPeriod(m) => {
            let refill = if played.new_period {
                m.period().as_millis()
            } else {
                0
            };
            prop_assert!(after <= before - used + refill);
            if m.leftover() == Leftover::CarriedOver {
                prop_assert_eq!(after, before - used + refill);
            }
        }
    }
    // Never more than before, but for increments and refills.
    let refill = match control {
        TimeControl::MovesPerPeriod(m) if played.new_period => m.period().as_millis(),
        _ => 0,
    };
    prop_assert!(after <= before + increment + refill);
    Ok(())
}

proptest! {
    /// Random games with lag claims: exact accounting, monotone readings
    /// within a turn, the opponent's clock untouched, bounded credits, one
    /// flag instant, and a stored clock equal to the clock.
    #[test]
    fn accounting_flags_and_lag(
        control in any_control(),
        moves in proptest::collection::vec((think_permille(), 0..5_000u64), 1..60),
    ) {
        let policy = LagPolicy::default();
        let options = ClockOptions { lag: Some(policy), ..ClockOptions::default() };
        let mut clock = Clock::new(control, options).unwrap();
        let mut now = Instant::from_millis(5_000);
        clock.start(Color::Black, now).unwrap();
        let mut credited = [0u64; 2];
        let mut moves_made = [0u64; 2];
        for (permille, lag) in moves {
            let player = clock.to_move().unwrap();
            let think = thinking_time(&clock, player, now, permille).as_millis();
            let opponent = player.opponent();
            flag_falls_once(&clock, now)?;
            let before = total(&clock, player, now);
            let main_before = clock.reading(player, now).main_left;
            let opponent_before = clock.reading(opponent, now);
            let at = now + ms(think);
            // Within the turn the clock only runs down.
            let mid = total(&clock, player, now + ms(think / 2));
            prop_assert!(total(&clock, player, at) <= mid && mid <= before);
            let quota = clock.lag_quota(player);
            match clock.play_with_lag(player, at, ms(lag)) {
                Ok(played) => {
                    prop_assert!(played.lag_credit <= ms(lag).min(policy.max_credit).min(quota));
                    prop_assert_eq!(played.used, played.elapsed - played.lag_credit);
                    let after = total(&clock, player, at);
                    prop_assert_eq!(Some(after).filter(|&a| a != u64::MAX), played.reading.total_left.map(Millis::as_millis));
                    check_accounting(&control, before, main_before, after, &played)?;
                    let opponent_after = clock.reading(opponent, at);
                    prop_assert_eq!(opponent_after.total_left, opponent_before.total_left);
                    prop_assert_eq!(opponent_after.main_left, opponent_before.main_left);
                    credited[player.index()] += played.lag_credit.as_millis();
                    moves_made[player.index()] += 1;
                    let n = moves_made[player.index()];
                    prop_assert!(credited[player.index()] <= policy.initial_quota.as_millis() + (n - 1) * policy.quota_gain.as_millis());
                    now = at;
                }
                Err(ClockError::Expired(flag)) => {
                    prop_assert_eq!(Some(flag.at()), clock.deadline());
                    prop_assert!(flag.at() <= at);
                    break;
                }
                Err(other) => prop_assert!(false, "unexpected {:?}", other),
            }
            let stored = serde_json::to_string(&clock).unwrap();
            prop_assert_eq!(&serde_json::from_str::<Clock>(&stored).unwrap(), &clock);
        }
    }

    /// Random byo-yomi games with a pause in each turn: the calls come in
    /// order, inside their window, only for the player whose clock runs,
    /// never after his move; each period-used call matches a period the move
    /// used; and the pause only shifts the calls after it.
    #[test]
    fn announcements_follow_the_clock(
        control in byo_yomi_control(),
        turns in proptest::collection::vec((think_permille(), 0..=100u64, 0..10_000u64), 1..40),
    ) {
        let mut clock = Clock::new(control, ClockOptions::default()).unwrap();
        let mut now = Instant::from_millis(0);
        clock.start(Color::White, now).unwrap();
        for (permille, pause_percent, pause_len) in turns {
            let player = clock.to_move().unwrap();
            let think = thinking_time(&clock, player, now, permille).as_millis();
            let unpaused = clock.clone();
            let pause_after = ms(think * pause_percent / 100);
            let at = now + ms(think);
            // The calls of the turn as if there were no pause.
            let expected = unpaused.announcements_between(now, at);
            prop_assert!(expected.windows(2).all(|w| w[0].at <= w[1].at));
            prop_assert!(expected.iter().all(|a| a.player == player && a.at > now && a.at <= at));
            // The same turn with a pause.
            let pause_at = now + pause_after;
            let mut heard = clock.announcements_between(now, pause_at);
            if let Err(err) = clock.pause(pause_at) {
                // The flag fell before the pause: the last call is "10", at the flag.
                let deadline = clock.deadline().unwrap();
                prop_assert!(matches!(err, ClockError::Expired(_)));
                prop_assert_eq!(expected.last().map(|a| (a.at, a.call)), Some((deadline, Call::Count { n: 10 })));
                break;
            }
            prop_assert_eq!(clock.announcements_between(pause_at, pause_at + ms(pause_len)), Vec::<Announcement>::new());
            let resumed = pause_at + ms(pause_len);
            clock.resume(resumed).unwrap();
            let moved = at + ms(pause_len);
            heard.extend(clock.announcements_between(resumed, moved).into_iter().map(|a| Announcement { at: a.at - ms(pause_len), ..a }));
            prop_assert_eq!(&heard, &expected);
            match clock.play(player, moved) {
                Ok(played) => {
                    let used_calls = expected.iter().filter(|a| matches!(a.call, Call::PeriodUsed { .. })).count();
                    prop_assert_eq!(used_calls, played.periods_used as usize);
                    let counts = expected.iter().filter(|a| matches!(a.call, Call::Count { .. })).count();
                    prop_assert!(counts < 10, "a move after \"10\" is too late");
                    // Nothing more is called for the mover.
                    prop_assert!(clock.announcements_between(moved, moved + Millis::from_hours(1)).iter().all(|a| a.player != player));
                    now = moved;
                }
                Err(ClockError::Expired(_)) => {
                    // The count "1" … "10" ends the last period, one call a
                    // second, "10" at the flag (all ten if the period is that long).
                    let deadline = unpaused.deadline().unwrap();
                    let counts: Vec<(Instant, u32)> = expected
                        .iter()
                        .filter_map(|a| match a.call {
                            Call::Count { n } => Some((a.at, n)),
                            _ => None,
                        })
                        .collect();
                    let (_, period) = control.byo_yomi_periods().unwrap();
                    let heard_counts = period.whole_secs().min(10) as u32;
                    let want: Vec<(Instant, u32)> = (11 - heard_counts..=10)
                        .map(|n| (deadline - Millis::from_secs(u64::from(10 - n)), n))
                        .collect();
                    prop_assert_eq!(counts, want);
                    prop_assert_eq!(expected.last().map(|a| a.call), Some(Call::Count { n: 10 }));
                    break;
                }
                Err(other) => prop_assert!(false, "unexpected {:?}", other),
            }
        }
    }
}
