//! Team events (Art. 25, 27): board points (局分) and match points (场分),
//! standings by match points, board points, board 1's, board 2's …;
//! line-up rules; the win-stays relay (擂台赛).

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

use shoutan_tournament::{
    Criterion, Entrant, NewPlayer, Outcome, Settings, System, TeamFormat, TeamSettings, Tournament,
    TournamentError,
};

fn team_event(system: System, lineup: TeamFormat, teams: &[(&str, &[&str])]) -> Tournament {
    let boards = if system == System::Relay { 1 } else { 2 };
    let mut s = Settings::new(
        system,
        Some(TeamSettings {
            boards,
            format: lineup,
        }),
    );
    s.seed = 3;
    let mut t = Tournament::new("Team cup", s).unwrap();
    for (team, members) in teams {
        let ids: Vec<_> = members
            .iter()
            .map(|m| {
                t.add_player(NewPlayer::ranked(m, "1d".parse().unwrap()))
                    .unwrap()
            })
            .collect();
        t.add_team(team, &ids).unwrap();
    }
    t
}

/// Records board results of the last round's only match: `winners[b]` is
/// the team name winning board b+1, or "" for a draw.
fn boards(t: &mut Tournament, winners: &[&str]) {
    let round = t.rounds().len() as u32;
    let games = t.rounds()[round as usize - 1].games.clone();
    for (g, w) in games.iter().zip(winners) {
        let team_of = |p: shoutan_tournament::PlayerId| {
            t.teams()[t.player(p).unwrap().team.unwrap().index()]
                .name
                .clone()
        };
        let outcome = if w.is_empty() {
            Outcome::Draw
        } else if team_of(g.black) == *w {
            Outcome::Win(shoutan_rules::Color::Black)
        } else {
            Outcome::Win(shoutan_rules::Color::White)
        };
        t.record(round, g.table, outcome).unwrap();
    }
}

/// ```text
/// Double round robin, two teams of two boards.
///   R1: X wins board 1, board 2 drawn       board points X 3–1 Y: match X 2–0
///   R2: Y wins board 1, X wins board 2      2–2: match 1–1
/// match points X 3, Y 1; board points X 5, Y 3; board 1: X 2, Y 2; board 2: X 3, Y 1
/// ```
#[test]
fn match_points_then_board_points() {
    let mut t = team_event(
        System::RoundRobin { cycles: 2 },
        TeamFormat::FixedBoards,
        &[("X", &["x1", "x2"]), ("Y", &["y1", "y2"])],
    );
    t.pair_next_round().unwrap();
    assert_eq!(t.rounds()[0].games.len(), 2);
    boards(&mut t, &["X", ""]);
    t.pair_next_round().unwrap();
    boards(&mut t, &["Y", "X"]);
    let s = t.standings();
    assert_eq!(s.columns.len(), 4); // points, board points, B1, B2
    let row = |name: &str| s.rows.iter().find(|r| r.name == name).unwrap();
    let shown = |name: &str| {
        (0..4)
            .map(|k| s.shown(row(name), k).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(s.rows[0].name, "X");
    assert_eq!(shown("X"), ["3", "5", "2", "3"]);
    assert_eq!(shown("Y"), ["1", "3", "2", "1"]);
}

/// Equal match and board points: board 1's points decide.
#[test]
fn board_one_breaks_the_tie() {
    let mut t = team_event(
        System::RoundRobin { cycles: 2 },
        TeamFormat::FixedBoards,
        &[("X", &["x1", "x2"]), ("Y", &["y1", "y2"])],
    );
    t.pair_next_round().unwrap();
    boards(&mut t, &["X", "Y"]);
    t.pair_next_round().unwrap();
    boards(&mut t, &["X", "Y"]);
    let s = t.standings();
    assert_eq!(s.rows[0].name, "X");
    assert_eq!(s.rows[0].place, 1);
    assert_eq!(s.rows[1].place, 2);
    assert_eq!(
        t.settings().criteria,
        [Criterion::Points, Criterion::BoardPoints, Criterion::Boards]
    );
}

#[test]
fn lineup_rules() {
    let teams: [(&str, &[&str]); 2] = [("X", &["x1", "x2", "x3"]), ("Y", &["y1", "y2", "y3"])];
    for (rule, ok, bad) in [
        (TeamFormat::FixedBoards, vec!["x1", "x2"], vec!["x1", "x3"]),
        (TeamFormat::Substitutes, vec!["x1", "x3"], vec!["x3", "x1"]),
        (TeamFormat::PerMatch, vec!["x3", "x1"], vec!["x1", "y1"]),
    ] {
        let mut t = team_event(System::RoundRobin { cycles: 1 }, rule, &teams);
        t.pair_next_round().unwrap();
        let x = t.find_team("X").unwrap();
        let ids = |t: &Tournament, names: &[&str]| {
            names
                .iter()
                .map(|n| t.find_player(n).unwrap())
                .collect::<Vec<_>>()
        };
        let (good, wrong) = (ids(&t, &ok), ids(&t, &bad));
        let before = t.clone();
        assert!(
            matches!(t.set_lineup(1, x, &wrong), Err(TournamentError::Lineup(_))),
            "{rule:?}"
        );
        assert_eq!(t, before);
        t.set_lineup(1, x, &good).unwrap();
        let in_match: Vec<_> = t.rounds()[0]
            .games
            .iter()
            .map(|g| {
                if t.player(g.black).unwrap().team == Some(x) {
                    g.black
                } else {
                    g.white
                }
            })
            .collect();
        assert_eq!(in_match, good, "{rule:?}");
    }
}

/// A withdrawn team's remaining matches are forfeits (Art. 28).
#[test]
fn withdrawn_team_forfeits() {
    let mut t = team_event(
        System::RoundRobin { cycles: 2 },
        TeamFormat::FixedBoards,
        &[("X", &["x1", "x2"]), ("Y", &["y1", "y2"])],
    );
    t.pair_next_round().unwrap();
    boards(&mut t, &["X", "X"]);
    t.withdraw(Entrant::Team(t.find_team("Y").unwrap()))
        .unwrap();
    t.pair_next_round().unwrap();
    assert!(
        t.rounds()[1]
            .games
            .iter()
            .all(|g| matches!(g.outcome, Some(Outcome::Forfeit(_))))
    );
    let s = t.standings();
    assert_eq!(s.rows[0].name, "X");
    assert_eq!(s.shown(&s.rows[0], 0).to_string(), "4");
}

/// ```text
/// 擂台赛: A = a1 a2 a3, B = b1 b2.
///   R1 a1–b1: a1 wins, stays      R2 a1–b2: b2 wins, stays
///   R3 a2–b2: a2 wins             B has no one left: A wins.
/// ```
#[test]
fn relay_winner_stays_on() {
    let mut t = team_event(
        System::Relay,
        TeamFormat::FixedBoards,
        &[("A", &["a1", "a2", "a3"]), ("B", &["b1", "b2"])],
    );
    let play = |t: &mut Tournament, pair: [&str; 2], winner: &str| {
        let g = t.pair_next_round().unwrap().games[0].clone();
        let names = [
            t.player(g.black).unwrap().name.clone(),
            t.player(g.white).unwrap().name.clone(),
        ];
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(sorted, pair);
        let color = if names[0] == winner {
            shoutan_rules::Color::Black
        } else {
            shoutan_rules::Color::White
        };
        t.record(t.rounds().len() as u32, 1, Outcome::Win(color))
            .unwrap();
    };
    play(&mut t, ["a1", "b1"], "a1");
    play(&mut t, ["a1", "b2"], "b2");
    play(&mut t, ["a2", "b2"], "a2");
    assert!(
        matches!(t.pair_next_round(), Err(TournamentError::Finished(m)) if m == "A won the relay")
    );
    let s = t.standings();
    assert_eq!(s.rows[0].name, "A");
    assert_eq!(s.shown(&s.rows[0], 1).to_string(), "4");
    assert_eq!(s.shown(&s.rows[1], 1).to_string(), "2");
}

/// The games of `round` grouped by round of the match, as "black-white"
/// names in board order (all-play-all matches).
fn match_rounds(t: &Tournament, round: u32) -> Vec<Vec<String>> {
    let games = &t.rounds()[round as usize - 1].games;
    let last = games.iter().filter_map(|g| g.match_round).max().unwrap();
    (1..=last)
        .map(|r| {
            games
                .iter()
                .filter(|g| g.match_round == Some(r))
                .map(|g| {
                    format!(
                        "{}-{}",
                        t.player(g.black).unwrap().name,
                        t.player(g.white).unwrap().name
                    )
                })
                .collect()
        })
        .collect()
}

/// Records every game of the last round by the winner's name ("" for a
/// draw), in table order.
fn games_won_by(t: &mut Tournament, winners: &[&str]) {
    let round = t.rounds().len() as u32;
    let games = t.rounds()[round as usize - 1].games.clone();
    assert_eq!(games.len(), winners.len());
    for (g, w) in games.iter().zip(winners) {
        let outcome = if w.is_empty() {
            Outcome::Draw
        } else if t.player(g.black).unwrap().name == *w {
            Outcome::Win(shoutan_rules::Color::Black)
        } else {
            assert_eq!(t.player(g.white).unwrap().name, *w, "table {}", g.table);
            Outcome::Win(shoutan_rules::Color::White)
        };
        t.record(round, g.table, outcome).unwrap();
    }
}

fn all_play_all(cycles: u8, teams: &[(&str, &[&str])]) -> Tournament {
    let n = teams[0].1.len() as u8;
    let mut s = Settings::new(
        System::RoundRobin { cycles },
        Some(TeamSettings {
            boards: n,
            format: TeamFormat::AllPlayAll,
        }),
    );
    s.seed = 3;
    let mut t = Tournament::new("Friendship match", s).unwrap();
    for (team, members) in teams {
        let ids: Vec<_> = members
            .iter()
            .map(|m| {
                t.add_player(NewPlayer::ranked(m, "1d".parse().unwrap()))
                    .unwrap()
            })
            .collect();
        t.add_team(team, &ids).unwrap();
    }
    t
}

/// 全队轮赛制 (Art. 25): two teams of three, every player of X meets every
/// player of Y, nine games over three rounds of the match, worked by hand
/// from the rotation (X's board k meets Y's player k + r) and the colour
/// rule (black first):
/// ```text
///   match round 1   x1-y1  y2-x2  y3-x3      X black on 1 board
///   match round 2   x1-y2  x2-y3  y1-x3      X black on 2 boards
///   match round 3   y3-x1  x2-y1  x3-y2      X black on 2 boards
/// ```
/// Every player has black once or twice. Results (winner per game):
/// ```text
///   round 1: x1, y2, draw    round 2: x1, x2, y1    round 3: y3, x2, x3
///   x1 W W L 4   x2 L W W 4   x3 = L W 3     X: 11 board points
///   y1 L W L 2   y2 W L L 2   y3 = L W 3     Y:  7 board points
/// ```
/// X wins the match: match points 2–0; board columns are each player's
/// points by place in the line-up.
#[test]
fn all_play_all_three_a_side_by_hand() {
    let mut t = all_play_all(1, &[("X", &["x1", "x2", "x3"]), ("Y", &["y1", "y2", "y3"])]);
    t.pair_next_round().unwrap();
    let r = &t.rounds()[0];
    assert_eq!(r.matches.len(), 1);
    assert_eq!(t.teams()[r.matches[0].black.index()].name, "X"); // the draw
    assert_eq!(
        match_rounds(&t, 1),
        [
            ["x1-y1", "y2-x2", "y3-x3"],
            ["x1-y2", "x2-y3", "y1-x3"],
            ["y3-x1", "x2-y1", "x3-y2"],
        ]
    );
    // Tables run in the order of play: match round 1 on tables 1–3.
    let tables: Vec<(u32, Option<u8>, u8)> = r
        .games
        .iter()
        .map(|g| (g.table, g.match_round, g.board.unwrap().1))
        .collect();
    assert_eq!(tables[0], (1, Some(1), 1));
    assert_eq!(tables[5], (6, Some(2), 3));
    assert_eq!(tables[8], (9, Some(3), 3));
    games_won_by(
        &mut t,
        &["x1", "y2", "", "x1", "x2", "y1", "y3", "x2", "x3"],
    );
    let s = t.standings();
    assert_eq!(
        s.columns.iter().map(|c| c.header()).collect::<Vec<_>>(),
        ["POINTS", "BOARD-POINTS", "B1", "B2", "B3"]
    );
    let shown = |name: &str| {
        let row = s.rows.iter().find(|r| r.name == name).unwrap();
        (0..5)
            .map(|k| s.shown(row, k).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(s.rows[0].name, "X");
    assert_eq!(shown("X"), ["2", "11", "4", "4", "3"]);
    assert_eq!(shown("Y"), ["0", "7", "2", "2", "3"]);
    assert!(matches!(
        t.pair_next_round(),
        Err(TournamentError::Finished(_))
    ));
}

/// Four teams of two: each round has two matches; every player plays once
/// per round of the match, and each match is four games between its teams.
#[test]
fn all_play_all_in_a_team_round_robin() {
    let mut t = all_play_all(
        1,
        &[
            ("A", &["a1", "a2"]),
            ("B", &["b1", "b2"]),
            ("C", &["c1", "c2"]),
            ("D", &["d1", "d2"]),
        ],
    );
    let mut met = std::collections::HashSet::new();
    for round in 1..=3 {
        let r = t.pair_next_round().unwrap().clone();
        assert_eq!(r.matches.len(), 2);
        assert_eq!(r.games.len(), 8);
        for mr in 1..=2 {
            let mut seen = std::collections::HashSet::new();
            for g in r.games.iter().filter(|g| g.match_round == Some(mr)) {
                assert!(
                    seen.insert(g.black) && seen.insert(g.white),
                    "round {round}"
                );
                let (a, b) = (g.black.min(g.white), g.black.max(g.white));
                assert!(met.insert((a, b)), "round {round}: a pair met twice");
            }
            assert_eq!(seen.len(), 8, "round {round} match round {mr}");
        }
        for g in &r.games {
            t.record(round, g.table, Outcome::Win(shoutan_rules::Color::Black))
                .unwrap();
        }
    }
    // Every player met both players of each other team: 4 × 2 × 6 / 2 games.
    assert_eq!(met.len(), 24);
    // Black wins everywhere and colours are balanced: each match is 2–2.
    let s = t.standings();
    for row in &s.rows {
        assert_eq!(s.shown(row, 0).to_string(), "3", "{}", row.name);
        assert_eq!(s.shown(row, 1).to_string(), "12", "{}", row.name);
    }
}

/// Art. 28, match and team events: results stand, the rest are forfeits.
/// Double round robin of X and Y, two a side. Y leaves after match round 1
/// of round 1: the two games of match round 2 are forfeited to X's players,
/// and round 2 is a forfeited match.
/// ```text
///   round 1, match round 1   x1-y1 (x1 wins)   x2-y2 (y2 wins)
///            match round 2   y2-x1 (x1 F)      y1-x2 (x2 F)      X 6–2
///   round 2 (Y first)        all four games forfeited to X       X 8–0
///   X: match points 4, board points 14;  Y: 0 and 2
/// ```
#[test]
fn all_play_all_withdrawal_mid_match() {
    let mut t = all_play_all(2, &[("X", &["x1", "x2"]), ("Y", &["y1", "y2"])]);
    t.pair_next_round().unwrap();
    assert_eq!(
        match_rounds(&t, 1),
        [["x1-y1", "x2-y2"], ["y2-x1", "y1-x2"]]
    );
    t.record(1, 1, Outcome::Win(shoutan_rules::Color::Black))
        .unwrap();
    t.record(1, 2, Outcome::Win(shoutan_rules::Color::White))
        .unwrap();
    let y = t.find_team("Y").unwrap();
    t.withdraw(Entrant::Team(y)).unwrap();
    let r1 = &t.rounds()[0].games;
    assert_eq!(
        r1[2].outcome,
        Some(Outcome::Forfeit(shoutan_rules::Color::White))
    );
    assert_eq!(
        r1[3].outcome,
        Some(Outcome::Forfeit(shoutan_rules::Color::White))
    );
    t.pair_next_round().unwrap();
    // The second cycle swaps the teams: Y is listed first.
    assert_eq!(
        match_rounds(&t, 2),
        [["y1-x1", "y2-x2"], ["x2-y1", "x1-y2"]]
    );
    for g in &t.rounds()[1].games {
        let winner = g.outcome.and_then(Outcome::winner).unwrap();
        assert_eq!(
            t.player(g.player(winner)).unwrap().team,
            t.find_team("X").ok()
        );
        assert!(matches!(g.outcome, Some(Outcome::Forfeit(_))));
    }
    let s = t.standings();
    let shown = |name: &str| {
        let row = s.rows.iter().find(|r| r.name == name).unwrap();
        (
            row.withdrawn,
            (0..2)
                .map(|k| s.shown(row, k).to_string())
                .collect::<Vec<_>>(),
        )
    };
    assert_eq!(shown("X"), (false, vec!["4".to_owned(), "14".to_owned()]));
    assert_eq!(shown("Y"), (true, vec!["0".to_owned(), "2".to_owned()]));
}

/// All-play-all matches field the registered players: no line-up change;
/// settings that make no sense are refused and change nothing.
#[test]
fn all_play_all_refusals() {
    let mut t = all_play_all(1, &[("X", &["x1", "x2", "x3"]), ("Y", &["y1", "y2", "y3"])]);
    t.pair_next_round().unwrap();
    let before = t.clone();
    let x = t.find_team("X").unwrap();
    let ids: Vec<_> = ["x3", "x2", "x1"]
        .iter()
        .map(|n| t.find_player(n).unwrap())
        .collect();
    assert!(matches!(
        t.set_lineup(1, x, &ids),
        Err(TournamentError::Lineup(m)) if m.contains("all-play-all")
    ));
    let mut other = t.settings().clone();
    other.teams = Some(TeamSettings {
        boards: 3,
        format: TeamFormat::FixedBoards,
    });
    assert!(matches!(
        t.set_settings(other),
        Err(TournamentError::Settings(m)) if m.contains("team format")
    ));
    assert_eq!(t, before);
    let relay = Settings::new(
        System::Relay,
        Some(TeamSettings {
            boards: 1,
            format: TeamFormat::AllPlayAll,
        }),
    );
    assert!(matches!(
        Tournament::new("Relay", relay),
        Err(TournamentError::Settings(_))
    ));
}

/// The tournament file keeps the rounds of the match; a file naming a
/// match round or board outside the team size is refused; a file written
/// before the team format had its name (`lineup`) still reads.
#[test]
fn team_files_round_trip_and_are_checked() {
    let mut t = all_play_all(1, &[("X", &["x1", "x2"]), ("Y", &["y1", "y2"])]);
    t.pair_next_round().unwrap();
    let json = t.to_json().unwrap();
    assert!(json.contains("\"format\": \"all_play_all\"") && json.contains("\"match_round\": 2"));
    assert_eq!(Tournament::from_json(&json).unwrap(), t);
    for (field, value) in [("match_round", 0), ("match_round", 3)] {
        let mut bad: serde_json::Value = serde_json::from_str(&json).unwrap();
        bad["rounds"][0]["games"][0][field] = serde_json::json!(value);
        assert!(
            matches!(
                Tournament::from_json(&bad.to_string()),
                Err(TournamentError::Corrupt(m)) if m.contains("outside 1–2")
            ),
            "{field} {value}"
        );
    }
    let mut bad: serde_json::Value = serde_json::from_str(&json).unwrap();
    bad["rounds"][0]["games"][0]["board"] = serde_json::json!([0, 0]);
    assert!(Tournament::from_json(&bad.to_string()).is_err());

    let old = team_event(
        System::RoundRobin { cycles: 1 },
        TeamFormat::Substitutes,
        &[("X", &["x1", "x2"]), ("Y", &["y1", "y2"])],
    );
    let text = old
        .to_json()
        .unwrap()
        .replace("\"format\": \"substitutes\"", "\"lineup\": \"substitutes\"");
    assert!(text.contains("\"lineup\""));
    assert_eq!(Tournament::from_json(&text).unwrap(), old);
}
