//! Helpers shared by the integration tests: build events by name and read
//! pairings back as names.

#![allow(dead_code)]

use shoutan_tournament::{Entrant, NewPlayer, Outcome, Settings, Standings, System, Tournament};

/// An individual event with players given as (name, rank).
pub fn event(system: System, rounds: Option<u32>, players: &[(&str, &str)]) -> Tournament {
    let mut settings = Settings::new(system, None);
    settings.rounds = rounds;
    settings.seed = 1;
    with_settings(settings, players)
}

/// An individual event with explicit settings.
pub fn with_settings(settings: Settings, players: &[(&str, &str)]) -> Tournament {
    let mut t = Tournament::new("Test event", settings).expect("valid settings");
    for (name, rank) in players {
        t.add_player(NewPlayer::ranked(name, rank.parse().expect("rank")))
            .expect("player");
    }
    t
}

/// Pairs the next round and returns its games as (black, white, handicap).
pub fn pair(t: &mut Tournament) -> Vec<(String, String, u8)> {
    let round = t.pair_next_round().expect("pairing").clone();
    round
        .games
        .iter()
        .map(|g| (name(t, g.black.0), name(t, g.white.0), g.handicap))
        .collect()
}

/// The games of the last round as ("Black-White") strings.
pub fn games(t: &mut Tournament) -> Vec<String> {
    pair(t)
        .into_iter()
        .map(|(b, w, _)| format!("{b}-{w}"))
        .collect()
}

/// Who has a bye in round `round`.
pub fn byes(t: &Tournament, round: u32) -> Vec<String> {
    t.rounds()[round as usize - 1]
        .byes
        .iter()
        .map(|b| t.entrant_name(b.entrant).to_owned())
        .collect()
}

/// A player's name by index.
pub fn name(t: &Tournament, i: u32) -> String {
    t.players()[i as usize].name.clone()
}

/// Records results of the last round: one result per table in order.
pub fn results(t: &mut Tournament, results: &[&str]) {
    let round = t.rounds().len() as u32;
    for (k, r) in results.iter().enumerate() {
        let outcome: Outcome = r.parse().expect("result");
        t.record(round, k as u32 + 1, outcome).expect("record");
    }
}

/// Standings as (place, name, values shown) lines.
pub fn table(t: &Tournament, s: &Standings) -> Vec<(u32, String, Vec<String>)> {
    let _ = t;
    s.rows
        .iter()
        .map(|r| {
            (
                r.place,
                r.name.clone(),
                (0..s.columns.len())
                    .map(|k| s.shown(r, k).to_string())
                    .collect(),
            )
        })
        .collect()
}

/// Names in standings order.
pub fn order(s: &Standings) -> Vec<String> {
    s.rows.iter().map(|r| r.name.clone()).collect()
}

/// The row values of an entrant by name.
pub fn values(s: &Standings, name: &str) -> Vec<String> {
    let row = s.rows.iter().find(|r| r.name == name).expect("row");
    (0..s.columns.len())
        .map(|k| s.shown(row, k).to_string())
        .collect()
}

/// The entrant of a player by name.
pub fn player(t: &Tournament, name: &str) -> Entrant {
    Entrant::Player(t.find_player(name).expect("player"))
}

/// Records the last round by winners' names: each game is won by the one
/// of its two players named in `winners`.
pub fn winners(t: &mut Tournament, winners: &[&str]) {
    let round = t.rounds().len() as u32;
    let games = t.rounds()[round as usize - 1].games.clone();
    for g in games {
        let black = name(t, g.black.0);
        let white = name(t, g.white.0);
        let color = if winners.contains(&black.as_str()) {
            shoutan_rules::Color::Black
        } else if winners.contains(&white.as_str()) {
            shoutan_rules::Color::White
        } else {
            panic!("no winner named for {black}-{white}")
        };
        t.record(round, g.table, Outcome::Win(color))
            .expect("record");
    }
}
