//! Kos told apart by the threats they ask for: each ko is searched again
//! with the threats counted, each retake of a banned ko spending one, to
//! find which side must find threats and how many more than the other side
//! it needs — one in a direct ko, more where the other side can first play
//! an approach move or a local threat of its own, and more than can be
//! counted where the other side can wait out every ban.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use shoutan_rules::{Board, BoardSize, Color, Move, Point, PointSet};
use shoutan_solver::{Answer, Budget, Goal, Ko, Problem, Solution, Verdict, solve};

/// A budget of nodes only, so that results do not depend on the machine.
fn budget() -> Budget {
    Budget {
        nodes: 2_000_000,
        time: Duration::from_secs(600),
    }
}

/// Solves `diagram` for both sides moving first, the group at `target`
/// attacked by its opponent, moves only on the rectangle `region`.
fn solved(diagram: &str, target: &str, region: &str) -> Solution {
    let board: Board = diagram.parse().expect("a diagram");
    let size = board.size();
    let at = |s: &str| Point::from_gtp(s, size).expect("a point");
    let target = at(target);
    let owner = board.get(target).expect("a stone");
    let (a, b) = region.split_once(':').expect("two corners");
    let (a, b) = (at(a), at(b));
    let mut points = PointSet::new(size);
    for p in size.points() {
        if (a.col().min(b.col())..=a.col().max(b.col())).contains(&p.col())
            && (a.row().min(b.row())..=a.row().max(b.row())).contains(&p.row())
        {
            points.insert(p);
        }
    }
    let problem = Problem::builder(board, owner.opponent(), target, Goal::Kill)
        .region(points)
        .build()
        .expect("a problem");
    let solution = solve(&problem, budget());
    for a in [&solution.first, &solution.second] {
        println!(
            "{:?} first: {:?} win {:?} ko {:?} {:?}, {} nodes",
            a.mover,
            a.verdict,
            names(&a.winning_moves, size),
            names(&a.ko_moves, size),
            a.ko,
            a.nodes
        );
    }
    solution
}

fn names(moves: &[Move], size: BoardSize) -> Vec<String> {
    let mut names: Vec<String> = moves.iter().map(|m| m.to_gtp(size)).collect();
    names.sort();
    names
}

fn ko(finder: Color, threats: u8) -> Option<Ko> {
    Some(Ko {
        finder,
        threats: Some(threats),
    })
}

fn is_ko(answer: &Answer, moves: &[&str], size: BoardSize) {
    assert_eq!(answer.verdict, Verdict::Ko, "{answer:?}");
    assert_eq!(names(&answer.ko_moves, size), moves, "{answer:?}");
}

/// Bent four in the corner (盘角曲四): black A6, white A7, and black's
/// capture at B7 starts the ko, so white must find the first threat.
///
/// ```text
///   A B C D E
/// 7 . . O X .
/// 6 . O O X .
/// 5 . O X X .
/// 4 O O X . .
/// 3 X X X . .
/// ```
#[test]
fn bent_four_in_the_corner_is_a_direct_ko_white_must_find_threats_for() {
    let s = solved(
        "
        . . O X . . .
        . O O X . . .
        . O X X . . .
        O O X . . . .
        X X X . . . .
        . . . . . . .
        . . . . . . .",
        "C7",
        "A7:C4",
    );
    let size = BoardSize::new(7).unwrap();
    is_ko(&s.first, &["A6"], size);
    assert_eq!(s.first.ko, ko(Color::White, 1));
    assert_eq!(s.first.ko.unwrap().approach_moves(), Some(0));
    // White moving first lives outright: no ko to count.
    assert_eq!(s.second.verdict, Verdict::Win);
    assert_eq!(s.second.ko, None);
    assert!(!s.is_ten_thousand_year_ko());
}

/// White's group (A6…D6, C7) has the eye space A7-B7, one eye however
/// it is played, and a second eye at D7 only while E7 stands, and E7 has
/// no liberty but D7: the second eye is a ko white can never resolve.
///
/// ```text
///   A B C D E F
/// 7 . . O . O X
/// 6 O O O O X X
/// 5 X X X X X X
/// ```
///
/// Black takes E7 at D7. White retakes with a threat; black, with none,
/// waits the ban out elsewhere (a tenuki) and takes at D7 again, for white
/// cannot end the ko: connecting at D7 fills his own second eye. So each
/// retake costs white a threat and black nothing: white needs more threats
/// than can be counted, whoever moves first. (Before the attacker could
/// wait out a ban, the search had black spend a throw-in in the eye space
/// instead and said white needed two threats, or one moving first; an
/// exact count, every position listed backwards with the threats left,
/// says more than four.)
#[test]
fn a_ko_for_an_eye_that_can_never_be_resolved_asks_more_threats_than_counted() {
    let s = solved(
        "
        . . O . O X .
        O O O O X X .
        X X X X X X .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
        "C7",
        "A7:E6",
    );
    let size = BoardSize::new(7).unwrap();
    let more_than_counted = Some(Ko {
        finder: Color::White,
        threats: None,
    });
    assert_eq!(s.first.mover, Color::Black);
    is_ko(&s.first, &["A7", "B7", "D7"], size);
    assert_eq!(s.first.ko, more_than_counted);
    assert_eq!(s.first.ko.unwrap().approach_moves(), None);
    let white = &s.second;
    assert_eq!(white.verdict, Verdict::Ko, "{white:?}");
    assert_eq!(names(&white.ko_moves, size), ["A7", "B7", "pass"]);
    assert_eq!(white.ko, more_than_counted);
}

/// A ko that asks two threats of white, as an approach ko of one move
/// (缓一气劫) does: found by a search over small corners, and counted so by
/// listing every position backwards with the threats left. White's five
/// stones and E6 stand against black's wall.
///
/// ```text
///   A B C D E F
/// 7 . . . . . X
/// 6 . O O . O X
/// 5 . O O O . X
/// 4 X X X X X X
/// ```
///
/// Black moving first reaches a ko by D7, E5 or E7, and white, to win it,
/// needs two threats more than black (the count cannot tell an approach
/// move from a local threat of black's: either asks one more).
#[test]
fn a_ko_asking_two_threats_counts_as_an_approach_ko_of_one_move() {
    let s = solved(
        "
        . . . . . X .
        . O O . O X .
        . O O O . X .
        X X X X X X .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
        "B6",
        "A7:E5",
    );
    let size = BoardSize::new(7).unwrap();
    is_ko(&s.first, &["D7", "E5", "E7"], size);
    assert_eq!(s.first.ko, ko(Color::White, 2));
    assert_eq!(s.first.ko.unwrap().approach_moves(), Some(1));
}

/// Threats that change nothing are not counted: a group that lives or
/// dies outright has no ko.
///
/// ```text
///   A B C D E
/// 7 . . . O X
/// 6 O O O O X
/// 5 X X X X X
/// ```
#[test]
fn an_outright_result_has_no_ko() {
    let s = solved(
        "
        . . . O X . .
        O O O O X . .
        X X X X X . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
        "D7",
        "A7:D6",
    );
    for a in [&s.first, &s.second] {
        assert_eq!(a.verdict, Verdict::Win, "{a:?}");
        assert_eq!(a.ko, None, "{a:?}");
    }
}

/// The ten-thousand-year ko (万年劫) in the corner: white's group and black's
/// three stones share D2 and reach the corner's A1 and A2.
///
/// ```text
///   A B C D E F
/// 4 X X X X X X
/// 3 O O O O O X
/// 2 . O X . O X
/// 1 . X X O O X
/// ```
///
/// Black A2 puts white in atari, but white takes at A1 first and black
/// must find the first threat; white A1 puts black in atari, but black
/// takes at A2 first and white must find it. White may instead fill A2:
/// seki. So neither starts the ko, and left alone the corner is seki.
#[test]
fn the_corner_where_whoever_starts_the_ko_finds_the_threats_is_a_ten_thousand_year_ko() {
    let s = solved(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        X X X X X X . . .
        O O O O O X . . .
        . O X . O X . . .
        . X X O O X . . .",
        "D1",
        "A1:E3",
    );
    let size = BoardSize::new(9).unwrap();
    is_ko(&s.first, &["A2"], size);
    assert_eq!(s.first.ko, ko(Color::Black, 1), "{:?}", s.first);
    assert_eq!(s.second.verdict, Verdict::Seki, "{:?}", s.second);
    assert_eq!(names(&s.second.seki_moves, size), ["A2"]);
    assert_eq!(s.second.ko, ko(Color::White, 1), "{:?}", s.second);
    assert!(s.is_ten_thousand_year_ko());
}

/// The ten-thousand-year ko by its rule, on answers made by hand: left
/// alone the group lives in seki, and whichever side starts the ko must
/// find the threats.
#[test]
fn a_ko_neither_side_wants_to_start_beside_seki_is_a_ten_thousand_year_ko() {
    let answer = |mover: Color, verdict: Verdict, finder: Color| Answer {
        mover,
        verdict,
        winning_moves: Vec::new(),
        seki_moves: Vec::new(),
        ko_moves: Vec::new(),
        unknown_moves: Vec::new(),
        ko: ko(finder, 1),
        nodes: 0,
        millis: 0,
    };
    let (b, w) = (Color::Black, Color::White);
    let solution = |first: Answer, second: Answer| Solution { first, second };
    assert!(
        solution(answer(b, Verdict::Ko, b), answer(w, Verdict::Seki, w)).is_ten_thousand_year_ko()
    );
    assert!(
        solution(answer(w, Verdict::Seki, w), answer(b, Verdict::Ko, b)).is_ten_thousand_year_ko()
    );
    // The attacker takes the ko first: it is his to start.
    assert!(
        !solution(answer(b, Verdict::Ko, w), answer(w, Verdict::Seki, w)).is_ten_thousand_year_ko()
    );
    // The owner's ko for life is his to start: he would, not wait in seki.
    assert!(
        !solution(answer(b, Verdict::Ko, b), answer(w, Verdict::Seki, b)).is_ten_thousand_year_ko()
    );
    // No seki: the owner moving first lives by the ko or outright.
    assert!(
        !solution(answer(b, Verdict::Ko, b), answer(w, Verdict::Ko, w)).is_ten_thousand_year_ko()
    );
}
