//! `shoutan solve` as a user runs it: the built binary on a problem of
//! setup stones, its JSON answer's exact shape, the answer in words, and
//! bad input refused with a clear error.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Straight three (直三) in the corner, black to play:
///
/// ```text
///   A B C D E F G
/// 7 . . . O X . .
/// 6 O O O O X . .
/// 5 X X X X X . .
/// 4 . . . . . . .
/// ```
///
/// Black kills at the middle point B7; white lives by taking it.
const STRAIGHT_THREE: &str =
    "(;GM[1]FF[4]SZ[7]RU[Chinese]AW[da][ab][bb][cb][db]AB[ea][eb][ac][bc][cc][dc][ec]PL[B])";

/// The same corner as a record: white takes the vital point B7 first, then
/// black plays elsewhere (F1). Solved after the setup (move 0) and at the
/// record's end.
const PLAYED: &str = "(;GM[1]FF[4]SZ[7]RU[Chinese]AW[da][ab][bb][cb][db]AB[ea][eb][ac][bc][cc][dc][ec]PL[W];W[ba];B[fg])";

/// Seki without eyes (无眼双活), black to play: white's group (C7…C1,
/// D5…D1) and black's column E7…E1 share the liberties D7 and D6, and
/// whoever fills one is captured; the walls at the sides live.
///
/// ```text
///   A B C D E F G
/// 7 . X O . X O .
/// 6 X X O . X O O
/// 5 . X O O X O .
/// 4 X X O O X O O
/// 3 . X O O X O .
/// 2 X X O O X O O
/// 1 . X O O X O .
/// ```
const SEKI: &str = "(;GM[1]FF[4]SZ[7]RU[Chinese]\
    AB[ba][ea][ab][bb][eb][bc][ec][ad][bd][ed][be][ee][af][bf][ef][bg][eg]\
    AW[ca][fa][cb][fb][gb][cc][dc][fc][cd][dd][fd][gd][ce][de][fe][cf][df][ff][gf][cg][dg][fg]PL[B])";

/// Bent four in the corner (盘角曲四), black to play:
///
/// ```text
///   A B C D E
/// 7 . . O X .
/// 6 . O O X .
/// 5 . O X X .
/// 4 O O X . .
/// 3 X X X . .
/// ```
///
/// Black A6, white A7, and black's capture at B7 starts a ko in which
/// white must find the first threat.
const BENT_FOUR: &str = "(;GM[1]FF[4]SZ[7]RU[Chinese]AW[ca][bb][cb][bc][ad][bd]AB[da][db][cc][dc][cd][ae][be][ce]PL[B])";

/// The ten-thousand-year ko (万年劫), black to play: white's group and
/// black's three stones share D2 and reach A1 and A2; whoever starts the
/// ko lets the other side take first, and white may fill A2 for seki.
///
/// ```text
///   A B C D E F
/// 4 X X X X X X
/// 3 O O O O O X
/// 2 . O X . O X
/// 1 . X X O O X
/// ```
const TEN_THOUSAND_YEARS: &str = "(;GM[1]FF[4]SZ[9]RU[Chinese]\
    AB[af][bf][cf][df][ef][ff][fg][ch][fh][bi][ci][fi]\
    AW[ag][bg][cg][dg][eg][bh][eh][di][ei]PL[B])";

fn problem(name: &str, sgf: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shoutan-solve-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path = dir.join(name);
    std::fs::write(&path, sgf).expect("the problem written");
    path
}

fn solve(file: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shoutan"))
        .arg("solve")
        .arg(file)
        .args(args)
        .output()
        .expect("the shoutan binary runs")
}

/// The answer in words of a run that succeeded.
fn words(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn the_json_answer_has_exactly_the_documented_fields() {
    let file = problem("three.sgf", STRAIGHT_THREE);
    let answer = json(&solve(&file, &["--group", "D7", "--json"]));
    let mut keys: Vec<&str> = answer
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        ["group", "kill", "live", "ms", "nodes", "to_kill", "to_live"]
    );
    assert_eq!(answer["group"], "D7");
    assert_eq!(answer["to_kill"], "win");
    assert_eq!(answer["kill"], serde_json::json!(["B7"]));
    assert_eq!(answer["to_live"], "win");
    assert_eq!(answer["live"], serde_json::json!(["B7"]));
    assert!(answer["nodes"].as_u64().is_some_and(|n| n > 0), "{answer}");
    assert!(answer["ms"].is_u64(), "{answer}");
}

#[test]
fn a_position_of_the_record_is_solved_after_the_moves_asked_for() {
    let file = problem("played.sgf", PLAYED);
    // After the setup: white to play has not yet moved; the answers are
    // the straight three's.
    let before = json(&solve(&file, &["--group", "D7", "--move", "0", "--json"]));
    assert_eq!(before["kill"], serde_json::json!(["B7"]));
    // White took the vital point B7: the group lives whoever moves.
    let after = json(&solve(&file, &["--group", "D7", "--json"]));
    assert_eq!(after["to_kill"], "lose", "{after}");
    assert_eq!(after["kill"], serde_json::json!([]));
    assert_eq!(after["to_live"], "win", "{after}");
}

#[test]
fn the_answer_in_words_names_the_moves_in_both_languages() {
    let file = problem("three-words.sgf", STRAIGHT_THREE);
    let text = words(&solve(&file, &["--group", "D7"]));
    assert!(text.contains("The white group at D7 (5 stones)"), "{text}");
    assert!(
        text.contains("Black to play kills it: yes, by B7"),
        "{text}"
    );
    assert!(
        text.contains("白棋D7一块（5子）：黑先净杀（B7）；白先净活（B7）"),
        "{text}"
    );
}

#[test]
fn a_ko_is_told_with_the_side_that_must_find_threats() {
    let file = problem("bent-four.sgf", BENT_FOUR);
    let answer = json(&solve(&file, &["--group", "C7", "--json"]));
    assert_eq!(answer["to_kill"], "ko", "{answer}");
    assert_eq!(answer["kill"], serde_json::json!(["A6"]));
    let text = words(&solve(&file, &["--group", "C7"]));
    assert!(
        text.contains(
            "Black to play kills it: only by a ko, started by A6 \
             (a direct ko: White must find the first ko threat)"
        ),
        "{text}"
    );
    assert!(
        text.contains("黑先劫杀（A6），紧劫，白方先找劫材"),
        "{text}"
    );
}

#[test]
fn a_ten_thousand_year_ko_is_named() {
    let file = problem("ten-thousand-years.sgf", TEN_THOUSAND_YEARS);
    let args = ["--group", "D1", "--region", "A1:E3"];
    let answer = json(&solve(&file, &[&args[..], &["--json"]].concat()));
    assert_eq!(answer["to_kill"], "ko", "{answer}");
    assert_eq!(answer["to_live"], "seki", "{answer}");
    assert_eq!(answer["live"], serde_json::json!(["A2"]));
    let text = words(&solve(&file, &args));
    assert!(
        text.contains("A ten-thousand-year ko (万年劫): left alone the group lives in seki"),
        "{text}"
    );
    assert!(
        text.contains("黑先劫杀（A2），紧劫，黑方先找劫材；白先双活（A2）"),
        "{text}"
    );
}

#[test]
fn a_group_in_seki_is_told_apart_from_a_living_one() {
    let file = problem("seki.sgf", SEKI);
    let answer = json(&solve(&file, &["--group", "C7", "--json"]));
    // Black cannot kill; white keeps the group only in seki, by not moving.
    assert_eq!(answer["to_kill"], "lose", "{answer}");
    assert_eq!(answer["kill"], serde_json::json!([]));
    assert_eq!(answer["to_live"], "seki", "{answer}");
    assert_eq!(answer["live"], serde_json::json!(["pass"]));
    let text = words(&solve(&file, &["--group", "C7"]));
    assert!(
        text.contains("White to play saves it: only in seki, by pass"),
        "{text}"
    );
    assert!(text.contains("黑先杀不掉；白先双活（pass）"), "{text}");
}

#[test]
fn bad_input_gets_a_clear_error_and_no_answer() {
    let file = problem("three-bad.sgf", STRAIGHT_THREE);
    for (args, says) in [
        (&["--group", "F2"][..], "there is no stone there"),
        (&["--group", "Z9"][..], "--group"),
        (
            &["--group", "D7", "--region", "A1:B2"][..],
            "the region does not contain the whole target group",
        ),
        (&["--group", "D7", "--region", "A7"][..], "two corners"),
        (
            &["--group", "D7", "--move", "3"][..],
            "the main line has 0 moves",
        ),
    ] {
        let out = solve(&file, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} was answered");
        assert!(out.stdout.is_empty(), "{args:?}: no answer printed");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let broken = problem("broken.sgf", "(;GM[1]SZ[7]AB[zz]");
    let out = solve(&broken, &["--group", "A1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken.sgf"));
}
