//! Posing problems: what the constructor refuses, the region it finds, and
//! what the solver says when its budget is too small.

use std::time::Duration;

use shoutan_rules::is_pass_alive;
use shoutan_rules::{Board, Color, Point, PointSet, Ruleset};
use shoutan_solver::{Budget, Goal, Problem, ProblemError, Verdict, solve};

fn at(board: &Board, s: &str) -> Point {
    Point::from_gtp(s, board.size()).expect("a point")
}

const STRAIGHT_THREE: &str = "
    . . . O X . .
    O O O O X . .
    X X X X X . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .";

#[test]
fn a_target_without_a_stone_is_refused() {
    let board: Board = STRAIGHT_THREE.parse().unwrap();
    let p = at(&board, "A7");
    let err = Problem::builder(board, Color::Black, p, Goal::Kill)
        .build()
        .unwrap_err();
    assert_eq!(err, ProblemError::NoStone(p));
    assert!(err.to_string().contains("no stone"));
}

#[test]
fn a_target_off_the_board_is_refused() {
    let board: Board = STRAIGHT_THREE.parse().unwrap();
    let err = Problem::builder(board, Color::Black, Point::new(9, 9), Goal::Kill)
        .build()
        .unwrap_err();
    assert_eq!(err, ProblemError::NoStone(Point::new(9, 9)));
}

#[test]
fn a_region_without_the_whole_group_is_refused() {
    let board: Board = STRAIGHT_THREE.parse().unwrap();
    let mut region = PointSet::new(board.size());
    for p in ["A7", "B7", "C7", "D7"] {
        region.insert(at(&board, p));
    }
    let target = at(&board, "D7");
    let err = Problem::builder(board, Color::Black, target, Goal::Kill)
        .region(region)
        .build()
        .unwrap_err();
    assert_eq!(err, ProblemError::RegionMissesTarget);
}

#[test]
fn a_goal_against_the_player_to_move_is_refused() {
    let board: Board = STRAIGHT_THREE.parse().unwrap();
    let target = at(&board, "D7");
    let err = Problem::builder(board, Color::Black, target, Goal::Live)
        .build()
        .unwrap_err();
    assert!(matches!(err, ProblemError::GoalMismatch { .. }), "{err:?}");
}

#[test]
fn the_found_region_stops_at_unconditionally_alive_walls() {
    // Black's wall on the right has two eyes (G9, G7 … J-file): the region
    // around white's stone does not cross it.
    let board: Board = "
        . . . . X . X O .
        . O . . X X X O .
        . . . . X . X O .
        . . . . X X X O .
        . . . . . . O O .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . ."
        .parse()
        .unwrap();
    assert!(is_pass_alive(&board, at(&board, "E9")));
    let target = at(&board, "B8");
    let problem = Problem::builder(board.clone(), Color::Black, target, Goal::Kill)
        .margin(3)
        .build()
        .unwrap();
    let region = problem.region();
    assert!(region.contains(at(&board, "D8")), "inside the box");
    assert!(!region.contains(at(&board, "E8")), "the wall itself");
    assert!(!region.contains(at(&board, "F8")), "behind the wall");
    assert!(!region.contains(at(&board, "F9")), "the wall's eye");
    assert!(region.contains(at(&board, "E5")), "round the wall's foot");
    assert!(!region.contains(at(&board, "F4")), "outside the box");
    assert_eq!(problem.attacker(), Color::Black);
    assert_eq!(problem.defender(), Color::White);
}

#[test]
fn one_eye_and_a_false_eye_are_not_is_pass_alive() {
    let board: Board = "
        . O X . . . .
        O X X . . . .
        X . X . . . .
        X X X . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . ."
        .parse()
        .unwrap();
    // B5 is one eye; A7 is taken by white's stone in atari: not two eyes.
    assert!(!is_pass_alive(&board, at(&board, "C7")));
    let two: Board = "
        . X . X . . .
        X X X X . . .
        X . X . . . .
        X X X . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . ."
        .parse()
        .unwrap();
    assert!(is_pass_alive(&two, at(&two, "B6")));
}

#[test]
fn a_budget_too_small_says_unknown() {
    let board: Board = STRAIGHT_THREE.parse().unwrap();
    let target = at(&board, "D7");
    let problem = Problem::builder(board, Color::Black, target, Goal::Kill)
        .ruleset(&Ruleset::CHINESE)
        .build()
        .unwrap();
    let s = solve(
        &problem,
        Budget {
            nodes: 0,
            time: Duration::from_secs(10),
        },
    );
    assert_eq!(s.first.verdict, Verdict::Unknown);
    assert!(s.first.winning_moves.is_empty());
    assert_eq!(s.first.unknown_moves.len(), 3, "{:?}", s.first);
}

#[test]
fn a_banned_ko_retake_wins_only_as_a_ko() {
    // The corner's bent four after black A6, white A7: black takes at B7
    // and white may not retake at A7 at once.
    let mut board: Board = "
        O . O X . . .
        X O O X . . .
        . O X X . . .
        O O X . . . .
        X X X . . . .
        . . . . . . .
        . . . . . . ."
        .parse()
        .unwrap();
    let b7 = board.index(at(&board, "B7"));
    board
        .play(b7, Color::Black, shoutan_rules::Suicide::Forbidden)
        .unwrap();
    let a7 = at(&board, "A7");
    assert_eq!(board.ko(), Some((board.index(a7), Color::White)));
    let target = at(&board, "C7");
    let problem = Problem::builder(board, Color::White, target, Goal::Live)
        .margin(0)
        .build()
        .unwrap();
    let answer = shoutan_solver::solve_for(&problem, Color::White, Budget::default());
    println!("{answer:?}");
    let retake = shoutan_rules::Move::Play(a7);
    assert!(!answer.winning_moves.contains(&retake), "{answer:?}");
    assert!(answer.ko_moves.contains(&retake), "{answer:?}");
}

/// White's wide corner, A1–D4 empty inside its wall (as the analysis
/// board's test of a question too hard for its budget):
///
/// ```text
///   A B C D E F G
/// 7 . . . . . . .
/// 6 X X X X X X .
/// 5 O O O O O X .
/// 4 . . . . O X .
/// 3 . . . . O X .
/// 2 . . . . O X .
/// 1 . . . . O X .
/// ```
///
/// Undecided at any of these budgets, and never a position past one: a
/// search out of budget counts no more.
#[test]
fn a_budget_is_never_overdrawn() {
    let board: Board = "
        . . . . . . .
        X X X X X X .
        O O O O O X .
        . . . . O X .
        . . . . O X .
        . . . . O X .
        . . . . O X ."
        .parse()
        .unwrap();
    let target = at(&board, "E5");
    let problem = Problem::builder(board, Color::Black, target, Goal::Kill)
        .build()
        .unwrap();
    for nodes in [1, 10, 1_000, 25_000] {
        let budget = Budget {
            nodes,
            time: Duration::from_secs(600),
        };
        let s = solve(&problem, budget);
        for answer in [&s.first, &s.second] {
            assert_eq!(answer.verdict, Verdict::Unknown, "{nodes}: {answer:?}");
            assert!(answer.nodes <= nodes, "{} > {nodes}", answer.nodes);
        }
    }
}
