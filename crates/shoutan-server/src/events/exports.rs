//! Downloads of an event in the formats organisers exchange: OpenGotha
//! XML, EGF `.h9`, FIDE TRF-16 and a standalone HTML page of the
//! standings, all written by the tournament crate.

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use shoutan_tournament::formats::{h9, opengotha, report, trf};

use super::event::Event;
use crate::error::ApiError;

/// The export `format` (`opengotha`, `h9`, `trf`, `html`) as a download.
pub fn download(event: &Event, format: &str) -> Result<Response, ApiError> {
    let t = &event.tournament;
    let (text, mime, ext) = match format {
        "opengotha" => (opengotha::export(t), "application/xml", "xml"),
        "h9" => (h9::export(t), "text/plain; charset=utf-8", "h9"),
        "trf" => (trf::export(t), "text/plain; charset=utf-8", "trf"),
        "html" => (
            report::standings(t, &t.standings(), report::Format::Html),
            "text/html; charset=utf-8",
            "html",
        ),
        other => {
            return Err(ApiError::not_found(format!(
                "no export {other:?} (opengotha, h9, trf or html)"
            )));
        }
    };
    let disposition = format!("attachment; filename=\"event-{}.{ext}\"", event.id);
    let mut response = text.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(response)
}
