//! The timekeeper's calls (Art. 12.3, docs/spec/time.md "Announcements"),
//! checked word for word against the rules' list, at their exact instants.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

use shoutan_clock::{
    Announcement, ByoYomi, Call, Clock, ClockOptions, Instant, Millis, TimeControl,
};
use shoutan_rules::Color::{self, Black, White};

fn secs(n: u64) -> Millis {
    Millis::from_secs(n)
}

fn started(main_secs: u64, periods: u32, period_secs: u64, player: Color) -> (Clock, Instant) {
    let control: TimeControl = ByoYomi::new(secs(main_secs), periods, secs(period_secs))
        .unwrap()
        .into();
    let mut clock = Clock::new(control, ClockOptions::default()).unwrap();
    let t0 = Instant::from_millis(1_700_000_000_000);
    clock.start(player, t0).unwrap();
    (clock, t0)
}

/// (seconds after `t0`, Chinese words) of each call.
fn heard(calls: &[Announcement], t0: Instant) -> Vec<(u64, String)> {
    calls
        .iter()
        .map(|a| ((a.at - t0).as_millis() / 1000, a.text_zh()))
        .collect()
}

fn expected(rows: &[(u64, &str)]) -> Vec<(u64, String)> {
    rows.iter().map(|&(s, w)| (s, w.to_owned())).collect()
}

/// docs/spec/time.md: "In byo-yomi with 60-second periods the timekeeper calls,
/// during each period: "30秒", "40秒", "50秒", "55秒", "58秒", "1分" (a minute
/// used) and then "还剩×分" (X minutes left). In the last period the calls are
/// "30秒", "40秒", "50秒", then every second: "1", "2", … "9", "10"; at "10"
/// the time is used."
#[test]
fn three_periods_of_60_seconds_word_for_word() {
    let (clock, t0) = started(0, 3, 60, White);
    let calls = clock.announcements_between(t0, t0 + secs(3600));
    assert!(calls.iter().all(|a| a.player == White));
    let period = ["30秒", "40秒", "50秒", "55秒", "58秒", "1分"];
    let last = [
        "30秒", "40秒", "50秒", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
    ];
    let words: Vec<String> = calls.iter().map(Announcement::text_zh).collect();
    let mut spec: Vec<&str> = Vec::new();
    spec.extend(period);
    spec.push("还剩2分");
    spec.extend(period);
    spec.push("还剩1分");
    spec.extend(last);
    assert_eq!(words, spec);
    // And the instants: the last period's calls, from 120 s.
    assert_eq!(
        heard(&calls[14..], t0),
        expected(&[
            (150, "30秒"),
            (160, "40秒"),
            (170, "50秒"),
            (171, "1"),
            (172, "2"),
            (173, "3"),
            (174, "4"),
            (175, "5"),
            (176, "6"),
            (177, "7"),
            (178, "8"),
            (179, "9"),
            (180, "10"),
        ])
    );
    // "10" falls at the instant of the time-out.
    let ten = calls.last().unwrap();
    assert_eq!(
        (ten.call, Some(ten.at)),
        (Call::Count { n: 10 }, clock.deadline())
    );
    assert_eq!(clock.flag(ten.at).map(|f| f.at()), Some(ten.at));
}

/// A full (not last) period with main time before it: the calls start when
/// the main time runs out, at the exact seconds.
#[test]
fn one_full_period_after_main_time() {
    let (clock, t0) = started(600, 5, 60, Black);
    assert_eq!(clock.announcements_between(t0, t0 + secs(600)), []);
    let calls = clock.announcements_between(t0 + secs(600), t0 + secs(660));
    assert_eq!(
        heard(&calls, t0),
        expected(&[
            (630, "30秒"),
            (640, "40秒"),
            (650, "50秒"),
            (655, "55秒"),
            (658, "58秒"),
            (660, "1分"),
            (660, "还剩4分"),
        ])
    );
    let english: Vec<String> = calls.iter().map(Announcement::text_en).collect();
    assert_eq!(
        english,
        [
            "30 seconds",
            "40 seconds",
            "50 seconds",
            "55 seconds",
            "58 seconds",
            "1 minute",
            "4 minutes left"
        ]
    );
}

/// 30-second periods: the calls keep their distance from the end.
#[test]
fn thirty_second_periods_scaled() {
    let (clock, t0) = started(0, 2, 30, Black);
    let calls = clock.announcements_between(t0, t0 + secs(60));
    assert_eq!(
        heard(&calls, t0),
        expected(&[
            (10, "10秒"),
            (20, "20秒"),
            (25, "25秒"),
            (28, "28秒"),
            (30, "30秒"),
            (30, "还剩1次"),
            (40, "10秒"),
            (50, "20秒"),
            (51, "1"),
            (52, "2"),
            (53, "3"),
            (54, "4"),
            (55, "5"),
            (56, "6"),
            (57, "7"),
            (58, "8"),
            (59, "9"),
            (60, "10"),
        ])
    );
}

/// Windows are half-open, (from, to]: consecutive windows neither repeat
/// nor miss a call, and the next call is the first of the rest.
#[test]
fn windows_and_the_next_call() {
    let (clock, t0) = started(0, 2, 60, Black);
    let all = clock.announcements_between(t0, t0 + secs(120));
    let mut pieces = clock.announcements_between(t0, t0 + secs(60));
    pieces.extend(clock.announcements_between(t0 + secs(60), t0 + secs(120)));
    assert_eq!(pieces, all);
    let next = clock.next_announcement(t0 + secs(58)).unwrap();
    assert_eq!((next.at, next.text_zh()), (t0 + secs(60), "1分".to_owned()));
    // Both calls at 60 s, fetched together.
    assert_eq!(clock.announcements_between(t0 + secs(58), next.at).len(), 2);
    assert_eq!(clock.next_announcement(t0 + secs(120)), None);
}

/// A move ends the calls of the mover's period; a pause stops them, and on
/// resuming they go on from where the turn stood.
#[test]
fn moves_and_pauses_interrupt_the_calls() {
    let (mut clock, t0) = started(0, 3, 60, Black);
    clock.play(Black, t0 + secs(45)).unwrap();
    let calls = clock.announcements_between(t0 + secs(45), t0 + secs(90));
    assert!(calls.iter().all(|a| a.player == White));
    assert_eq!(heard(&calls, t0), expected(&[(75, "30秒"), (85, "40秒")]));
    // White pauses at 47 s into his turn; resumes an hour later.
    clock.pause(t0 + secs(92)).unwrap();
    assert_eq!(
        clock.announcements_between(t0 + secs(92), t0 + secs(4000)),
        []
    );
    let resumed = t0 + secs(3692);
    clock.resume(resumed).unwrap();
    let calls = clock.announcements_between(resumed, resumed + secs(13));
    let after: Vec<(u64, String)> = calls
        .iter()
        .map(|a| ((a.at - resumed).as_millis() / 1000, a.text_zh()))
        .collect();
    assert_eq!(
        after,
        expected(&[
            (3, "50秒"),
            (8, "55秒"),
            (11, "58秒"),
            (13, "1分"),
            (13, "还剩2分")
        ])
    );
}

/// Per-move time is called as a last period every move; other systems have
/// no calls.
#[test]
fn per_move_and_systems_without_calls() {
    let mut clock = Clock::new("20s per move".parse().unwrap(), ClockOptions::default()).unwrap();
    let t0 = Instant::from_millis(0);
    clock.start(Black, t0).unwrap();
    let words: Vec<String> = clock
        .announcements_between(t0, t0 + secs(20))
        .iter()
        .map(|a| a.text_zh())
        .collect();
    assert_eq!(
        words,
        ["10秒", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    );
    for control in [
        "absolute 1h",
        "10 min + 25 moves / 10 min",
        "5 min + 10s Fischer",
    ] {
        let mut clock = Clock::new(control.parse().unwrap(), ClockOptions::default()).unwrap();
        clock.start(Black, t0).unwrap();
        assert_eq!(
            clock.announcements_between(t0, t0 + secs(7200)),
            [],
            "{control}"
        );
        assert_eq!(clock.next_announcement(t0), None, "{control}");
    }
}
