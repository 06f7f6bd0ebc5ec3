//! Helpers of the feature tests: games from diagrams, planes as diagrams.

#![allow(dead_code)]

use shoutan_nn::{Inputs, Position};
use shoutan_rules::{Board, BoardSize, Color, Game, Move, Point, Ruleset};

/// A game from `diagram` under `ruleset` (its komi) with `to_move` to play.
pub fn game(diagram: &str, ruleset: Ruleset, to_move: Color) -> Game {
    let board: Board = diagram.parse().expect("a diagram");
    Game::builder(board.size())
        .ruleset(ruleset)
        .position(board, to_move)
        .build()
        .expect("a game")
}

/// A point of `game`'s board in GTP notation.
pub fn at(game: &Game, gtp: &str) -> Point {
    Point::from_gtp(gtp, game.size()).expect("a point")
}

/// Plays `moves` (`"B E5, W pass"`) in `game`, out of turn where asked.
pub fn play(game: &mut Game, moves: &str) {
    for m in moves.split(',').map(str::trim).filter(|m| !m.is_empty()) {
        let (color, point) = m.split_once(' ').expect("colour and point");
        let color: Color = color.parse().expect("a colour");
        if color != game.to_move() {
            game.set_to_move(color).expect("in play");
        }
        let mv = match point {
            "pass" => Move::Pass,
            p => Move::Play(at(game, p)),
        };
        game.apply(color, mv).expect("a legal move");
    }
}

/// The position of `game`, with its inputs.
pub fn inputs(game: &Game) -> Inputs {
    Position::from_game(game).inputs()
}

/// Plane `k` as a diagram: `#` for 1, `.` for 0, rows from the top.
pub fn plane(inputs: &Inputs, k: usize) -> String {
    let n = inputs.size;
    let values = &inputs.spatial[k * n * n..(k + 1) * n * n];
    values
        .chunks(n)
        .map(|row| {
            row.iter()
                .map(|&v| match v {
                    0.0 => ".",
                    1.0 => "#",
                    _ => "?",
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `diagram` with its rows trimmed, as [`plane`] writes them.
pub fn diagram(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asserts that plane `k` of `inputs` is `expected` (a diagram of `#`, `.`).
#[track_caller]
pub fn assert_plane(inputs: &Inputs, k: usize, expected: &str) {
    assert_eq!(
        plane(inputs, k),
        diagram(expected),
        "plane {k}:\n{}\nexpected\n{}",
        plane(inputs, k),
        diagram(expected)
    );
}

/// Asserts that plane `k` of `inputs` is all zero.
#[track_caller]
pub fn assert_empty(inputs: &Inputs, k: usize) {
    let n = inputs.size;
    assert!(
        inputs.spatial[k * n * n..(k + 1) * n * n]
            .iter()
            .all(|&v| v == 0.0),
        "plane {k} is not empty:\n{}",
        plane(inputs, k)
    );
}

/// An empty board of `size` with `ruleset`'s komi, black to move.
pub fn empty(size: u32, ruleset: Ruleset) -> Game {
    Game::new(BoardSize::new(size).expect("a size"), ruleset)
}
