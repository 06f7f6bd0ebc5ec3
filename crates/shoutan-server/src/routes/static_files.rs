//! The web client, embedded in the binary from the repository's `web/`
//! directory: running the server needs no Node.js and no files beside it.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// The files of `web/`.
#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/"]
#[exclude = "node_modules/*"]
#[exclude = "tests/*"]
struct Web;

/// The file at `path`; any path that is no file is the client's page
/// (`index.html`), which routes in the browser.
pub fn serve(path: &str) -> Response {
    let path = path.trim_start_matches('/');
    let (file, name) = match Web::get(path) {
        Some(file) if !path.is_empty() => (file, path),
        _ => match Web::get("index.html") {
            Some(file) => (file, "index.html"),
            None => {
                return (StatusCode::NOT_FOUND, "the web client is not built in").into_response();
            }
        },
    };
    let cache = if name == "index.html" {
        "no-cache"
    } else {
        "public, max-age=3600"
    };
    (
        [
            (header::CONTENT_TYPE, file.metadata.mimetype().to_owned()),
            (header::CACHE_CONTROL, cache.to_owned()),
        ],
        file.data,
    )
        .into_response()
}
