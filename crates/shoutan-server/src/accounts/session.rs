//! Login sessions: a random 256-bit token in an `HttpOnly` cookie; the
//! database keeps only its SHA-256, so a leaked database opens no session.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use sha2::{Digest, Sha256};
use shoutan_store::User;

use crate::AppState;
use crate::error::ApiError;

/// The cookie's name.
pub const COOKIE: &str = "shoutan_session";

/// A new session token (64 hex digits) and the hash to store.
pub fn new_token() -> Result<(String, [u8; 32]), getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let hash = token_hash(&token);
    Ok((token, hash))
}

/// The stored form of a token.
#[must_use]
pub fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// The session token in the request's cookies, if any.
#[must_use]
pub fn token_in(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.to_owned())
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The `Set-Cookie` value that gives the browser the session (or, with
/// `None`, takes it away).
#[must_use]
pub fn set_cookie(token: Option<&str>, max_age_secs: u64, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    match token {
        Some(t) => {
            format!("{COOKIE}={t}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_secs}{secure}")
        }
        None => format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}"),
    }
}

/// The user of the request's session, if it has a valid one.
pub async fn user_of(app: &AppState, headers: &HeaderMap) -> Result<Option<User>, ApiError> {
    match token_in(headers) {
        None => Ok(None),
        Some(token) => Ok(app
            .store
            .session_user(token_hash(&token), crate::time::now_millis())
            .await?),
    }
}

/// A handler argument: the logged-in user, or 401.
pub struct LoggedIn(pub User);

impl FromRequestParts<AppState> for LoggedIn {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        user_of(app, &parts.headers)
            .await?
            .map(LoggedIn)
            .ok_or_else(ApiError::unauthorized)
    }
}

/// A handler argument: the logged-in user if any (spectators may be
/// anonymous).
pub struct Visitor(pub Option<User>);

impl FromRequestParts<AppState> for Visitor {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        Ok(Visitor(user_of(app, &parts.headers).await?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn tokens_are_random_and_only_their_hash_is_kept() {
        let (a, ha) = new_token().unwrap();
        let (b, _) = new_token().unwrap();
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_eq!(token_hash(&a), ha);
        assert_ne!(&ha[..], a.as_bytes());
    }

    #[test]
    fn the_cookie_is_found_among_others_and_checked() {
        let token = "ab".repeat(32);
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("theme=dark; {COOKIE}={token}; x=1")).unwrap(),
        );
        assert_eq!(token_in(&h), Some(token));
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("shoutan_session=../../etc"),
        );
        assert_eq!(token_in(&h), None);
    }

    #[test]
    fn the_cookie_is_http_only_and_lax() {
        let c = set_cookie(Some("t"), 60, true);
        assert_eq!(
            c,
            "shoutan_session=t; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Secure"
        );
        assert!(set_cookie(None, 60, false).contains("Max-Age=0"));
    }
}
