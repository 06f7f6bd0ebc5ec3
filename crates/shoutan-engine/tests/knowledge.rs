//! The shipped move knowledge loads, has the size `shoutan train` printed,
//! and gives the figures the README documents on a fixed sample: the first
//! record of `tests/data/sgf/alphago-20` (AlphaGo against itself, 2017).

#![allow(clippy::unwrap_used)] // test code: unreadable test data is a test failure
use std::path::{Path, PathBuf};

use shoutan_engine::knowledge::{Judge, Knowledge, positions};
use shoutan_sgf::{ReplayOptions, read, replay};

fn record() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/sgf/alphago-20/0001.sgf")
}

#[test]
fn the_shipped_tables_rank_the_documented_share_of_a_fixed_record() {
    let knowledge = Knowledge::shipped();
    assert_eq!(knowledge.sizes(), (1973, 68857, 70893));
    let path = record();
    let file = read(&std::fs::read(path).unwrap()).unwrap();
    let game = replay(&file.collection.games[0], ReplayOptions::default())
        .unwrap()
        .game;
    let mut judge = Judge::default();
    let (mut n, mut top1, mut top5) = (0, 0, 0);
    positions(&game, |s, played| {
        n += 1;
        let rank = knowledge.rank(s, played, &mut judge).unwrap();
        top1 += usize::from(rank == 0);
        top5 += usize::from(rank < 5);
    });
    // README, "Computer player": 256 positions, top-1 80 (0.312), top-5 150.
    assert_eq!((n, top1, top5), (256, 80, 150));
}

#[test]
fn damaged_tables_are_refused_with_a_reason() {
    let bytes = Knowledge::shipped().to_bytes();
    assert!(Knowledge::from_bytes(&bytes).is_ok());
    assert_eq!(
        Knowledge::from_bytes(&bytes[..bytes.len() - 1])
            .unwrap_err()
            .to_string(),
        "the knowledge file is truncated"
    );
    let mut other = bytes.clone();
    other[0] = b'X';
    assert!(
        Knowledge::from_bytes(&other)
            .unwrap_err()
            .to_string()
            .contains("not a Shoutan knowledge file")
    );
    let mut extra = bytes;
    extra.push(0);
    assert!(
        Knowledge::from_bytes(&extra)
            .unwrap_err()
            .to_string()
            .contains("bytes after")
    );
}
