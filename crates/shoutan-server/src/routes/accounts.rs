//! Registration, login, logout, and "who am I".

use std::time::Instant;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use shoutan_rules::Rank;
use shoutan_store::{NewUser, Session, User, name_key};
use unicode_normalization::UnicodeNormalization;

use crate::AppState;
use crate::accounts::session::{self, LoggedIn};
use crate::error::{ApiError, ErrorCode};
use crate::extract::Body;
use crate::net::client::ClientAddress;
use crate::net::connections::AddressKey;
use crate::rank_rule::RatingView;
use crate::rating::newcomer;
use crate::time;

/// A player as shown.
#[derive(Serialize)]
pub struct PlayerView {
    /// The user's id.
    pub id: i64,
    /// The name.
    pub name: String,
    /// The rank the player declared.
    pub declared_rank: Rank,
    /// The rating and the rank shown.
    pub rating: RatingView,
    /// Rated games played.
    pub rated_games: u32,
    /// When the account was made (ms).
    pub created_at: i64,
    /// The roles held besides playing (`administrator`, `moderator`,
    /// `arbiter`).
    pub roles: Vec<&'static str>,
}

impl From<&User> for PlayerView {
    fn from(u: &User) -> PlayerView {
        PlayerView {
            id: u.id,
            name: u.name.clone(),
            declared_rank: u.declared_rank,
            rating: RatingView::of(u),
            rated_games: u.rated_games,
            created_at: u.created_at,
            roles: u.roles.iter().map(shoutan_store::Role::as_str).collect(),
        }
    }
}

/// `POST /api/accounts`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Register {
    name: String,
    password: String,
    rank: String,
}

/// `POST /api/session`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Login {
    name: String,
    password: String,
}

pub(super) fn limited(
    limiter: &crate::accounts::rate_limit::RateLimiter,
    address: AddressKey,
) -> Result<(), ApiError> {
    limiter
        .attempt(&address.to_string(), Instant::now())
        .map_err(|wait| ApiError::rate_limited(wait.as_secs() + 1))
}

/// A password of 8 to 256 characters.
pub(crate) fn check_password(password: &str) -> Result<(), ApiError> {
    if (8..=256).contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(ApiError::bad_request(
            ErrorCode::BadPassword,
            "a password has 8 to 256 characters",
        ))
    }
}

/// A declared rank: 30k–1k, amateur 1d–7d (the 2002 rules), pro 1p–9p.
fn check_rank(text: &str) -> Result<Rank, ApiError> {
    let rank: Rank = text.parse().map_err(|e: shoutan_rules::RankError| {
        ApiError::bad_request(ErrorCode::BadRank, e.to_string())
    })?;
    if matches!(rank, Rank::Dan(d) if d > 7) {
        return Err(ApiError::bad_request(
            ErrorCode::BadRank,
            "amateur ranks go up to 7 dan; professionals declare 1p to 9p",
        ));
    }
    Ok(rank)
}

/// The longest client description kept with a session.
const MAX_CLIENT: usize = 200;

/// The browser a request came from, as its owner will recognise it in the
/// list of his sessions.
fn client_of(headers: &HeaderMap) -> String {
    headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .chars()
        .take(MAX_CLIENT)
        .collect()
}

async fn open_session(
    app: &AppState,
    user: &User,
    headers: &HeaderMap,
    status: StatusCode,
) -> Result<Response, ApiError> {
    let (token, token_hash) = session::new_token().map_err(ApiError::internal)?;
    let now = time::now_millis();
    let lifetime = app.config.session_lifetime;
    app.store
        .create_session(Session {
            token_hash,
            user: user.id,
            created_at: now,
            expires_at: now.saturating_add(i64::try_from(lifetime.as_millis()).unwrap_or(i64::MAX)),
            client: client_of(headers),
        })
        .await?;
    let cookie = session::set_cookie(Some(&token), lifetime.as_secs(), app.config.secure_cookies);
    Ok((
        status,
        [(header::SET_COOKIE, cookie)],
        Json(PlayerView::from(user)),
    )
        .into_response())
}

/// Creates an account and logs it in.
pub async fn register(
    State(app): State<AppState>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Body(body): Body<Register>,
) -> Result<Response, ApiError> {
    limited(&app.register_per_address, AddressKey::of(address))?;
    let name = crate::text::clean_name(&body.name)?;
    if name_key(&name).starts_with(shoutan_store::account::DELETED_PREFIX) {
        return Err(ApiError::bad_request(
            ErrorCode::ReservedName,
            format!(
                "names beginning with {:?} are deleted accounts'",
                shoutan_store::account::DELETED_PREFIX
            ),
        ));
    }
    if crate::computer::is_reserved(&name) {
        return Err(ApiError::bad_request(
            ErrorCode::ReservedName,
            format!(
                "names beginning with {:?} are the computer's",
                crate::computer::NAME_PREFIX
            ),
        ));
    }
    check_password(&body.password)?;
    let rank = check_rank(&body.rank)?;
    if app.store.user_by_name(&name).await?.is_some() {
        return Err(ApiError::conflict(
            ErrorCode::NameTaken,
            format!("the name {name:?} is taken"),
        ));
    }
    let password_hash = app
        .hasher
        .hash(AddressKey::of(address), body.password)
        .await?;
    let user = app
        .store
        .create_user(NewUser {
            name,
            password_hash,
            declared_rank: rank,
            rating: newcomer(rank),
            created_at: time::now_millis(),
        })
        .await?;
    open_session(&app, &user, &headers, StatusCode::CREATED).await
}

/// Logs in.
pub async fn login(
    State(app): State<AppState>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Body(body): Body<Login>,
) -> Result<Response, ApiError> {
    let address = AddressKey::of(address);
    limited(&app.login_per_address, address)?;
    let name: String = body.name.trim().nfc().collect();
    if name.chars().count() > crate::text::MAX_NAME {
        // No account has such a name; nor is it kept as a throttle's key.
        return Err(bad_credentials());
    }
    let account = name_key(&name);
    app.login_throttle
        .attempt(&account, address, Instant::now())
        .map_err(|wait| ApiError::rate_limited(wait.as_secs() + 1))?;
    let user = app.store.user_by_name(&name).await?;
    // An unknown name is checked against a decoy hash of the same cost, so
    // that it takes as long as a wrong password.
    let phc = user
        .as_ref()
        .map_or(app.decoy_hash.as_str(), |u| u.password_hash.as_str());
    let matches = app.hasher.verify(address, body.password, phc).await?;
    match user {
        Some(user) if matches => {
            app.login_throttle.succeeded(&account, address);
            // Told only to who knows the password.
            crate::moderation::exclusion(&*app.store, user.id, time::now_millis()).await?;
            open_session(&app, &user, &headers, StatusCode::OK).await
        }
        _ => Err(bad_credentials()),
    }
}

fn bad_credentials() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        ErrorCode::BadCredentials,
        "wrong name or password",
    )
}

/// Logs out: the session ends on the server and the cookie is cleared.
pub async fn logout(State(app): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(token) = session::token_in(&headers) {
        app.store
            .delete_session(session::token_hash(&token))
            .await?;
    }
    let cookie = session::set_cookie(None, 0, app.config.secure_cookies);
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response())
}

/// The logged-in player.
pub async fn me(LoggedIn(user): LoggedIn) -> Json<PlayerView> {
    Json(PlayerView::from(&user))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_checked() {
        assert_eq!(check_rank("5k").unwrap(), Rank::Kyu(5));
        assert_eq!(check_rank("7d").unwrap(), Rank::Dan(7));
        assert_eq!(check_rank("9p").unwrap(), Rank::Pro(9));
        assert_eq!(check_rank("8d").unwrap_err().code, ErrorCode::BadRank);
        assert_eq!(check_rank("31k").unwrap_err().code, ErrorCode::BadRank);
    }
}
