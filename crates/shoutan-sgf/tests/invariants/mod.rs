//! What must hold for any bytes given to the reader, shared by the fuzz
//! target (`fuzz/fuzz_targets/sgf_parse.rs`) and the regression tests of
//! the inputs it found (`tests/fuzz_regressions.rs`).

use shoutan_sgf::{DeadStones, GameInfo, ReplayOptions, normalize, read, record, replay, score};

/// Reading never panics; what reads is written as text that reads back as
/// the same tree without a repair; a record that replays is written by
/// `record` as one that replays to the same game; normalized text reads.
pub fn check(bytes: &[u8]) {
    let Ok(file) = read(bytes) else { return };
    let written = file.collection.to_sgf();
    let again = read(written.as_bytes()).expect("the writer's output reads");
    assert_eq!(
        again.collection, file.collection,
        "read → write → read changed the tree"
    );
    assert!(
        again.warnings.is_empty(),
        "clean output needs repairs: {:?}",
        again.warnings
    );

    for tree in &file.collection.games {
        let _ = GameInfo::read(tree.root());
        let Ok(replayed) = replay(tree, ReplayOptions::default()) else {
            continue;
        };
        for dead in [DeadStones::Sgf, DeadStones::None] {
            let _ = score(&replayed, tree, dead, &|g| {
                shoutan_rules::PointSet::new(g.size())
            });
        }
        let rewritten = record(&replayed.game, &replayed.info);
        let back = read(rewritten.to_sgf().as_bytes()).expect("a record reads");
        let options = ReplayOptions {
            ruleset: Some(*replayed.game.ruleset()),
            ..ReplayOptions::default()
        };
        let back = replay(&back.collection.games[0], options).expect("a record replays");
        assert_eq!(back.game.board(), replayed.game.board());
        assert_eq!(back.game.komi(), replayed.game.komi());
        assert_eq!(back.game.handicap(), replayed.game.handicap());
        assert_eq!(back.game.turns(), replayed.game.turns());
    }

    let mut collection = file.collection;
    let _ = normalize(&mut collection);
    assert!(
        read(collection.to_sgf().as_bytes()).is_ok(),
        "normalized output reads"
    );
}
