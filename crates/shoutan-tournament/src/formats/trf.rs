//! FIDE TRF-16, the report format chess pairing engines (bbpPairings,
//! JaVaFo) read, so any Swiss pairing made here can be checked by an
//! independent tool. Points are written on the chess scale (a win is 1).
//! Colours: the side that moves first is chess's white, so a weiqi player
//! with black is written `w`.

use std::fmt::Write;

use super::one_line;
use crate::{Cell, Entrant, PlayerResult, Tournament};

/// The TRF-16 text of an individual event, every paired round included (a
/// round without results yet shows its pairings with blank results).
#[must_use]
pub fn export(t: &Tournament) -> String {
    let s = t.standings_after(t.rounds().len() as u32);
    let mut out = String::new();
    let _ = writeln!(out, "012 {}", one_line(t.name()));
    if let Some(place) = t.place() {
        let _ = writeln!(out, "022 {}", one_line(place));
    }
    if let Some(dates) = t.dates().map(one_line) {
        let dates = dates.as_ref();
        let mut d = dates.split(',');
        let _ = writeln!(out, "042 {}", d.next().unwrap_or("").trim());
        let _ = writeln!(out, "052 {}", d.next().unwrap_or(dates).trim());
    }
    let _ = writeln!(out, "062 {}", t.players().len());
    let kind = match t.settings().system {
        crate::System::Swiss | crate::System::SwissElimination { .. } => "Swiss",
        crate::System::McMahon(_) => "McMahon",
        crate::System::RoundRobin { .. } => "Round robin",
        crate::System::Knockout { .. } => "Knockout",
        crate::System::BestOf { .. } => "Match",
        crate::System::Relay => "Relay",
    };
    let _ = writeln!(out, "092 {kind}");
    if let Some(tc) = t.time_control() {
        let _ = writeln!(out, "122 {}", one_line(tc));
    }
    let rounds = t.settings().rounds.unwrap_or(s.rounds).max(s.rounds);
    let _ = writeln!(out, "XXR {rounds}");
    let place = |e: Entrant| s.row(e).map_or(0, |r| r.place);
    for p in t.players() {
        let Some(row) = s.row(Entrant::Player(p.id)) else {
            continue;
        };
        let points = f64::from(points(&row.cells)) / 2.0;
        let full = one_line(&p.name);
        let mut name: String = full.chars().take(33).collect();
        if let Some((family, given)) = full.split_once(' ') {
            name = format!("{family}, {given}").chars().take(33).collect();
        }
        let mut line = format!(
            "001 {:>4} {:1}{:>3} {:<33} {:>4} {:>3} {:>11} {:>10} {:>4.1} {:>4}",
            p.id.0 + 1,
            "",
            "",
            name,
            p.rating.map_or_else(String::new, |r| r.to_string()),
            one_line(p.country.as_deref().unwrap_or(""))
                .chars()
                .take(3)
                .collect::<String>(),
            "",
            "",
            points,
            place(row.entrant)
        );
        for c in &row.cells {
            let _ = write!(line, "  {}", cell(c));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

fn points(cells: &[Cell]) -> u32 {
    cells
        .iter()
        .map(|c| match c {
            Cell::Game {
                result: Some(r), ..
            } => r.points(),
            Cell::Bye(p) => u32::from(*p),
            _ => 0,
        })
        .sum()
}

fn cell(c: &Cell) -> String {
    match c {
        Cell::Game {
            opponent: Entrant::Player(o),
            color,
            result,
            ..
        } => {
            let color = if *color == shoutan_rules::Color::Black {
                'w'
            } else {
                'b'
            };
            let r = match result {
                Some(PlayerResult::Win) => '1',
                Some(PlayerResult::Loss | PlayerResult::BothLose) => '0',
                Some(PlayerResult::Draw) => '=',
                Some(PlayerResult::ForfeitWin) => '+',
                Some(PlayerResult::ForfeitLoss) => '-',
                Some(PlayerResult::Void | PlayerResult::Unplayed) => return "0000 - Z".into(),
                None => ' ',
            };
            format!("{:>4} {color} {r}", o.0 + 1)
        }
        Cell::Game { .. } => "0000 - Z".into(),
        Cell::Bye(2) => "0000 - U".into(),
        Cell::Bye(1) => "0000 - H".into(),
        Cell::Bye(_) | Cell::Absent => "0000 - Z".into(),
    }
}
