//! `shoutan replay`, `shoutan score` and `shoutan sgf normalize` as a user
//! runs them: the built binary on small files written for each case, and
//! on the real records of `tests/data/sgf` at the workspace root.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A directory of its own for one test, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("shoutan-sgf-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        Scratch(dir)
    }

    fn file(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).expect("a scratch file");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn shoutan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shoutan"))
        .args(args)
        .output()
        .expect("the shoutan binary runs")
}

fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 output")
}

/// The records kept in the repository (see `tests/data/README.md`).
fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/sgf")
}

/// A 9×9 game ended by two passes: black owns columns A–D, white F–J, and a
/// white stone at B8 is dead in black's area (marked `TB`).
fn finished_game(root: &str, last: &str) -> String {
    let mut text = format!("(;GM[1]FF[4]SZ[9]{root}");
    for row in 'a'..='i' {
        text.push_str(&format!(";B[d{row}];W[e{row}]"));
    }
    text.push_str(&format!(";B[];W[bb];B[];W[]{last})"));
    text
}

#[test]
fn replay_one_record_shows_the_final_position_and_captures() {
    let dir = Scratch::new("replay-one");
    // Black captures the white stone in the corner.
    let file = dir.file(
        "capture.sgf",
        "(;GM[1]SZ[9]PB[柯洁]PW[AlphaGo]RU[Chinese]KM[7.5]RE[B+R];B[ba];W[aa];B[ab])",
    );
    let out = shoutan(&["replay", arg(&file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Black: 柯洁   White: AlphaGo"), "{text}");
    assert!(text.contains("Result: B+R (黑中盘胜)"), "{text}");
    assert!(text.contains(" 9  . X . . . . . . .  9"), "{text}");
    assert!(text.contains(" 8  X . . . . . . . .  8"), "{text}");
    assert!(
        text.contains("3 moves; white to play. Captures: black 1, white 0."),
        "{text}"
    );
}

#[test]
fn replay_stops_at_an_illegal_move_with_a_clear_message() {
    let dir = Scratch::new("replay-illegal");
    let file = dir.file("occupied.sgf", "(;GM[1]SZ[9];B[ee];W[dd];B[dd])");
    let out = shoutan(&["replay", arg(&file)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("move 3 (black D6): D6 is occupied"),
        "{}",
        stderr(&out)
    );
    // The position before the illegal move is shown.
    assert!(
        stdout(&out).contains("The position before move 3:"),
        "{}",
        stdout(&out)
    );
    assert!(
        stdout(&out).contains("2 moves; black to play."),
        "{}",
        stdout(&out)
    );
}

#[test]
fn replay_many_checks_every_file_and_fails_if_any_failed() {
    let dir = Scratch::new("replay-many");
    let good = dir.file("a.sgf", "(;SZ[9];B[ee];W[cc])");
    let bad = dir.file("b.sgf", "(;SZ[9];B[ee];W[ee])");
    let broken = dir.file("c.sgf", "(;SZ[9];B[ee]\n;W[cc");
    let collection = dir.file("d.sgf", "(;SZ[9];B[ee])(;SZ[9];B[aa])");
    let out = shoutan(&[
        "replay",
        arg(&good),
        arg(&bad),
        arg(&broken),
        arg(&collection),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("ok     ") && lines[0].contains("a.sgf  2 moves"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("FAIL   ") && lines[1].ends_with("move 2 (white E5): E5 is occupied"),
        "{text}"
    );
    assert!(
        lines[2].starts_with("ERROR  ")
            && lines[2]
                .ends_with("line 2, column 3: the value opened here is never closed with ']'"),
        "{text}"
    );
    assert!(
        lines[3].contains("d.sgf#1") && lines[4].contains("d.sgf#2"),
        "{text}"
    );
    assert_eq!(
        lines[5],
        "4 files, 4 games: 3 replayed, 1 with an illegal move, 1 unreadable; 0 warnings"
    );
    let out = shoutan(&["replay", "--fail-fast", arg(&good), arg(&bad), arg(&broken)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!stdout(&out).contains("c.sgf"), "{}", stdout(&out));
}

#[test]
fn replay_a_whole_library() {
    let data = data_dir();
    let out = shoutan(&["replay", arg(&data)]);
    assert!(out.status.success(), "{}", stdout(&out));
    let text = stdout(&out);
    let summary = text.lines().last().unwrap();
    assert!(
        summary.starts_with(
            "778 files, 778 games: 778 replayed, 0 with an illegal move, 0 unreadable;"
        ),
        "{summary}"
    );
}

#[test]
fn replay_under_other_rules() {
    let data = data_dir();
    let game = data.join("the-11th-computer-go-uec-cup/0015.sgf");
    let out = shoutan(&["replay", "--rules", "tromp-taylor", arg(&game)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("move 374 (")
            && stderr(&out).contains("repeats the position after move 371 (superko)"),
        "{}",
        stderr(&out)
    );
    let out = shoutan(&["replay", "--rules", "chinese", arg(&game)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = shoutan(&["replay", "--rules", "lasker", arg(&game)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown ruleset \"lasker\""),
        "{}",
        stderr(&out)
    );
}

#[test]
fn score_counts_and_compares_with_the_record() {
    let dir = Scratch::new("score");
    // Black 36 子 (the dead white stone's point included), white 45 子;
    // komi 7.5: white wins by 16.5 points = 8¼ 子.
    let file = dir.file(
        "counted.sgf",
        finished_game("RU[Chinese]KM[7.5]RE[W+16.5]", "TB[bb]"),
    );
    let out = shoutan(&["score", arg(&file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Rules: chinese (area counting)   Komi: 7.5"),
        "{text}"
    );
    assert!(
        text.contains("Dead stones (marked in the record): B8"),
        "{text}"
    );
    assert!(
        text.contains("Black: 36 子 (stones 9 + surrounded 27)"),
        "{text}"
    );
    assert!(
        text.contains("White: 45 子 (stones 9 + surrounded 36)"),
        "{text}"
    );
    assert!(text.contains("Black counts 36 子."), "{text}");
    assert!(text.contains("Result: 白胜8又1/4子   W+16.5"), "{text}");
    assert!(text.contains("Record: RE[W+16.5] — agrees"), "{text}");

    // Without the dead stone the count changes and no longer agrees.
    let out = shoutan(&["score", "--dead", "none", arg(&file)]);
    assert!(
        stdout(&out).contains("Record: RE[W+16.5] — same winner, different margin"),
        "{}",
        stdout(&out)
    );

    // Territory counting under other rules and komi.
    let out = shoutan(&["score", "--rules", "japanese", "--komi", "0.5", arg(&file)]);
    let text = stdout(&out);
    assert!(
        text.contains("Black: 28 目 (territory 27 + prisoners 1)"),
        "{text}"
    );
    assert!(
        text.contains("White: 36 目 (territory 36 + prisoners 0)"),
        "{text}"
    );
    assert!(text.contains("Result: 白胜8目半   W+8.5"), "{text}");
}

#[test]
fn score_json_is_the_documented_object() {
    let dir = Scratch::new("score-json");
    let file = dir.file(
        "counted.sgf",
        finished_game("RU[Chinese]KM[7.5]RE[W+16.5]", "TB[bb]"),
    );
    let out = shoutan(&["score", "--json", arg(&file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["ruleset"], "chinese");
    assert_eq!(json["counting"], "area");
    assert_eq!(json["komi"], 7.5);
    assert_eq!(json["moves"], 22);
    assert_eq!(json["dead_source"], "sgf");
    assert_eq!(json["dead"], serde_json::json!(["B8"]));
    assert_eq!(json["black"]["count"], 36);
    assert_eq!(json["white"]["count"], 45);
    assert_eq!(json["black"]["prisoners"], 1);
    assert_eq!(json["black_zi"], 36);
    assert_eq!(json["margin"], -16.5);
    assert_eq!(json["result"]["international"], "W+16.5");
    assert_eq!(json["result"]["chinese"], "白胜8又1/4子");
    assert_eq!(json["record_written"], "W+16.5");
    assert_eq!(json["agreement"], "agree");
}

#[test]
fn score_estimates_dead_stones_when_the_record_marks_none() {
    let dir = Scratch::new("score-auto");
    let file = dir.file(
        "unmarked.sgf",
        finished_game("RU[Chinese]KM[7.5]RE[W+16.5]", ""),
    );
    let out = shoutan(&["score", arg(&file)]);
    let text = stdout(&out);
    assert!(text.contains("Dead stones (estimated): B8"), "{text}");
    assert!(text.contains("Record: RE[W+16.5] — agrees"), "{text}");
}

#[test]
fn normalize_rewrites_a_fox_record_and_lists_the_repairs() {
    let dir = Scratch::new("normalize");
    // A Fox record in GB2312 without CA: komi in hundredths, Chinese
    // counting labelled Japanese, YuanYu byo-yomi, a [tt] pass.
    // 天地皆醉 in GBK.
    let mut bytes = b"(;GM[1]SZ[19]PB[".to_vec();
    bytes.extend_from_slice(b"\xcc\xec\xb5\xd8\xbd\xd4\xd7\xed");
    bytes.extend_from_slice(b"]KM[750]HA[0]RU[Japanese]RE[W+0.0]TM[60]TC[3]TT[30];B[pd];W[tt])");
    let file = dir.file("fox.sgf", &bytes);
    let out = shoutan(&["sgf", "normalize", arg(&file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "(;GM[1]FF[4]CA[UTF-8]SZ[19]\nPB[天地皆醉]KM[7.5]HA[0]RU[chinese-simple-ko]\nRE[W+]TM[60]OT[3x30 byo-yomi]\n;B[pd];W[])\n"
    );
    let warnings = stderr(&out);
    for expected in [
        "no CA[] and the text is not UTF-8; read as GBK",
        "KM[750] is Fox's komi in hundredths: 7.5 points",
        "RU[Japanese] on a Fox record with komi 7.5",
        "RE[W+0.0] read as 白胜",
        "TM[60]TC[3]TT[30] read as 1 min + 3×30s byo-yomi",
        "1 passes written [tt] rewritten as []",
    ] {
        assert!(warnings.contains(expected), "{expected}\n{warnings}");
    }
    // The normalized record reads without a single repair.
    let out_file = dir.0.join("clean.sgf");
    assert!(
        shoutan(&["sgf", "normalize", arg(&file), "-o", arg(&out_file)])
            .status
            .success()
    );
    let again = shoutan(&["sgf", "normalize", arg(&out_file)]);
    assert_eq!(stderr(&again), "");
    // In place.
    assert!(
        shoutan(&["sgf", "normalize", "--in-place", arg(&file)])
            .status
            .success()
    );
    assert_eq!(
        std::fs::read(&file).unwrap(),
        std::fs::read(&out_file).unwrap()
    );
}

#[test]
fn a_broken_file_is_an_error_with_line_and_column() {
    let dir = Scratch::new("broken");
    let file = dir.file("broken.sgf", "(;GM[1]SZ[19]\n;B[pd]\n;W");
    for command in [&["replay"][..], &["score"], &["sgf", "normalize"]] {
        let mut args = command.to_vec();
        args.push(arg(&file));
        let out = shoutan(&args);
        assert_eq!(out.status.code(), Some(1), "{command:?}");
        assert!(
            stderr(&out).contains("line 3, column 2: property W has no value"),
            "{command:?}: {}",
            stderr(&out)
        );
    }
}
