//! Knockout (淘汰制), best-of-N matches (多局决胜制): brackets with byes to
//! the top seeds, a drawn knockout game refused until a winner is recorded,
//! double elimination with the grand-final reset, matches stopping when
//! decided.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

mod common;

use common::*;
use shoutan_tournament::{ColorChoice, ColorRule, Criterion, System, TournamentError};

const SIX: [(&str, &str); 6] = [
    ("K1", "6d"),
    ("K2", "5d"),
    ("K3", "4d"),
    ("K4", "3d"),
    ("K5", "2d"),
    ("K6", "1d"),
];

/// ```text
/// Bracket of 8 for six seeds (1–8, 4–5, 2–7, 3–6): seeds 1 and 2 have byes.
///   R1: K4–K5, K6–K3            K5 and K3 win
///   R2: K5–K1, K3–K2            K1 wins; K3–K2 drawn → no pairing until
///                               the playoff's winner (K2) is recorded
///   R3: final K1–K2             K1 wins
/// ```
#[test]
fn single_elimination_bracket() {
    let mut t = event(System::Knockout { losses: 1 }, None, &SIX);
    assert_eq!(games(&mut t), ["K4-K5", "K6-K3"]);
    assert_eq!(byes(&t, 1), ["K1", "K2"]);
    results(&mut t, &["W+", "W+"]);
    // Fewer blacks takes black: K5 and K3 had white in round 1.
    assert_eq!(games(&mut t), ["K5-K1", "K3-K2"]);
    results(&mut t, &["W+", "draw"]);
    let before = t.clone();
    assert!(matches!(
        t.pair_next_round(),
        Err(TournamentError::Undecided {
            round: 2,
            table: 2,
            ..
        })
    ));
    assert_eq!(t, before);
    t.record(2, 2, "W+".parse().unwrap()).unwrap();
    assert_eq!(games(&mut t), ["K1-K2"]);
    results(&mut t, &["B+"]);
    match t.pair_next_round() {
        Err(TournamentError::Finished(m)) => assert_eq!(m, "K1 won the knockout"),
        other => panic!("{other:?}"),
    }
    // Progress: champion, finalist, semi-finalists share 3rd, first-round losers 5th.
    let s = t.standings();
    assert_eq!(
        s.columns[0],
        shoutan_tournament::Column::Criterion(Criterion::Progress)
    );
    let places: Vec<(String, u32)> = s.rows.iter().map(|r| (r.name.clone(), r.place)).collect();
    assert_eq!(places[..2], [("K1".to_owned(), 1), ("K2".to_owned(), 2)]);
    assert!(
        places[2..4]
            .iter()
            .all(|(n, p)| *p == 3 && (n == "K3" || n == "K5"))
    );
    assert!(
        places[4..]
            .iter()
            .all(|(n, p)| *p == 5 && (n == "K4" || n == "K6"))
    );
    // A finished round cannot be changed once the next is paired from it.
    assert!(matches!(
        t.record(1, 1, "B+".parse().unwrap()),
        Err(TournamentError::Locked(1, 3))
    ));
}

/// Double elimination for four, with the bracket reset:
/// ```text
///   R1: D1–D4, D3–D2          D1, D2 win          (losses: D3 1, D4 1)
///   R2: D1–D2, D3–D4          D1, D3 win          (D4 out)
///   R3: D1 rests; D2–D3       D3 wins             (D2 out)
///   R4: grand final D1–D3     D3 wins: both have one loss
///   R5: reset D1–D3           D1 wins the event
/// ```
#[test]
fn double_elimination_with_reset() {
    let four = [("D1", "4d"), ("D2", "3d"), ("D3", "2d"), ("D4", "1d")];
    let mut t = event(System::Knockout { losses: 2 }, None, &four);
    assert_eq!(games(&mut t), ["D1-D4", "D3-D2"]);
    winners(&mut t, &["D1", "D2"]);
    let mut r2 = games(&mut t);
    r2.sort();
    assert_eq!(r2.len(), 2);
    assert!(r2[0] == "D1-D2" || r2[0] == "D2-D1", "{r2:?}");
    assert!(r2[1] == "D3-D4" || r2[1] == "D4-D3", "{r2:?}");
    winners(&mut t, &["D1", "D3"]);
    let r3 = games(&mut t);
    assert_eq!(byes(&t, 3), ["D1"]);
    assert!(r3[0].contains("D2") && r3[0].contains("D3"), "{r3:?}");
    winners(&mut t, &["D3"]);
    let r4 = games(&mut t);
    assert!(r4[0].contains("D1") && r4[0].contains("D3"), "{r4:?}");
    winners(&mut t, &["D3"]);
    let r5 = games(&mut t);
    assert!(
        r5[0].contains("D1") && r5[0].contains("D3"),
        "the reset: {r5:?}"
    );
    winners(&mut t, &["D1"]);
    assert!(
        matches!(t.pair_next_round(), Err(TournamentError::Finished(m)) if m == "D1 won the knockout")
    );
}

/// Best of 3: the higher seed has black in game 1, colours alternate, and
/// the match stops at 2–0.
#[test]
fn best_of_three_stops_when_decided() {
    let mut t = event(
        System::BestOf { games: 3 },
        None,
        &[("M1", "5d"), ("M2", "4d")],
    );
    assert_eq!(games(&mut t), ["M1-M2"]);
    results(&mut t, &["B+"]);
    assert_eq!(games(&mut t), ["M2-M1"]);
    results(&mut t, &["W+"]);
    assert!(
        matches!(t.pair_next_round(), Err(TournamentError::Finished(m)) if m == "M1 won the match")
    );
    assert!(matches!(
        t.add_player(shoutan_tournament::NewPlayer::ranked(
            "M3",
            "1d".parse().unwrap()
        )),
        Err(TournamentError::RegistrationClosed(_))
    ));
}

/// Nigiri (docs/spec/rules.md §6) is recorded with the game and decides black.
#[test]
fn nigiri_is_recorded_and_reproducible() {
    let players = [("M1", "5d"), ("M2", "4d")];
    let mut settings = shoutan_tournament::Settings::new(System::BestOf { games: 5 }, None);
    settings.colors = ColorRule::Nigiri;
    settings.seed = 99;
    let mut a = with_settings(settings.clone(), &players);
    let mut b = with_settings(settings, &players);
    assert_eq!(games(&mut a), games(&mut b));
    let g = &a.rounds()[0].games[0];
    let ColorChoice::Nigiri(n) = g.colors else {
        panic!("{:?}", g.colors)
    };
    assert_eq!(n.holder, a.find_player("M1").unwrap());
    let guesser = a.find_player("M2").unwrap();
    assert_eq!(g.black == guesser, n.guessed());
}

/// Both lose in a knockout: neither advances, and their next opponent goes
/// through without a game.
#[test]
fn both_lose_sends_the_next_opponent_through() {
    let four = [("K1", "6d"), ("K2", "5d"), ("K3", "4d"), ("K4", "3d")];
    let mut t = event(System::Knockout { losses: 1 }, None, &four);
    assert_eq!(games(&mut t), ["K1-K4", "K3-K2"]);
    results(&mut t, &["both-lose", "W+"]);
    assert!(games(&mut t).is_empty());
    assert_eq!(byes(&t, 2), ["K2"]);
    assert!(
        matches!(t.pair_next_round(), Err(TournamentError::Finished(m)) if m == "K2 won the knockout")
    );
}
