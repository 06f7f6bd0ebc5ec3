//! Rank-certification events (段级位赛): who is promoted by the number of
//! games and the winning rate, worked by hand.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

mod common;

use common::*;
use shoutan_rules::Color;
use shoutan_tournament::formats::report::{self, Format};
use shoutan_tournament::{Certification, Outcome, Settings, System, TournamentError};

fn rule() -> Certification {
    Certification {
        min_games: 2,
        min_win_percent: 60,
        opponents_from: Some("3k".parse().unwrap()),
        grades: 1,
        highest: "7d".parse().unwrap(),
    }
}

/// ```text
/// round robin, A 3k, B 2k, C 1k, D 5k; only games against 3k or
/// stronger count (not those against D); 2 games and 60% needed.
///        A    B    C    D   counted
///   A    ·    1    ½    1   1½ of 2 = 75%  → 2k
///   B    0    ·    1    1   1 of 2  = 50%
///   C    ½    0    ·    1   ½ of 2  = 25%
///   D    0    0    0    ·   0 of 3
/// ```
#[test]
fn promotion_by_games_and_winning_rate() {
    let mut settings = Settings::new(System::RoundRobin { cycles: 1 }, None);
    settings.seed = 3;
    settings.certification = Some(rule());
    let mut t = with_settings(
        settings,
        &[("A", "3k"), ("B", "2k"), ("C", "1k"), ("D", "5k")],
    );
    let beats = |x: &str, y: &str| {
        matches!(
            (x, y),
            ("A", "B") | ("A", "D") | ("B", "C") | ("B", "D") | ("C", "D")
        )
    };
    for round in 1..=3 {
        let games = t.pair_next_round().unwrap().games.clone();
        assert_eq!(t.certification(), None, "not before the last result");
        for g in games {
            let (b, w) = (name(&t, g.black.0), name(&t, g.white.0));
            let outcome = if beats(&b, &w) {
                Outcome::Win(Color::Black)
            } else if beats(&w, &b) {
                Outcome::Win(Color::White)
            } else {
                Outcome::Draw
            };
            t.record(round, g.table, outcome).unwrap();
        }
        if round < 3 {
            assert_eq!(t.certification(), None, "rounds remain");
        }
    }
    let qualifiers = t.certification().unwrap();
    assert_eq!(qualifiers.len(), 1, "{qualifiers:?}");
    let q = &qualifiers[0];
    assert_eq!(name(&t, q.player.0), "A");
    assert_eq!((q.games, q.wins.to_string()), (2, "1.5".to_owned()));
    assert_eq!(
        (q.from.to_string(), q.to.to_string()),
        ("3k".into(), "2k".into())
    );
    let md = report::standings(&t, &t.standings(), Format::Markdown);
    assert!(md.contains("| A | 2 | 1.5 | 3k | 2k |"), "{md}");
}

/// Two grades from 1k is 2d; nobody goes above the highest rank; a rule
/// that cannot be met is refused.
#[test]
fn grades_cross_into_dan_and_stop_at_the_highest() {
    let mut settings = Settings::new(System::RoundRobin { cycles: 1 }, None);
    settings.certification = Some(Certification {
        grades: 2,
        opponents_from: None,
        min_games: 1,
        ..rule()
    });
    let mut t = with_settings(settings.clone(), &[("Kyu", "1k"), ("Dan", "7d")]);
    let g = t.pair_next_round().unwrap().games[0].clone();
    let kyu_black = name(&t, g.black.0) == "Kyu";
    t.record(1, 1, Outcome::Draw).unwrap();
    // A jigo is 50%: below 60%, nobody.
    assert_eq!(t.certification(), Some(vec![]));
    let winner = if kyu_black {
        Color::Black
    } else {
        Color::White
    };
    t.record(1, 1, Outcome::Win(winner)).unwrap();
    let q = t.certification().unwrap();
    assert_eq!(q.len(), 1);
    assert_eq!(q[0].to.to_string(), "2d");
    // The 7d winning instead stays 7d: not listed.
    t.record(1, 1, Outcome::Win(winner.opponent())).unwrap();
    assert_eq!(t.certification(), Some(vec![]));
    let mut bad = settings;
    bad.certification = Some(Certification {
        min_win_percent: 101,
        ..rule()
    });
    assert!(matches!(
        shoutan_tournament::Tournament::new("Bad", bad),
        Err(TournamentError::Settings(_))
    ));
}
