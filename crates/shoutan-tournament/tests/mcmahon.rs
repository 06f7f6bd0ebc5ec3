//! McMahon, as European tournaments and OpenGotha run it (docs/spec/formats.md):
//! starting scores from rank between floor and bar, handicap from the
//! score difference with correction and ceiling, SOSM adjusted by the
//! handicap, OpenGotha's bye order, ½ per absent round.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

mod common;

use common::*;
use shoutan_tournament::{
    HandicapBasis, HandicapRule, McMahon, NewPlayer, Settings, System, TournamentError, start_mms,
};

fn mcmahon(basis: HandicapBasis) -> System {
    System::McMahon(McMahon {
        bar: "2d".parse().unwrap(),
        floor: "10k".parse().unwrap(),
        handicap: HandicapRule {
            basis,
            correction: 1,
            ceiling: 9,
            no_handicap_from: None,
        },
    })
}

const FIELD: [(&str, &str); 6] = [
    ("A", "4d"),
    ("B", "2d"),
    ("C", "1d"),
    ("D", "3k"),
    ("E", "10k"),
    ("F", "15k"),
];

/// ```text
/// start: A 4d → bar 2d = 31, B 2d 31, C 1d 30, D 3k 27, E 10k 20, F 15k → floor 20
/// round 1: A–B (31–31, even, A black on table 1)
///          D–C (27–30: 3 − 1 correction = 2 stones, the weaker D black)
///          E–F (20–20, even)
/// results: B, D, E win.
/// MMS: A 31 B 32 C 30 D 28 E 21 F 20
/// SOSM: B 31, A 32, C 28 + 2 (white in a 2-stone game) = 30,
///       D 30 − 2 = 28, E 20, F 21
/// ```
#[test]
fn starting_scores_handicap_and_sosm() {
    let m = match mcmahon(HandicapBasis::Mms) {
        System::McMahon(m) => m,
        _ => unreachable!(),
    };
    let starts: Vec<i64> = FIELD
        .iter()
        .map(|(_, r)| start_mms(Some(r.parse().unwrap()), m))
        .collect();
    assert_eq!(starts, [31, 31, 30, 27, 20, 20]);

    let mut t = event(mcmahon(HandicapBasis::Mms), Some(3), &FIELD);
    let r1 = pair(&mut t);
    assert_eq!(
        r1,
        [
            ("A".into(), "B".into(), 0),
            ("D".into(), "C".into(), 2),
            ("E".into(), "F".into(), 0)
        ]
    );
    results(&mut t, &["W+", "B+", "B+"]);
    let s = t.standings();
    assert_eq!(order(&s), ["B", "A", "C", "D", "E", "F"]);
    assert_eq!(values(&s, "B")[..2], ["32", "31"]);
    assert_eq!(values(&s, "C")[..2], ["30", "30"]);
    assert_eq!(values(&s, "D")[..2], ["28", "28"]);
}

/// Handicap by rank difference: C (1d) against D (3k) is 3 ranks, minus
/// the correction: 2 stones, as with MMS in round 1.
#[test]
fn handicap_by_rank() {
    let mut t = event(mcmahon(HandicapBasis::Rank), Some(2), &FIELD);
    let r1 = pair(&mut t);
    assert!(r1.contains(&("D".into(), "C".into(), 2)));
}

/// OpenGotha's bye: lowest rank + 2·MMS + 1000·byes. E and F both start
/// at 20; F (15k) is lower.
#[test]
fn bye_by_opengotha_order() {
    let mut t = event(mcmahon(HandicapBasis::Mms), Some(2), &FIELD[1..]);
    pair(&mut t);
    assert_eq!(byes(&t, 1), ["F"]);
}

/// An absent round is worth ½, the running total rounded down: one absence
/// adds nothing, two add 1.
#[test]
fn absent_rounds_count_half() {
    let mut t = event(mcmahon(HandicapBasis::Mms), Some(3), &FIELD);
    let f = t.find_player("F").unwrap();
    t.set_absent(f, 1).unwrap();
    t.set_absent(f, 2).unwrap();
    pair(&mut t);
    let n = t.rounds()[0].games.len();
    results(&mut t, &vec!["B+"; n]);
    assert_eq!(values(&t.standings(), "F")[0], "20");
    pair(&mut t);
    let n = t.rounds()[1].games.len();
    results(&mut t, &vec!["B+"; n]);
    assert_eq!(values(&t.standings(), "F")[0], "21");
}

#[test]
fn a_rank_is_required() {
    let mut settings = Settings::new(mcmahon(HandicapBasis::Mms), None);
    settings.rounds = Some(3);
    let mut t = shoutan_tournament::Tournament::new("Cup", settings).unwrap();
    let err = t.add_player(NewPlayer {
        name: "Nobody".into(),
        ..NewPlayer::default()
    });
    assert!(matches!(err, Err(TournamentError::RankRequired(_))));
    assert!(t.players().is_empty());
}
