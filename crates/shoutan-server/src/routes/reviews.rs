//! AI reviews of a finished game: the levels, the game's reviews (made, or
//! in progress with how far), and the one-click request; and reviews of a
//! record uploaded from the analysis board, known by the record's id.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use crate::AppState;
use crate::accounts::session::LoggedIn;
use crate::error::{ApiError, ErrorCode};
use crate::extract::{Body, Id, Params};
use crate::live::registry::load;
use crate::review::record::{MAX_SGF_BYTES, Record, RecordId};
use crate::review::{Level, LevelView, RecordReviewView, ReviewView, Reviews};

/// The largest body of `POST /api/reviews`: a record of [`MAX_SGF_BYTES`]
/// however its JSON escapes it (at most six bytes, `\u0001`, a byte), so
/// that a record over the limit is refused as such (`too_large`) rather
/// than as a body too large to read.
pub(super) const MAX_UPLOAD_BODY: usize = 6 * MAX_SGF_BYTES + 1024;

/// `GET /api/games/{id}/reviews`.
#[derive(Serialize)]
pub struct GameReviews {
    /// The levels one may ask for, with their cost.
    pub levels: Vec<LevelView>,
    /// The game's reviews, made or being made.
    pub reviews: Vec<ReviewView>,
}

/// `GET /api/reviews`.
#[derive(Serialize)]
pub struct ReviewLevels {
    /// The levels one may ask for, with their cost.
    pub levels: Vec<LevelView>,
}

/// `GET /api/reviews`: the levels a review may be asked at, for a record
/// not yet uploaded (a game's list names them with its reviews).
pub async fn levels() -> Json<ReviewLevels> {
    Json(ReviewLevels {
        levels: Reviews::levels(),
    })
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
    let level = level(&body.level)?;
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
    Ok((answer_status(&view), Json(view)).into_response())
}

/// The level named so, or `bad_level`.
fn level(name: &str) -> Result<Level, ApiError> {
    Level::named(name).ok_or_else(|| {
        ApiError::bad_request(
            ErrorCode::BadLevel,
            format!("{name:?} is no review level (quick or deep)"),
        )
    })
}

/// 200 for a review made already, 202 for one queued.
fn answer_status(view: &ReviewView) -> StatusCode {
    if view.status == "done" {
        StatusCode::OK
    } else {
        StatusCode::ACCEPTED
    }
}

/// `POST /api/reviews` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordReviewRequest {
    /// The record, SGF text.
    sgf: String,
    /// `quick` or `deep`.
    level: String,
}

/// `POST /api/reviews`: asks for a review of an uploaded record; 202 with
/// the review queued, or 200 with the one already made (by this upload of
/// the game or an earlier one, anyone's). A record that cannot be reviewed
/// is refused with what is wrong and nothing is stored.
pub async fn request_record(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Body(body): Body<RecordReviewRequest>,
) -> Result<Response, ApiError> {
    let level = level(&body.level)?;
    let record = Record::read(&body.sgf)?;
    let view = app
        .reviews
        .request_record(
            &app.store,
            record,
            body.sgf,
            level,
            user.id,
            crate::time::now_millis(),
        )
        .await?;
    Ok((answer_status(&view.review), Json(view)).into_response())
}

/// `GET /api/reviews/{id}` query.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordReviewQuery {
    /// `quick` or `deep`.
    level: String,
}

/// `GET /api/reviews/{id}?level=…`: the review of an uploaded record at a
/// level, made or in progress; 404 when none was asked for.
pub async fn record(
    State(app): State<AppState>,
    Path(text): Path<String>,
    Params(query): Params<RecordReviewQuery>,
) -> Result<Json<RecordReviewView>, ApiError> {
    let level = level(&query.level)?;
    let unknown = || {
        ApiError::not_found(format!(
            "no {} review of a record {text:?} was asked for",
            level.name()
        ))
    };
    let id: RecordId = text.parse().map_err(|_| unknown())?;
    let row = app
        .store
        .record_review(&id.to_string(), level.name())
        .await?
        .ok_or_else(unknown)?;
    app.reviews
        .record_view(id, &row)
        .map(Json)
        .ok_or_else(|| ApiError::internal(format!("review level {:?}", row.level)))
}
