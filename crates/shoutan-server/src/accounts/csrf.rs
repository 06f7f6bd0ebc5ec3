//! Cross-site request forgery: the session cookie is `SameSite=Lax`, and
//! on top of that every state-changing request (and every WebSocket
//! upgrade) must show it comes from our own pages:
//!
//! - an `Origin` header, when present, must be one of the server's public
//!   origins ([`Origins`]: configured, never read from `Host`);
//! - a state-changing request without `Origin` must carry the header
//!   `X-Shoutan-Request` (any value), which a cross-site form cannot send
//!   and a cross-site script cannot send without a CORS preflight that
//!   this server never grants.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{ApiError, ErrorCode};
use crate::net::origins::Origins;

/// The header that proves a request without `Origin` is not a cross-site form.
pub const REQUEST_HEADER: &str = "x-shoutan-request";

/// Whether the request's `Origin` (if any) may act on this server.
pub fn origin_allowed(headers: &HeaderMap, origins: &Origins) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or_default();
    if origins.allows(origin) {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            ErrorCode::CrossOrigin,
            format!("requests from {origin:?} are not accepted"),
        ))
    }
}

/// Whether the request asks to become a WebSocket.
fn is_upgrade(headers: &HeaderMap) -> bool {
    headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

/// Checks a request before its handler runs.
pub fn check(method: &Method, headers: &HeaderMap, origins: &Origins) -> Result<(), ApiError> {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return if is_upgrade(headers) {
            origin_allowed(headers, origins)
        } else {
            Ok(())
        };
    }
    origin_allowed(headers, origins)?;
    if headers.get(header::ORIGIN).is_none() && headers.get(REQUEST_HEADER).is_none() {
        return Err(ApiError::forbidden(
            ErrorCode::Csrf,
            format!(
                "a state-changing request without Origin must carry the {REQUEST_HEADER} header"
            ),
        ));
    }
    Ok(())
}

/// The middleware form of [`check`].
pub async fn guard(State(origins): State<Arc<Origins>>, request: Request, next: Next) -> Response {
    match check(request.method(), request.headers(), &origins) {
        Ok(()) => next.run(request).await,
        Err(e) => e.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn reads_pass_and_writes_need_our_origin_or_the_header() {
        let origins = Origins::for_listener(
            &[
                "http://go.local:8080".to_owned(),
                "https://play.example.org".to_owned(),
            ],
            "127.0.0.1:8080".parse().unwrap(),
        );
        let host = ("host", "go.local:8080");
        // Reads are never blocked.
        assert!(check(&Method::GET, &headers(&[host]), &origins).is_ok());
        for origin in ["http://go.local:8080", "https://play.example.org"] {
            let h = headers(&[host, ("origin", origin)]);
            assert!(check(&Method::POST, &h, &origins).is_ok(), "{origin}");
        }
        // Another site: refused, with or without the header, and even when
        // it made the browser send its own name as the Host (DNS
        // rebinding).
        let evil = headers(&[
            host,
            ("origin", "https://evil.example"),
            (REQUEST_HEADER, "1"),
        ]);
        assert_eq!(
            check(&Method::POST, &evil, &origins).unwrap_err().code,
            ErrorCode::CrossOrigin
        );
        let rebound = headers(&[
            ("host", "evil.example:8080"),
            ("origin", "http://evil.example:8080"),
        ]);
        assert_eq!(
            check(&Method::POST, &rebound, &origins).unwrap_err().code,
            ErrorCode::CrossOrigin
        );
        // A WebSocket upgrade is a GET, and checked all the same.
        let socket = headers(&[("upgrade", "websocket"), ("origin", "http://evil.example")]);
        assert_eq!(
            check(&Method::GET, &socket, &origins).unwrap_err().code,
            ErrorCode::CrossOrigin
        );
        let ours = headers(&[("upgrade", "websocket"), ("origin", "http://go.local:8080")]);
        assert!(check(&Method::GET, &ours, &origins).is_ok());
        // No Origin (curl, an old browser's form): the header is required.
        let bare = headers(&[host]);
        assert_eq!(
            check(&Method::DELETE, &bare, &origins).unwrap_err().code,
            ErrorCode::Csrf
        );
        assert!(
            check(
                &Method::DELETE,
                &headers(&[host, (REQUEST_HEADER, "1")]),
                &origins
            )
            .is_ok()
        );
    }
}
