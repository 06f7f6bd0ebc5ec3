//! `shoutan tournament …` end to end: the built binary on a temporary
//! directory, as an organiser would run it.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("shoutan-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }

    fn path(&self, f: &str) -> PathBuf {
        self.0.join(f)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn shoutan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shoutan"))
        .arg("tournament")
        .args(args)
        .output()
        .unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = shoutan(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs a command that must fail, and checks that the file did not change.
fn refused(file: &Path, args: &[&str], message: &str) {
    let before = std::fs::read(file).unwrap();
    let out = shoutan(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(message), "{args:?}: {err}");
    assert_eq!(
        std::fs::read(file).unwrap(),
        before,
        "{args:?} changed the file"
    );
}

#[test]
fn an_organiser_runs_a_swiss_event() {
    let d = Dir::new("swiss");
    let ev = d.path("open.json");
    let ev = ev.to_str().unwrap();
    let csv = d.path("players.csv");
    std::fs::write(&csv, "name,rank,rating,club,country\nLi Wei,5d,2500,Beijing,CN\nAnna Berg,3d,2300,Oslo,NO\nJan Novak,2d,2200,Praha,CZ\nKim Soo,1d,2100,Seoul,KR\nTom Lee,1k,2000,London,GB\n").unwrap();
    ok(&[
        "new",
        ev,
        "--name",
        "Spring Open",
        "--system",
        "swiss",
        "--rounds",
        "3",
        "--seed",
        "7",
        "--place",
        "Prague",
        "--dates",
        "2026-05-01",
    ]);
    assert!(ok(&["players", "import", ev, csv.to_str().unwrap()]).contains("5 players registered"));
    assert!(
        ok(&[
            "players", "add", ev, "--name", "Eva Kral", "--rank", "2k", "--club", "Brno"
        ])
        .contains("player 6")
    );
    let r1 = ok(&["pair", ev]);
    assert!(r1.contains("round 1") && r1.contains("Li Wei (5d)"), "{r1}");
    for table in ["1", "2", "3"] {
        ok(&["result", ev, "--table", table, "B+"]);
    }
    ok(&["warn", ev, "--round", "1", "--table", "1", "Li Wei"]);
    ok(&[
        "note",
        ev,
        "Table 2 started 5 minutes late",
        "--round",
        "1",
        "--table",
        "2",
    ]);
    ok(&["pair", ev]);
    ok(&[
        "ruling",
        ev,
        "--table",
        "1",
        "forfeit-white",
        "--reason",
        "no show",
    ]);
    ok(&["result", ev, "--table", "2", "W+R"]);
    ok(&["result", ev, "--table", "3", "draw"]);
    ok(&["withdraw", ev, "Tom Lee"]);
    let r3 = ok(&["pair", ev]);
    assert!(!r3.contains("Tom Lee"), "{r3}");
    let standings = ok(&["standings", ev, "--after", "2"]);
    assert!(
        standings.contains("standings after round 2") && standings.contains("Tom Lee (withdrawn)"),
        "{standings}"
    );
    let show = ok(&["show", ev]);
    assert!(
        show.contains("no show") && show.contains("5 minutes late"),
        "{show}"
    );

    for (format, needle) in [
        ("opengotha", "dataVersion=\"201\""),
        ("h9", "; EV[Spring Open]"),
        ("trf", "012 Spring Open"),
        ("html", "<!DOCTYPE html>"),
        ("md", "| Pl |"),
    ] {
        let out = d.path(&format!("out.{format}"));
        ok(&[
            "export",
            ev,
            "--format",
            format,
            "--output",
            out.to_str().unwrap(),
        ]);
        assert!(
            std::fs::read_to_string(&out).unwrap().contains(needle),
            "{format}"
        );
    }
    let copy = d.path("copy.json");
    ok(&[
        "import",
        d.path("out.opengotha").to_str().unwrap(),
        copy.to_str().unwrap(),
    ]);
    assert!(ok(&["players", "list", copy.to_str().unwrap()]).contains("Eva Kral"));
}

#[test]
fn every_mistake_is_refused_and_changes_nothing() {
    let d = Dir::new("mistakes");
    let ev = d.path("cup.json");
    let e = ev.to_str().unwrap();
    ok(&[
        "new",
        e,
        "--name",
        "Cup",
        "--system",
        "round-robin",
        "--seed",
        "1",
    ]);
    refused(
        &ev,
        &[
            "new", e, "--name", "Again", "--system", "swiss", "--rounds", "3",
        ],
        "exists",
    );
    for (name, rank) in [("A", "3d"), ("B", "2d"), ("C", "1d"), ("D", "1k")] {
        ok(&["players", "add", e, "--name", name, "--rank", rank]);
    }
    refused(
        &ev,
        &["players", "add", e, "--name", "A"],
        "already registered",
    );
    refused(
        &ev,
        &["players", "add", e, "--name", "X", "--rank", "12d"],
        "is not a rank",
    );
    refused(
        &ev,
        &["result", e, "--table", "1", "B+"],
        "no round has been paired",
    );
    refused(&ev, &["pair", e, "--round", "2"], "the next round is 1");
    ok(&["pair", e]);
    refused(&ev, &["pair", e, "--round", "1"], "already paired");
    refused(&ev, &["pair", e], "without a result");
    refused(&ev, &["result", e, "--table", "7", "B+"], "has no table 7");
    refused(
        &ev,
        &["result", e, "--round", "2", "--table", "1", "B+"],
        "round 2 has not been paired",
    );
    refused(
        &ev,
        &["result", e, "--table", "1", "B++"],
        "is not a result",
    );
    refused(&ev, &["withdraw", e, "Nobody"], "no player \"Nobody\"");
    refused(&ev, &["warn", e, "--table", "1", "Nobody"], "no player");
    refused(
        &ev,
        &["ruling", e, "--table", "1", "banish"],
        "unknown ruling",
    );
    refused(
        &ev,
        &["players", "add", e, "--name", "Late", "--rank", "1d"],
        "no longer be added",
    );
    let bad_csv = d.path("bad.csv");
    std::fs::write(&bad_csv, "name,rank\nGood,1d\nBad,99k\n").unwrap();
    refused(
        &ev,
        &["players", "import", e, bad_csv.to_str().unwrap()],
        "line 3",
    );
    std::fs::write(&ev, "{ not json").unwrap();
    refused(&ev, &["pair", e], "cup.json");
}

#[test]
fn a_team_event() {
    let d = Dir::new("teams");
    let ev = d.path("league.json");
    let e = ev.to_str().unwrap();
    ok(&[
        "new",
        e,
        "--name",
        "League",
        "--system",
        "round-robin",
        "--cycles",
        "2",
        "--boards",
        "2",
        "--lineup",
        "per-match",
        // The old spelling of --colors.
        "--colours",
        "balanced",
        "--seed",
        "4",
    ]);
    for name in ["x1", "x2", "x3", "y1", "y2"] {
        ok(&["players", "add", e, "--name", name, "--rank", "1d"]);
    }
    ok(&["teams", "add", e, "--name", "X", "--members", "x1,x2,x3"]);
    ok(&["teams", "add", e, "--name", "Y", "--members", "y1,y2"]);
    refused(
        &ev,
        &["teams", "add", e, "--name", "Z", "--members", "x1"],
        "1 members for 2 boards",
    );
    ok(&["pair", e]);
    ok(&[
        "lineup",
        e,
        "--round",
        "1",
        "--team",
        "X",
        "--players",
        "x3,x1",
    ]);
    refused(
        &ev,
        &[
            "lineup",
            e,
            "--round",
            "1",
            "--team",
            "X",
            "--players",
            "x3,y1",
        ],
        "not in the team",
    );
    ok(&["result", e, "--table", "1", "B+"]);
    ok(&["result", e, "--table", "2", "B+"]);
    let s = ok(&["standings", e]);
    assert!(s.contains("| B1 | B2 |"), "{s}");
}

#[test]
fn an_all_play_all_match_between_two_teams() {
    let d = Dir::new("all-play-all");
    let ev = d.path("match.json");
    let e = ev.to_str().unwrap();
    ok(&[
        "new",
        e,
        "--name",
        "Friendship match",
        "--system",
        "round-robin",
        "--boards",
        "2",
        "--team-format",
        "all-play-all",
        "--seed",
        "3",
    ]);
    assert!(ok(&["show", e]).contains("- teams: all-play-all (2 players a side)"));
    for name in ["x1", "x2", "y1", "y2"] {
        ok(&["players", "add", e, "--name", name, "--rank", "1d"]);
    }
    ok(&["teams", "add", e, "--name", "X", "--members", "x1,x2"]);
    refused(
        &ev,
        &["teams", "add", e, "--name", "Z", "--members", "x1"],
        "1 members for 2 players a side",
    );
    ok(&["teams", "add", e, "--name", "Y", "--members", "y1,y2"]);
    // One match of four games over two rounds of the match.
    let pairing = ok(&["pair", e]);
    assert!(
        pairing.contains("| 1 (match 1, match round 1, board 1) | x1 (1d) | y1 (1d) |")
            && pairing.contains("| 3 (match 1, match round 2, board 1) | y2 (1d) | x1 (1d) |")
            && pairing.contains("| 4 (match 1, match round 2, board 2) | y1 (1d) | x2 (1d) |"),
        "{pairing}"
    );
    refused(
        &ev,
        &[
            "lineup",
            e,
            "--round",
            "1",
            "--team",
            "X",
            "--players",
            "x2,x1",
        ],
        "all-play-all",
    );
    ok(&["result", e, "--table", "1", "B+"]); // x1 beats y1
    ok(&["result", e, "--table", "2", "W+"]); // y2 beats x2
    // Y leaves: its two games still to play are forfeits, X wins 6–2.
    assert!(ok(&["withdraw", e, "Y"]).contains("Y withdrawn"));
    let s = ok(&["standings", e]);
    assert!(
        s.contains("| POINTS | BOARD-POINTS | B1 | B2 |")
            && s.contains("| 1 | X |  |  | 2 | 6 | 4 | 2 |")
            && s.contains("| 2 | Y (withdrawn) |  |  | 0 | 2 | 0 | 2 |"),
        "{s}"
    );
    refused(
        &ev,
        &["export", e, "--format", "trf"],
        "TRF-16 is for individual events",
    );
    refused(&ev, &["pair", e], "all 1 rounds are paired");
}

#[test]
fn a_team_total_score_swiss() {
    let d = Dir::new("total-score");
    let ev = d.path("schools.json");
    let e = ev.to_str().unwrap();
    ok(&[
        "new",
        e,
        "--name",
        "Schools cup",
        "--system",
        "swiss",
        "--rounds",
        "2",
        "--boards",
        "2",
        "--team-format",
        "total-score",
        "--avoid-teammates",
        "--seed",
        "9",
    ]);
    let csv = d.path("players.csv");
    // Seeded by rank, round 1 would pair A1–A2 and B1–B2 (slide) without
    // the teammate rule.
    std::fs::write(
        &csv,
        "name,rank,team\nA1,6d,Alpha\nB1,5d,Beta\nA2,4d,Alpha\nB2,3d,Beta\n",
    )
    .unwrap();
    assert!(ok(&["players", "import", e, csv.to_str().unwrap()]).contains("4 players registered"));
    let r1 = ok(&["pair", e]);
    for line in r1
        .lines()
        .filter(|l| l.starts_with("| 1 ") || l.starts_with("| 2 "))
    {
        let alpha = line.matches("| A").count();
        assert_eq!(alpha, 1, "teammates paired: {line}\n{r1}");
    }
    ok(&["result", e, "--table", "1", "B+"]);
    ok(&["result", e, "--table", "2", "B+"]);
    ok(&["pair", e]);
    ok(&["result", e, "--table", "1", "W+"]);
    ok(&["result", e, "--table", "2", "W+"]);
    // By hand: round 1 A1–B1, B2–A2 (black wins); round 2 A1–B2, A2–B1
    // (white wins): A1 2, A2 0, B1 2, B2 4. Totals (points + SOS ÷ 2 − 2):
    // A1 3, B2 3, B1 1, A2 1. Beta 6 points, Σ total 4, best place 1=.
    let s = ok(&["standings", e]);
    assert!(
        s.contains("## Schools cup — team standings after round 2")
            && s.contains("| Pl | Team | Members | POINTS | TOTAL | WARNINGS | BEST |")
            && s.contains("| 1 | Beta | B2 4, B1 2 | 6 | 4 | 0 | 1 |")
            && s.contains("| 2 | Alpha | A1 2, A2 0 | 2 | 4 | 0 | 1 |"),
        "{s}"
    );
    let html = ok(&["standings", e, "--format", "html"]);
    assert_eq!(html.matches("<table>").count(), 2, "{html}");
    assert!(html.trim_end().ends_with("</body></html>"));
    // Individual games export as they do for any individual event.
    assert!(ok(&["export", e, "--format", "h9"]).contains("; EV[Schools cup]"));
    // T2 is a team: both its players withdraw.
    ok(&["withdraw", e, "T2"]);
    let players = ok(&["players", "list", e]);
    assert_eq!(
        players.matches("withdrawn from round 3").count(),
        2,
        "{players}"
    );
}

#[test]
fn team_options_are_checked() {
    let d = Dir::new("team-options");
    let ev = d.path("x.json");
    let e = ev.to_str().unwrap();
    let fails = |args: &[&str], message: &str| {
        let out = shoutan(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!ev.exists(), "{args:?} created the file");
    };
    fails(
        &[
            "new",
            e,
            "--name",
            "X",
            "--system",
            "round-robin",
            "--team-format",
            "all-play-all",
        ],
        "--team-format needs --boards",
    );
    fails(
        &[
            "new",
            e,
            "--name",
            "X",
            "--system",
            "round-robin",
            "--boards",
            "2",
            "--team-format",
            "doubles",
        ],
        "is not a team format",
    );
    fails(
        &[
            "new",
            e,
            "--name",
            "X",
            "--system",
            "swiss",
            "--rounds",
            "3",
            "--avoid-teammates",
        ],
        "teammates",
    );
    fails(
        &[
            "new",
            e,
            "--name",
            "X",
            "--system",
            "knockout",
            "--boards",
            "3",
            "--team-format",
            "total-score",
        ],
        "team total score",
    );
    // The old spelling still works.
    ok(&[
        "new",
        e,
        "--name",
        "X",
        "--system",
        "round-robin",
        "--boards",
        "2",
        "--lineup",
        "per-match",
    ]);
    assert!(ok(&["show", e]).contains("- teams: per-match (2 boards)"));
}

/// A chess round robin kept by hand: `--game chess` counts 1/½/0, writes
/// the first mover as white, and `level-points` carries each player's
/// points (from the rating) through the chess room's table.
#[test]
fn a_chess_event_by_hand() {
    let d = Dir::new("chess");
    let ev = d.path("club.json");
    let ev = ev.to_str().unwrap();
    ok(&[
        "new",
        ev,
        "--name",
        "Club",
        "--system",
        "round-robin",
        "--game",
        "chess",
    ]);
    for (name, rating) in [("Ma", "1500"), ("Niu", "1540")] {
        ok(&["players", "add", ev, "--name", name, "--rating", rating]);
    }
    let r1 = ok(&["pair", ev]);
    assert!(r1.contains("round 1"), "{r1}");
    ok(&["result", ev, "--table", "1", "1-0"]);
    let standings = ok(&["standings", ev]);
    assert!(
        standings.contains("| 1 |") && standings.contains("+/w"),
        "{standings}"
    );
    let points = ok(&["level-points", ev]);
    // The first mover won: 1500 beat 1540 (+14) or 1540 beat 1500 (+10 − 3.2 = 6.8).
    let first = r1
        .lines()
        .find(|l| l.contains("Ma") && l.contains("Niu"))
        .unwrap_or(&r1);
    let ma_first = first.find("Ma").unwrap() < first.find("Niu").unwrap();
    let want = if ma_first { "1514" } else { "1546.8" };
    assert!(points.contains(want), "{first}\n{points}");
    let bad = d.path("bad.json");
    let out = shoutan(&[
        "new",
        bad.to_str().unwrap(),
        "--name",
        "X",
        "--system",
        "swiss",
        "--rounds",
        "3",
        "--game",
        "bridge",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown game \"bridge\""));
    assert!(!bad.exists());
}
