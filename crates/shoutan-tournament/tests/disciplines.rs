//! Events of the other games the competition rules govern: xiangqi, chess
//! and army chess, with results entered by hand. The same manager pairs
//! and ranks them; the game sets the points shown, the colours' names,
//! strict colour alternation and the tie-breaks.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use shoutan_rules::Color;
use shoutan_tournament::formats::report::{self, Format};
use shoutan_tournament::{
    Discipline, HandicapBasis, HandicapRule, McMahon, NewPlayer, Outcome, Settings, System,
    Tournament, Value, level_points, sim,
};

/// Records each game of the last round by the winner's name (`None`: a
/// draw), whichever colour the winner had.
fn decide(t: &mut Tournament, winner_of: &dyn Fn(&str, &str) -> Option<&'static str>) {
    let round = t.rounds().len() as u32;
    for g in t.rounds()[round as usize - 1].games.clone() {
        let (b, w) = (name(t, g.black.0), name(t, g.white.0));
        let outcome = match winner_of(&b, &w) {
            Some(x) if x == b => Outcome::Win(Color::Black),
            Some(_) => Outcome::Win(Color::White),
            None => Outcome::Draw,
        };
        t.record(round, g.table, outcome).unwrap();
    }
}

/// A chess round robin of four, ranked as chess ranks it: points on the
/// 1/½/0 scale, direct encounter, Sonneborn–Berger, wins.
///
/// ```text
///      A   B   C   D   points  SB     wins
///  A   ·   1   1   1   3       3      3
///  B   0   ·   ½   1   1½      0.75   1      B and C drew: direct
///  C   0   ½   ·   1   1½      0.75   1      encounter, SB and wins
///  D   0   0   0   ·   0       0      0      are equal, the place shared
/// ```
#[test]
fn a_chess_round_robin_counts_one_half_nought() {
    let settings =
        Settings::for_discipline(Discipline::Chess, System::RoundRobin { cycles: 1 }, None);
    let mut t = with_settings(
        settings,
        &[("A", "1d"), ("B", "1d"), ("C", "1d"), ("D", "1d")],
    );
    let rank = |n: &str| "ABCD".find(n).unwrap();
    for _ in 0..3 {
        pair(&mut t);
        decide(&mut t, &|b, w| match (b, w) {
            ("B", "C") | ("C", "B") => None,
            _ if rank(b) < rank(w) => Some(leak(b)),
            _ => Some(leak(w)),
        });
    }
    let s = t.standings();
    assert_eq!(
        s.columns.iter().map(|c| c.header()).collect::<Vec<_>>(),
        ["POINTS", "DIRECT", "SB", "WINS"]
    );
    assert_eq!(values(&s, "A"), ["3", "0", "3", "3"]);
    assert_eq!(values(&s, "B")[0], "1.5");
    assert_eq!(values(&s, "B")[2], "0.75");
    assert_eq!(values(&s, "C")[3], "1");
    let places: Vec<(u32, &str)> = s.rows.iter().map(|r| (r.place, r.name.as_str())).collect();
    assert_eq!(places[0], (1, "A"));
    assert_eq!((places[1].0, places[2].0), (2, 2), "{places:?}");
    assert_eq!(places[3], (4, "D"));
    // White moves first in chess: the crosstable writes the first mover's
    // games as /w.
    let md = report::standings(&t, &s, Format::Markdown);
    let a_row = md.lines().find(|l| l.contains("| A ")).unwrap();
    let first_mover_games = t
        .games()
        .filter(|(_, g)| name(&t, g.black.0) == "A")
        .count();
    assert_eq!(a_row.matches("+/w").count(), first_mover_games, "{a_row}");
}

/// Names as `&'static str` for the result closure.
fn leak(s: &str) -> &'static str {
    ["A", "B", "C", "D"].into_iter().find(|n| *n == s).unwrap()
}

/// Xiangqi's Swiss tie-breaks: opponents' points (对手分), wins, then wins
/// as the second mover (后胜局数), counted from the games themselves.
#[test]
fn xiangqi_counts_wins_and_second_mover_wins() {
    let mut settings = Settings::for_discipline(Discipline::Xiangqi, System::Swiss, None);
    settings.rounds = Some(3);
    assert_eq!(
        settings
            .criteria
            .iter()
            .map(|c| c.name())
            .collect::<Vec<_>>(),
        ["points", "sos", "wins", "second-mover-wins"]
    );
    let names = ["Hu", "Xu", "Lü", "Wang", "Zhao", "Jiang"];
    let players: Vec<(&str, &str)> = names.iter().map(|n| (*n, "1d")).collect();
    let mut t = with_settings(settings, &players);
    for round in 0..3 {
        pair(&mut t);
        // Hu wins everything; otherwise the first mover wins in round 1,
        // the second in round 2, a draw in round 3.
        decide(&mut t, &|b, w| match (b, w, round) {
            ("Hu", _, _) => Some("Hu"),
            (_, "Hu", _) => Some("Hu"),
            (_, _, 0) => Some(names.into_iter().find(|n| *n == b).unwrap()),
            (_, _, 1) => Some(names.into_iter().find(|n| *n == w).unwrap()),
            _ => None,
        });
    }
    let s = t.standings();
    for p in t.players() {
        let mine = || {
            t.games()
                .filter(move |(_, g)| g.black == p.id || g.white == p.id)
                .map(|(_, g)| g)
        };
        let wins = mine()
            .filter(|g| {
                g.outcome
                    .and_then(Outcome::winner)
                    .is_some_and(|c| (c == Color::Black) == (g.black == p.id))
            })
            .count();
        let second = mine()
            .filter(|g| g.white == p.id && g.outcome == Some(Outcome::Win(Color::White)))
            .count();
        let v = values(&s, &p.name);
        assert_eq!(v[2], wins.to_string(), "{}", p.name);
        assert_eq!(v[3], second.to_string(), "{}", p.name);
    }
    assert_eq!(s.rows[0].name, "Hu");
    assert_eq!(values(&s, "Hu")[0], "6", "xiangqi counts 2/1/0");
    let md = report::standings(&t, &s, Format::Markdown);
    assert!(md.contains("/r"), "red is xiangqi's first mover:\n{md}");
}

/// Chess and xiangqi give nobody one colour three games running while the
/// pairing can avoid it; weiqi's balance rule alone allows it (a player
/// from −1 may take black three times). The same generated field, seven
/// rounds, once as weiqi and once as chess.
#[test]
fn chess_never_gives_a_color_three_times_running() {
    let streaks = |discipline: Discipline| {
        let mut settings = Settings::for_discipline(discipline, System::Swiss, None);
        settings.rounds = Some(7);
        settings.seed = 5;
        let mut t = Tournament::new("Generated", settings).unwrap();
        for p in sim::field(60, 5) {
            t.add_player(p).unwrap();
        }
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..7 {
            t.pair_next_round().unwrap();
            sim::play_last_round(&mut t, &mut rng).unwrap();
        }
        let mut threes = 0;
        for p in t.players() {
            let colors: Vec<Color> = t
                .games()
                .filter(|(_, g)| g.black == p.id || g.white == p.id)
                .map(|(_, g)| {
                    if g.black == p.id {
                        Color::Black
                    } else {
                        Color::White
                    }
                })
                .collect();
            threes += colors
                .windows(3)
                .filter(|w| w[0] == w[1] && w[1] == w[2])
                .count();
        }
        threes
    };
    assert_eq!(streaks(Discipline::Chess), 0);
    assert!(
        streaks(Discipline::Weiqi) > 0,
        "the generated field never tests the rule"
    );
}

/// Handicaps are weiqi's: a chess McMahon with a handicap ceiling is
/// refused; without one it is a McMahon like any other.
#[test]
fn handicaps_only_in_weiqi() {
    let mcmahon = |ceiling| {
        System::McMahon(McMahon {
            bar: "3d".parse().unwrap(),
            floor: "20k".parse().unwrap(),
            handicap: HandicapRule {
                basis: HandicapBasis::Mms,
                correction: 0,
                ceiling,
                no_handicap_from: None,
            },
        })
    };
    let event = |discipline, ceiling| {
        let mut s = Settings::for_discipline(discipline, mcmahon(ceiling), None);
        s.rounds = Some(3);
        Tournament::new("Open", s)
    };
    assert_eq!(
        event(Discipline::Chess, 9).unwrap_err().to_string(),
        "invalid settings: handicaps are a weiqi rule: set the McMahon handicap ceiling to 0"
    );
    event(Discipline::Chess, 0).unwrap();
    event(Discipline::Weiqi, 9).unwrap();
}

/// Level points over an event (the chess room's table of the rules pages):
/// a double round robin of two, the points each round begins with.
///
/// ```text
/// start: Ma 1500, Niu 1540
/// R1 Ma beats Niu: the lower wins, difference 40: 10 + 4 = 14 → 1514, 1526
/// R2 Niu beats Ma: the higher wins, difference 12: 10 − 12/12.5 = 9.04
///    → Ma 1504.96, Niu 1535.04
/// ```
#[test]
fn level_points_pass_from_loser_to_winner() {
    let settings =
        Settings::for_discipline(Discipline::Chess, System::RoundRobin { cycles: 2 }, None);
    let mut t = Tournament::new("Room", settings).unwrap();
    for (n, rating) in [("Ma", 1500), ("Niu", 1540)] {
        t.add_player(NewPlayer {
            name: n.into(),
            rating: Some(rating),
            ..NewPlayer::default()
        })
        .unwrap();
    }
    pair(&mut t);
    decide(&mut t, &|_, _| Some("Ma"));
    pair(&mut t);
    decide(&mut t, &|_, _| Some("Niu"));
    let after = level_points::after_event(&t);
    assert_eq!(after[0], Value::ratio(150_496, 100));
    assert_eq!(after[1], Value::ratio(153_504, 100));
}

/// Army chess counts 2/1/0 and names its sides first and second.
#[test]
fn army_chess_is_two_one_nought() {
    let mut settings = Settings::for_discipline(Discipline::Junqi, System::Swiss, None);
    settings.rounds = Some(1);
    let mut t = with_settings(settings, &[("Lin", "1d"), ("Mo", "1d")]);
    pair(&mut t);
    results(&mut t, &["1-0"]);
    let s = t.standings();
    let winner = &s.rows[0].name;
    assert_eq!(values(&s, winner)[0], "2");
    let md = report::standings(&t, &s, Format::Markdown);
    assert!(md.contains("2+/f"), "{md}");
}
