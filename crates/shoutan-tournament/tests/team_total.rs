//! Team total score (队员总分制, Art. 25): players are paired as individuals
//! (teammates kept apart while avoidable when the organiser asks), and teams
//! rank by the sum of their counted members' points, then the sums of the
//! members' tie-breaks, then the best member.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a test failure

mod common;

use common::{games, order, values};
use shoutan_tournament::{
    Entrant, NewPlayer, Outcome, PlayerId, Settings, Standings, System, TeamFormat, TeamSettings,
    Tournament, TournamentError,
};

/// An event of players in teams, given as (team, [(name, rank)]).
fn event(
    system: System,
    rounds: Option<u32>,
    counted: u8,
    teams: &[(&str, &[(&str, &str)])],
) -> Tournament {
    let mut s = Settings::new(
        system,
        Some(TeamSettings {
            boards: counted,
            format: TeamFormat::TotalScore,
        }),
    );
    s.rounds = rounds;
    s.avoid_teammates = true;
    s.seed = 5;
    let mut t = Tournament::new("Schools championship", s).unwrap();
    for (team, members) in teams {
        let ids: Vec<PlayerId> = members
            .iter()
            .map(|(n, r)| {
                t.add_player(NewPlayer::ranked(n, r.parse().unwrap()))
                    .unwrap()
            })
            .collect();
        t.add_team(team, &ids).unwrap();
    }
    t
}

fn team_of(t: &Tournament, p: PlayerId) -> String {
    t.teams()[t.player(p).unwrap().team.unwrap().index()]
        .name
        .clone()
}

/// Records the last round: the higher-ranked player wins every game.
fn stronger_wins(t: &mut Tournament) {
    let round = t.rounds().len() as u32;
    for g in t.rounds()[round as usize - 1].games.clone() {
        let rank = |p: PlayerId| t.player(p).unwrap().rank.unwrap();
        let winner = if rank(g.black) > rank(g.white) {
            shoutan_rules::Color::Black
        } else {
            shoutan_rules::Color::White
        };
        t.record(round, g.table, Outcome::Win(winner)).unwrap();
    }
}

fn team_table(t: &Tournament, s: &Standings) -> Vec<(u32, String, Vec<String>, Vec<String>)> {
    let teams = t.team_standings(s).unwrap();
    teams
        .rows
        .iter()
        .map(|r| {
            (
                r.place,
                r.name.clone(),
                (0..teams.columns.len())
                    .map(|k| teams.shown(r, k).to_string())
                    .collect(),
                r.members
                    .iter()
                    .map(|&p| t.player(p).unwrap().name.clone())
                    .collect(),
            )
        })
        .collect()
}

/// Swiss, two teams of four, the best three of each team count.
/// ```text
///   A: A1 6d  A2 4d  A3 2d  A4 1k        B: B1 5d  B2 3d  B3 1d  B4 2k
/// ```
/// Teammates are kept apart: rounds 1–4 pair A against B only, with no
/// rematch, so after round 4 everyone has met the whole other team. The
/// stronger player wins every game:
/// ```text
///   A1 8  A2 6  A3 4  A4 2       B1 6  B2 4  B3 2  B4 0
///   SOS: A players 12, B players 20; total = points + SOS ÷ 4 − 4
///   A1 7  A2 5  A3 3  A4 1       B1 7  B2 5  B3 3  B4 1
///   team A: A1 + A2 + A3 = 18 points, Σ total 15, best place 1
///   team B: B1 + B2 + B3 = 12 points, Σ total 15, best place 1
/// ```
/// Round 5 cannot avoid both rematches and teammates; it is still paired.
#[test]
fn swiss_teams_of_four_best_three_count() {
    let mut t = event(
        System::Swiss,
        Some(5),
        3,
        &[
            (
                "A",
                &[("A1", "6d"), ("A2", "4d"), ("A3", "2d"), ("A4", "1k")],
            ),
            (
                "B",
                &[("B1", "5d"), ("B2", "3d"), ("B3", "1d"), ("B4", "2k")],
            ),
        ],
    );
    let mut met = std::collections::HashSet::new();
    for round in 1..=4 {
        let r = t.pair_next_round().unwrap().clone();
        assert_eq!(r.games.len(), 4);
        for g in &r.games {
            assert_ne!(team_of(&t, g.black), team_of(&t, g.white), "round {round}");
            assert!(met.insert((g.black.min(g.white), g.black.max(g.white))));
        }
        stronger_wins(&mut t);
    }
    assert_eq!(met.len(), 16);
    let s = t.standings();
    assert_eq!(values(&s, "A1"), ["7", "0"]); // total, warnings
    assert_eq!(values(&s, "B2"), ["5", "0"]);
    assert_eq!(values(&s, "A4"), ["1", "0"]);
    assert_eq!(
        team_table(&t, &s),
        [
            (
                1,
                "A".into(),
                vec!["18".into(), "15".into(), "0".into(), "1".into()],
                vec!["A1".into(), "A2".into(), "A3".into()]
            ),
            (
                2,
                "B".into(),
                vec!["12".into(), "15".into(), "0".into(), "1".into()],
                vec!["B1".into(), "B2".into(), "B3".into()]
            ),
        ]
    );
    let teams = t.team_standings(&s).unwrap();
    assert_eq!(
        teams.columns.iter().map(|c| c.header()).collect::<Vec<_>>(),
        ["POINTS", "TOTAL", "WARNINGS", "BEST"]
    );
    let r5 = t.pair_next_round().unwrap().clone();
    assert_eq!(r5.games.len(), 4);
}

/// Round robin, two teams of two: teammates meet in round 1, then the
/// others. Results by hand (winner first):
/// ```text
///   a1>a2  b1>b2  b1>a1  a1>b2  a2>b1  b2>a2
///   a1 4  a2 2  b1 4  b2 2             team A 6, team B 6
///   胜者小分: a1 2+2 = 4  a2 4  b1 2+4 = 6  b2 2   ΣSB A 8, B 8
///   places: b1 1 (SB 6), a1 2, a2 3 (SB 4), b2 4   best: B 1, A 2
/// ```
/// B is first on its best member. A warning to b2 then puts A first:
/// fewer warnings comes before the best member in the declared order.
#[test]
fn round_robin_teammates_first_then_best_member() {
    let mut t = event(
        System::RoundRobin { cycles: 1 },
        None,
        2,
        &[
            ("A", &[("a1", "2d"), ("a2", "1d")]),
            ("B", &[("b1", "2d"), ("b2", "1d")]),
        ],
    );
    let mut r1 = games(&mut t);
    r1.sort();
    assert!(
        r1.iter().all(|g| {
            let (x, y) = g.split_once('-').unwrap();
            x[..1] == y[..1]
        }),
        "{r1:?}"
    );
    let beats = [
        ("a1", "a2"),
        ("b1", "b2"),
        ("b1", "a1"),
        ("a1", "b2"),
        ("a2", "b1"),
        ("b2", "a2"),
    ];
    let record = |t: &mut Tournament| {
        let round = t.rounds().len() as u32;
        for g in t.rounds()[round as usize - 1].games.clone() {
            let (b, w) = (
                t.player(g.black).unwrap().name.clone(),
                t.player(g.white).unwrap().name.clone(),
            );
            let color = if beats.contains(&(b.as_str(), w.as_str())) {
                shoutan_rules::Color::Black
            } else {
                assert!(beats.contains(&(w.as_str(), b.as_str())), "{b}-{w}");
                shoutan_rules::Color::White
            };
            t.record(round, g.table, Outcome::Win(color)).unwrap();
        }
    };
    record(&mut t);
    for _ in 2..=3 {
        t.pair_next_round().unwrap();
        record(&mut t);
    }
    let s = t.standings();
    assert_eq!(order(&s), ["b1", "a1", "a2", "b2"]);
    assert_eq!(
        team_table(&t, &s)
            .into_iter()
            .map(|(p, n, v, _)| (p, n, v))
            .collect::<Vec<_>>(),
        [
            (
                1,
                "B".into(),
                vec!["6".into(), "8".into(), "0".into(), "1".into()]
            ),
            (
                2,
                "A".into(),
                vec!["6".into(), "8".into(), "0".into(), "2".into()]
            ),
        ]
    );
    let b2 = t.find_player("b2").unwrap();
    let table = t.rounds()[2]
        .games
        .iter()
        .find(|g| g.color_of(b2).is_some())
        .unwrap()
        .table;
    t.warn(3, table, b2).unwrap();
    let s = t.standings();
    let teams = team_table(&t, &s);
    assert_eq!(teams[0].1, "A");
    assert_eq!(teams[1].2, ["6", "8", "1", "1"]);
}

/// An odd round robin of five, teams of two and one: the pairs of
/// teammates meet in round 1 and the player without a teammate rests.
#[test]
fn round_robin_odd_field_teammates_meet_first() {
    let mut t = event(
        System::RoundRobin { cycles: 1 },
        None,
        1,
        &[
            ("A", &[("a1", "2d"), ("a2", "1d")]),
            ("B", &[("b1", "2d"), ("b2", "1d")]),
            ("C", &[("c1", "3d")]),
        ],
    );
    let mut r1 = games(&mut t);
    r1.sort();
    let r1: Vec<String> = r1
        .into_iter()
        .map(|g| {
            let mut p: Vec<&str> = g.split('-').collect();
            p.sort_unstable();
            p.join("-")
        })
        .collect();
    assert_eq!(r1, ["a1-a2", "b1-b2"]);
    assert_eq!(common::byes(&t, 1), ["c1"]);
}

/// Withdrawing a team withdraws its players: a Swiss player is not paired
/// again (Art. 28), the results stand, and the team keeps its place in the
/// team standings, marked withdrawn.
#[test]
fn team_withdrawal_withdraws_its_players() {
    let mut t = event(
        System::Swiss,
        Some(4),
        2,
        &[
            ("A", &[("A1", "6d"), ("A2", "4d")]),
            ("B", &[("B1", "5d"), ("B2", "3d")]),
            ("C", &[("C1", "2d"), ("C2", "1d")]),
        ],
    );
    t.pair_next_round().unwrap();
    stronger_wins(&mut t);
    let before = t.team_standings(&t.standings()).unwrap();
    let b = t.find_team("B").unwrap();
    t.withdraw(Entrant::Team(b)).unwrap();
    assert!(matches!(
        t.withdraw(Entrant::Team(b)),
        Err(TournamentError::Withdrawn(_))
    ));
    let r2 = t.pair_next_round().unwrap().clone();
    assert_eq!(r2.games.len(), 2);
    for g in &r2.games {
        assert_ne!(team_of(&t, g.black), "B");
        assert_ne!(team_of(&t, g.white), "B");
        // A and C: teammates apart while A–C games remain.
        assert_ne!(team_of(&t, g.black), team_of(&t, g.white));
    }
    stronger_wins(&mut t);
    let s = t.standings();
    let teams = t.team_standings(&s).unwrap();
    let row = |st: &Standings| st.rows.iter().find(|r| r.name == "B").unwrap().clone();
    assert!(row(&teams).withdrawn);
    assert_eq!(row(&teams).values[0], row(&before).values[0]);
}

/// What a team total-score event refuses, changing nothing.
#[test]
fn refusals() {
    let teams = TeamSettings {
        boards: 2,
        format: TeamFormat::TotalScore,
    };
    for system in [
        System::Knockout { losses: 1 },
        System::BestOf { games: 3 },
        System::Relay,
    ] {
        assert!(
            matches!(
                Tournament::new("Cup", Settings::new(system, Some(teams))),
                Err(TournamentError::Settings(_))
            ),
            "{system:?}"
        );
    }
    let mut board_points = Settings::new(System::Swiss, Some(teams));
    board_points.rounds = Some(3);
    board_points
        .criteria
        .push(shoutan_tournament::Criterion::BoardPoints);
    assert!(Tournament::new("Cup", board_points).is_err());
    let mut individual = Settings::new(System::Swiss, None);
    individual.rounds = Some(3);
    individual.avoid_teammates = true;
    assert!(matches!(
        Tournament::new("Cup", individual),
        Err(TournamentError::Settings(m)) if m.contains("teammates")
    ));
    let mut t = event(
        System::Swiss,
        Some(3),
        2,
        &[
            ("A", &[("A1", "6d"), ("A2", "4d")]),
            ("B", &[("B1", "5d"), ("B2", "3d")]),
        ],
    );
    t.pair_next_round().unwrap();
    let before = t.clone();
    let a = t.find_team("A").unwrap();
    let lineup = t.teams()[0].members.clone();
    assert!(matches!(
        t.set_lineup(1, a, &lineup),
        Err(TournamentError::Settings(_))
    ));
    assert_eq!(t, before);
    // McMahon is an individual system, so it can rank teams by total.
    let mut mm = Settings::new(
        System::McMahon(shoutan_tournament::McMahon {
            bar: "3d".parse().unwrap(),
            floor: "20k".parse().unwrap(),
            handicap: shoutan_tournament::HandicapRule::NONE,
        }),
        Some(teams),
    );
    mm.rounds = Some(3);
    assert!(Tournament::new("Open", mm).is_ok());
}
