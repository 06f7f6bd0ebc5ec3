//! An event's standings as fetched: both views serialized once per change
//! of the event, and compressed once, for every watcher who asks. A page
//! of 2,000 rows is refetched by every watcher at each change of a large
//! event; gzip makes it a sixth of the bytes on the wire.

use std::io::Write;
use std::sync::Arc;

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use flate2::Compression;
use flate2::write::GzEncoder;
use tokio::sync::Mutex;

use super::views;
use crate::error::ApiError;

/// Which view of the standings a fetch asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StandingsPart {
    /// Official and live ([`views::EventStandingsView`]).
    Whole,
    /// What a page shows now ([`views::CurrentStandingsView`]).
    Current,
}

/// A body as sent: plain, and gzip-compressed for clients that take it.
#[derive(Clone, Debug)]
pub struct StandingsBody {
    plain: Bytes,
    gzip: Bytes,
}

impl StandingsBody {
    fn new(plain: Vec<u8>) -> std::io::Result<StandingsBody> {
        let mut gzip = GzEncoder::new(Vec::with_capacity(plain.len() / 4), Compression::fast());
        gzip.write_all(&plain)?;
        Ok(StandingsBody {
            gzip: gzip.finish()?.into(),
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

/// Both views of an event's standings at one version of the event.
#[derive(Clone, Debug)]
pub(super) struct StandingsJson {
    whole: StandingsBody,
    current: StandingsBody,
}

impl StandingsJson {
    /// The standings of `t`, serialized and compressed (CPU work: run it
    /// off the async workers).
    pub(super) fn of(t: &shoutan_tournament::Tournament) -> Result<StandingsJson, ApiError> {
        let view = views::event_standings(t);
        let body = |json: serde_json::Result<Vec<u8>>| {
            StandingsBody::new(json.map_err(ApiError::internal)?).map_err(ApiError::internal)
        };
        Ok(StandingsJson {
            whole: body(serde_json::to_vec(&view))?,
            current: body(serde_json::to_vec(&view.current()))?,
        })
    }

    pub(super) fn part(&self, part: StandingsPart) -> StandingsBody {
        match part {
            StandingsPart::Whole => self.whole.clone(),
            StandingsPart::Current => self.current.clone(),
        }
    }
}

/// An event's standings as last computed, and the turn to compute them.
#[derive(Default)]
pub(super) struct StandingsPage {
    /// Both views, with the `next_seq` of the event they were computed
    /// from.
    pub(super) body: Option<(u64, StandingsJson)>,
    /// Held while the page is computed.
    pub(super) gate: Arc<Mutex<()>>,
}

impl StandingsPage {
    /// The view, if computed from the event at `wanted` or later.
    pub(super) fn at_least(&self, wanted: u64, part: StandingsPart) -> Option<StandingsBody> {
        self.body
            .as_ref()
            .filter(|(version, _)| *version >= wanted)
            .map(|(_, json)| json.part(part))
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
