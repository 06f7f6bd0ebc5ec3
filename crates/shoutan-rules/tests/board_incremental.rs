//! The board's incremental bookkeeping (chains, packed pseudo-liberties,
//! neighbour counts, the empty-point list, captures, hash) against a board
//! rebuilt from the same stones, after random sequences of legal moves; and
//! the fused playout candidate test against the plain rules it stands for.

#![allow(clippy::unwrap_used)] // test code

use std::collections::BTreeSet;

use proptest::prelude::*;
use shoutan_rules::{Board, BoardError, BoardSize, Color, PointIndex, Suicide};

fn suicide_rules() -> impl Strategy<Value = Suicide> {
    prop::sample::select(vec![
        Suicide::Forbidden,
        Suicide::MultiStoneOnly,
        Suicide::Allowed,
    ])
}

fn rebuilt(board: &Board) -> Board {
    let mut b = Board::new(board.size());
    b.set_stones(board.stones()).unwrap();
    b
}

fn chain_set(board: &Board, i: PointIndex) -> BTreeSet<PointIndex> {
    board.chain(i).collect()
}

/// Everything the board can say about itself, compared point by point.
fn assert_same_bookkeeping(played: &Board, fresh: &Board) -> Result<(), TestCaseError> {
    prop_assert_eq!(played, fresh);
    prop_assert_eq!(played.hash(), fresh.hash());
    let empties: BTreeSet<_> = played.empty_points().iter().copied().collect();
    let fresh_empties: BTreeSet<_> = fresh.empty_points().iter().copied().collect();
    prop_assert_eq!(
        empties.len(),
        played.empty_points().len(),
        "an empty point listed twice"
    );
    prop_assert_eq!(empties, fresh_empties);
    for p in played.size().points() {
        let i = played.index(p);
        prop_assert_eq!(played.is_empty(i), fresh.is_empty(i));
        if played.stone(i).is_none() {
            continue;
        }
        let chain = chain_set(played, i);
        prop_assert_eq!(&chain, &chain_set(fresh, i));
        prop_assert_eq!(played.chain_len(i), chain.len());
        prop_assert!(
            chain
                .iter()
                .all(|&s| played.chain_id(s) == played.chain_id(i))
        );
        let libs: BTreeSet<_> = played.liberties(i).into_iter().collect();
        prop_assert!(!libs.is_empty(), "a chain without liberties at {:?}", p);
        prop_assert_eq!(played.liberty_count(i), libs.len());
        prop_assert_eq!(played.in_atari(i), libs.len() == 1);
        prop_assert_eq!(played.in_atari(i), fresh.in_atari(i));
        let only = (libs.len() == 1).then(|| *libs.iter().next().unwrap());
        prop_assert_eq!(played.atari_liberty(i), only);
        prop_assert_eq!(fresh.atari_liberty(i), only);
    }
    Ok(())
}

/// The fused candidate test equals "legal and not an own eye" everywhere.
fn assert_candidate_test(board: &Board, suicide: Suicide) -> Result<(), TestCaseError> {
    for &i in board.empty_points() {
        for c in Color::ALL {
            let plain = board.is_legal(i, c, suicide) && !board.is_eye(i, c);
            prop_assert_eq!(board.is_playable_non_eye(i, c, suicide), plain);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn incremental_board_equals_the_board_rebuilt_from_its_stones(
        n in prop::sample::select(vec![2u32, 3, 4, 5, 7, 9, 13, 19]),
        suicide in suicide_rules(),
        choices in prop::collection::vec(any::<u16>(), 0..400),
    ) {
        let size = BoardSize::new(n).unwrap();
        let mut board = Board::new(size);
        let mut to_move = Color::Black;
        let mut played = [0usize; 2];
        for (k, &choice) in choices.iter().enumerate() {
            let legal: Vec<_> = board
                .empty_points()
                .iter()
                .copied()
                .filter(|&i| board.is_legal(i, to_move, suicide))
                .collect();
            if legal.is_empty() || choice % 31 == 0 {
                board.clear_ko();
            } else {
                let i = legal[usize::from(choice) % legal.len()];
                let predicted = board.hash_after(i, to_move);
                let before = board.captures(to_move);
                let captured = board.play(i, to_move, suicide).unwrap();
                played[to_move.index()] += 1;
                prop_assert_eq!(board.hash(), predicted);
                prop_assert_eq!(board.captures(to_move), before + captured as u32);
                prop_assert_eq!(board.last_captured().len(), captured);
                if let Some((ko, banned)) = board.ko() {
                    prop_assert_eq!(banned, to_move.opponent());
                    prop_assert_eq!(board.check(ko, banned, suicide), Err(BoardError::Ko));
                }
            }
            // Stones on the board are the stones played less the prisoners
            // (a suicide's stones count as the opponent's prisoners).
            for c in Color::ALL {
                prop_assert_eq!(
                    board.stone_count(c),
                    played[c.index()] - board.captures(c.opponent()) as usize
                );
            }
            if k % 7 == 0 || k + 1 == choices.len() {
                assert_same_bookkeeping(&board, &rebuilt(&board))?;
                assert_candidate_test(&board, suicide)?;
            }
            to_move = to_move.opponent();
        }
    }
}
