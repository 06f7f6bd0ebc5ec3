//! Standings, crosstables and pairings for people: HTML (one
//! self-contained page to print or publish) and Markdown (for a club site
//! or a chat). Crosstable cells use the EGF notation: opponent's place,
//! `+`/`-`/`=`, then the colour's letter (`/b` or `/w` in weiqi and chess,
//! `/r` or `/b` in xiangqi) and the handicap (`12+/w2`); `!` marks a
//! forfeit, `0+`/`0=`/`0-` a bye, rest or absence.

use std::fmt::Write;

use crate::{Cell, ColorChoice, Entrant, PlayerResult, Standings, Tournament};

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A standalone HTML page.
    Html,
    /// A Markdown table.
    Markdown,
}

/// One crosstable cell in EGF notation, given each entrant's place and the
/// letters of the game's colours (first mover's first).
#[must_use]
pub fn cell_text(cell: &Cell, place_of: &dyn Fn(Entrant) -> u32, letters: [char; 2]) -> String {
    match cell {
        Cell::Game {
            opponent,
            color,
            handicap,
            result,
        } => {
            let (sign, forfeit) = match result {
                Some(PlayerResult::Win) => ("+", ""),
                Some(PlayerResult::ForfeitWin) => ("+", "!"),
                Some(PlayerResult::Loss | PlayerResult::BothLose) => ("-", ""),
                Some(PlayerResult::ForfeitLoss) => ("-", "!"),
                Some(PlayerResult::Draw) => ("=", ""),
                Some(PlayerResult::Void) => ("×", ""),
                Some(PlayerResult::Unplayed) => return "—".into(),
                None => ("?", ""),
            };
            let c = match color {
                shoutan_rules::Color::Black => letters[0],
                shoutan_rules::Color::White => letters[1],
            };
            let h = if *handicap > 0 {
                handicap.to_string()
            } else {
                String::new()
            };
            format!("{}{sign}{forfeit}/{c}{h}", place_of(*opponent))
        }
        Cell::Bye(2) => "0+".into(),
        Cell::Bye(1) => "0=".into(),
        Cell::Bye(_) | Cell::Absent => "0-".into(),
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn md(s: &str) -> String {
    s.replace('|', "\\|")
}

/// Who an entrant is, in short: rank, club, country.
fn describe(t: &Tournament, e: Entrant) -> (String, String) {
    match e {
        Entrant::Player(p) => t.player(p).map_or_else(Default::default, |p| {
            let rank = p.rank.map_or_else(String::new, |r| r.to_string());
            let from = [p.club.as_deref(), p.country.as_deref()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(", ");
            (rank, from)
        }),
        Entrant::Team(_) => (String::new(), String::new()),
    }
}

/// The standings with the crosstable; in a team total-score event, the
/// team standings follow with each team's counted members.
#[must_use]
pub fn standings(t: &Tournament, s: &Standings, format: Format) -> String {
    let title = format!("{} — standings after round {}", t.name(), s.rounds);
    let mut body = individual_standings(t, s, &title, format);
    if let Some(teams) = t.team_standings(s) {
        body.push('\n');
        body.push_str(&team_standings(t, s, &teams, format));
    }
    if let Some(qualifiers) = t.certification() {
        body.push('\n');
        body.push_str(&certification(t, &qualifiers, format));
    }
    page(&title, &body, format)
}

/// A rank-certification event's result: who qualifies, on what record,
/// from which rank to which.
fn certification(t: &Tournament, qualifiers: &[crate::Qualifier], format: Format) -> String {
    let head: Vec<String> = ["Name", "Games", "Wins", "Rank", "Certified"]
        .map(str::to_owned)
        .to_vec();
    let rows: Vec<Vec<String>> = qualifiers
        .iter()
        .map(|q| {
            vec![
                t.player(q.player)
                    .map_or_else(String::new, |p| p.name.clone()),
                q.games.to_string(),
                q.wins.to_string(),
                q.from.to_string(),
                q.to.to_string(),
            ]
        })
        .collect();
    let note = if qualifiers.is_empty() {
        "Nobody meets the certification rule."
    } else {
        ""
    };
    section("Rank certification (段级位)", &head, &rows, note, format)
}

/// The team table of a team total-score event: place, team, the counted
/// members with their points, the sums, the best member's place.
fn team_standings(t: &Tournament, s: &Standings, teams: &Standings, format: Format) -> String {
    let history = t.history(s.rounds);
    let mut head: Vec<String> = vec!["Pl".into(), "Team".into(), "Members".into()];
    head.extend(teams.columns.iter().map(|c| c.header()));
    let rows: Vec<Vec<String>> = teams
        .rows
        .iter()
        .map(|row| {
            let members = row
                .members
                .iter()
                .map(|&p| {
                    let name = t.player(p).map_or("?", |x| x.name.as_str());
                    format!("{name} {}", history.points(p.index()))
                })
                .collect::<Vec<_>>()
                .join(", ");
            let mut line = vec![place_text(row), withdrawn_text(row), members];
            line.extend((0..teams.columns.len()).map(|k| teams.shown(row, k).to_string()));
            line
        })
        .collect();
    let title = format!("{} — team standings after round {}", t.name(), s.rounds);
    section(&title, &head, &rows, playoff_note(teams), format)
}

fn playoff_note(s: &Standings) -> &'static str {
    if s.rows.iter().any(|r| r.playoff) {
        "* tied: a playoff decides the place"
    } else {
        ""
    }
}

fn place_text(row: &crate::Row) -> String {
    format!(
        "{}{}",
        row.place,
        if row.playoff {
            "*"
        } else if row.shared {
            "="
        } else {
            ""
        }
    )
}

fn withdrawn_text(row: &crate::Row) -> String {
    if row.withdrawn {
        format!("{} (withdrawn)", row.name)
    } else {
        row.name.clone()
    }
}

fn individual_standings(t: &Tournament, s: &Standings, title: &str, format: Format) -> String {
    let place_of = |e: Entrant| s.row(e).map_or(0, |r| r.place);
    let letters = s.discipline.rules().color_letters();
    let mut head: Vec<String> = vec!["Pl".into(), "Name".into(), "Rank".into(), "From".into()];
    head.extend(s.columns.iter().map(|c| c.header()));
    head.extend((1..=s.rounds).map(|r| format!("R{r}")));
    let rows: Vec<Vec<String>> = s
        .rows
        .iter()
        .map(|row| {
            let (rank, from) = describe(t, row.entrant);
            let mut line = vec![place_text(row), withdrawn_text(row), rank, from];
            line.extend((0..s.columns.len()).map(|k| s.shown(row, k).to_string()));
            line.extend(row.cells.iter().map(|c| cell_text(c, &place_of, letters)));
            line
        })
        .collect();
    section(title, &head, &rows, playoff_note(s), format)
}

/// The pairings of a round: table, black, white, handicap, result.
#[must_use]
pub fn pairings(t: &Tournament, round: u32, format: Format) -> String {
    let Some(r) = round
        .checked_sub(1)
        .and_then(|i| t.rounds().get(i as usize))
    else {
        return String::new();
    };
    let name = |p: crate::PlayerId| {
        t.player(p).map_or_else(String::new, |x| match x.rank {
            Some(rank) => format!("{} ({rank})", x.name),
            None => x.name.clone(),
        })
    };
    // The first mover's column first, named as the game names it.
    let [first, second] = t.settings().discipline.rules().colors.map(|c| {
        let mut chars = c.chars();
        chars.next().map_or_else(String::new, |f| {
            f.to_uppercase().chain(chars).collect::<String>()
        })
    });
    let head: Vec<String> = ["Table", &first, &second, "Handicap", "Colours", "Result"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let mut rows: Vec<Vec<String>> = r
        .games
        .iter()
        .map(|g| {
            let colors = match g.colors {
                ColorChoice::Nigiri(n) => format!(
                    "nigiri ({} stones, {})",
                    n.stones,
                    if n.guess_odd { "odd" } else { "even" }
                ),
                ColorChoice::Handicap => "handicap".into(),
                ColorChoice::Schedule => "schedule".into(),
                ColorChoice::Pairing => "pairing".into(),
            };
            let table = match (g.board, g.match_round) {
                (Some((m, b)), Some(r)) => {
                    format!("{} (match {}, match round {r}, board {b})", g.table, m + 1)
                }
                (Some((m, b)), None) => format!("{} (match {}, board {b})", g.table, m + 1),
                _ => g.table.to_string(),
            };
            vec![
                table,
                name(g.black),
                name(g.white),
                if g.handicap > 0 {
                    g.handicap.to_string()
                } else {
                    String::new()
                },
                colors,
                g.outcome
                    .map_or_else(String::new, |o| t.settings().discipline.result_text(o)),
            ]
        })
        .collect();
    for b in &r.byes {
        let what = if b.points > 0 {
            format!("bye ({} points)", b.points)
        } else {
            "rest".to_owned()
        };
        rows.push(vec![
            String::new(),
            t.entrant_name(b.entrant).to_owned(),
            what,
            String::new(),
            String::new(),
            String::new(),
        ]);
    }
    let title = format!("{} — round {round}", t.name());
    page(&title, &section(&title, &head, &rows, "", format), format)
}

/// A titled table with a note under it.
fn section(
    title: &str,
    head: &[String],
    rows: &[Vec<String>],
    note: &str,
    format: Format,
) -> String {
    let mut out = String::new();
    match format {
        Format::Markdown => {
            let _ = writeln!(out, "## {}\n", md(title));
            let _ = writeln!(
                out,
                "| {} |",
                head.iter().map(|h| md(h)).collect::<Vec<_>>().join(" | ")
            );
            let _ = writeln!(
                out,
                "|{}|",
                head.iter().map(|_| "---").collect::<Vec<_>>().join("|")
            );
            for r in rows {
                let _ = writeln!(
                    out,
                    "| {} |",
                    r.iter().map(|c| md(c)).collect::<Vec<_>>().join(" | ")
                );
            }
            if !note.is_empty() {
                let _ = writeln!(out, "\n{note}");
            }
        }
        Format::Html => {
            let _ = writeln!(out, "<h1>{}</h1>\n<table>", esc(title));
            let _ = writeln!(
                out,
                "<tr>{}</tr>",
                head.iter()
                    .map(|h| format!("<th>{}</th>", esc(h)))
                    .collect::<String>()
            );
            for r in rows {
                let _ = writeln!(
                    out,
                    "<tr>{}</tr>",
                    r.iter()
                        .map(|c| format!("<td>{}</td>", esc(c)))
                        .collect::<String>()
                );
            }
            let _ = writeln!(out, "</table>");
            if !note.is_empty() {
                let _ = writeln!(out, "<p>{}</p>", esc(note));
            }
        }
    }
    out
}

/// Sections as one document: a standalone HTML page, or Markdown as is.
fn page(title: &str, body: &str, format: Format) -> String {
    match format {
        Format::Markdown => body.to_owned(),
        Format::Html => format!(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{}</title>\n<style>body{{font-family:sans-serif}}table{{border-collapse:collapse}}td,th{{border:1px solid #999;padding:2px 6px;text-align:left}}tr:nth-child(even){{background:#f3f3f3}}</style>\n</head><body>\n{body}</body></html>\n",
            esc(title)
        ),
    }
}
