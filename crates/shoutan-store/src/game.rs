//! Games: the settings and players fixed at the start, the status and
//! result written at the end, and the archive's search.

use shoutan_rules::Color;

use crate::challenge::PlayerRef;
use crate::{RankStanding, Rating, StoreError, UserId};

/// A game's id.
pub type GameId = i64;

/// A game to store when a challenge is accepted.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Black.
    pub black: UserId,
    /// White.
    pub white: UserId,
    /// The board size (for the archive's search).
    pub size: u8,
    /// Whether the game changes ratings.
    pub rated: bool,
    /// The game's settings (JSON, the server's).
    pub settings: String,
    /// The simul (the challenge it was opened as) the game is a board of.
    pub simul: Option<i64>,
    /// When (ms since the Unix epoch).
    pub created_at: i64,
}

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    /// Being played (or counted).
    Live,
    /// Over, with a result.
    Finished,
    /// Cancelled before both players had moved: no result, not rated.
    Cancelled,
}

impl GameStatus {
    /// The stored word.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Live => "live",
            GameStatus::Finished => "finished",
            GameStatus::Cancelled => "cancelled",
        }
    }

    /// Reads the stored word.
    pub fn parse(s: &str) -> Result<GameStatus, StoreError> {
        match s {
            "live" => Ok(GameStatus::Live),
            "finished" => Ok(GameStatus::Finished),
            "cancelled" => Ok(GameStatus::Cancelled),
            other => Err(StoreError::Corrupt(format!("game status {other:?}"))),
        }
    }
}

/// A stored game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// Its id.
    pub id: GameId,
    /// Black.
    pub black: PlayerRef,
    /// White.
    pub white: PlayerRef,
    /// Board size.
    pub size: u8,
    /// Rated or casual.
    pub rated: bool,
    /// The settings (JSON).
    pub settings: String,
    /// Live, finished or cancelled.
    pub status: GameStatus,
    /// The result in international notation (`B+3.5`, `W+R`, `Draw`).
    pub result: Option<String>,
    /// The winner, if one player won.
    pub winner: Option<Color>,
    /// The rating changes of a rated game (JSON, the server's).
    pub ratings: Option<String>,
    /// When it began (ms since the Unix epoch).
    pub created_at: i64,
    /// When it ended.
    pub ended_at: Option<i64>,
}

/// The end of a game, written once.
#[derive(Clone, Debug)]
pub struct GameEnd {
    /// The game.
    pub game: GameId,
    /// Finished or cancelled.
    pub status: GameStatus,
    /// The result in international notation.
    pub result: Option<String>,
    /// The winner, if one player won.
    pub winner: Option<Color>,
    /// When (ms since the Unix epoch).
    pub ended_at: i64,
    /// New ratings of a rated game, with the change as the server describes
    /// it (JSON).
    pub ratings: Option<RatingUpdate>,
}

/// The new ratings after a rated game.
#[derive(Clone, Debug)]
pub struct RatingUpdate {
    /// Black's new rating.
    pub black: Rating,
    /// White's new rating.
    pub white: Rating,
    /// Black's shown rank after the game (`None`: still provisional).
    pub black_standing: Option<RankStanding>,
    /// White's shown rank after the game.
    pub white_standing: Option<RankStanding>,
    /// The change as the server shows it (JSON).
    pub summary: String,
}

/// How a game ended for the player whose archive is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The player won.
    Won,
    /// The player lost.
    Lost,
    /// A draw (和棋).
    Draw,
}

/// A search of one player's finished games, newest first.
#[derive(Clone, Debug, Default)]
pub struct ArchiveQuery {
    /// Only games against this player.
    pub opponent: Option<UserId>,
    /// Only games with this outcome for the player.
    pub outcome: Option<Outcome>,
    /// Only games on this board size.
    pub size: Option<u8>,
    /// Only games that ended at or after this instant (ms).
    pub from: Option<i64>,
    /// Only games that ended before this instant (ms).
    pub until: Option<i64>,
    /// Only games with a smaller id (the next page).
    pub before: Option<GameId>,
    /// At most this many (capped at 100).
    pub limit: u32,
}

impl ArchiveQuery {
    /// The page size, between 1 and 100 (20 when unset).
    #[must_use]
    pub fn page_size(&self) -> i64 {
        match self.limit {
            0 => 20,
            n => i64::from(n.min(100)),
        }
    }
}

pub(crate) fn color_word(c: Option<Color>) -> Option<&'static str> {
    c.map(Color::name)
}

pub(crate) fn parse_color(s: Option<String>) -> Result<Option<Color>, StoreError> {
    match s.as_deref() {
        None => Ok(None),
        Some("black") => Ok(Some(Color::Black)),
        Some("white") => Ok(Some(Color::White)),
        Some(other) => Err(StoreError::Corrupt(format!("colour {other:?}"))),
    }
}

/// A value bound into an archive query.
#[derive(Clone, Debug)]
pub(crate) enum SqlValue {
    /// An integer.
    Int(i64),
    /// A text.
    Text(&'static str),
}

/// The `WHERE` clause (after the player's own condition) and its values for
/// an archive search, with `ph(n)` writing the n-th placeholder (from 1) in
/// the database's dialect. The player's id is placeholder 1.
pub(crate) fn archive_filter(
    user: UserId,
    q: &ArchiveQuery,
    ph: fn(usize) -> String,
) -> (String, Vec<SqlValue>) {
    let mut values = vec![SqlValue::Int(user)];
    let mut sql = format!(
        "(g.black_id = {p} OR g.white_id = {p}) AND g.status = 'finished'",
        p = ph(1)
    );
    let push = |values: &mut Vec<SqlValue>, v: SqlValue| {
        values.push(v);
        ph(values.len())
    };
    if let Some(opponent) = q.opponent {
        let o = push(&mut values, SqlValue::Int(opponent));
        sql += &format!(" AND (g.black_id = {o} OR g.white_id = {o})");
    }
    if let Some(outcome) = q.outcome {
        let me = ph(1);
        sql += &match outcome {
            Outcome::Won => format!(
                " AND ((g.black_id = {me} AND g.winner = 'black') OR (g.white_id = {me} AND g.winner = 'white'))"
            ),
            Outcome::Lost => format!(
                " AND ((g.black_id = {me} AND g.winner = 'white') OR (g.white_id = {me} AND g.winner = 'black'))"
            ),
            Outcome::Draw => {
                let d = push(&mut values, SqlValue::Text("Draw"));
                format!(" AND g.result = {d}")
            }
        };
    }
    if let Some(size) = q.size {
        let s = push(&mut values, SqlValue::Int(i64::from(size)));
        sql += &format!(" AND CAST(g.size AS BIGINT) = {s}");
    }
    if let Some(from) = q.from {
        let f = push(&mut values, SqlValue::Int(from));
        sql += &format!(" AND g.ended_at >= {f}");
    }
    if let Some(until) = q.until {
        let u = push(&mut values, SqlValue::Int(until));
        sql += &format!(" AND g.ended_at < {u}");
    }
    if let Some(before) = q.before {
        let b = push(&mut values, SqlValue::Int(before));
        sql += &format!(" AND g.id < {b}");
    }
    (sql, values)
}

/// The columns of a game row with both players' names, in the order the
/// backends read them.
pub(crate) const GAME_COLUMNS: &str = "g.id, g.black_id, b.name, g.white_id, w.name, g.size, \
     g.rated, g.settings, g.status, g.result, g.winner, g.ratings, g.created_at, g.ended_at \
     FROM games g JOIN users b ON b.id = g.black_id JOIN users w ON w.id = g.white_id";
