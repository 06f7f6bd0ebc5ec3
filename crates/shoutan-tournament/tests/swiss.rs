//! Swiss (积分编排制, docs/spec/competition.md): a full six-player event worked
//! by hand, criterion by criterion (weights.rs lists them in order).

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

mod common;

use common::*;
use shoutan_tournament::{Criterion, System};

const FIELD: [(&str, &str); 6] = [
    ("A", "5d"),
    ("B", "4d"),
    ("C", "3d"),
    ("D", "2d"),
    ("E", "1d"),
    ("F", "1k"),
];

/// ```text
/// Round 1 (one group, split and slide: 1–4, 2–5, 3–6; no colour history,
/// so the higher player takes black on odd tables):
///   T1 A(b)–D   T2 E(b)–B   T3 C(b)–F        A, B, F win.
/// Round 2 (A B F on 2, C D E on 0): one player must float. A–B with F
///   down would be a rematch F–C or cost seeding; A–F, B–C, D–E has equal
///   seeding and no colour clash, so it wins. Fewer blacks takes black.
///   T1 F(b)–A   T2 B(b)–C   T3 D(b)–E        A, B win; D–E jigo.
/// Round 3 (A B 4, F 2, D E 1, C 0): A–B; F floats to D (top of the next
///   group), E to C.
///   T1 A(b)–B   T2 D(b)–F   T3 E(b)–C        A, D, C win.
/// ```
#[test]
fn six_players_three_rounds() {
    let mut t = event(System::Swiss, Some(3), &FIELD);
    assert_eq!(games(&mut t), ["A-D", "E-B", "C-F"]);
    results(&mut t, &["B+", "W+", "W+"]);
    assert_eq!(games(&mut t), ["F-A", "B-C", "D-E"]);
    results(&mut t, &["W+", "B+", "draw"]);
    assert_eq!(games(&mut t), ["A-B", "D-F", "E-C"]);
    results(&mut t, &["B+", "B+", "W+"]);

    // Art. 27 A: total = points + SOS ÷ (max points / 2) − rounds.
    //   A 6 + 9/3 − 3 = 6     B 4 + 9/3 − 3 = 4     D 3 + 9/3 − 3 = 3
    //   F 2 + 11/3 − 3 = 2.667  C 2 + 7/3 − 3 = 1.333  E 1 + 9/3 − 3 = 1
    let s = t.standings();
    assert_eq!(s.columns.len(), 2);
    assert_eq!(order(&s), ["A", "B", "D", "F", "C", "E"]);
    assert_eq!(values(&s, "F"), ["2.667", "0"]);
    assert_eq!(values(&s, "C"), ["1.333", "0"]);
    assert!(matches!(
        t.pair_next_round(),
        Err(shoutan_tournament::TournamentError::Finished(_))
    ));
}

/// Art. 27 B: points then SOS, then fewer warnings.
#[test]
fn points_then_sos() {
    let mut t = event(System::Swiss, Some(3), &FIELD);
    let mut s = t.settings().clone();
    s.criteria = vec![
        Criterion::Points,
        Criterion::Sos,
        Criterion::Sb,
        Criterion::Warnings,
    ];
    t.set_settings(s).unwrap();
    pair(&mut t);
    results(&mut t, &["B+", "W+", "W+"]);
    pair(&mut t);
    results(&mut t, &["W+", "B+", "draw"]);
    pair(&mut t);
    results(&mut t, &["B+", "B+", "W+"]);
    let s = t.standings();
    // F and C both have 2 points; F's opponents scored 11, C's 7.
    assert_eq!(order(&s), ["A", "B", "D", "F", "C", "E"]);
    assert_eq!(values(&s, "A"), ["6", "9", "9", "0"]);
    // D: lost to A, drew E (½ of 1), beat F (2): 胜者小分 2.5.
    assert_eq!(values(&s, "D"), ["3", "9", "2.5", "0"]);
}

/// The bye goes to the lowest player who has not had one, and is never
/// repeated while avoidable.
#[test]
fn byes_go_to_the_lowest_without_one() {
    let five = &FIELD[..5];
    let mut t = event(System::Swiss, Some(4), five);
    pair(&mut t);
    assert_eq!(byes(&t, 1), ["E"]);
    results(&mut t, &["B+", "B+"]);
    pair(&mut t);
    // E has 2 (the bye); the lowest on 0 points without a bye takes it.
    let second = byes(&t, 2);
    assert_ne!(second, ["E"]);
    let r2 = &t.rounds()[1];
    assert_eq!(r2.games.len(), 2);
}

/// Pairing twice, out of order, or with results missing is refused and
/// changes nothing.
#[test]
fn refusals_change_nothing() {
    use shoutan_tournament::TournamentError as E;
    let mut t = event(System::Swiss, Some(3), &FIELD);
    pair(&mut t);
    let before = t.clone();
    assert!(matches!(t.pair_round(1), Err(E::AlreadyPaired(1))));
    assert!(matches!(
        t.pair_round(3),
        Err(E::OutOfOrder {
            requested: 3,
            next: 2
        })
    ));
    assert!(matches!(
        t.pair_next_round(),
        Err(E::ResultsMissing {
            round: 1,
            missing: 3,
            table: 1
        })
    ));
    assert!(matches!(
        t.record(1, 9, "B+".parse().unwrap()),
        Err(E::NoSuchGame { round: 1, table: 9 })
    ));
    assert!(matches!(
        t.record(2, 1, "B+".parse().unwrap()),
        Err(E::NoSuchRound(2))
    ));
    assert_eq!(t, before);
}

/// Swiss withdrawal (Art. 28): results stand, the player is not paired again.
#[test]
fn withdrawn_player_is_not_paired_again() {
    let mut t = event(System::Swiss, Some(3), &FIELD);
    pair(&mut t);
    results(&mut t, &["B+", "W+", "W+"]);
    t.withdraw(player(&t, "A")).unwrap();
    let r2 = pair(&mut t);
    assert!(r2.iter().all(|(b, w, _)| b != "A" && w != "A"));
    assert_eq!(byes(&t, 2).len(), 1);
    // A's win stands: D, A's opponent, still counts A's 2 points in SOS.
    results(&mut t, &["B+", "B+"]);
    let s = t.standings();
    let a = s.rows.iter().find(|r| r.name == "A").unwrap();
    assert!(a.withdrawn);
}

/// Swiss with elimination (积分编排加淘汰): two losses and out, and the
/// field kept even.
#[test]
fn swiss_elimination_drops_players_and_keeps_the_field_even() {
    let mut t = event(System::SwissElimination { losses: 1 }, Some(3), &FIELD);
    pair(&mut t);
    results(&mut t, &["B+", "W+", "W+"]);
    // Three winners left: the best-placed loser stays in to keep it even.
    let r2 = pair(&mut t);
    assert_eq!(r2.len(), 2);
    assert!(byes(&t, 2).is_empty());
}

/// A ruling that both lose (docs/spec/competition.md, arbiters' records) still lets
/// the next round be paired: both score nothing and are not paired again
/// with each other.
#[test]
fn both_lose_still_pairs() {
    let mut t = event(System::Swiss, Some(3), &FIELD);
    pair(&mut t);
    results(&mut t, &["both-lose", "W+", "W+"]);
    let r2 = games(&mut t);
    assert!(
        !r2.contains(&"A-D".to_owned()) && !r2.contains(&"D-A".to_owned()),
        "{r2:?}"
    );
    let s = t.standings_after(1);
    assert_eq!(values(&s, "A")[0], "-1"); // 0 + 0/1 − 1
    assert_eq!(values(&s, "D")[0], "-1");
}
