//! Players: search, profiles, and each player's archive of games.

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use shoutan_store::{ArchiveQuery, GameRow, Outcome, User};

use super::accounts::PlayerView;
use crate::AppState;
use crate::error::{ApiError, ErrorCode};
use crate::extract::Params;
use crate::lobby::LiveGameView;

/// `GET /api/players?q=`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchParams {
    q: String,
    limit: Option<u32>,
}

/// Players whose name starts with `q` (ignoring case).
pub async fn search(
    State(app): State<AppState>,
    Params(params): Params<SearchParams>,
) -> Result<Json<Vec<PlayerView>>, ApiError> {
    let q = params.q.trim();
    if q.is_empty() {
        return Ok(Json(Vec::new()));
    }
    let users = app
        .store
        .search_users(q, params.limit.unwrap_or(20).min(50))
        .await?;
    Ok(Json(users.iter().map(PlayerView::from).collect()))
}

/// A game in a list.
#[derive(Serialize)]
pub struct GameSummary {
    /// The game.
    pub id: i64,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// Board size.
    pub size: u8,
    /// Rated or casual.
    pub rated: bool,
    /// `live`, `finished` or `cancelled`.
    pub status: &'static str,
    /// The result in international notation.
    pub result: Option<String>,
    /// The winner.
    pub winner: Option<shoutan_rules::Color>,
    /// The rating changes of a rated game.
    pub ratings: Option<serde_json::Value>,
    /// When it began (ms).
    pub created_at: i64,
    /// When it ended (ms).
    pub ended_at: Option<i64>,
}

impl From<&GameRow> for GameSummary {
    fn from(g: &GameRow) -> GameSummary {
        GameSummary {
            id: g.id,
            black: g.black.name.clone(),
            white: g.white.name.clone(),
            size: g.size,
            rated: g.rated,
            status: g.status.as_str(),
            result: g.result.clone(),
            winner: g.winner,
            ratings: g
                .ratings
                .as_deref()
                .and_then(|r| serde_json::from_str(r).ok()),
            created_at: g.created_at,
            ended_at: g.ended_at,
        }
    }
}

async fn user(app: &AppState, name: &str) -> Result<User, ApiError> {
    app.store
        .user_by_name(name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no player {name:?}")))
}

/// A profile: the player, his live games and his last games.
#[derive(Serialize)]
pub struct Profile {
    /// The player.
    pub player: PlayerView,
    /// Games he is playing now.
    pub live_games: Vec<LiveGameView>,
    /// His last finished games, newest first.
    pub recent_games: Vec<GameSummary>,
}

/// `GET /api/players/{name}`.
pub async fn profile(
    State(app): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Profile>, ApiError> {
    let user = user(&app, &name).await?;
    let recent = app
        .store
        .games_of(
            user.id,
            &ArchiveQuery {
                limit: 10,
                ..ArchiveQuery::default()
            },
        )
        .await?;
    Ok(Json(Profile {
        player: PlayerView::from(&user),
        live_games: app.lobby.games_of(user.id),
        recent_games: recent.iter().map(GameSummary::from).collect(),
    }))
}

/// `GET /api/players/{name}/games`: the archive's search.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchiveParams {
    /// Only games against this player.
    opponent: Option<String>,
    /// `won`, `lost` or `draw`, for the player.
    result: Option<String>,
    /// Board size.
    size: Option<u8>,
    /// Games ended on or after this day (`YYYY-MM-DD`, UTC).
    from: Option<String>,
    /// Games ended on or before this day.
    to: Option<String>,
    /// The next page: games with a smaller id.
    before: Option<i64>,
    /// Page size (default 20, at most 100).
    limit: Option<u32>,
}

/// Midnight UTC of `YYYY-MM-DD`, in ms.
fn day_start(text: &str) -> Result<i64, ApiError> {
    let bad = || {
        ApiError::bad_request(
            ErrorCode::BadDate,
            format!("{text:?} is not a date (YYYY-MM-DD)"),
        )
    };
    let mut parts = text.splitn(3, '-');
    let mut number =
        || -> Result<i32, ApiError> { parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad) };
    let (y, m, d) = (number()?, number()?, number()?);
    let month = u8::try_from(m)
        .ok()
        .and_then(|m| ::time::Month::try_from(m).ok())
        .ok_or_else(bad)?;
    let day = u8::try_from(d).map_err(|_| bad())?;
    let date = ::time::Date::from_calendar_date(y, month, day).map_err(|_| bad())?;
    Ok(date.midnight().assume_utc().unix_timestamp() * 1000)
}

/// A player's finished games matching the search, newest first.
pub async fn archive(
    State(app): State<AppState>,
    Path(name): Path<String>,
    Params(params): Params<ArchiveParams>,
) -> Result<Json<Vec<GameSummary>>, ApiError> {
    let player = user(&app, &name).await?;
    let opponent = match &params.opponent {
        Some(o) => Some(user(&app, o).await?.id),
        None => None,
    };
    let outcome = match params.result.as_deref() {
        None => None,
        Some("won") => Some(Outcome::Won),
        Some("lost") => Some(Outcome::Lost),
        Some("draw") => Some(Outcome::Draw),
        Some(other) => {
            return Err(ApiError::bad_request(
                ErrorCode::BadResult,
                format!("{other:?}: result is won, lost or draw"),
            ));
        }
    };
    const DAY: i64 = 24 * 3600 * 1000;
    let query = ArchiveQuery {
        opponent,
        outcome,
        size: params.size,
        from: params.from.as_deref().map(day_start).transpose()?,
        until: params
            .to
            .as_deref()
            .map(|d| day_start(d).map(|t| t + DAY))
            .transpose()?,
        before: params.before,
        limit: params.limit.unwrap_or(20),
    };
    let games = app.store.games_of(player.id, &query).await?;
    Ok(Json(games.iter().map(GameSummary::from).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_days() {
        assert_eq!(day_start("1970-01-02").unwrap(), 86_400_000);
        assert_eq!(day_start("2024-02-29").unwrap(), 1_709_164_800_000);
        for bad in ["2023-02-29", "2024-13-01", "yesterday", "2024-1", ""] {
            assert_eq!(
                day_start(bad).unwrap_err().code,
                ErrorCode::BadDate,
                "{bad}"
            );
        }
    }
}
