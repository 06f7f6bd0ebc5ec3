//! The shapes every player learns, as proofs: each test poses a diagram and
//! asserts who wins for each side moving first and with which first moves.
//! Black (X) attacks, white (O) defends, unless a test says otherwise.

use std::time::Duration;

use shoutan_rules::{Board, Color, Move, Point, PointSet};
use shoutan_solver::{Answer, Budget, Goal, Problem, Solution, Verdict, solve, solve_for};

/// A budget of nodes only, so that results do not depend on the machine.
fn budget() -> Budget {
    Budget {
        nodes: 3_000_000,
        time: Duration::from_secs(600),
    }
}

/// Solves `diagram` with black to kill the white group at `target`, the
/// region found with `margin`, and prints the node counts.
fn kill(name: &str, diagram: &str, target: &str, margin: u8) -> Solution {
    let board: Board = diagram.parse().expect("a diagram");
    let target = Point::from_gtp(target, board.size()).expect("a point");
    let problem = Problem::builder(board, Color::Black, target, Goal::Kill)
        .margin(margin)
        .build()
        .expect("a problem");
    let solution = solve(&problem, budget());
    for a in [&solution.first, &solution.second] {
        println!(
            "{name}: {:?} first: {:?} {:?} ko {:?}, {} nodes, {} ms",
            a.mover,
            a.verdict,
            names(a, &problem, false),
            names(a, &problem, true),
            a.nodes,
            a.millis
        );
    }
    solution
}

/// The winning (or ko-winning) first moves in GTP notation, sorted.
fn names(answer: &Answer, problem: &Problem, ko: bool) -> Vec<String> {
    let moves = if ko {
        &answer.ko_moves
    } else {
        &answer.winning_moves
    };
    let mut names: Vec<String> = moves
        .iter()
        .map(|m| match m {
            Move::Play(p) => p.to_gtp(problem.board().size()),
            Move::Pass => "pass".to_owned(),
        })
        .collect();
    names.sort();
    names
}

fn wins(answer: &Answer, size: u8, expected: &[&str]) {
    assert_eq!(answer.verdict, Verdict::Win, "{answer:?}");
    let mut got: Vec<String> = answer
        .winning_moves
        .iter()
        .map(|m| match m {
            Move::Play(p) => {
                p.to_gtp(shoutan_rules::BoardSize::new(u32::from(size)).expect("size"))
            }
            Move::Pass => "pass".to_owned(),
        })
        .collect();
    got.sort();
    let mut want: Vec<String> = expected.iter().map(|s| (*s).to_owned()).collect();
    want.sort();
    assert_eq!(got, want, "{answer:?}");
}

fn loses(answer: &Answer) {
    assert_eq!(answer.verdict, Verdict::Lose, "{answer:?}");
    assert!(answer.winning_moves.is_empty() && answer.ko_moves.is_empty());
}

#[test]
fn straight_three_dies_to_the_middle_and_lives_by_it() {
    let s = kill(
        "直三",
        "
        . . . O X . .
        O O O O X . .
        X X X X X . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
        "D7",
        0,
    );
    wins(&s.first, 7, &["B7"]);
    wins(&s.second, 7, &["B7"]);
}

#[test]
fn bent_three_dies_to_the_corner_point_and_lives_by_it() {
    let s = kill(
        "曲三",
        "
        . . O X . . .
        . O O X . . .
        O O X X . . .
        X X X . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
        "C7",
        0,
    );
    wins(&s.first, 7, &["A7"]);
    wins(&s.second, 7, &["A7"]);
}

#[test]
fn straight_four_lives_whoever_moves() {
    let s = kill(
        "直四",
        "
        . . . . O X .
        O O O O O X .
        X X X X X X .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
        "E7",
        0,
    );
    loses(&s.first);
    assert_eq!(s.second.verdict, Verdict::Win);
    assert!(
        s.second.winning_moves.contains(&Move::Pass),
        "no need to move"
    );
}

#[test]
fn bent_four_on_the_side_lives_whoever_moves() {
    let s = kill(
        "曲四",
        "
        X O . . . O X . .
        X O . O O O X . .
        X O O O X X X . .
        X X X X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        "B9",
        0,
    );
    loses(&s.first);
    assert_eq!(s.second.verdict, Verdict::Win);
    assert!(
        s.second.winning_moves.contains(&Move::Pass),
        "no need to move"
    );
}

#[test]
fn bent_four_with_the_corner_point_is_ko() {
    // The L along the corner: black's A6 and white's A7 leave a stone
    // black takes at B7, and the fight is a ko.
    let s = kill(
        "角上曲四",
        "
        . . O X . . .
        . O O X . . .
        . O X X . . .
        O O X . . . .
        X X X . . . .
        . . . . . . .
        . . . . . . .",
        "C7",
        0,
    );
    assert_eq!(s.first.verdict, Verdict::Ko, "{:?}", s.first);
    assert_eq!(s.first.ko_moves, vec![Move::Play(Point::new(0, 1))], "A6");
    wins(&s.second, 7, &["A6", "A7"]);
    assert_eq!(s.second.ko_moves, vec![Move::Pass], "tenuki leaves the ko");
}

#[test]
fn square_four_is_dead_whoever_moves() {
    let s = kill(
        "团四",
        "
        . . O X . . .
        . . O X . . .
        O O O X . . .
        X X X X . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
        "C7",
        0,
    );
    // Dead as it stands: any move inside keeps it dead.
    wins(&s.first, 7, &["A6", "A7", "B6", "B7"]);
    loses(&s.second);
}

#[test]
fn pyramid_four_dies_to_its_centre_and_lives_by_it() {
    let s = kill(
        "丁四",
        "
        X O . . . O X . .
        X O O . O O X . .
        X X O O O X X . .
        . . X X X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        "B9",
        0,
    );
    wins(&s.first, 9, &["D9"]);
    wins(&s.second, 9, &["D9"]);
}

#[test]
fn bulky_five_dies_to_its_vital_point_and_lives_by_it() {
    let s = kill(
        "板五",
        "
        . . . O X . .
        . . O O X . .
        O O O X X . .
        X X X X . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
        "D7",
        0,
    );
    // B7 touches three of the other four points.
    wins(&s.first, 7, &["B7"]);
    wins(&s.second, 7, &["B7"]);
    // White's B6 or A7 leaves the corner's bent four: a ko.
    assert_eq!(
        s.second.ko_moves,
        vec![Move::Play(Point::new(0, 0)), Move::Play(Point::new(1, 1))],
        "A7 and B6"
    );
}

#[test]
fn flower_five_dies_to_its_centre_and_lives_by_it() {
    let s = kill(
        "花五",
        "
        X O O . O O X . .
        X O . . . O X . .
        X O O . O O X . .
        X X O O O X X . .
        . . X X X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        "B9",
        0,
    );
    wins(&s.first, 9, &["D8"]);
    wins(&s.second, 9, &["D8"]);
}

#[test]
fn rabbity_six_dies_to_its_centre_and_lives_by_it() {
    let s = kill(
        "拳六",
        "
        X O O . . O X . .
        X O . . . O X . .
        X O O . O O X . .
        X X O O O X X . .
        . . X X X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        "B9",
        0,
    );
    wins(&s.first, 9, &["D8"]);
    assert_eq!(s.second.verdict, Verdict::Win);
    assert!(s.second.winning_moves.contains(&Move::Play(
        Point::from_gtp("D8", shoutan_rules::BoardSize::NINE).expect("D8")
    )));
}

#[test]
fn the_group_with_an_eye_wins_the_race() {
    // White's six stones have three liberties, all outside (A6, C8, C9);
    // black's three have three too, one of them the eye at A9.
    let s = kill(
        "有眼杀无眼",
        "
        . X . O X . . . .
        X X . O X . . . .
        O O O O X . . . .
        . X X X X . . . .
        X . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        "D9",
        1,
    );
    // Filling the eye at A9 also kills: white's capture of the four stones
    // leaves it a square four in the corner.
    wins(&s.first, 9, &["A6", "A9", "C8", "C9"]);
    // Even moving first, the eyeless group cannot win.
    loses(&s.second);
}

/// `n` white stones on the second line of a 13×13 board from column D,
/// black on the third line above them and on the second line at both ends,
/// the first line open beneath the white stones. With `solid` ends black
/// also holds the first line under its end stones, so a hane from them is
/// connected; without, the first-line point under each end stone is open
/// (black's stones stand one point further out) and a hane there can be
/// cut off.
fn second_line(n: usize, solid: bool) -> String {
    let (first, last) = (3, 3 + n - 1);
    let mut rows = vec![vec!['.'; 13]; 13];
    rows[10][first - 2..=last + 2].fill('X');
    for c in [first - 2, first - 1, last + 1, last + 2] {
        rows[11][c] = 'X';
    }
    rows[12][first - 2] = 'X';
    rows[12][last + 2] = 'X';
    if solid {
        rows[12][first - 1] = 'X';
        rows[12][last + 1] = 'X';
    }
    rows[11][first..=last].fill('O');
    rows.iter()
        .map(|r| r.iter().map(|c| format!("{c} ")).collect::<String>() + "\n")
        .collect()
}

/// The white stones from D2 on, `mover` moving first only.
fn second_line_first(n: usize, solid: bool, mover: Color) -> Answer {
    let board: Board = second_line(n, solid).parse().expect("a diagram");
    let target = Point::from_gtp("D2", board.size()).expect("D2");
    let goal = if mover == Color::Black {
        Goal::Kill
    } else {
        Goal::Live
    };
    let problem = Problem::builder(board, mover, target, goal)
        .build()
        .expect("a problem");
    let answer = solve_for(&problem, mover, budget());
    println!(
        "{n} on the second line ({}), {mover:?} first: {:?} {:?} ko {:?}, {} nodes, {} ms",
        if solid { "solid ends" } else { "open ends" },
        answer.verdict,
        names(&answer, &problem, false),
        names(&answer, &problem, true),
        answer.nodes,
        answer.millis
    );
    answer
}

fn on_13(s: &str) -> Move {
    Move::Play(Point::from_gtp(s, shoutan_rules::BoardSize::new(13).expect("13")).expect("a point"))
}

#[test]
fn six_on_the_second_line_die() {
    // 六死八活: six die even moving first.
    let a = second_line_first(6, true, Color::Black);
    assert_eq!(a.verdict, Verdict::Win, "{a:?}");
    assert!(a.winning_moves.contains(&on_13("D1")), "{a:?}");
    loses(&second_line_first(6, true, Color::White));
}

#[test]
fn seven_on_the_second_line_die_or_live_by_who_moves_first() {
    // Black kills with the hane at either end (the other hane and the
    // placement in the straight three follow); white lives by taking a
    // hane point itself or the middle.
    let a = second_line_first(7, true, Color::Black);
    assert_eq!(a.verdict, Verdict::Win, "{a:?}");
    assert_eq!(a.winning_moves, vec![on_13("D1"), on_13("K1")]);
    let w = second_line_first(7, true, Color::White);
    assert_eq!(w.verdict, Verdict::Win, "{w:?}");
    assert_eq!(w.winning_moves, vec![on_13("D1"), on_13("G1"), on_13("K1")]);
}

#[test]
fn seven_on_the_second_line_with_open_ends_are_ko() {
    // With the first-line point under each black end stone open, the hane
    // at D1 (or K1) can be cut: white's capture of the hane stone there is
    // a ko, and black cannot afford to connect first.
    let a = second_line_first(7, false, Color::Black);
    assert_eq!(a.verdict, Verdict::Ko, "{a:?}");
    assert_eq!(a.ko_moves, vec![on_13("D1"), on_13("K1")]);
}

#[test]
fn eight_on_the_second_line_live() {
    loses(&second_line_first(8, true, Color::Black));
}

#[test]
fn a_ladder_captures() {
    // The region is the ladder's path: a white chain with a liberty
    // outside it has escaped.
    let board: Board = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X X . . . . .
        . X O . . . . . .
        . . . . . . . . .
        . . . . . . . . ."
        .parse()
        .expect("a diagram");
    let mut region = PointSet::new(board.size());
    for p in ["C3", "C2", "D3", "E3", "D2", "E2", "D1", "C1", "E1", "F1"] {
        region.insert(Point::from_gtp(p, board.size()).expect("a point"));
    }
    let target = Point::from_gtp("C3", board.size()).expect("C3");
    let problem = Problem::builder(board, Color::Black, target, Goal::Kill)
        .region(region)
        .build()
        .expect("a problem");
    let s = solve(&problem, budget());
    for a in [&s.first, &s.second] {
        println!(
            "征: {:?} first: {:?} {:?}, {} nodes, {} ms",
            a.mover,
            a.verdict,
            names(a, &problem, false),
            a.nodes,
            a.millis
        );
    }
    wins(&s.first, 9, &["C2"]);
    // White moving first runs out of the path.
    assert_eq!(s.second.verdict, Verdict::Win, "{:?}", s.second);
}

#[test]
fn a_net_captures() {
    // No ladder works (white's extensions keep three liberties); the loose
    // move F6 closes both ways out.
    let s = kill(
        "枷",
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X . . . . . .
        . . . X O . . . .
        . . . . X . . . .
        . . . . . X . . .
        . . . . . . . . .
        . . . . . . . . .",
        "E5",
        2,
    );
    wins(&s.first, 9, &["F6"]);
    // White moving first gets out.
    assert_eq!(s.second.verdict, Verdict::Win, "{:?}", s.second);
}
