//! Security headers on every answer of the router (pages, files, API,
//! errors). The Content-Security-Policy fits the embedded web client: its
//! scripts are ES modules from `/js/` (no inline script, no `eval`), its
//! styles come from `/css/` (inline `style` is only set through the CSSOM,
//! which CSP allows), its sounds are made with the Web Audio API and its
//! voice with speech synthesis (no media files), and it talks to its own
//! origin only, over `fetch` and WebSockets.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

use super::origins::Origins;

/// The headers, built once.
pub struct SecurityHeaders(Vec<(HeaderName, HeaderValue)>);

impl SecurityHeaders {
    /// The headers for a server with these public origins.
    #[must_use]
    pub fn new(origins: &Origins) -> SecurityHeaders {
        let mut connect = vec!["'self'".to_owned()];
        connect.extend(origins.websocket_forms());
        let policy = format!(
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; \
             font-src 'self'; connect-src {}; media-src 'none'; object-src 'none'; \
             frame-src 'none'; worker-src 'self'; manifest-src 'self'; base-uri 'none'; \
             form-action 'self'; frame-ancestors 'none'",
            connect.join(" ")
        );
        let mut headers = vec![
            (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
            (
                header::REFERRER_POLICY,
                HeaderValue::from_static("same-origin"),
            ),
            (
                HeaderName::from_static("cross-origin-opener-policy"),
                HeaderValue::from_static("same-origin"),
            ),
        ];
        // Origins are checked URLs: the policy is a valid header value.
        if let Ok(policy) = HeaderValue::from_str(&policy) {
            headers.push((header::CONTENT_SECURITY_POLICY, policy));
        }
        SecurityHeaders(headers)
    }

    /// The headers, by name.
    #[must_use]
    pub fn get(&self, name: &HeaderName) -> Option<&HeaderValue> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

/// The middleware that adds them.
pub async fn add(
    State(headers): State<Arc<SecurityHeaders>>,
    request: Request,
    next: Next,
) -> Response {
    let mut response = next.run(request).await;
    let out = response.headers_mut();
    for (name, value) in &headers.0 {
        out.insert(name.clone(), value.clone());
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_names_our_websocket_origins() {
        let origins = Origins::for_listener(
            &["https://play.example.org".to_owned()],
            "127.0.0.1:8080".parse().unwrap(),
        );
        let headers = SecurityHeaders::new(&origins);
        let csp = headers
            .get(&header::CONTENT_SECURITY_POLICY)
            .unwrap()
            .to_str()
            .unwrap();
        assert!(
            csp.contains("connect-src 'self' wss://play.example.org;"),
            "{csp}"
        );
        assert!(csp.contains("script-src 'self';") && !csp.contains("unsafe"));
        assert_eq!(headers.get(&header::X_FRAME_OPTIONS).unwrap(), "DENY");
    }
}
