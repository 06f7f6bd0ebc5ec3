//! What every watcher of an event fetches alike at each change: bodies
//! serialized once per version of the event and compressed once, served
//! to each fetch as they are. A large event's page is refetched by every
//! watcher at each change; gzip makes it a sixth of the bytes on the wire.

use std::collections::HashMap;
use std::hash::Hash;
use std::io::Write;

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use flate2::Compression;
use flate2::write::GzEncoder;
use serde::Serialize;

use crate::error::ApiError;

/// A body as sent: plain, and gzip-compressed for clients that take it.
#[derive(Clone, Debug)]
pub struct JsonBody {
    plain: Bytes,
    gzip: Bytes,
}

impl JsonBody {
    /// `view` serialized and compressed.
    pub(super) fn of(view: &impl Serialize) -> Result<JsonBody, ApiError> {
        let plain = serde_json::to_vec(view).map_err(ApiError::internal)?;
        let mut gzip = GzEncoder::new(Vec::with_capacity(plain.len() / 4), Compression::fast());
        gzip.write_all(&plain).map_err(ApiError::internal)?;
        Ok(JsonBody {
            gzip: gzip.finish().map_err(ApiError::internal)?.into(),
            plain: plain.into(),
        })
    }

    /// The answer to a request with `headers`: compressed when its
    /// `Accept-Encoding` takes gzip.
    #[must_use]
    pub fn response(self, headers: &HeaderMap) -> Response {
        let json = (
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        let vary = (header::VARY, HeaderValue::from_static("accept-encoding"));
        if accepts_gzip(headers) {
            let gzip = (header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            ([json, vary, gzip], self.gzip).into_response()
        } else {
            ([json, vary], self.plain).into_response()
        }
    }
}

/// Whether `Accept-Encoding` takes gzip: `gzip`, `x-gzip` or `*`, with no
/// `q=0`.
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let coding = parts.next().unwrap_or_default().to_ascii_lowercase();
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            matches!(coding.as_str(), "gzip" | "x-gzip" | "*") && !refused
        })
}

/// A view of an event that is the same for every viewer, other than the
/// standings (which have their own cache: they are computed off the
/// event's lock).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PublicView {
    /// The players and teams ([`super::views::EntrantsView`]).
    Entrants,
    /// One round's pairings ([`super::views::RoundView`]).
    Round(u32),
}

/// Values built from events, each with the event's version (its
/// `next_seq`) when it was built: what a fetch at that version or an
/// earlier one is served.
pub(super) struct Versioned<K, T>(HashMap<K, (u64, T)>);

impl<K, T> Default for Versioned<K, T> {
    fn default() -> Self {
        Versioned(HashMap::new())
    }
}

impl<K: Eq + Hash, T: Clone> Versioned<K, T> {
    /// The value of `key`, if built at `wanted` or later.
    pub(super) fn at_least(&self, key: &K, wanted: u64) -> Option<T> {
        self.0
            .get(key)
            .filter(|(version, _)| *version >= wanted)
            .map(|(_, value)| value.clone())
    }

    /// Keeps `value`, built at `version`.
    pub(super) fn keep(&mut self, key: K, version: u64, value: T) {
        self.0.insert(key, (version, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(accept: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for a in accept {
            h.append(header::ACCEPT_ENCODING, HeaderValue::from_str(a).unwrap());
        }
        h
    }

    #[test]
    fn gzip_only_when_the_request_takes_it() {
        for yes in [
            &["gzip"][..],
            &["gzip, deflate, br, zstd"],
            &["br", "GZIP;q=0.5"],
            &["*"],
            &["x-gzip"],
        ] {
            assert!(accepts_gzip(&headers(yes)), "{yes:?}");
        }
        for no in [
            &[][..],
            &["br"],
            &["gzip;q=0"],
            &["deflate, gzip; q=0.0"],
            &["identity"],
        ] {
            assert!(!accepts_gzip(&headers(no)), "{no:?}");
        }
    }
}
