//! A try judged move by move: right and wrong first moves, the
//! opponent's answers, the end of a try, refused lines; and the solution
//! tree of every shipped problem played through the judge.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed call is a test failure

use shoutan_problems::{Judgement, TryError, Variation, judge, library, solution};
use shoutan_rules::{Board, Color, Point};
use shoutan_solver::{Goal, Problem};

/// Straight three (直三) in the corner, white's, black's wall round it:
///
/// ```text
///   A B C D E F G
/// 7 . . . O X . .
/// 6 O O O O X . .
/// 5 X X X X X . .
/// ```
fn straight_three(to_move: Color, goal: Goal) -> (Problem, impl Fn(&str) -> Point) {
    let board: Board = "
        . . . O X . .
        O O O O X . .
        X X X X X . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . ."
        .parse()
        .unwrap();
    let size = board.size();
    let at = move |s: &str| Point::from_gtp(s, size).unwrap();
    let problem = Problem::builder(board, to_move, at("D7"), goal)
        .build()
        .unwrap();
    (problem, at)
}

#[test]
fn the_middle_point_kills_and_nothing_else_does() {
    let (problem, at) = straight_three(Color::Black, Goal::Kill);
    // Whatever white then plays, even twice, the group has one eye.
    assert_eq!(
        judge(&problem, &[at("B7")]),
        Ok(Judgement::Right { reply: None })
    );
    // A side point lets white take the middle and live.
    assert_eq!(
        judge(&problem, &[at("A7")]),
        Ok(Judgement::Wrong {
            refutation: Some(at("B7"))
        })
    );
}

#[test]
fn the_defender_lives_by_the_middle_point() {
    let (problem, at) = straight_three(Color::White, Goal::Live);
    assert_eq!(
        judge(&problem, &[at("B7")]),
        Ok(Judgement::Right { reply: None })
    );
    // Taking a side point leaves a two-point eye: either point kills.
    let Ok(Judgement::Wrong {
        refutation: Some(refutation),
    }) = judge(&problem, &[at("C7")])
    else {
        panic!("C7 is not judged wrong with a refutation");
    };
    assert!([at("A7"), at("B7")].contains(&refutation), "{refutation:?}");
}

#[test]
fn lines_that_cannot_be_judged_are_refused() {
    let (problem, at) = straight_three(Color::Black, Goal::Kill);
    assert_eq!(judge(&problem, &[]), Err(TryError::Length(0)));
    assert_eq!(
        judge(&problem, &[at("B7"), at("A7")]),
        Err(TryError::EndsWithReply)
    );
    // The try ended with the right move (solved) or a wrong one.
    assert_eq!(
        judge(&problem, &[at("B7"), at("A7"), at("C7")]),
        Err(TryError::Over { ply: 0 })
    );
    assert_eq!(
        judge(&problem, &[at("A7"), at("B7"), at("C7")]),
        Err(TryError::Over { ply: 0 })
    );
    assert!(matches!(
        judge(&problem, &[at("D7")]),
        Err(TryError::Illegal { ply: 0, .. })
    ));
    assert!(matches!(
        judge(&problem, &[at("G1")]),
        Err(TryError::Outside { ply: 0, .. })
    ));
}

/// Plays the tree's right lines and wrong first moves through the judge:
/// each reply is the tree's, each right line ends solved, each wrong move
/// is refuted as the tree says.
fn check_tree(problem: &Problem, tree: &[Variation], id: &str) {
    let size = problem.board().size();
    let at = |s: &str| Point::from_gtp(s, size).unwrap();
    assert!(
        tree.iter().any(|v| v.correct == Some(true)),
        "{id}: no right first move in the tree"
    );
    for first in tree {
        let mut line = vec![at(&first.point)];
        let mut node = first;
        loop {
            let judged = judge(problem, &line).unwrap_or_else(|e| panic!("{id} {line:?}: {e}"));
            match (first.correct, judged) {
                (Some(false), Judgement::Wrong { refutation }) => {
                    let shown = node.children.first().map(|c| at(&c.point));
                    assert_eq!(refutation, shown, "{id}: the refutation of {line:?}");
                    break;
                }
                (Some(true), Judgement::Right { reply: None }) => {
                    assert!(
                        node.children.is_empty(),
                        "{id}: the tree goes on after {line:?}"
                    );
                    break;
                }
                (Some(true), Judgement::Right { reply: Some(r) }) => {
                    let answered = node
                        .children
                        .first()
                        .unwrap_or_else(|| panic!("{id}: the tree stops at {line:?}"));
                    assert_eq!(at(&answered.point), r, "{id}: the reply to {line:?}");
                    let Some(next) = answered.children.first() else {
                        // The tree's depth ran out before the end.
                        break;
                    };
                    line.push(r);
                    line.push(at(&next.point));
                    node = next;
                }
                (kind, judged) => panic!("{id} {line:?}: {kind:?} in the tree, judged {judged:?}"),
            }
        }
    }
}

#[test]
fn every_problems_solution_plays_through_the_judge() {
    for set in library() {
        for entry in &set.problems {
            let problem = entry.problem();
            let tree = solution(&problem, &entry.answer_points());
            check_tree(&problem, &tree, &entry.id());
        }
    }
}
