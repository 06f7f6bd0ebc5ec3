//! AI reviews of a finished game: the levels, the game's reviews (made, or
//! in progress with how far), and the one-click request.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use super::extract::{Body, Id};
use crate::AppState;
use crate::accounts::session::LoggedIn;
use crate::error::{ApiError, ErrorCode};
use crate::live::registry::load;
use crate::review::{Level, LevelView, ReviewView, Reviews};

/// `GET /api/games/{id}/reviews`.
#[derive(Serialize)]
pub struct GameReviews {
    /// The levels one may ask for, with their cost.
    pub levels: Vec<LevelView>,
    /// The game's reviews, made or being made.
    pub reviews: Vec<ReviewView>,
}

/// `GET /api/games/{id}/reviews`: the game's reviews.
pub async fn list(State(app): State<AppState>, Id(id): Id) -> Result<Json<GameReviews>, ApiError> {
    if app.store.game(id).await?.is_none() {
        return Err(ApiError::not_found(format!("no game {id}")));
    }
    let reviews = app
        .store
        .reviews(id)
        .await?
        .iter()
        .filter_map(|row| app.reviews.view(row))
        .collect();
    Ok(Json(GameReviews {
        levels: Reviews::levels(),
        reviews,
    }))
}

/// `POST /api/games/{id}/reviews` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    /// `quick` or `deep`.
    level: String,
}

/// `POST /api/games/{id}/reviews`: asks for a review of a finished game;
/// 202 with the review queued, or 200 with the one already asked for.
pub async fn request(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Id(id): Id,
    Body(body): Body<ReviewRequest>,
) -> Result<Response, ApiError> {
    let level = Level::named(&body.level).ok_or_else(|| {
        ApiError::bad_request(
            ErrorCode::BadLevel,
            format!("{:?} is no review level (quick or deep)", body.level),
        )
    })?;
    let loaded = load(&*app.store, id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| ApiError::not_found(format!("no game {id}")))?;
    if !loaded.state.is_over() {
        return Err(ApiError::conflict(
            ErrorCode::GameLive,
            "the game is still being played; it can be reviewed once it is over",
        ));
    }
    let view = app
        .reviews
        .request(
            &app.store,
            loaded.state.game,
            id,
            level,
            user.id,
            crate::time::now_millis(),
        )
        .await?;
    let status = if view.status == "done" {
        StatusCode::OK
    } else {
        StatusCode::ACCEPTED
    };
    Ok((status, Json(view)).into_response())
}
