//! Seki (双活) told apart from life: the defender moving first keeps the
//! group in seki when it survives but cannot force unconditional life, and
//! the attacker moving first fails to kill. Black (X) attacks, white (O)
//! defends; the walls at the sides have eyes of their own, so the found
//! region stops at black's.

use std::time::Duration;

use shoutan_rules::{Board, BoardSize, Color, Move, Point};
use shoutan_solver::{Answer, Budget, Goal, Problem, Solution, Verdict, solve};

/// A budget of nodes only, so that results do not depend on the machine.
fn budget() -> Budget {
    Budget {
        nodes: 3_000_000,
        time: Duration::from_secs(600),
    }
}

/// Solves `diagram` with black to kill the white group at `target` (the
/// region found with a margin of 1) and prints the node counts.
fn kill(name: &str, diagram: &str, target: &str) -> (Problem, Solution) {
    let board: Board = diagram.parse().expect("a diagram");
    let target = Point::from_gtp(target, board.size()).expect("a point");
    let problem = Problem::builder(board, Color::Black, target, Goal::Kill)
        .build()
        .expect("a problem");
    let solution = solve(&problem, budget());
    for a in [&solution.first, &solution.second] {
        println!(
            "{name}: {:?} first: {:?} win {:?} seki {:?} ko {:?}, {} nodes, {} ms",
            a.mover,
            a.verdict,
            names(&a.winning_moves, problem.board().size()),
            names(&a.seki_moves, problem.board().size()),
            names(&a.ko_moves, problem.board().size()),
            a.nodes,
            a.millis
        );
    }
    (problem, solution)
}

/// Moves in GTP notation, sorted.
fn names(moves: &[Move], size: BoardSize) -> Vec<String> {
    let mut names: Vec<String> = moves.iter().map(|m| m.to_gtp(size)).collect();
    names.sort();
    names
}

fn loses(answer: &Answer) {
    assert_eq!(answer.verdict, Verdict::Lose, "{answer:?}");
    assert!(answer.winning_moves.is_empty() && answer.ko_moves.is_empty());
    assert!(answer.seki_moves.is_empty(), "{answer:?}");
}

/// No eyes on either side, two shared liberties (D7, D6): whoever fills
/// one is captured. White's group (C7…C1, D5…D1) and black's inner column
/// (E7…E1) lean on living walls.
const NO_EYES: &str = "
    . X O . X O .
    X X O . X O O
    . X O O X O .
    X X O O X O O
    . X O O X O .
    X X O O X O O
    . X O O X O .";

#[test]
fn seki_without_eyes_two_shared_liberties() {
    let (problem, s) = kill("无眼双活", NO_EYES, "C7");
    // Black moving first cannot kill: either shared liberty is a
    // self-atari, and white's capture of the column lives.
    loses(&s.first);
    // White moving first keeps the group only in seki: it must not move.
    let live = &s.second;
    assert_eq!(live.verdict, Verdict::Seki, "{live:?}");
    assert_eq!(live.seki_moves, vec![Move::Pass], "{live:?}");
    assert!(live.winning_moves.is_empty() && live.ko_moves.is_empty());
    let summary = s.summary(&problem);
    assert_eq!(summary.to_kill, Verdict::Lose);
    assert_eq!(summary.to_live, Verdict::Seki);
    assert_eq!(summary.live, vec!["pass".to_owned()]);
}

/// One eye each (white's D5, black's F3) and one shared liberty (E9).
const ONE_EYE_EACH: &str = "
    . X O O . X X O .
    X X O O O X X O O
    . X O O O X X O .
    X X O O O X X O O
    . X O . O X X O .
    X X O O X X X O O
    . X O O X . X O .
    X X O O X X X O O
    . X O O X X X O .";

#[test]
fn seki_with_an_eye_each_and_one_shared_liberty() {
    let (_, s) = kill("有眼双活", ONE_EYE_EACH, "C9");
    loses(&s.first);
    let live = &s.second;
    assert_eq!(live.verdict, Verdict::Seki, "{live:?}");
    assert_eq!(live.seki_moves, vec![Move::Pass], "{live:?}");
}

/// White's eye space D6-D5-D4 is a straight three; one shared liberty (E9)
/// with black's one-eyed group. The middle makes two eyes; filling the
/// shared liberty, or tenuki, wins the race against black's one eye; an
/// end point of the three leaves one eye each: seki.
const THREE_OR_SEKI: &str = "
    . X O O . X X O .
    X X O O O X X O O
    . X O O O X X O .
    X X O . O X X O O
    . X O . O X X O .
    X X O . O X X O O
    . X O O X . X O .
    X X O O X X X O O
    . X O O X X X O .";

#[test]
fn real_life_is_chosen_over_seki() {
    let (problem, s) = kill("活棋不算双活", THREE_OR_SEKI, "C9");
    let size = problem.board().size();
    let at = |p| Move::Play(Point::from_gtp(p, size).expect("a point"));
    // Black moving first takes the vital point and gets no more than seki.
    loses(&s.first);
    let live = &s.second;
    assert_eq!(live.verdict, Verdict::Win, "{live:?}");
    assert_eq!(
        live.winning_moves,
        vec![at("E9"), at("D5"), Move::Pass],
        "{live:?}"
    );
    assert_eq!(names(&live.seki_moves, size), ["D4", "D6"], "{live:?}");
    let summary = s.summary(&problem);
    assert_eq!(summary.to_live, Verdict::Win);
    assert_eq!(summary.live, ["E9", "D5", "pass"]);
}

#[test]
fn a_group_already_alive_is_alive_not_seki() {
    // Two eyes in the corner: Benson's test says alive before any move.
    let (_, s) = kill(
        "两眼",
        "
        . O . O X . .
        O O O O X . .
        X X X X X . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
        "B7",
    );
    loses(&s.first);
    let live = &s.second;
    assert_eq!(live.verdict, Verdict::Win, "{live:?}");
    assert!(live.winning_moves.contains(&Move::Pass), "{live:?}");
    assert!(live.seki_moves.is_empty(), "{live:?}");
}

#[test]
fn the_vital_point_in_the_eye_makes_life_and_anything_else_seki() {
    // Black's B9-B8 sit in white's corner; A9 is not a liberty of white's,
    // so Benson's test does not call the group alive as it stands. White's
    // A8 makes every point there its liberty: alive. Anywhere else, black's
    // A8 makes an eye at A9 and a seki with two shared liberties (C9, C8).
    let (problem, s) = kill(
        "眼中死子",
        "
        . X . O . O X . .
        . X . O O O X . .
        O O O O O O X . .
        X X X X X X X . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        "D9",
    );
    let size = problem.board().size();
    loses(&s.first);
    let live = &s.second;
    assert_eq!(live.verdict, Verdict::Win, "{live:?}");
    assert_eq!(names(&live.winning_moves, size), ["A8"], "{live:?}");
    assert_eq!(
        names(&live.seki_moves, size),
        ["A9", "C8", "C9", "pass"],
        "{live:?}"
    );
    assert_eq!(s.summary(&problem).live, ["A8"]);
}

/// Black's B9 and A8 in white's corner can be taken only by a ko (white's
/// A9 takes A8, black's A8 retakes), and C9 is a self-atari for either
/// side. White keeps the group, but life would need the ko won: seki.
#[test]
fn dead_looking_stones_taken_only_by_a_ko_leave_seki() {
    let (_, s) = kill(
        "劫杀不掉",
        "
        . X . O . O X . .
        X O O O O O X . .
        O O O O O O X . .
        X X X X X X X . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        "D9",
    );
    loses(&s.first);
    assert_eq!(s.second.verdict, Verdict::Seki, "{:?}", s.second);
}
