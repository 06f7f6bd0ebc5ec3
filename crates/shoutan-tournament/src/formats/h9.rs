//! EGF results (`.h9`): the header lines and one line per player with
//! place, name, rank, country, club, the event's score columns and one
//! column per round (`<opponent place><+|-|=>/<b|w><handicap>`). Games not
//! played over the board (forfeits, byes, absences) are written `0+`, `0-`
//! or `0=` so the rating system ignores them.

use std::fmt::Write;

use super::one_line;
use crate::{Cell, Entrant, PlayerResult, Tournament};

/// The `.h9` text of an individual event's standings.
#[must_use]
pub fn export(t: &Tournament) -> String {
    let s = t.standings();
    let place_of = |e: Entrant| s.row(e).map_or(0, |r| r.place);
    let mut out = String::new();
    let handicap = match t.settings().system {
        crate::System::McMahon(m) if m.handicap.ceiling > 0 => format!("h{}", m.handicap.ceiling),
        _ => "h0".to_owned(),
    };
    let _ = writeln!(
        out,
        "; CL[{}]",
        if t.settings().system.is_swiss() {
            "A"
        } else {
            "B"
        }
    );
    let _ = writeln!(out, "; EV[{}]", one_line(t.name()));
    let _ = writeln!(out, "; PC[{}]", one_line(t.place().unwrap_or("")));
    let _ = writeln!(out, "; DT[{}]", one_line(t.dates().unwrap_or("")));
    let _ = writeln!(out, "; HA[{handicap}]");
    let _ = writeln!(out, "; KM[{}]", one_line(t.komi().unwrap_or("")));
    let _ = writeln!(out, "; TM[{}]", one_line(t.time_control().unwrap_or("")));
    let cols: Vec<String> = s.columns.iter().map(|c| c.header()).collect();
    let _ = writeln!(
        out,
        ";\n; Pl Name Str Co Club {} {}",
        cols.join(" "),
        (1..=s.rounds)
            .map(|r| r.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    for row in &s.rows {
        let Entrant::Player(id) = row.entrant else {
            continue;
        };
        let Some(p) = t.player(id) else { continue };
        let full = one_line(&p.name);
        let mut words = full.split_whitespace();
        let family = words.next().unwrap_or("?");
        let given: Vec<&str> = words.collect();
        let name = if given.is_empty() {
            family.to_owned()
        } else {
            format!("{family} {}", given.join("_"))
        };
        let token = |s: Option<&str>| {
            s.map_or_else(
                || "-".to_owned(),
                |x| one_line(x).split_whitespace().collect::<Vec<_>>().join("_"),
            )
        };
        let mut line = format!(
            "{:>4} {:<28} {:>3} {:<3} {:<6}",
            row.place,
            name,
            p.rank.map_or_else(|| "-".to_owned(), |r| r.to_string()),
            token(p.country.as_deref()),
            token(p.club.as_deref())
        );
        for k in 0..s.columns.len() {
            let _ = write!(line, " {:>5}", s.shown(row, k).to_string());
        }
        for c in &row.cells {
            let _ = write!(line, " {:>7}", cell(c, &place_of));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

fn cell(c: &Cell, place_of: &dyn Fn(Entrant) -> u32) -> String {
    match c {
        Cell::Game {
            opponent,
            color,
            handicap,
            result,
        } => {
            let sign = match result {
                Some(PlayerResult::Win) => "+",
                Some(PlayerResult::Loss | PlayerResult::BothLose) => "-",
                Some(PlayerResult::Draw) => "=",
                Some(PlayerResult::ForfeitWin) => return "0+".into(),
                Some(PlayerResult::ForfeitLoss | PlayerResult::Void | PlayerResult::Unplayed)
                | None => return "0-".into(),
            };
            let c = if *color == shoutan_rules::Color::Black {
                'b'
            } else {
                'w'
            };
            format!("{}{sign}/{c}{handicap}", place_of(*opponent))
        }
        Cell::Bye(2) => "0+".into(),
        Cell::Bye(1) => "0=".into(),
        Cell::Bye(_) | Cell::Absent => "0-".into(),
    }
}
