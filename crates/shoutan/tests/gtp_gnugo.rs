//! `shoutan gtp` against the real GNU Go through `shoutan match`: a few
//! 9×9 games under the Chinese rules; every game must end with a result
//! (a count, a resignation, or GNU Go's loss by superko, with either colour
//! — never an illegal move of ours or a broken engine), and every record
//! must replay legally under our rules.
//!
//! Needs `SHOUTAN_TEST_GNUGO` (the path of gnugo); skipped without it,
//! failing without it when `CI` is set.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a failed test

use std::path::PathBuf;
use std::process::Command;

use shoutan_rules::{Color, GameResult};
use shoutan_sgf::{ReplayOptions, read, replay};

const GAMES: usize = 3;

fn gnugo() -> Option<String> {
    shoutan_test_env::locate(shoutan_test_env::External::GnuGo)
}

#[test]
fn shoutan_plays_gnu_go_to_a_legal_result() {
    let Some(gnugo) = gnugo() else { return };
    let dir: PathBuf =
        std::env::temp_dir().join(format!("shoutan-gtp-gnugo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let shoutan = env!("CARGO_BIN_EXE_shoutan");
    let output = Command::new(shoutan)
        .args([
            "match",
            "--games",
            &GAMES.to_string(),
            "--size",
            "9",
            "--rules",
            "chinese",
        ])
        .args(["--komi", "7.5", "--sgf-dir"])
        .arg(&dir)
        .arg("--black")
        .arg(format!("{shoutan} gtp --level 3 --threads 1"))
        .arg("--white")
        .arg(format!("{gnugo} --mode gtp --chinese-rules --level 1"))
        .output()
        .expect("shoutan match runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "shoutan match failed:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("wins") && stdout.contains("95 % CI"),
        "no summary in:\n{stdout}"
    );

    for n in 1..=GAMES {
        let path = dir.join(format!("game-{n:03}.sgf"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file = read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let record = &file.collection.games[0];
        let replayed = replay(record, ReplayOptions::default())
            .unwrap_or_else(|e| panic!("game {n} does not replay legally: {e}"));
        let reason = replayed.info.comment.clone().unwrap_or_default();
        let result = replayed
            .info
            .result
            .unwrap_or_else(|| panic!("game {n} has no result ({reason})"));
        assert!(
            matches!(result, GameResult::Win { .. } | GameResult::Draw),
            "game {n} ended without a result: {result:?} ({reason})"
        );
        // Colours alternate game by game: GNU Go is the side its record
        // names so.
        let is_gnu_go =
            |name: &Option<String>| name.as_deref().is_some_and(|n| n.starts_with("GNU Go"));
        let gnu_go = if is_gnu_go(&replayed.info.black.name) {
            Color::Black
        } else {
            assert!(
                is_gnu_go(&replayed.info.white.name),
                "game {n}: which side is GNU Go?"
            );
            Color::White
        };
        // GNU Go knows simple ko only: now and then it repeats a position,
        // which the Chinese rules' superko forbids, and loses by it. Shoutan
        // never may.
        let gnu_go_broke_superko = reason
            .starts_with(&format!("{} played an illegal move", gnu_go.name()))
            && reason.ends_with("(superko)");
        assert!(
            reason.starts_with("counted") || reason.ends_with("resigned") || gnu_go_broke_superko,
            "game {n} did not end by counting, resignation or GNU Go's superko: {reason}"
        );
        if gnu_go_broke_superko {
            assert!(
                matches!(
                    result,
                    GameResult::Win { winner, .. } if winner == gnu_go.opponent()
                ),
                "game {n}: {result:?} ({reason})"
            );
        }
        assert!(
            replayed.moves > 10,
            "game {n} is too short to be a game: {} moves",
            replayed.moves
        );
        assert_eq!(replayed.game.size().get(), 9);
    }
    std::fs::remove_dir_all(&dir).expect("the records can be removed");
}
