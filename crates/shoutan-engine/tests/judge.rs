//! The network's judgement of dead stones (`shoutan_engine::judge`, what
//! the server proposes when counting opens and what `shoutan score --dead
//! auto` counts with) against 31 real final positions from online-go.com
//! with hand-checked ownership (OGS goban's autoscore test files,
//! Apache-2.0, kept under `tests/data/autoscore` at the workspace root).
//! The rules crate's playout estimator gets 22 of them exactly right
//! (`crates/shoutan-rules/tests/autoscore.rs`); the network got 23 when
//! this was written, and must keep them.

#![allow(clippy::unwrap_used)] // test code: unreadable test data is a test failure

use std::path::PathBuf;

use shoutan_engine::{builtin_network, judge};
use shoutan_rules::{Board, BoardSize, Color, Game, Point, Ruleset};

/// A position, its hand-checked owner of each point (`B`, `W`, ` ` or
/// `s` for dame or seki, `*` for either), and whether it was played under
/// Japanese rules.
fn cases() -> Vec<(String, Board, Vec<Vec<char>>, bool)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/autoscore");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let grid = |key: &str| -> Vec<Vec<char>> {
                json[key]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap().chars().collect())
                    .collect()
            };
            let rows = grid("board");
            let mut board = Board::new(BoardSize::new(rows.len() as u32).unwrap());
            let stones = rows.iter().enumerate().flat_map(|(r, row)| {
                row.iter().enumerate().map(move |(c, ch)| {
                    let stone = match ch {
                        'b' | 'B' => Some(Color::Black),
                        'w' | 'W' => Some(Color::White),
                        _ => None,
                    };
                    (Point::new(c as u8, r as u8), stone)
                })
            });
            board.set_stones(stones).unwrap();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            (
                name,
                board,
                grid("correct_ownership"),
                json["rules"] == "japanese",
            )
        })
        .collect()
}

#[test]
fn proposes_the_hand_checked_dead_stones() {
    let network = builtin_network();
    let cases = cases();
    assert_eq!(cases.len(), 31);
    let mut exact = 0;
    for (name, board, correct, japanese) in &cases {
        let rules = if *japanese {
            Ruleset::JAPANESE
        } else {
            Ruleset::CHINESE
        };
        let size = board.size();
        // The game over: both have passed, as when counting opens.
        let mut game = Game::builder(size)
            .ruleset(rules)
            .position(board.clone(), Color::Black)
            .build()
            .unwrap();
        game.pass(Color::Black).unwrap();
        game.pass(Color::White).unwrap();
        let seen = judge(&network, &game);
        let mut wrong = Vec::new();
        for p in size.points() {
            let Some(c) = board.get(p) else { continue };
            let dead = match correct[p.row() as usize][p.col() as usize] {
                'B' => c == Color::White,
                'W' => c == Color::Black,
                ' ' | 's' => false,
                _ => continue,
            };
            if dead != seen.status.dead.contains(p) {
                let o = seen.ownership[size.offset(p)];
                wrong.push(format!(
                    "{}{} {o:.2}",
                    p.to_gtp(size),
                    if dead { " dead" } else { " alive" }
                ));
            }
        }
        if wrong.is_empty() {
            exact += 1;
        } else {
            println!("{name}: {} stones wrong: {}", wrong.len(), wrong.join(", "));
        }
    }
    println!("{exact} of {} positions exactly right", cases.len());
    assert!(
        exact >= 23,
        "only {exact} of {} positions right",
        cases.len()
    );
}

#[test]
fn the_judgement_is_the_same_every_time() {
    // All eight symmetries averaged: nothing random about it.
    let network = builtin_network();
    let (_, board, _, _) = cases().swap_remove(4);
    let game = Game::builder(board.size())
        .position(board, Color::White)
        .build()
        .unwrap();
    assert_eq!(judge(&network, &game), judge(&network, &game));
}
