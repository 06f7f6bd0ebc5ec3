//! The server's public origins: the `scheme://host[:port]` its pages are
//! served from, as players' browsers see it. State-changing requests and
//! WebSocket upgrades are accepted only from pages of these origins (the
//! CSRF check), and the Content-Security-Policy names them for WebSockets.
//!
//! They are configured (`--origin https://play.example.org`), never taken
//! from the request's `Host` header: a page on another site can make a
//! browser send its own host there (DNS rebinding), and it would then pass
//! as "our own". Unconfigured, they are the listening address's `http`
//! forms, with `localhost` for a loopback or unspecified address — right
//! for a server used on the machine it runs on.
//!
//! ```
//! use shoutan_server::net::origins::Origins;
//! let local = Origins::for_listener(&[], "127.0.0.1:8080".parse().unwrap());
//! assert!(local.allows("http://localhost:8080"));
//! assert!(!local.allows("http://evil.example"));
//! let public = Origins::for_listener(
//!     &["https://play.example.org/".to_owned()],
//!     "127.0.0.1:8080".parse().unwrap(),
//! );
//! assert!(public.allows("https://play.example.org"));
//! assert!(!public.allows("http://127.0.0.1:8080"));
//! ```

use std::net::{IpAddr, SocketAddr};

/// The origins whose pages may act on this server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origins(Vec<String>);

impl Origins {
    /// The `configured` origins, or without any those of `listening`.
    #[must_use]
    pub fn for_listener(configured: &[String], listening: SocketAddr) -> Origins {
        if !configured.is_empty() {
            return Origins(configured.iter().map(|o| normalise(o)).collect());
        }
        let port = listening.port();
        let mut origins = Vec::new();
        let ip = listening.ip();
        if !ip.is_unspecified() {
            origins.push(match ip {
                IpAddr::V4(v4) => format!("http://{v4}:{port}"),
                IpAddr::V6(v6) => format!("http://[{v6}]:{port}"),
            });
        }
        if ip.is_loopback() || ip.is_unspecified() {
            for local in ["127.0.0.1", "localhost", "[::1]"] {
                let origin = format!("http://{local}:{port}");
                if !origins.contains(&origin) {
                    origins.push(origin);
                }
            }
        }
        Origins(origins)
    }

    /// Whether a page of `origin` (an `Origin` header's value) may act.
    #[must_use]
    pub fn allows(&self, origin: &str) -> bool {
        let origin = normalise(origin);
        self.0.contains(&origin)
    }

    /// The origins, as configured or derived.
    #[must_use]
    pub fn list(&self) -> &[String] {
        &self.0
    }

    /// Their WebSocket forms (`ws://`, `wss://`), for the CSP's
    /// `connect-src`: browsers before CSP 3 do not count them as `'self'`.
    /// An IPv6 literal (`[::1]`) has no CSP host-source form (Chromium
    /// reports it as invalid on every page): it is left to `'self'`.
    #[must_use]
    pub fn websocket_forms(&self) -> Vec<String> {
        self.0
            .iter()
            .filter(|o| !o.contains("://["))
            .filter_map(|o| {
                o.strip_prefix("https://")
                    .map(|rest| format!("wss://{rest}"))
                    .or_else(|| o.strip_prefix("http://").map(|rest| format!("ws://{rest}")))
            })
            .collect()
    }
}

/// An origin as browsers send it: lower case, no trailing slash, no
/// default port.
fn normalise(origin: &str) -> String {
    let origin = origin.trim().trim_end_matches('/').to_ascii_lowercase();
    origin
        .strip_suffix(":443")
        .filter(|o| o.starts_with("https://"))
        .or_else(|| {
            origin
                .strip_suffix(":80")
                .filter(|o| o.starts_with("http://"))
        })
        .map_or_else(|| origin.clone(), str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_from_the_listening_address_or_configured() {
        let all = Origins::for_listener(&[], "0.0.0.0:9000".parse().unwrap());
        assert_eq!(
            all.list(),
            [
                "http://127.0.0.1:9000",
                "http://localhost:9000",
                "http://[::1]:9000"
            ]
        );
        let lan = Origins::for_listener(&[], "192.168.1.5:8080".parse().unwrap());
        assert_eq!(lan.list(), ["http://192.168.1.5:8080"]);
        let v6 = Origins::for_listener(&[], "[::1]:8080".parse().unwrap());
        assert!(v6.allows("http://[::1]:8080") && v6.allows("http://localhost:8080"));
        assert_eq!(
            v6.websocket_forms(),
            ["ws://127.0.0.1:8080", "ws://localhost:8080"],
            "no IPv6 literal in a CSP source"
        );
        let public = Origins::for_listener(
            &[
                "HTTPS://Play.Example.org:443/".to_owned(),
                "http://go.local:80".to_owned(),
            ],
            "127.0.0.1:8080".parse().unwrap(),
        );
        assert!(public.allows("https://play.example.org"));
        assert!(public.allows("http://go.local"));
        assert!(!public.allows("http://play.example.org"));
        assert!(!public.allows("null"));
        assert_eq!(
            public.websocket_forms(),
            ["wss://play.example.org", "ws://go.local"]
        );
        assert_eq!(
            all.websocket_forms(),
            ["ws://127.0.0.1:9000", "ws://localhost:9000"]
        );
    }
}
