//! Cross-site request forgery: the session cookie is `SameSite=Lax`, and
//! on top of that every state-changing request (and every WebSocket
//! upgrade) must show it comes from our own pages:
//!
//! - an `Origin` header, when present, must be the server's own origin
//!   (scheme and the `Host` it was reached at) or a configured one;
//! - a state-changing request without `Origin` must carry the header
//!   `X-Shoutan-Request` (any value), which a cross-site form cannot send
//!   and a cross-site script cannot send without a CORS preflight that
//!   this server never grants.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::error::ApiError;

/// The header that proves a request without `Origin` is not a cross-site form.
pub const REQUEST_HEADER: &str = "x-shoutan-request";

/// Whether the request's `Origin` (if any) may act on this server.
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or_default();
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default();
    let own = !host.is_empty()
        && (origin == format!("http://{host}") || origin == format!("https://{host}"));
    if own || allowed.iter().any(|a| a == origin) {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            "cross_origin",
            format!("requests from {origin:?} are not accepted"),
        ))
    }
}

/// Checks a request before its handler runs.
pub fn check(method: &Method, headers: &HeaderMap, allowed: &[String]) -> Result<(), ApiError> {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return Ok(());
    }
    origin_allowed(headers, allowed)?;
    if headers.get(header::ORIGIN).is_none() && headers.get(REQUEST_HEADER).is_none() {
        return Err(ApiError::forbidden(
            "csrf",
            format!(
                "a state-changing request without Origin must carry the {REQUEST_HEADER} header"
            ),
        ));
    }
    Ok(())
}

/// The middleware form of [`check`].
pub async fn guard(State(app): State<AppState>, request: Request, next: Next) -> Response {
    match check(
        request.method(),
        request.headers(),
        &app.config.allowed_origins,
    ) {
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
        let allowed = vec!["https://play.example.org".to_owned()];
        let host = ("host", "go.local:8080");
        // Reads are never blocked.
        assert!(check(&Method::GET, &headers(&[host]), &allowed).is_ok());
        // Same origin, http or https.
        for origin in [
            "http://go.local:8080",
            "https://go.local:8080",
            "https://play.example.org",
        ] {
            let h = headers(&[host, ("origin", origin)]);
            assert!(check(&Method::POST, &h, &allowed).is_ok(), "{origin}");
        }
        // Another site: refused, with or without the header.
        let evil = headers(&[
            host,
            ("origin", "https://evil.example"),
            (REQUEST_HEADER, "1"),
        ]);
        assert_eq!(
            check(&Method::POST, &evil, &allowed).unwrap_err().code,
            "cross_origin"
        );
        // No Origin (curl, an old browser's form): the header is required.
        let bare = headers(&[host]);
        assert_eq!(
            check(&Method::DELETE, &bare, &allowed).unwrap_err().code,
            "csrf"
        );
        assert!(
            check(
                &Method::DELETE,
                &headers(&[host, (REQUEST_HEADER, "1")]),
                &allowed
            )
            .is_ok()
        );
    }
}
