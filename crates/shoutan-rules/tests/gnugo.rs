//! Cross-check against the real GNU Go (`SHOUTAN_TEST_GNUGO`, the path of
//! `gnugo`): in random games on 9×9, 13×13 and 19×19, after every move the
//! set of legal points and the stones on the board must agree with GNU Go's
//! `all_legal` and `list_stones`, and the final area count of each
//! dame-filled position must agree with its `final_score` (Chinese rules).
//! Skipped, saying so, when the variable is unset; fails instead under CI.

#![allow(clippy::unwrap_used)] // test code: a broken pipe to GNU Go is a test failure

use shoutan_rules::{
    BoardSize, Color, Game, Phase, Point, PointSet, Repetition, Ruleset, Score, count,
};
use shoutan_test_env::Gtp;

fn gnugo_path() -> Option<String> {
    shoutan_test_env::locate(shoutan_test_env::External::GnuGo)
}

fn sorted_points(text: &str, size: BoardSize) -> Vec<Point> {
    let mut points: Vec<Point> = text
        .split_whitespace()
        .map(|v| Point::from_gtp(v, size).unwrap())
        .collect();
    points.sort();
    points
}

/// Plays one random game, checking every position against GNU Go; returns
/// whether the final count was compared.
fn cross_check_game(gnugo: &mut Gtp, size: BoardSize, rules: Ruleset, seed: u64) -> bool {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut game = Game::builder(size)
        .ruleset(rules)
        .komi(Score::ZERO)
        .build()
        .unwrap();
    gnugo.send(&format!("boardsize {}", size.get()));
    gnugo.send("clear_board");
    gnugo.send("komi 0");
    let mut moves = 0;
    while game.phase() == Phase::Play && moves < 3 * size.area() {
        let c = game.to_move();
        let mut ours = game.legal_points();
        ours.sort();
        let theirs = sorted_points(&gnugo.send(&format!("all_legal {}", c.name())), size);
        assert_eq!(
            ours,
            theirs,
            "legal points for {c} differ after {moves} moves (seed {seed})\n{}",
            game.board()
        );
        let board = game.board();
        let candidates: Vec<Point> = ours
            .iter()
            .copied()
            .filter(|&p| !board.is_eye(board.index(p), c))
            .collect();
        if candidates.is_empty() {
            game.pass(c).unwrap();
            gnugo.send(&format!("play {} pass", c.name()));
        } else {
            let p = candidates[rng.usize(..candidates.len())];
            game.play(c, p).unwrap();
            gnugo.send(&format!("play {} {}", c.name(), p.to_gtp(size)));
        }
        moves += 1;
        for color in Color::ALL {
            let mut ours: Vec<Point> = size
                .points()
                .filter(|&p| game.board().get(p) == Some(color))
                .collect();
            ours.sort();
            let theirs = sorted_points(&gnugo.send(&format!("list_stones {}", color.name())), size);
            assert_eq!(
                ours, theirs,
                "{color} stones differ after {moves} moves (seed {seed})"
            );
        }
    }
    if game.phase() != Phase::Counting {
        return false;
    }
    // GNU Go's final score removes what it judges dead; compare positions
    // where it judges every stone alive, as after a light playout they are.
    if !gnugo.send("final_status_list dead").is_empty() {
        return false;
    }
    let ours = count(game.board(), &PointSet::new(size), &game.count_settings());
    let theirs = gnugo.send("final_score");
    let expected = if ours.margin == Score::ZERO {
        "0".to_owned()
    } else if ours.margin > Score::ZERO {
        format!("B+{:.1}", ours.margin.points())
    } else {
        format!("W+{:.1}", -ours.margin.points())
    };
    assert_eq!(
        theirs,
        expected,
        "final score differs (seed {seed})\n{}",
        game.board()
    );
    true
}

fn run(args: &[&str], rules: Ruleset, games: &[(u32, u64)]) -> (usize, usize) {
    let Some(path) = gnugo_path() else {
        return (0, 0);
    };
    let mut gnugo = Gtp::start(&path, args);
    let mut compared = 0;
    let mut played = 0;
    for &(size, count) in games {
        let size = BoardSize::new(size).unwrap();
        for seed in 0..count {
            played += 1;
            compared += usize::from(cross_check_game(
                &mut gnugo,
                size,
                rules,
                seed * 7919 + u64::from(size.get()),
            ));
        }
    }
    println!("{played} games played, {compared} final counts compared");
    (played, compared)
}

#[test]
fn legality_boards_and_counts_agree_with_gnu_go_simple_ko() {
    let rules = Ruleset {
        repetition: Repetition::SimpleKo {
            cycle: shoutan_rules::CycleOutcome::NoResult,
        },
        ..Ruleset::CHINESE
    };
    let (played, compared) = run(&["--chinese-rules"], rules, &[(9, 80), (13, 40), (19, 20)]);
    if played > 0 {
        assert!(
            compared * 2 >= played,
            "only {compared} of {played} final counts compared"
        );
    }
}

#[test]
fn legality_boards_and_counts_agree_with_gnu_go_positional_superko() {
    let rules = Ruleset {
        repetition: Repetition::PositionalSuperko,
        ..Ruleset::CHINESE
    };
    let (played, compared) = run(
        &["--chinese-rules", "--positional-superko"],
        rules,
        &[(9, 40), (13, 15), (19, 5)],
    );
    if played > 0 {
        assert!(
            compared * 2 >= played,
            "only {compared} of {played} final counts compared"
        );
    }
}
