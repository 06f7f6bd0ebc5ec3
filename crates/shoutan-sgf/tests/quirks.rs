//! One small file per quirk of real records (`tests/quirks/`), written for
//! the purpose: what is read, and the warning that says what was repaired.
//! The facts come from docs/spec/formats.md and from the real records of
//! `tests/data/sgf`.

use std::path::Path;

use shoutan_rules::{Color, GameResult, Ruleset, Score, WinBy};
use shoutan_sgf::{
    GameInfo, ParseErrorKind, Position, Replay, ReplayOptions, ResultQuirk, SgfFile, Warning, read,
    replay,
};

fn file(name: &str) -> SgfFile {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/quirks")
        .join(name);
    read(&std::fs::read(&path).expect("a quirk file")).expect("a readable record")
}

fn replayed(name: &str) -> (SgfFile, Replay) {
    let f = file(name);
    let r = replay(&f.collection.games[0], ReplayOptions::default()).expect("a legal record");
    (f, r)
}

fn komi(text: &str) -> Option<Score> {
    Some(text.parse().expect("a komi"))
}

#[test]
fn fox_komi_in_hundredths_of_a_point() {
    // docs/spec/formats.md: Fox writes KM[750] for 7.5 points …
    let (_, r) = replayed("fox-komi-750.sgf");
    assert_eq!(r.game.komi().to_string(), "7.5");
    assert!(r.warnings.contains(&Warning::FoxKomi {
        written: "750".into(),
        komi: Score::from_half_points(15)
    }));
}

#[test]
fn fox_komi_in_hundredths_of_a_zi() {
    // … and KM[375] for 3.75 子 = 7.5 points.
    let (_, r) = replayed("fox-komi-375.sgf");
    assert_eq!(r.info.komi, komi("7.5"));
    assert_eq!(r.info.ruleset, Ruleset::CHINESE);
}

#[test]
fn fox_labels_chinese_counted_games_japanese() {
    let (_, r) = replayed("fox-komi-750.sgf");
    assert_eq!(r.info.rules_written.as_deref(), Some("Japanese"));
    assert_eq!(r.game.ruleset(), &Ruleset::CHINESE_SIMPLE_KO);
    assert!(
        r.warnings.iter().any(
            |w| matches!(w, Warning::FoxChineseRules { written, .. } if written == "Japanese")
        )
    );
}

#[test]
fn fox_zero_margin_is_a_win_for_an_unrecorded_reason() {
    // The game ends at move 3: RE[W+0.0] cannot be a count.
    let (_, r) = replayed("fox-zero-result.sgf");
    assert_eq!(
        r.info.result,
        Some(GameResult::Win {
            winner: Color::White,
            by: WinBy::Unknown
        })
    );
    assert!(r.warnings.iter().any(|w| matches!(
        w,
        Warning::NonstandardResult {
            quirk: ResultQuirk::FoxZeroMargin,
            ..
        }
    )));
}

#[test]
fn yuanyu_tygem_byo_yomi_properties() {
    // docs/spec/formats.md: TM[3600]TC[10]TT[60] = 1 hour, then 10 periods of 60 s.
    let (_, r) = replayed("yuanyu-byo-yomi.sgf");
    assert_eq!(r.info.time.unwrap().to_string(), "1h + 10×60s byo-yomi");
    assert!(
        r.warnings
            .iter()
            .any(|w| matches!(w, Warning::TimeProperties { .. }))
    );
}

#[test]
fn tom_files_give_komi_as_ko_and_byo_yomi_as_lt_lc() {
    let (_, r) = replayed("tom-ko-komi.sgf");
    assert_eq!(r.info.komi, komi("7.5"));
    assert_eq!(r.info.time.unwrap().to_string(), "1 min + 3×30s byo-yomi");
    assert!(
        r.warnings
            .iter()
            .any(|w| matches!(w, Warning::KomiFromKo { .. }))
    );
}

#[test]
fn tygem_zero_komi_in_an_even_game() {
    // docs/spec/formats.md: Tygem-derived files often say KM[0] for games played with
    // komi; a half-point result proves it here.
    let (_, r) = replayed("tygem-zero-komi.sgf");
    assert_eq!(r.info.komi, None);
    assert_eq!(r.game.komi().to_string(), "6.5");
    assert!(
        r.warnings
            .iter()
            .any(|w| matches!(w, Warning::ZeroKomi { .. }))
    );
}

#[test]
fn gb2312_declared() {
    let f = file("gb2312-declared.sgf");
    assert_eq!(f.encoding, "GBK");
    let (info, _) = GameInfo::read(f.collection.games[0].root()).unwrap();
    assert_eq!(info.black.name.as_deref(), Some("柯洁"));
    assert_eq!(info.event.as_deref(), Some("第二十届农心杯"));
    // The text is Unicode now: CA says so.
    assert_eq!(
        f.collection.games[0].root().simple_text("CA").as_deref(),
        Some("UTF-8")
    );
}

#[test]
fn gbk_undeclared() {
    let f = file("gbk-undeclared.sgf");
    assert_eq!(f.encoding, "GBK");
    let root = f.collection.games[0].root();
    assert_eq!(root.simple_text("PB").as_deref(), Some("天地皆醉"));
    assert_eq!(root.simple_text("PW").as_deref(), Some("隕石衝突"));
    assert!(
        f.warnings
            .iter()
            .any(|w| matches!(w, Warning::UndeclaredEncoding { .. }))
    );
}

#[test]
fn big5_declared() {
    let f = file("big5-declared.sgf");
    assert_eq!(f.encoding, "Big5");
    let root = f.collection.games[0].root();
    assert_eq!(root.simple_text("PB").as_deref(), Some("周俊勳"));
    assert_eq!(root.simple_text("EV").as_deref(), Some("應氏盃"));
}

#[test]
fn utf8_labelled_gb2312() {
    let f = file("utf8-labelled-gb2312.sgf");
    assert_eq!(f.encoding, "UTF-8");
    assert_eq!(
        f.collection.games[0].root().simple_text("PB").as_deref(),
        Some("柯洁")
    );
    assert!(
        f.warnings
            .iter()
            .any(|w| matches!(w, Warning::MislabelledEncoding { .. }))
    );
}

#[test]
fn a_name_cut_in_the_middle_of_a_character() {
    let f = file("utf8-cut-name.sgf");
    let root = f.collection.games[0].root();
    assert_eq!(root.simple_text("PB").as_deref(), Some("你若有\u{FFFD}"));
    assert_eq!(root.simple_text("BR").as_deref(), Some("9段"));
    assert!(f.warnings.contains(&Warning::InvalidBytes {
        encoding: "UTF-8".into()
    }));
}

#[test]
fn several_games_in_one_collection() {
    let f = file("several-games.sgf");
    let moves: Vec<usize> = f
        .collection
        .games
        .iter()
        .map(|g| replay(g, ReplayOptions::default()).unwrap().moves)
        .collect();
    assert_eq!(moves, [2, 1, 3]);
}

#[test]
fn line_breaks_and_spaces() {
    let (f, r) = replayed("line-breaks-and-spaces.sgf");
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    assert_eq!(r.moves, 3);
    let comment = f.collection.games[0].root().text("C").unwrap();
    assert_eq!(comment, "first line\nsecond linesame line");
}

#[test]
fn ff3_identifiers() {
    let (f, r) = replayed("ff3-identifiers.sgf");
    assert_eq!(r.game.handicap(), 2);
    assert_eq!(r.info.black.name.as_deref(), Some("Honinbo"));
    assert!(
        f.warnings
            .iter()
            .all(|w| matches!(w, Warning::LowercaseIdentifier { .. }))
    );
    assert_eq!(f.warnings.len(), 6);
}

#[test]
fn a_truncated_download_is_closed() {
    let (f, r) = replayed("truncated-download.sgf");
    assert_eq!(f.warnings, vec![Warning::UnclosedGameTree { missing: 1 }]);
    assert_eq!(r.moves, 4);
}

#[test]
fn tt_is_a_pass_on_19x19() {
    let (_, r) = replayed("tt-pass.sgf");
    assert_eq!(r.moves, 5);
    assert_eq!(r.game.board().stone_count(Color::Black), 2);
    assert_eq!(r.game.board().stone_count(Color::White), 0);
}

#[test]
fn two_moves_of_one_color() {
    let (_, r) = replayed("two-moves-of-one-color.sgf");
    assert_eq!(
        r.warnings,
        vec![Warning::OutOfTurn {
            number: 4,
            color: Color::Black
        }]
    );
    assert_eq!(r.moves, 5);
}

#[test]
fn handicap_stones_in_the_node_after_the_root() {
    let (_, r) = replayed("handicap-in-second-node.sgf");
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!(r.game.handicap(), 4);
    assert_eq!(r.game.board().stone_count(Color::Black), 5);
}

#[test]
fn tournament_results() {
    let f = file("uec-results.sgf");
    let results: Vec<(Option<String>, Option<ResultQuirk>)> = f
        .collection
        .games
        .iter()
        .map(|g| {
            let r = replay(g, ReplayOptions::default()).unwrap();
            let quirk = r.warnings.iter().find_map(|w| match w {
                Warning::NonstandardResult { quirk, .. } => Some(*quirk),
                _ => None,
            });
            (r.info.result.map(|x| x.chinese()), quirk)
        })
        .collect();
    assert_eq!(
        results,
        [
            (Some("黑判胜".into()), Some(ResultQuirk::Judgment)),
            (Some("白判胜".into()), Some(ResultQuirk::Violation)),
            (Some("黑胜".into()), Some(ResultQuirk::AgreedWinner)),
            (Some("和棋".into()), Some(ResultQuirk::DrawByJudgment)),
            (None, None),
            (None, None),
        ]
    );
}

#[test]
fn chinese_results() {
    let f = file("chinese-results.sgf");
    let international: Vec<String> = f
        .collection
        .games
        .iter()
        .map(|g| {
            GameInfo::read(g.root())
                .unwrap()
                .0
                .result
                .unwrap()
                .international()
        })
        .collect();
    assert_eq!(international, ["B+1.5", "W+R"]);
}

#[test]
fn a_broken_value_is_an_error_with_line_and_column() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/quirks/broken-value.sgf");
    let err = read(&std::fs::read(path).unwrap()).unwrap_err();
    // The value opened at line 3, column 3 is never closed.
    assert_eq!(err.kind, ParseErrorKind::UnclosedValue);
    assert_eq!(err.position, Position { line: 3, column: 3 });
}

#[test]
fn a_value_that_swallowed_the_next_move_is_a_bad_point() {
    let f = file("bad-move-value.sgf");
    let err = replay(&f.collection.games[0], ReplayOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "after move 2: B[pp;W[dp]: \"pp;W[dp\" is not an SGF point"
    );
}
