//! GTP conformance, command by command, errors included: what a controller
//! (GoGui, Sabaki, gogui-twogtp, KGS's kgsGtp) sends and what it must get
//! back. References are to the GTP 2 specification.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a failed test

use std::time::Duration;

use shoutan_engine::gtp::{COMMANDS, Session, SessionOptions, Strength};
use shoutan_engine::{Budget, EngineConfig};
use shoutan_rules::{Color, Phase, Point, Ruleset};

fn session() -> Session {
    Session::new(SessionOptions {
        ruleset: Ruleset::CHINESE,
        strength: Strength::Visits(30),
        engine: EngineConfig {
            threads: 1,
            max_nodes: 200_000,
            ..EngineConfig::default()
        },
    })
}

/// Sends a line and returns the full response text.
fn send(s: &mut Session, line: &str) -> String {
    s.handle(line)
        .unwrap_or_else(|| panic!("{line:?} got no response"))
}

/// The text of a successful response (`= text`), failing the test otherwise.
fn ok(s: &mut Session, line: &str) -> String {
    let r = send(s, line);
    assert!(r.starts_with('='), "{line:?} failed: {r:?}");
    assert!(
        r.ends_with("\n\n"),
        "{line:?}: a response ends with an empty line: {r:?}"
    );
    r.trim_start_matches(|c: char| c == '=' || c.is_ascii_digit())
        .trim()
        .to_owned()
}

/// The message of a failure (`? message`), failing the test otherwise.
fn fails(s: &mut Session, line: &str) -> String {
    let r = send(s, line);
    assert!(r.starts_with('?'), "{line:?} should fail: {r:?}");
    assert!(r.ends_with("\n\n"));
    r.trim_start_matches(|c: char| c == '?' || c.is_ascii_digit())
        .trim()
        .to_owned()
}

fn at(s: &Session, p: &str) -> Point {
    Point::from_gtp(p, s.game().size()).unwrap()
}

#[test]
fn ids_are_echoed_on_success_and_failure() {
    let mut s = session();
    assert_eq!(send(&mut s, "17 protocol_version"), "=17 2\n\n");
    assert_eq!(send(&mut s, "18 fly"), "?18 unknown command\n\n");
    assert!(send(&mut s, "19").starts_with("?19 syntax error"));
}

#[test]
fn empty_lines_and_comments_get_no_response() {
    let mut s = session();
    assert_eq!(s.handle(""), None);
    assert_eq!(s.handle("   "), None);
    assert_eq!(s.handle("# a comment"), None);
    assert_eq!(ok(&mut s, "name # with a comment"), "Shoutan");
}

#[test]
fn administrative_commands() {
    let mut s = session();
    assert_eq!(ok(&mut s, "protocol_version"), "2");
    assert_eq!(ok(&mut s, "name"), "Shoutan");
    assert_eq!(ok(&mut s, "version"), env!("CARGO_PKG_VERSION"));
    assert_eq!(ok(&mut s, "known_command genmove"), "true");
    assert_eq!(ok(&mut s, "known_command kgs-genmove_cleanup"), "true");
    assert_eq!(ok(&mut s, "known_command fly"), "false");
    let listed = ok(&mut s, "list_commands");
    let listed: Vec<&str> = listed.lines().collect();
    assert_eq!(listed, COMMANDS);
    assert!(fails(&mut s, "known_command").starts_with("syntax error"));
    assert!(fails(&mut s, "name twice").starts_with("syntax error"));
}

#[test]
fn quit_answers_then_ends() {
    let mut s = session();
    assert_eq!(send(&mut s, "quit"), "=\n\n");
    assert!(s.has_quit());
}

#[test]
fn boardsize_and_clear_board() {
    let mut s = session();
    ok(&mut s, "boardsize 9");
    assert_eq!(s.game().size().get(), 9);
    ok(&mut s, "play b E5");
    // §6.3.1: boardsize leaves the board empty; an unacceptable size fails.
    assert_eq!(fails(&mut s, "boardsize 26"), "unacceptable size");
    assert_eq!(fails(&mut s, "boardsize 1"), "unacceptable size");
    assert!(fails(&mut s, "boardsize nine").starts_with("syntax error"));
    assert_eq!(
        s.game().size().get(),
        9,
        "a refused boardsize changes nothing"
    );
    ok(&mut s, "clear_board");
    assert!(s.game().turns().is_empty());
    assert_eq!(s.game().board().stone_count(Color::Black), 0);
    ok(&mut s, "boardsize 25");
    ok(&mut s, "play w Z25");
}

#[test]
fn komi_is_set_and_checked() {
    let mut s = session();
    ok(&mut s, "komi 6.5");
    assert_eq!(s.game().komi().to_string(), "6.5");
    ok(&mut s, "komi 0");
    assert!(fails(&mut s, "komi seven").starts_with("syntax error"));
    assert!(fails(&mut s, "komi 7.25").starts_with("syntax error"));
    assert_eq!(s.game().komi().to_string(), "0");
}

#[test]
fn play_checks_every_rule() {
    let mut s = session();
    ok(&mut s, "boardsize 9");
    ok(&mut s, "play b D4");
    assert_eq!(fails(&mut s, "play w d4"), "illegal move: D4 is occupied");
    assert!(
        fails(&mut s, "play w K4").starts_with("invalid coordinate"),
        "K4 is off 9×9"
    );
    assert!(
        fails(&mut s, "play w I4").starts_with("syntax error"),
        "no letter I"
    );
    assert!(fails(&mut s, "play green D5").starts_with("syntax error"));
    assert!(fails(&mut s, "play w").starts_with("syntax error"));
    // GTP lets a colour play twice in a row.
    ok(&mut s, "play b E5");
    assert_eq!(s.game().turns().len(), 2);
    // Suicide (Art. 5) in the corner.
    for line in ["play w A2", "play w B1"] {
        ok(&mut s, line);
    }
    let err = fails(&mut s, "play b A1");
    assert!(
        err.starts_with("illegal move") && err.contains("suicide"),
        "{err}"
    );
    ok(&mut s, "play w pass");
    assert_eq!(s.game().turns().last().map(|t| t.color), Some(Color::White));
}

#[test]
fn an_immediate_ko_recapture_is_refused() {
    // A ko at the top edge (Art. 20: no immediate recapture).
    let mut s = session();
    ok(&mut s, "boardsize 9");
    //   . X O .      black B9, white C9
    //   X O . O      black A8, white B8, D8
    //   . X O .      black B7, white C7
    for line in [
        "play b B9",
        "play w C9",
        "play b A8",
        "play w B8",
        "play w D8",
        "play b B7",
        "play w C7",
    ] {
        ok(&mut s, line);
    }
    ok(&mut s, "play b C8"); // takes B8: a ko
    assert_eq!(s.game().board().captures(Color::Black), 1);
    let err = fails(&mut s, "play w B8");
    assert!(
        err.starts_with("illegal move") && err.contains("ko"),
        "{err}"
    );
}

#[test]
fn genmove_plays_a_legal_move_and_records_it() {
    let mut s = session();
    ok(&mut s, "boardsize 9");
    ok(&mut s, "play b E5");
    let answer = ok(&mut s, "genmove w");
    let p = at(&s, &answer);
    assert_eq!(s.game().board().get(p), Some(Color::White));
    assert_eq!(s.game().turns().len(), 2);
    assert!(fails(&mut s, "genmove purple").starts_with("syntax error"));
    // genmove for the player not to move is allowed (GTP §6.3.3).
    let again = ok(&mut s, "genmove w");
    assert!(
        again == "pass"
            || again == "resign"
            || s.game().board().get(at(&s, &again)) == Some(Color::White)
    );
}

#[test]
fn undo_takes_back_and_fails_when_nothing_is_left() {
    let mut s = session();
    ok(&mut s, "boardsize 9");
    assert_eq!(fails(&mut s, "undo"), "cannot undo");
    ok(&mut s, "play b C3");
    ok(&mut s, "play w G7");
    ok(&mut s, "undo");
    assert_eq!(s.game().turns().len(), 1);
    assert_eq!(s.game().board().get(at(&s, "G7")), None);
    ok(&mut s, "undo");
    assert_eq!(fails(&mut s, "undo"), "cannot undo");
}

#[test]
fn showboard_draws_the_position() {
    let mut s = session();
    ok(&mut s, "boardsize 9");
    ok(&mut s, "play b C3");
    let board = ok(&mut s, "showboard");
    assert!(board.contains("A B C D E F G H J"), "{board}");
    assert!(board.contains(" 3  . . X"), "{board}");
}

#[test]
fn fixed_handicap_follows_the_gtp_table() {
    let mut s = session();
    ok(&mut s, "boardsize 19");
    let points = ok(&mut s, "fixed_handicap 3");
    let mut got: Vec<&str> = points.split_whitespace().collect();
    got.sort_unstable();
    assert_eq!(got, ["D16", "D4", "Q16"]);
    assert_eq!(
        s.game().to_move(),
        Color::White,
        "white moves after the handicap"
    );
    assert_eq!(fails(&mut s, "fixed_handicap 2"), "board not empty");
    ok(&mut s, "clear_board");
    assert_eq!(
        fails(&mut s, "fixed_handicap 10"),
        "invalid number of stones"
    );
    assert_eq!(
        fails(&mut s, "fixed_handicap 1"),
        "invalid number of stones"
    );
    ok(&mut s, "boardsize 7");
    assert_eq!(
        fails(&mut s, "fixed_handicap 5"),
        "invalid number of stones"
    );
}

#[test]
fn free_handicap_placed_by_the_engine_or_the_controller() {
    let mut s = session();
    ok(&mut s, "boardsize 19");
    let placed = ok(&mut s, "place_free_handicap 12");
    let points: Vec<&str> = placed.split_whitespace().collect();
    assert_eq!(points.len(), 12);
    let mut distinct = points.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 12);
    assert_eq!(s.game().board().stone_count(Color::Black), 12);
    assert_eq!(fails(&mut s, "place_free_handicap 2"), "board not empty");

    ok(&mut s, "clear_board");
    assert_eq!(fails(&mut s, "set_free_handicap C3 C3"), "bad vertex list");
    assert_eq!(fails(&mut s, "set_free_handicap C3"), "bad vertex list");
    assert_eq!(fails(&mut s, "set_free_handicap C3 Z25"), "bad vertex list");
    assert!(fails(&mut s, "set_free_handicap").starts_with("syntax error"));
    ok(&mut s, "set_free_handicap C3 R17 K10");
    assert_eq!(s.game().board().stone_count(Color::Black), 3);
    assert_eq!(s.game().to_move(), Color::White);
}

/// A 9×9 position: black owns columns A–D, white F–J, the E column is dame,
/// and a white stone at B5 is dead inside black's area.
fn divided(s: &mut Session) {
    ok(s, "boardsize 9");
    ok(s, "komi 7.5");
    for row in 1..=9 {
        ok(s, &format!("play b D{row}"));
        ok(s, &format!("play w F{row}"));
    }
    ok(s, "play w B5");
}

#[test]
fn final_score_and_status_lists() {
    let mut s = session();
    divided(&mut s);
    // Area: black 36 (A–D) + 4.5 (half the E column), white 36 + 4.5; komi 7.5.
    assert_eq!(ok(&mut s, "final_score"), "W+7.5");
    assert_eq!(ok(&mut s, "final_status_list dead"), "B5");
    let alive = ok(&mut s, "final_status_list alive");
    assert!(
        alive.contains("D1") && alive.contains("F9") && !alive.contains("B5"),
        "{alive}"
    );
    assert_eq!(ok(&mut s, "final_status_list seki"), "");
    assert!(fails(&mut s, "final_status_list zombie").starts_with("syntax error"));
}

#[test]
fn time_commands() {
    let mut s = session();
    ok(&mut s, "time_settings 300 30 5");
    ok(&mut s, "time_settings 0 0 0");
    ok(&mut s, "kgs-time_settings byoyomi 60 10 3");
    ok(&mut s, "kgs-time_settings canadian 60 300 25");
    ok(&mut s, "kgs-time_settings absolute 600");
    ok(&mut s, "kgs-time_settings none");
    ok(&mut s, "time_left b 12.5 0");
    ok(&mut s, "time_left white 30 2");
    assert!(fails(&mut s, "time_settings 300 thirty 5").starts_with("syntax error"));
    assert!(fails(&mut s, "kgs-time_settings hourglass 5").starts_with("syntax error"));
    assert!(
        fails(&mut s, "kgs-time_settings canadian 600 0 25")
            .starts_with("syntax error: invalid time settings")
    );
    assert!(fails(&mut s, "time_left b 10").starts_with("syntax error"));
    assert!(fails(&mut s, "time_left x 10 0").starts_with("syntax error"));
}

#[test]
fn a_short_clock_makes_genmove_quick() {
    let mut s = Session::new(SessionOptions {
        strength: Strength::Time(Duration::from_secs(30)),
        engine: EngineConfig {
            threads: 1,
            max_nodes: 200_000,
            ..EngineConfig::default()
        },
        ..SessionOptions::default()
    });
    ok(&mut s, "boardsize 9");
    ok(&mut s, "kgs-time_settings byoyomi 0 1 1");
    ok(&mut s, "time_left b 1 1");
    let start = std::time::Instant::now();
    ok(&mut s, "genmove b");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "the clock overrides --time: {:?}",
        start.elapsed()
    );
}

#[test]
fn sgf_round_trip_through_loadsgf_and_printsgf() {
    let mut s = session();
    ok(&mut s, "boardsize 9");
    for line in ["play b E5", "play w C3", "play b G7"] {
        ok(&mut s, line);
    }
    let sgf = ok(&mut s, "printsgf");
    assert!(
        sgf.contains("SZ[9]") && sgf.contains(";B[ee]") && sgf.contains(";W[cg]"),
        "{sgf}"
    );

    let dir = std::env::temp_dir().join(format!("shoutan-gtp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.sgf");
    ok(&mut s, &format!("printsgf {}", file.display()));
    let mut other = session();
    ok(&mut other, &format!("loadsgf {}", file.display()));
    assert_eq!(other.game().board(), s.game().board());
    assert_eq!(other.game().to_move(), Color::White);
    // §6.3.6: the position before move 2.
    ok(&mut other, &format!("loadsgf {} 2", file.display()));
    assert_eq!(other.game().turns().len(), 1);
    assert!(fails(&mut other, "loadsgf /nonexistent/file.sgf").starts_with("cannot load file"));
    std::fs::write(dir.join("bad.sgf"), "this is not sgf").unwrap();
    assert!(
        fails(
            &mut other,
            &format!("loadsgf {}", dir.join("bad.sgf").display())
        )
        .starts_with("cannot load file")
    );
    assert!(fails(&mut other, "loadsgf").starts_with("syntax error"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn kgs_rules_switch_the_ruleset() {
    let mut s = session();
    ok(&mut s, "kgs-rules japanese");
    assert_eq!(*s.game().ruleset(), Ruleset::JAPANESE);
    ok(&mut s, "kgs-rules new_zealand");
    assert_eq!(*s.game().ruleset(), Ruleset::NEW_ZEALAND);
    assert!(fails(&mut s, "kgs-rules lasker").starts_with("unknown rules"));
    assert_eq!(*s.game().ruleset(), Ruleset::NEW_ZEALAND);
    ok(&mut s, "kgs-game_over");
}

#[test]
fn cleanup_genmove_captures_dead_stones() {
    // After both pass in the divided position, cleanup play takes the dead
    // white stone at B5 instead of passing.
    let mut s = session();
    divided(&mut s);
    ok(&mut s, "play b E1");
    ok(&mut s, "play w E2");
    ok(&mut s, "play b pass");
    ok(&mut s, "play w pass");
    assert_eq!(s.game().phase(), Phase::Counting);
    let mv = ok(&mut s, "kgs-genmove_cleanup b");
    assert!(
        ["A5", "B6", "B4", "C5"].contains(&mv.as_str()),
        "cleanup should attack B5, played {mv}"
    );
    assert_eq!(s.game().phase(), Phase::Play, "play resumed");
}

#[test]
fn live_analysis_in_the_leela_zero_format() {
    let mut s = session();
    s.set_analysis_budget(Budget::visits(40));
    ok(&mut s, "boardsize 9");
    let out = send(&mut s, "5 lz-analyze b 1");
    assert!(out.starts_with("=5\n"), "{out:?}");
    assert!(out.ends_with("\n\n"), "{out:?}");
    let info = out
        .lines()
        .find(|l| l.starts_with("info move"))
        .expect("an info line");
    for field in [
        " visits ",
        " winrate ",
        " prior ",
        " lcb ",
        " order 0 ",
        " pv ",
    ] {
        assert!(info.contains(field), "{field} missing in {info}");
    }
    let out = send(&mut s, "lz-genmove_analyze w 1");
    assert!(
        out.starts_with("=\n") && out.contains("\nplay ") && out.ends_with("\n\n"),
        "{out:?}"
    );
    assert_eq!(
        s.game().turns().len(),
        1,
        "lz-genmove_analyze plays its move"
    );
    assert!(fails(&mut s, "lz-analyze b wobble 3").starts_with("syntax error"));
}

#[test]
fn kata_raw_nn_answers_in_katagos_format() {
    let mut s = session();
    ok(&mut s, "boardsize 9");
    ok(&mut s, "play b E5");
    let out = ok(&mut s, "kata-raw-nn 0");
    let lines: Vec<&str> = out.lines().collect();
    let keys: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.chars().all(|c| c.is_ascii_alphabetic()))
        .collect();
    assert_eq!(
        keys,
        [
            "symmetry",
            "whiteWin",
            "whiteLoss",
            "noResult",
            "whiteLead",
            "whiteScoreSelfplay",
            "whiteScoreSelfplaySq",
            "varTimeLeft",
            "shorttermWinlossError",
            "shorttermScoreError",
            "policy",
            "policyPass",
            "whiteOwnership"
        ],
        "{out}"
    );
    let answer = shoutan_nn::RawNnAnswer::parse(&out, s.game().size()).unwrap();
    // E5 is taken: the only point without a probability.
    let e5 = s.game().size().offset(at(&s, "E5"));
    assert!(answer.policy[e5].is_none());
    assert_eq!(answer.policy.iter().filter(|p| p.is_none()).count(), 1);
    let total: f32 = answer.policy.iter().flatten().sum::<f32>() + answer.policy_pass.unwrap();
    assert!((total - 1.0).abs() < 1e-3, "{total}");
    assert!((answer.white_win + answer.white_loss + answer.no_result - 1.0).abs() < 1e-5);
    // Black's stone is black's: negative white ownership.
    assert!(
        answer.white_ownership[e5] < -0.5,
        "{}",
        answer.white_ownership[e5]
    );
    // Every symmetry, each its own block, and as the other player.
    let all = ok(&mut s, "kata-raw-nn all");
    assert_eq!(all.matches("symmetry ").count(), 8);
    let as_black = ok(&mut s, "kata-raw-nn b 3");
    assert!(as_black.starts_with("symmetry 3"), "{as_black}");
    assert!(fails(&mut s, "kata-raw-nn 8").starts_with("syntax error"));
    assert!(fails(&mut s, "kata-raw-nn").starts_with("syntax error"));
}

#[test]
fn kata_set_rules_reads_katagos_names_and_short_form() {
    let mut s = session();
    ok(&mut s, "boardsize 9");
    ok(&mut s, "play b E5");
    // KataGo's "chinese" has simple ko, unlike Shoutan's Chinese rules.
    ok(&mut s, "kata-set-rules chinese");
    assert!(matches!(
        s.game().ruleset().repetition,
        shoutan_rules::Repetition::SimpleKo { .. }
    ));
    assert_eq!(s.game().turns().len(), 1, "the game is kept");
    let rules = ok(&mut s, "kata-get-rules");
    assert_eq!(
        rules,
        r#"{"friendlyPassOk":true,"hasButton":false,"ko":"SIMPLE","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N"}"#
    );
    ok(&mut s, "kata-set-rules japanese");
    assert_eq!(
        s.game().ruleset().counting,
        shoutan_rules::Counting::Territory
    );
    ok(&mut s, "kata-set-rules koPOSITIONALscoreAREAtaxNONEsui1");
    assert_eq!(
        s.game().ruleset().repetition,
        shoutan_rules::Repetition::PositionalSuperko
    );
    assert!(ok(&mut s, "kata-get-rules").contains(r#""suicide":true"#));
    let refused = fails(&mut s, "kata-set-rules lasker");
    assert!(refused.contains("not a KataGo ruleset"), "{refused}");
}

#[test]
fn kata_analyze_reports_values_and_ownership_from_the_side_to_move() {
    let mut s = session();
    s.set_analysis_budget(Budget::visits(40));
    ok(&mut s, "boardsize 9");
    ok(&mut s, "play b E5");
    // An interval far longer than the 40 visits take: the search's result
    // is reported all the same when it ends.
    let out = send(&mut s, "7 kata-analyze interval 1000 ownership true");
    assert!(out.starts_with("=7\n") && out.ends_with("\n\n"), "{out:?}");
    let info = out
        .lines()
        .rfind(|l| l.starts_with("info move"))
        .expect("an info line");
    for field in [
        " visits ",
        " edgeVisits ",
        " utility ",
        " winrate ",
        " scoreMean ",
        " scoreStdev ",
        " scoreLead ",
        " scoreSelfplay ",
        " prior ",
        " lcb ",
        " utilityLcb ",
        " order 0 ",
        " pv ",
    ] {
        assert!(info.contains(field), "{field} missing in {info}");
    }
    let winrate: f32 = info
        .split(" winrate ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (0.0..=1.0).contains(&winrate),
        "a win rate from 0 to 1: {winrate}"
    );
    let ownership: Vec<f32> = info
        .split(" ownership ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(ownership.len(), 81);
    // White is to move: black's E5 is the other side's.
    let e5 = s.game().size().offset(at(&s, "E5"));
    assert!(ownership[e5] < -0.5, "{}", ownership[e5]);
    let out = send(&mut s, "kata-genmove_analyze w interval 10");
    assert!(out.contains("\nplay ") && out.ends_with("\n\n"), "{out:?}");
    assert_eq!(
        s.game().turns().len(),
        2,
        "kata-genmove_analyze plays its move"
    );
}
