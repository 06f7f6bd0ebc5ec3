//! Invariants of random games (proptest): no chain without liberties, the
//! incremental hash equals the hash of the same stones set up afresh, undo
//! restores exactly, area counts sum to the board.

#![allow(clippy::unwrap_used)] // test code

use proptest::prelude::*;
use shoutan_rules::{
    Board, BoardSize, Counting, Game, Move, Phase, PointSet, Ruleset, Score, count,
};

fn presets() -> impl Strategy<Value = Ruleset> {
    prop::sample::select(
        Ruleset::PRESETS
            .iter()
            .map(|(_, _, r)| *r)
            .collect::<Vec<_>>(),
    )
}

/// Plays up to `turns` random turns; a choice picks among legal points,
/// with a pass now and then.
fn random_game(size: BoardSize, rules: Ruleset, choices: &[u16]) -> Game {
    let mut game = Game::new(size, rules);
    for &choice in choices {
        if game.phase() != Phase::Play {
            break;
        }
        let legal = game.legal_points();
        let c = game.to_move();
        if legal.is_empty() || choice % 23 == 0 {
            game.pass(c).unwrap();
        } else {
            game.play(c, legal[usize::from(choice) % legal.len()])
                .unwrap();
        }
    }
    game
}

fn fresh(board: &Board) -> Board {
    let mut b = Board::new(board.size());
    b.set_stones(board.stones()).unwrap();
    b
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_games_keep_the_invariants(
        n in 3u32..=9,
        rules in presets(),
        choices in prop::collection::vec(any::<u16>(), 0..160),
    ) {
        let size = BoardSize::new(n).unwrap();
        let mut game = Game::new(size, rules);
        for &choice in &choices {
            if game.phase() != Phase::Play {
                break;
            }
            let before = (game.board().clone(), game.board().hash(), game.to_move(), game.turns().len());
            let legal = game.legal_points();
            let c = game.to_move();
            if legal.is_empty() || choice % 23 == 0 {
                game.pass(c).unwrap();
            } else {
                game.play(c, legal[usize::from(choice) % legal.len()]).unwrap();
            }
            let board = game.board();
            for p in size.points() {
                if board.get(p).is_some() {
                    prop_assert!(board.liberty_count(board.index(p)) > 0, "a chain without liberties");
                }
            }
            prop_assert_eq!(board.hash(), fresh(board).hash());
            if game.phase() == Phase::Play || game.phase() == Phase::Counting {
                let mut undone = game.clone();
                undone.undo().unwrap();
                prop_assert_eq!(
                    (undone.board().clone(), undone.board().hash(), undone.to_move(), undone.turns().len()),
                    before.clone()
                );
            }
        }
    }

    #[test]
    fn area_counts_sum_to_the_board(
        n in 3u32..=9,
        choices in prop::collection::vec(any::<u16>(), 0..120),
        dead_picks in prop::collection::vec(any::<u16>(), 0..4),
    ) {
        let size = BoardSize::new(n).unwrap();
        let game = random_game(size, Ruleset::CHINESE, &choices);
        let stones: Vec<_> = size.points().filter(|&p| game.board().get(p).is_some()).collect();
        let mut dead = PointSet::new(size);
        if !stones.is_empty() {
            for pick in dead_picks {
                dead.extend(game.marking_group(stones[usize::from(pick) % stones.len()]));
            }
        }
        let c = count(game.board(), &dead, &game.count_settings());
        prop_assert_eq!(c.counting, Counting::Area);
        prop_assert_eq!(c.black.count + c.white.count, Score::from_points(size.area() as i32));
        prop_assert_eq!(c.margin, c.black.count - c.white.count - game.komi());
    }

    #[test]
    fn replaying_the_turns_gives_the_same_game(
        n in 3u32..=9,
        rules in presets(),
        choices in prop::collection::vec(any::<u16>(), 0..120),
    ) {
        let size = BoardSize::new(n).unwrap();
        let game = random_game(size, rules, &choices);
        let mut again = Game::new(size, rules);
        for turn in game.turns() {
            let r = match turn.mv {
                Move::Play(p) => again.play(turn.color, p).map(|_| ()),
                Move::Pass => again.pass(turn.color).map(|_| ()),
            };
            prop_assert!(r.is_ok());
        }
        prop_assert_eq!(again.board(), game.board());
        prop_assert_eq!(again.phase(), game.phase());
        prop_assert_eq!(game.position_after(game.turns().len()), game.board().clone());
    }
}
