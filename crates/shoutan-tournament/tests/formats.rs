//! Files and exchange formats: the atomic tournament file, CSV players,
//! OpenGotha round trip, EGF `.h9`, FIDE TRF-16, HTML and Markdown.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

mod common;

use common::*;
use shoutan_tournament::formats::report::{self, Format};
use shoutan_tournament::formats::{csv, h9, opengotha, trf};
use shoutan_tournament::{
    HandicapBasis, HandicapRule, McMahon, NewPlayer, Settings, System, Tournament, TournamentError,
    file,
};

const FIELD: [(&str, &str); 6] = [
    ("Ahn Sung", "5d"),
    ("Berg Anna", "4d"),
    ("Chen Li", "3d"),
    ("Dupont Marc", "2d"),
    ("Eriksen Ola", "1d"),
    ("Fischer Jan", "1k"),
];

fn mcmahon_event() -> Tournament {
    let mut s = Settings::new(
        System::McMahon(McMahon {
            bar: "3d".parse().unwrap(),
            floor: "10k".parse().unwrap(),
            handicap: HandicapRule {
                basis: HandicapBasis::Mms,
                correction: 1,
                ceiling: 9,
                no_handicap_from: None,
            },
        }),
        None,
    );
    s.rounds = Some(3);
    let mut t = with_settings(s, &FIELD);
    t.set_details(
        Some("Prague".into()),
        Some("2026-05-01,2026-05-02".into()),
        Some("6.5".into()),
        Some("60 min + 5×30 s".into()),
    );
    pair(&mut t);
    results(&mut t, &["B+", "W+", "draw"]);
    pair(&mut t);
    results(&mut t, &["W+F", "B+", "W+"]);
    t
}

#[test]
fn tournament_file_round_trips_and_is_written_atomically() {
    let dir = std::env::temp_dir().join(format!("shoutan-tournament-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("event.json");
    let t = mcmahon_event();
    file::save(&path, &t).unwrap();
    assert_eq!(file::load(&path).unwrap(), t);
    // No temporary file is left beside it.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, [std::ffi::OsString::from("event.json")]);
    // A file that is not a tournament is refused with its name.
    std::fs::write(&path, "{\"name\": 3}").unwrap();
    let err = file::load(&path).unwrap_err().to_string();
    assert!(err.contains("event.json"), "{err}");
    // A tampered file is refused, not trusted.
    let mut json: serde_json::Value = serde_json::from_str(&t.to_json().unwrap()).unwrap();
    json["rounds"][0]["games"][0]["black"] = serde_json::json!(99);
    assert!(matches!(
        Tournament::from_json(&json.to_string()),
        Err(TournamentError::Corrupt(_))
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file written before the one spelling says `colours`, in the settings
/// and in every game: it still reads, and is written back with `colors`.
#[test]
fn tournament_file_with_the_old_spelling_still_reads() {
    let t = mcmahon_event();
    let new = t.to_json().unwrap();
    let games = t.rounds().iter().map(|r| r.games.len()).sum::<usize>();
    assert_eq!(new.matches("\"colors\":").count(), games + 1, "{new}");
    let old = new.replace("\"colors\":", "\"colours\":");
    assert_eq!(Tournament::from_json(&old).unwrap(), t);
}

#[test]
fn csv_players_all_or_nothing() {
    let mut t = event(System::Swiss, Some(3), &[]);
    let good =
        "Name,Rank,Rating,Club,Country\nLi Wei,3d,2310,Beijing,CN\nAnna Berg,2k,1890,Oslo,NO\n\n";
    let ids = csv::import_players(&mut t, good).unwrap();
    assert_eq!(ids.len(), 2);
    assert_eq!(t.players()[1].club.as_deref(), Some("Oslo"));
    assert_eq!(t.players()[0].rating, Some(2310));
    let before = t.clone();
    let bad_rank = "name,rank\nKim,3x\n";
    let err = csv::import_players(&mut t, bad_rank)
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 2") && err.contains("3x"), "{err}");
    let duplicate = "name\nNew One\nLi Wei\n";
    assert!(csv::import_players(&mut t, duplicate).is_err());
    assert!(
        csv::import_players(&mut t, "rank,club\n3d,x\n")
            .unwrap_err()
            .to_string()
            .contains("no `name` column")
    );
    assert_eq!(t, before);
    // Chinese headers.
    let zh = "姓名,段位,单位\n王明,业余5段,北京队\n";
    csv::import_players(&mut t, zh).unwrap();
    assert_eq!(t.players()[2].rank.unwrap().to_string(), "5d");
}

#[test]
fn opengotha_round_trip() {
    let t = mcmahon_event();
    let xml = opengotha::export(&t);
    assert!(xml.contains("<Tournament dataVersion=\"201\""));
    assert!(xml.contains("name=\"Ahn\" participating=\"11111111111111111111\" rank=\"5D\""));
    assert!(xml.contains("RESULT_WHITEWINS_BYDEF"));
    assert!(xml.contains("<PlacementCriterion name=\"MMS\" number=\"1\"/>"));
    let back = opengotha::import(&xml).unwrap();
    assert_eq!(back.players().len(), 6);
    assert_eq!(back.settings().system, t.settings().system);
    assert_eq!(back.settings().criteria, t.settings().criteria);
    for (a, b) in t.rounds().iter().zip(back.rounds()) {
        let pairs = |r: &shoutan_tournament::Round| {
            r.games
                .iter()
                .map(|g| (g.black, g.white, g.handicap, g.outcome))
                .collect::<Vec<_>>()
        };
        assert_eq!(pairs(a), pairs(b));
    }
    assert_eq!(order(&back.standings()), order(&t.standings()));
    assert_eq!(back.place(), Some("Prague"));
    assert!(matches!(
        opengotha::import("<Other/>"),
        Err(opengotha::OpenGothaError::Xml(_))
    ));
    assert!(opengotha::import("<Tournament><Players>").is_err());
}

#[test]
fn h9_lines() {
    let t = mcmahon_event();
    let text = h9::export(&t);
    assert!(text.starts_with("; CL[A]\n; EV[Test event]\n; PC[Prague]\n; DT[2026-05-01,2026-05-02]\n; HA[h9]\n; KM[6.5]\n"));
    let s = t.standings();
    // The first line of results names each opponent by place, with colour
    // and handicap; the forfeit is written as unplayed.
    let winner = &s.rows[0];
    let line = text
        .lines()
        .find(|l| l.contains(&winner.name.split(' ').next().unwrap().to_owned()))
        .unwrap();
    assert!(line.trim_start().starts_with("1 "), "{line}");
    assert!(text.contains("0+") || text.contains("0-"));
    assert!(text.lines().filter(|l| !l.starts_with(';')).count() == 6);
}

#[test]
fn trf_columns() {
    let t = mcmahon_event();
    let text = trf::export(&t);
    assert!(text.contains("012 Test event\n"));
    assert!(text.contains("XXR 3\n"));
    let line = text
        .lines()
        .find(|l| l.starts_with("001") && l.contains("Ahn, Sung"))
        .unwrap();
    // Fixed columns: start rank at 5–8, name at 15, points at 81–84.
    assert_eq!(&line[4..8], "   1");
    assert_eq!(&line[14..23], "Ahn, Sung");
    let points: f64 = line[80..84].trim().parse().unwrap();
    assert!((0.0..=2.0).contains(&points));
    // Round blocks: opponent at 92–95, colour at 97, result at 99.
    let color = line.as_bytes()[96] as char;
    assert!(color == 'w' || color == 'b', "{line}");
}

/// Names from outside (an organiser's form, a CSV file) with line breaks
/// and other control characters: each export keeps one line per record.
#[test]
fn injected_line_breaks_stay_on_their_line() {
    let mut settings = Settings::new(System::Swiss, None);
    settings.rounds = Some(3);
    let mut t = Tournament::new("Spring\n012 Forged event", settings).unwrap();
    for (name, club, country) in [
        ("Ahn\nSung\r\n001 9999", "Seoul\n; EV[forged]", "KR\n"),
        ("Berg\u{2028}Anna\u{1b}[2J", "Oslo", "NO\u{85}"),
        ("Chen Li", "Beijing", "CN"),
        ("Dupont Marc", "Paris", "FR"),
    ] {
        t.add_player(NewPlayer {
            name: name.into(),
            rank: Some("2d".parse().unwrap()),
            club: Some(club.into()),
            country: Some(country.into()),
            ..NewPlayer::default()
        })
        .unwrap();
    }
    t.set_details(
        Some("Prague\n022 Forged place".into()),
        Some("2026-05-01\n,2026-05-02".into()),
        Some("6.5\n".into()),
        Some("60 min\r\n122 forged".into()),
    );
    pair(&mut t);
    for (format, text) in [("TRF", trf::export(&t)), ("h9", h9::export(&t))] {
        assert!(
            !text
                .trim_end_matches('\n')
                .chars()
                .any(|c| c != '\n' && (c.is_control() || c == '\u{2028}')),
            "{format}: a control character in {text:?}"
        );
        let forged = text.lines().filter(|l| {
            l.starts_with("012 Forged")
                || l.starts_with("022 Forged")
                || l.starts_with("122 forged")
                || l.starts_with("001 9999")
                || l.starts_with("; EV[forged")
        });
        assert_eq!(forged.count(), 0, "{format}: {text}");
    }
    // Each player is still one line of each.
    let trf = trf::export(&t);
    assert_eq!(trf.lines().filter(|l| l.starts_with("001")).count(), 4);
    assert!(trf.contains("012 Spring 012 Forged event\n"), "{trf}");
    let h9 = h9::export(&t);
    assert_eq!(
        h9.lines().filter(|l| !l.starts_with(';')).count(),
        4,
        "{h9}"
    );
}

#[test]
fn html_and_markdown_reports() {
    let mut t = mcmahon_event();
    t.note(Some(2), Some(1), "late arrival <10 min>");
    let s = t.standings();
    let md = report::standings(&t, &s, Format::Markdown);
    assert!(md.contains("| Pl | Name | Rank | From | MMS | SOS | SOSOS | R1 | R2 |"));
    assert!(md.lines().count() >= 8);
    let html = report::standings(&t, &s, Format::Html);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<td>Ahn Sung</td>"));
    let pairings = report::pairings(&t, 1, Format::Markdown);
    assert!(pairings.contains("Ahn Sung (5d)"));
}
