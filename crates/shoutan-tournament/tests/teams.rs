//! Team events (Art. 25, 27): board points (局分) and match points (场分),
//! standings by match points, board points, board 1's, board 2's …;
//! line-up rules; the win-stays relay (擂台赛).

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

use shoutan_tournament::{
    Criterion, Entrant, LineupRule, NewPlayer, Outcome, Settings, System, TeamSettings, Tournament,
    TournamentError,
};

fn team_event(system: System, lineup: LineupRule, teams: &[(&str, &[&str])]) -> Tournament {
    let boards = if system == System::Relay { 1 } else { 2 };
    let mut s = Settings::new(system, Some(TeamSettings { boards, lineup }));
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
        LineupRule::FixedBoards,
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
        LineupRule::FixedBoards,
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
        (LineupRule::FixedBoards, vec!["x1", "x2"], vec!["x1", "x3"]),
        (LineupRule::Substitutes, vec!["x1", "x3"], vec!["x3", "x1"]),
        (LineupRule::PerMatch, vec!["x3", "x1"], vec!["x1", "y1"]),
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
        LineupRule::FixedBoards,
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
        LineupRule::FixedBoards,
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
        let colour = if names[0] == winner {
            shoutan_rules::Color::Black
        } else {
            shoutan_rules::Color::White
        };
        t.record(t.rounds().len() as u32, 1, Outcome::Win(colour))
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
