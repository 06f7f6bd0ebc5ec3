//! Every shipped problem is proved by the solver, within the budget a
//! server would give it, and its recorded answers are exactly the solver's
//! winning first moves: no correct move missing, no wrong one recorded.

use std::collections::HashSet;

use shoutan_problems::{Entry, PROBLEM_BUDGET, find, library};
use shoutan_rules::{Move, Point};
use shoutan_solver::{Verdict, solve_for};

fn entries() -> impl Iterator<Item = &'static Entry> {
    library().iter().flat_map(|s| s.problems.iter())
}

fn names(entry: &Entry, moves: &[Move]) -> Vec<String> {
    let size = entry.board.size();
    let mut names: Vec<String> = moves.iter().map(|m| m.to_gtp(size)).collect();
    names.sort();
    names
}

fn median(values: &mut [u64]) -> u64 {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or(0)
}

#[test]
fn every_problem_is_solved_with_exactly_the_recorded_answers() {
    let mut failures = Vec::new();
    let (mut nodes, mut millis) = (Vec::new(), Vec::new());
    for set in library() {
        println!(
            "{} {} ({} {}): {} problems",
            set.slug,
            set.name_zh,
            set.grade.zh(),
            set.name_en,
            set.problems.len()
        );
        for entry in &set.problems {
            let answer = solve_for(&entry.problem(), entry.to_move, PROBLEM_BUDGET);
            nodes.push(answer.nodes);
            millis.push(answer.millis);
            let got: HashSet<Move> = answer.winning_moves.iter().copied().collect();
            let want: HashSet<Move> = entry.answers.iter().copied().collect();
            if answer.verdict != Verdict::Win || got != want {
                failures.push(format!(
                    "{}: {:?}, solver {:?} (ko {:?}, undecided {:?}), recorded {:?}",
                    entry.id(),
                    answer.verdict,
                    names(entry, &answer.winning_moves),
                    names(entry, &answer.ko_moves),
                    names(entry, &answer.unknown_moves),
                    names(entry, &entry.answers),
                ));
            }
        }
    }
    println!(
        "{} problems: nodes median {} max {}; ms median {} max {}",
        nodes.len(),
        median(&mut nodes.clone()),
        nodes.iter().max().copied().unwrap_or(0),
        median(&mut millis.clone()),
        millis.iter().max().copied().unwrap_or(0),
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_setup_is_legal_and_every_target_a_stone_in_view() {
    for entry in entries() {
        let board = &entry.board;
        let size = board.size();
        for p in size.points() {
            if board.get(p).is_some() {
                assert!(
                    board.liberty_count(board.index(p)) > 0,
                    "{}: the stones at {} have no liberty",
                    entry.id(),
                    p.to_gtp(size)
                );
            }
        }
        assert!(
            board.get(entry.target).is_some(),
            "{}: no stone at the target {}",
            entry.id(),
            entry.target.to_gtp(size)
        );
        if let Some(view) = &entry.view {
            assert!(
                view.contains(entry.target),
                "{}: the view misses the target",
                entry.id()
            );
        }
        assert!(!entry.answers.is_empty(), "{}: no answer", entry.id());
    }
}

#[test]
fn problems_are_numbered_in_order_and_found_by_id() {
    for set in library() {
        assert!(!set.problems.is_empty(), "{}: empty set", set.slug);
        for (i, entry) in set.problems.iter().enumerate() {
            let number = u32::try_from(i + 1).expect("a small set");
            assert_eq!(entry.number, number);
            assert_eq!(entry.set, set.slug);
            let found = find(set.slug, number).expect("found");
            assert_eq!(found.id(), entry.id());
        }
    }
}

#[test]
fn positions_are_distinct() {
    // No problem is another's copy, shifted or mirrored: compare the
    // stones relative to their bounding box under the eight symmetries.
    let mut seen = std::collections::HashMap::new();
    for entry in entries() {
        let size = entry.board.size();
        let n = size.get();
        let stones: Vec<(Point, bool)> = size
            .points()
            .filter_map(|p| entry.board.get(p).map(|c| (p, c == entry.to_move)))
            .collect();
        let canonical = (0..8)
            .map(|sym| {
                let mut v: Vec<(u8, u8, bool)> = stones
                    .iter()
                    .map(|&(p, mine)| {
                        let (c, r) = (p.col(), p.row());
                        let (c, r) = if sym & 1 == 1 { (n - 1 - c, r) } else { (c, r) };
                        let (c, r) = if sym & 2 == 2 { (c, n - 1 - r) } else { (c, r) };
                        let (c, r) = if sym & 4 == 4 { (r, c) } else { (c, r) };
                        (c, r, mine)
                    })
                    .collect();
                let c0 = v.iter().map(|s| s.0).min().unwrap_or(0);
                let r0 = v.iter().map(|s| s.1).min().unwrap_or(0);
                for s in &mut v {
                    s.0 -= c0;
                    s.1 -= r0;
                }
                v.sort_unstable();
                v
            })
            .min()
            .unwrap_or_default();
        if let Some(other) = seen.insert(canonical, entry.id()) {
            panic!("{} repeats {other}", entry.id());
        }
    }
}
