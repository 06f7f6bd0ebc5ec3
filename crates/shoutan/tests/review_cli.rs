//! `shoutan review` as a user runs it: the built binary on a real record
//! of `tests/data/sgf`, with few playouts so that it is quick.

use std::path::Path;
use std::process::Command;

use shoutan_sgf::{ReplayOptions, read, replay};

#[test]
fn a_reviewed_record_replays_and_has_a_value_for_every_move() {
    let record = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/sgf/cgi-fox-go-server/0080.sgf");
    let out_dir = std::env::temp_dir().join(format!("shoutan-review-cli-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).expect("a scratch directory");
    let reviewed = out_dir.join("reviewed.sgf");
    let run = |args: &[&Path]| {
        Command::new(env!("CARGO_BIN_EXE_shoutan"))
            .args(args)
            .output()
            .expect("the shoutan binary runs")
    };
    let out = run(&[
        Path::new("review"),
        &record,
        Path::new("--visits"),
        Path::new("10"),
        Path::new("--threads"),
        Path::new("1"),
        Path::new("-o"),
        &reviewed,
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("biggest mistakes"), "{stderr}");

    let out = run(&[Path::new("replay"), &reviewed]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("53 moves"));

    let original = read(&std::fs::read(&record).expect("the record")).expect("readable");
    let file = read(&std::fs::read(&reviewed).expect("the review")).expect("readable");
    let _ = std::fs::remove_dir_all(&out_dir);
    let tree = &file.collection.games[0];
    let moves = replay(tree, ReplayOptions::default()).expect("replays");
    let before = replay(&original.collection.games[0], ReplayOptions::default()).expect("replays");
    assert_eq!(
        moves.game.turns(),
        before.game.turns(),
        "the main line is kept"
    );
    let mut valued = 0;
    for id in tree.main_line() {
        let node = tree.node(id);
        let winrate: f32 = node
            .simple_text("SBKV")
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no SBKV on {node:?}"));
        assert!((0.0..=100.0).contains(&winrate), "{winrate}");
        if node.has("B") || node.has("W") {
            valued += 1;
            let comment = node.text("C").unwrap_or_default();
            assert!(comment.contains("black wins"), "{comment}");
        }
    }
    assert_eq!(valued, 53, "a value for every move");
    assert!(
        tree.len() > original.collection.games[0].len(),
        "the engine's lines are added as variations"
    );
}
