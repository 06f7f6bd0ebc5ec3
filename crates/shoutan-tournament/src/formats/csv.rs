//! Player lists from CSV (a spreadsheet export): a header row naming the
//! columns in any order — `name` (required), `rank`, `rating`, `club`,
//! `country`, and `team` for team events (members join in file order).
//! Chinese headers work too: 姓名, 段位/级别, 等级分, 单位/俱乐部, 国家/地区, 队名.

use crate::{NewPlayer, PlayerId, Tournament, TournamentError};

/// A line that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CsvError {
    /// Not CSV, or no header.
    #[error("CSV: {0}")]
    Format(String),
    /// The header has no name column.
    #[error("the CSV header has no `name` column (found: {0})")]
    NoName(String),
    /// A field is wrong.
    #[error("line {line}: {message}")]
    Line {
        /// Line number in the file, from 1 (the header is line 1).
        line: u64,
        /// What is wrong.
        message: String,
    },
}

/// One player from the file, with the team named on the line.
#[derive(Clone, Debug, PartialEq)]
pub struct CsvPlayer {
    /// The player.
    pub player: NewPlayer,
    /// The team, if the file names one.
    pub team: Option<String>,
}

fn column(header: &str) -> Option<&'static str> {
    let h = header.trim().trim_start_matches('\u{feff}').to_lowercase();
    Some(match h.as_str() {
        "name" | "player" | "full name" | "姓名" | "选手" => "name",
        "rank" | "grade" | "level" | "段位" | "级别" | "棋力" => "rank",
        "rating" | "elo" | "gor" | "等级分" => "rating",
        "club" | "affiliation" | "单位" | "俱乐部" => "club",
        "country" | "federation" | "国家" | "地区" | "国家/地区" => "country",
        "team" | "队" | "队名" => "team",
        _ => return None,
    })
}

/// Reads players from CSV text.
///
/// ```
/// use shoutan_tournament::formats::csv::read_players;
/// let players = read_players("name,rank,club\nLi Wei,3d,Beijing\nAnna Berg,2k,Oslo\n").unwrap();
/// assert_eq!(players.len(), 2);
/// assert_eq!(players[1].player.rank.unwrap().to_string(), "2k");
/// ```
///
/// # Errors
/// No header or name column, a bad rank or rating (with its line number).
pub fn read_players(text: &str) -> Result<Vec<CsvPlayer>, CsvError> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| CsvError::Format(e.to_string()))?
        .clone();
    let cols: Vec<Option<&str>> = headers.iter().map(column).collect();
    if !cols.contains(&Some("name")) {
        return Err(CsvError::NoName(
            headers.iter().collect::<Vec<_>>().join(", "),
        ));
    }
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| CsvError::Format(e.to_string()))?;
        let line = record.position().map_or(0, csv::Position::line);
        if record.iter().all(str::is_empty) {
            continue;
        }
        let err = |message: String| CsvError::Line { line, message };
        let mut p = CsvPlayer {
            player: NewPlayer::default(),
            team: None,
        };
        for (value, col) in record.iter().zip(&cols) {
            let value = value.trim();
            if value.is_empty() {
                continue;
            }
            match col {
                Some("name") => p.player.name = value.to_owned(),
                Some("rank") => {
                    p.player.rank = Some(
                        value
                            .parse()
                            .map_err(|e: shoutan_rules::RankError| err(e.to_string()))?,
                    )
                }
                Some("rating") => {
                    let r: f64 = value
                        .parse()
                        .map_err(|_| err(format!("{value:?} is not a rating")))?;
                    p.player.rating = Some(r.round() as i32);
                }
                Some("club") => p.player.club = Some(value.to_owned()),
                Some("country") => p.player.country = Some(value.to_owned()),
                Some("team") => p.team = Some(value.to_owned()),
                _ => {}
            }
        }
        if p.player.name.is_empty() {
            return Err(err("no name".into()));
        }
        out.push(p);
    }
    Ok(out)
}

/// Why an import failed: the file, or the event refusing a player.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// The file.
    #[error(transparent)]
    Csv(#[from] CsvError),
    /// The event refused a player or team.
    #[error("{name}: {source}")]
    Refused {
        /// The player or team.
        name: String,
        /// Why.
        source: TournamentError,
    },
}

/// Registers every player of a CSV file (and, in a team event, their teams
/// in file order), all or nothing.
///
/// # Errors
/// A bad file, or a player the event refuses; the event is then unchanged.
pub fn import_players(t: &mut Tournament, text: &str) -> Result<Vec<PlayerId>, ImportError> {
    let players = read_players(text)?;
    let mut next = t.clone();
    let mut ids = Vec::with_capacity(players.len());
    let mut teams: Vec<(String, Vec<PlayerId>)> = Vec::new();
    for p in players {
        let name = p.player.name.clone();
        let id = next
            .add_player(p.player)
            .map_err(|source| ImportError::Refused { name, source })?;
        ids.push(id);
        if let Some(team) = p.team {
            match teams
                .iter_mut()
                .find(|(n, _)| n.to_lowercase() == team.to_lowercase())
            {
                Some((_, members)) => members.push(id),
                None => teams.push((team, vec![id])),
            }
        }
    }
    for (name, members) in teams {
        next.add_team(&name, &members)
            .map_err(|source| ImportError::Refused { name, source })?;
    }
    *t = next;
    Ok(ids)
}
