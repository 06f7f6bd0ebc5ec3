//! A [`Game`] of `shoutan-rules` to a record: game information, setup
//! stones, the moves, and for a counted game the territory (`TB`/`TW`) with
//! the dead stones under it, as CGoban, KGS and OGS write it.

use shoutan_rules::{Color, Game, Owner, Phase, Point, WinBy};

use crate::info::GameInfo;
use crate::points::{move_value, point_values};
use crate::tree::{GameTree, Node};

/// The record of a game: `info` for the players, event and time; the game
/// itself for the size, ruleset, komi, handicap, setup, moves and result
/// (the game's result wins over `info.result` when it has one).
///
/// ```
/// use shoutan_rules::{BoardSize, Color, Game, Point, Ruleset};
/// use shoutan_sgf::{GameInfo, ReplayOptions, read, record, replay};
/// let size = BoardSize::NINE;
/// let mut game = Game::new(size, Ruleset::CHINESE);
/// game.play(Color::Black, Point::from_gtp("E5", size).unwrap()).unwrap();
/// game.resign(Color::White).unwrap();
/// let mut info = GameInfo::new(size);
/// info.black.name = Some("柯洁".into());
/// let text = record(&game, &info).to_sgf();
/// assert!(text.starts_with("(;GM[1]FF[4]CA[UTF-8]AP[Shoutan:"));
/// assert!(text.contains("RE[B+R]") && text.contains(";B[ee]"));
///
/// let back = replay(&read(text.as_bytes()).unwrap().collection.games[0], ReplayOptions::default()).unwrap();
/// assert_eq!(back.game.board(), game.board());
/// assert_eq!(back.info.black.name.as_deref(), Some("柯洁"));
/// ```
#[must_use]
pub fn record(game: &Game, info: &GameInfo) -> GameTree {
    let mut info = info.clone();
    info.size = game.size();
    info.ruleset = *game.ruleset();
    info.komi = Some(game.komi());
    info.handicap = game.handicap();
    if let Some(result) = game.result() {
        info.result = Some(result);
    }
    info.application = Some(concat!("Shoutan:", env!("CARGO_PKG_VERSION")).to_owned());
    let mut root = Node::new();
    info.write(&mut root);
    let initial = game.initial_board();
    for (id, color) in [("AB", Color::Black), ("AW", Color::White)] {
        let stones: Vec<Point> = initial
            .stones()
            .filter(|&(_, s)| s == Some(color))
            .map(|(p, _)| p)
            .collect();
        if !stones.is_empty() {
            root.set_values(id, point_values(&stones));
        }
    }
    let first_mover = game.turns().first().map_or(game.to_move(), |t| t.color);
    if first_mover == Color::White {
        root.set_text("PL", "W");
    }
    let mut tree = GameTree::new(root);
    let mut last = GameTree::ROOT;
    for turn in game.turns() {
        let mut node = Node::new();
        let id = match turn.color {
            Color::Black => "B",
            Color::White => "W",
        };
        node.set_values(id, vec![move_value(turn.mv)]);
        last = tree.add_child(last, node);
    }
    let counted = game.phase() == Phase::Counting
        || matches!(
            game.result(),
            Some(shoutan_rules::GameResult::Win {
                by: WinBy::Score { .. },
                ..
            })
        );
    if counted {
        write_territory(game, tree.node_mut(last));
    }
    tree
}

/// `TB`/`TW`: each side's points that are not its own living stones —
/// empty points it surrounds and the opponent's dead stones.
fn write_territory(game: &Game, node: &mut Node) {
    let count = game.count();
    let board = game.board();
    for (id, color, owner) in [
        ("TB", Color::Black, Owner::Black),
        ("TW", Color::White, Owner::White),
    ] {
        let points: Vec<Point> = game
            .size()
            .points()
            .filter(|&p| count.owner(p) == owner)
            .filter(|&p| board.get(p) != Some(color) || count.dead.contains(p))
            .collect();
        if !points.is_empty() {
            node.set_values(id, point_values(&points));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DeadStones, ReplayOptions, read, replay, score};
    use shoutan_rules::{Board, BoardSize, Handicap, Point, Ruleset};

    fn back(game: &Game) -> crate::Replay {
        let text = record(game, &GameInfo::new(game.size())).to_sgf();
        let file = read(text.as_bytes()).unwrap();
        replay(&file.collection.games[0], ReplayOptions::default()).unwrap()
    }

    fn at(s: &str, size: BoardSize) -> Point {
        Point::from_gtp(s, size).unwrap()
    }

    #[test]
    fn a_handicap_game_reads_back() {
        let size = BoardSize::NINETEEN;
        let mut game = Game::builder(size)
            .ruleset(Ruleset::JAPANESE)
            .handicap(Handicap::Fixed(3))
            .build()
            .unwrap();
        game.play(Color::White, at("C3", size)).unwrap();
        game.resign(Color::Black).unwrap();
        let r = back(&game);
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        assert_eq!(r.game.handicap(), 3);
        assert_eq!(r.game.komi(), game.komi());
        assert_eq!(r.game.board(), game.board());
        assert_eq!(r.info.result, game.result());
    }

    #[test]
    fn a_set_up_position_reads_back_with_its_player_to_move() {
        let board: Board = "
            . X O . .
            X X O . .
            O O O . .
            . . . . .
            . . . . ."
            .parse()
            .unwrap();
        let game = Game::builder(board.size())
            .position(board.clone(), Color::White)
            .build()
            .unwrap();
        let r = back(&game);
        assert_eq!(r.game.board(), &board);
        assert_eq!(r.game.to_move(), Color::White);
    }

    #[test]
    fn a_counted_game_marks_territory_and_dead_stones() {
        // 5×5: black owns the left, white the right; a white stone at B4
        // in black's area is dead.
        let size = BoardSize::new(5).unwrap();
        let mut game = Game::new(size, Ruleset::CHINESE);
        for (b, w) in [
            ("C5", "D5"),
            ("C4", "D4"),
            ("C3", "D3"),
            ("C2", "D2"),
            ("C1", "D1"),
        ] {
            game.play(Color::Black, at(b, size)).unwrap();
            game.play(Color::White, at(w, size)).unwrap();
        }
        game.pass(Color::Black).unwrap();
        game.play(Color::White, at("B4", size)).unwrap();
        game.pass(Color::Black).unwrap();
        game.pass(Color::White).unwrap();
        game.toggle_dead(at("B4", size)).unwrap();
        game.accept(Color::Black).unwrap();
        // Black 15, white 10, komi 7.5: white by 2.5.
        let result = game.accept(Color::White).unwrap().unwrap();
        assert_eq!(result.international(), "W+2.5");

        let tree = record(&game, &GameInfo::new(size));
        let last = tree.node(tree.main_line_end());
        assert!(last.has("TB") && last.has("TW"));
        let file = read(tree.to_sgf().as_bytes()).unwrap();
        let tree = &file.collection.games[0];
        let r = replay(tree, ReplayOptions::default()).unwrap();
        let report = score(&r, tree, DeadStones::Sgf, &|g| {
            shoutan_rules::PointSet::new(g.size())
        })
        .unwrap();
        assert_eq!(report.dead, ["B4"]);
        assert_eq!(report.result.international, result.international());
        assert_eq!(report.agreement, crate::Agreement::Agree);
    }
}
