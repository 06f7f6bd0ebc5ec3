//! A player's own account: a new password, his sessions, whom he blocks
//! or mutes, what moderators told him, his data to take away, deleting the
//! account; and a password reset with a one-time code from the operator.

use std::io::Write;
use std::time::Instant;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use shoutan_store::{ArchiveQuery, Relation, User};

use super::accounts::check_password;
use crate::AppState;
use crate::accounts::session::{self, LoggedIn};
use crate::error::{ApiError, ErrorCode};
use crate::extract::Body;
use crate::net::client::ClientAddress;
use crate::net::connections::AddressKey;
use crate::time;

/// `POST /api/me/password`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    old: String,
    new: String,
}

fn wrong_password() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        ErrorCode::BadCredentials,
        "the password is wrong",
    )
}

/// Whether `password` is the user's, within the login's budgets.
async fn confirm(
    app: &AppState,
    user: &User,
    address: AddressKey,
    password: String,
) -> Result<(), ApiError> {
    app.login_throttle
        .attempt(
            &shoutan_store::name_key(&user.name),
            address,
            Instant::now(),
        )
        .map_err(|wait| ApiError::rate_limited(wait.as_secs() + 1))?;
    if app
        .hasher
        .verify(address, password, &user.password_hash)
        .await?
    {
        Ok(())
    } else {
        Err(wrong_password())
    }
}

/// Changes the password: the old one is required; every other session
/// ends.
pub async fn change_password(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Body(body): Body<PasswordChange>,
) -> Result<StatusCode, ApiError> {
    check_password(&body.new)?;
    let address = AddressKey::of(address);
    confirm(&app, &user, address, body.old).await?;
    let hash = app.hasher.hash(address, body.new).await?;
    let keep = session::token_in(&headers).map(|t| session::token_hash(&t));
    if app.store.set_password(user.id, hash, keep).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::conflict(
            ErrorCode::AccountGone,
            "the account is gone",
        ))
    }
}

/// A session, as its owner sees it.
#[derive(Serialize)]
pub struct SessionView {
    /// The browser it was opened from.
    client: String,
    created_at: i64,
    expires_at: i64,
    /// The session of this request.
    current: bool,
}

/// The player's sessions, newest first.
pub async fn sessions(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    headers: HeaderMap,
) -> Result<Json<Vec<SessionView>>, ApiError> {
    let current = session::token_in(&headers).map(|t| session::token_hash(&t));
    Ok(Json(
        app.store
            .sessions(user.id, time::now_millis())
            .await?
            .into_iter()
            .map(|s| SessionView {
                current: Some(s.token_hash) == current,
                client: s.client,
                created_at: s.created_at,
                expires_at: s.expires_at,
            })
            .collect(),
    ))
}

/// What "log out everywhere else" ended.
#[derive(Serialize)]
pub struct Ended {
    ended: u64,
}

/// Ends every session but this one.
pub async fn end_other_sessions(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    headers: HeaderMap,
) -> Result<Json<Ended>, ApiError> {
    let keep = session::token_in(&headers).map(|t| session::token_hash(&t));
    let ended = app.store.end_sessions(user.id, keep).await?;
    Ok(Json(Ended { ended }))
}

/// A player one has blocked or muted.
#[derive(Serialize)]
pub struct RelationView {
    player: String,
    kind: &'static str,
}

/// Whom the player blocks or mutes.
pub async fn relations(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
) -> Result<Json<Vec<RelationView>>, ApiError> {
    Ok(Json(
        app.store
            .relations(user.id)
            .await?
            .into_iter()
            .map(|(p, r)| RelationView {
                player: p.name,
                kind: r.as_str(),
            })
            .collect(),
    ))
}

/// `PUT /api/me/relations/{name}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RelationRequest {
    kind: String,
}

async fn other(app: &AppState, user: &User, name: &str) -> Result<User, ApiError> {
    let other = app
        .store
        .user_by_name(name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no player {name:?}")))?;
    if other.id == user.id {
        return Err(ApiError::bad_request(
            ErrorCode::BadRelation,
            "you cannot block or mute yourself",
        ));
    }
    Ok(other)
}

/// Blocks or mutes a player.
pub async fn set_relation(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Path(name): Path<String>,
    Body(body): Body<RelationRequest>,
) -> Result<StatusCode, ApiError> {
    let relation = match body.kind.as_str() {
        "block" => Relation::Block,
        "mute" => Relation::Mute,
        _ => {
            return Err(ApiError::bad_request(
                ErrorCode::BadRelation,
                "the kind is block or mute",
            ));
        }
    };
    let other = other(&app, &user, &name).await?;
    app.store
        .set_relation(user.id, other.id, Some(relation), time::now_millis())
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Unblocks or unmutes a player.
pub async fn clear_relation(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    let other = other(&app, &user, &name).await?;
    app.store
        .set_relation(user.id, other.id, None, time::now_millis())
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// What a moderator told the player (without the moderator's name).
#[derive(Serialize)]
pub struct NoticeView {
    kind: &'static str,
    reason: String,
    until: Option<i64>,
    game: Option<i64>,
    at: i64,
    holds: bool,
}

/// The moderators' actions concerning the player, newest first.
pub async fn notices(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
) -> Result<Json<Vec<NoticeView>>, ApiError> {
    let now = time::now_millis();
    Ok(Json(
        app.store
            .actions(Some(user.id), 100)
            .await?
            .into_iter()
            .map(|a| NoticeView {
                holds: a.holds(now),
                kind: a.kind.as_str(),
                reason: a.reason,
                until: a.until,
                game: a.game,
                at: a.at,
            })
            .collect(),
    ))
}

/// `DELETE /api/me`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deletion {
    password: String,
}

/// Deletes the account (the password confirms it): its games stay as
/// records under an anonymous name.
pub async fn delete_account(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    ClientAddress(address): ClientAddress,
    Body(body): Body<Deletion>,
) -> Result<Response, ApiError> {
    confirm(&app, &user, AddressKey::of(address), body.password).await?;
    if !app.lobby.games_of(user.id).is_empty() {
        return Err(ApiError::conflict(
            ErrorCode::GamesInPlay,
            "finish or resign your live games before deleting the account",
        ));
    }
    app.store
        .delete_account(user.id, time::now_millis())
        .await?;
    let cookie = session::set_cookie(None, 0, app.config.secure_cookies);
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response())
}

/// The most games an export carries.
const EXPORT_GAMES: usize = 20_000;

/// The player's data as a zip: `profile.json`, every finished game as
/// SGF (`games/ID.sgf`), the chat lines he wrote (`chat.json`), and his
/// problem rating and first tries (`problems.json`).
pub async fn export(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
) -> Result<Response, ApiError> {
    app.export_per_user
        .attempt(&user.id.to_string(), Instant::now())
        .map_err(|wait| ApiError::rate_limited(wait.as_secs() + 1))?;
    let mut ids = Vec::new();
    let mut query = ArchiveQuery {
        limit: 100,
        ..ArchiveQuery::default()
    };
    loop {
        let page = app.store.games_of(user.id, &query).await?;
        let Some(last) = page.last() else { break };
        query.before = Some(last.id);
        ids.extend(page.iter().map(|g| g.id));
        if ids.len() >= EXPORT_GAMES {
            break;
        }
    }
    let mut files = vec![(
        "profile.json".to_owned(),
        serde_json::to_vec_pretty(&serde_json::json!({
            "name": user.name,
            "declared_rank": user.declared_rank.to_string(),
            "rating": user.rating.rating,
            "deviation": user.rating.deviation,
            "rated_games": user.rated_games,
            "created_at": user.created_at,
            "roles": user.roles.iter().map(|r| r.as_str()).collect::<Vec<_>>(),
        }))
        .map_err(ApiError::internal)?,
    )];
    let mut chat = Vec::new();
    for id in ids {
        // Each game is replayed here: let live play through between them.
        tokio::task::yield_now().await;
        files.push((
            format!("games/{id}.sgf"),
            super::games::sgf_text(&app, id).await?.into_bytes(),
        ));
        for line in super::moderation::chat_of(&*app.store, id).await? {
            if line.user == user.id {
                chat.push(serde_json::json!({"game": id, "at": line.at, "text": line.text}));
            }
        }
    }
    files.push((
        "chat.json".to_owned(),
        serde_json::to_vec_pretty(&chat).map_err(ApiError::internal)?,
    ));
    let solver = app.store.solver_rating(user.id).await?;
    let tries: Vec<_> = app
        .store
        .problem_tries(user.id)
        .await?
        .into_iter()
        .map(|(problem, solved)| serde_json::json!({"problem": problem, "solved": solved}))
        .collect();
    files.push((
        "problems.json".to_owned(),
        serde_json::to_vec_pretty(&serde_json::json!({
            "rating": solver.map(|s| s.rating.rating),
            "deviation": solver.map(|s| s.rating.deviation),
            "first_tries": tries,
        }))
        .map_err(ApiError::internal)?,
    ));
    let zip = tokio::task::spawn_blocking(move || zip_of(files))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"shoutan-data.zip\"".to_owned(),
            ),
        ],
        zip,
    )
        .into_response())
}

fn zip_of(files: Vec<(String, Vec<u8>)>) -> Result<Vec<u8>, zip::result::ZipError> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in files {
        zip.start_file(name, options)?;
        zip.write_all(&bytes)?;
    }
    Ok(zip.finish()?.into_inner())
}

/// `POST /api/password-reset`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reset {
    code: String,
    password: String,
}

/// Sets a new password with a one-time code from the operator (`shoutan
/// admin reset-password`); every session of the account ends.
pub async fn reset_password(
    State(app): State<AppState>,
    ClientAddress(address): ClientAddress,
    Body(body): Body<Reset>,
) -> Result<StatusCode, ApiError> {
    let address = AddressKey::of(address);
    app.login_per_address
        .attempt(&address.to_string(), Instant::now())
        .map_err(|wait| ApiError::rate_limited(wait.as_secs() + 1))?;
    check_password(&body.password)?;
    let hash = app.hasher.hash(address, body.password).await?;
    let code = crate::accounts::reset_code::hash(&body.code);
    match app
        .store
        .use_reset_code(code, time::now_millis(), hash)
        .await?
    {
        Some(_) => Ok(StatusCode::NO_CONTENT),
        None => Err(ApiError::bad_request(
            ErrorCode::BadCode,
            "the code is unknown, used or expired; ask the operator for a new one",
        )),
    }
}
