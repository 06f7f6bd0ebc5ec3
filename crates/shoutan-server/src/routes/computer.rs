//! Play the computer: its levels, and a game against one, started at once.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use shoutan_engine::{Level, MeasuredRank};
use shoutan_store::NewChallenge;

use super::accounts::PlayerView;
use super::challenges::begin;
use crate::AppState;
use crate::accounts::session::LoggedIn;
use crate::error::{ApiError, ErrorCode};
use crate::extract::Body;
use crate::lobby::StoredChallenge;
use crate::lobby::check_live_games;
use crate::rank_rule::shown_rank;
use crate::settings::{ChallengeRequest, GameSettings, Seat};
use crate::time;

/// Live games against the computer a player may have at once.
const MAX_LIVE: usize = 3;

/// A level of the computer.
#[derive(Serialize)]
pub struct ComputerLevel {
    /// 1 (beginner) to 10 (full strength).
    pub level: u8,
    /// Visits per move (`null` at full strength, which uses its clock).
    pub visits: Option<u64>,
    /// Its strength on each board size it was measured on, smallest first.
    pub ranks: &'static [MeasuredRank],
    /// Its account: name, rating, games.
    pub player: PlayerView,
}

/// `GET /api/computer`: the levels, weakest first.
pub async fn levels(State(app): State<AppState>) -> Result<Json<Vec<ComputerLevel>>, ApiError> {
    let mut out = Vec::new();
    for (level, account) in app.computer.accounts() {
        // The rating changes with games: read the account afresh.
        let user = app
            .store
            .user(account.id)
            .await?
            .unwrap_or_else(|| account.clone());
        out.push(ComputerLevel {
            level: level.get(),
            visits: level.visits(),
            ranks: level.measured_ranks(),
            player: PlayerView::from(&user),
        });
    }
    Ok(Json(out))
}

/// `POST /api/computer/games`: a challenge's settings plus `level`; the
/// computer accepts at once and the game starts. Without `rated` the game
/// is casual.
pub async fn create(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Body(body): Body<serde_json::Value>,
) -> Result<Response, ApiError> {
    let serde_json::Value::Object(mut fields) = body else {
        return Err(ApiError::bad_request(
            ErrorCode::Malformed,
            "the body is a JSON object",
        ));
    };
    let level = match fields.remove("level") {
        None => {
            return Err(ApiError::bad_request(
                ErrorCode::BadLevel,
                "say which level: 1 to 10",
            ));
        }
        Some(value) => value
            .as_u64()
            .and_then(|n| u8::try_from(n).ok())
            .and_then(|n| Level::new(n).ok())
            .ok_or_else(|| {
                ApiError::bad_request(
                    ErrorCode::BadLevel,
                    format!("level {value} is not between 1 and 10"),
                )
            })?,
    };
    if fields.contains_key("opponent") {
        return Err(ApiError::bad_request(
            ErrorCode::BadOpponent,
            "the opponent is the computer: give a level, not an opponent",
        ));
    }
    // A game against the computer is casual unless the player asks for rated.
    fields
        .entry("rated")
        .or_insert(serde_json::Value::Bool(false));
    let request: ChallengeRequest = serde_json::from_value(serde_json::Value::Object(fields))
        .map_err(|e| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                ErrorCode::Malformed,
                e.to_string(),
            )
        })?;
    let settings = request.check()?;
    let computer = app
        .computer
        .account(level)
        .cloned()
        .ok_or_else(|| ApiError::internal(format!("no account for level {level}")))?;
    let playing = app
        .lobby
        .games_of(user.id)
        .iter()
        .filter(|g| {
            [g.black.id, g.white.id]
                .iter()
                .any(|&id| app.computer.level_of(id).is_some())
        })
        .count();
    if playing >= MAX_LIVE {
        return Err(ApiError::conflict(
            ErrorCode::TooManyComputerGames,
            format!("you have {MAX_LIVE} games against the computer going; finish one first"),
        ));
    }
    let computer = app.store.user(computer.id).await?.unwrap_or(computer);
    let starting = app.game_starts.lock().await;
    check_live_games(&app, &[&user])?;
    let stored = StoredChallenge {
        settings,
        challenger_rank: shown_rank(&user),
    };
    let challenge = app
        .store
        .create_challenge(NewChallenge {
            challenger: user.id,
            opponent: Some(computer.id),
            settings: serde_json::to_string(&stored).map_err(ApiError::internal)?,
            seats: 1,
            created_at: time::now_millis(),
        })
        .await?;
    let game = GameSettings::resolve(
        &stored.settings,
        Seat::of(&user),
        Seat::of(&computer),
        &mut fastrand::Rng::new(),
    );
    let game = match game {
        Ok(game) => game,
        Err(e) => {
            app.store.delete_challenge(challenge.id).await?;
            return Err(e);
        }
    };
    let view = begin(&app, challenge.id, game, None).await?;
    drop(starting);
    Ok((StatusCode::CREATED, Json(view)).into_response())
}
