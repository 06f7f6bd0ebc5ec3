//! The HTTP API: one table of routes, from which the router is built and
//! against which the OpenAPI document is checked.

mod accounts;
pub(crate) mod challenges;
mod computer;
mod games;
mod judgement;
mod me;
mod moderation;
mod players;
mod problems;
mod proverbs;
mod reviews;
mod solve;
mod static_files;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{Method, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, delete, get, post, put};

use crate::AppState;
use crate::accounts::csrf;
use crate::error::ApiError;
use crate::net::headers::SecurityHeaders;
use crate::net::origins::Origins;

/// The largest request body accepted (larger: 413), but for the upload
/// of a record to review, which takes its own.
const MAX_BODY: usize = 64 * 1024;

/// A route of the API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// Its method.
    pub method: Method,
    /// Its path, in the router's and OpenAPI's `{param}` syntax.
    pub path: &'static str,
}

fn table() -> Vec<(Route, MethodRouter<AppState>)> {
    let r = |method: Method, path: &'static str, handler: MethodRouter<AppState>| {
        (Route { method, path }, handler)
    };
    vec![
        r(Method::GET, "/api/health", get(games::health)),
        r(Method::GET, "/metrics", get(games::metrics)),
        r(Method::GET, "/api/rulesets", get(games::rulesets)),
        r(Method::POST, "/api/accounts", post(accounts::register)),
        r(Method::GET, "/api/session", get(accounts::me)),
        r(Method::POST, "/api/session", post(accounts::login)),
        r(Method::DELETE, "/api/session", delete(accounts::logout)),
        r(Method::GET, "/api/me/sessions", get(me::sessions)),
        r(
            Method::DELETE,
            "/api/me/sessions",
            delete(me::end_other_sessions),
        ),
        r(Method::POST, "/api/me/password", post(me::change_password)),
        r(Method::GET, "/api/me/relations", get(me::relations)),
        r(
            Method::PUT,
            "/api/me/relations/{name}",
            put(me::set_relation),
        ),
        r(
            Method::DELETE,
            "/api/me/relations/{name}",
            delete(me::clear_relation),
        ),
        r(Method::GET, "/api/me/notices", get(me::notices)),
        r(Method::GET, "/api/me/export", get(me::export)),
        r(Method::DELETE, "/api/me", delete(me::delete_account)),
        r(
            Method::POST,
            "/api/password-reset",
            post(me::reset_password),
        ),
        r(Method::POST, "/api/reports", post(moderation::report)),
        r(
            Method::GET,
            "/api/moderation/reports",
            get(moderation::queue),
        ),
        r(
            Method::POST,
            "/api/moderation/reports/{id}/dismiss",
            post(moderation::dismiss),
        ),
        r(Method::GET, "/api/moderation/actions", get(moderation::log)),
        r(
            Method::POST,
            "/api/moderation/actions",
            post(moderation::act),
        ),
        r(
            Method::POST,
            "/api/moderation/actions/{id}/lift",
            post(moderation::lift),
        ),
        r(
            Method::POST,
            "/api/moderation/reset-codes",
            post(moderation::reset_code),
        ),
        r(Method::GET, "/api/players", get(players::search)),
        r(Method::GET, "/api/players/{name}", get(players::profile)),
        r(
            Method::GET,
            "/api/players/{name}/games",
            get(players::archive),
        ),
        r(Method::GET, "/api/challenges", get(challenges::list)),
        r(Method::POST, "/api/challenges", post(challenges::create)),
        r(
            Method::POST,
            "/api/challenges/{id}/accept",
            post(challenges::accept),
        ),
        r(
            Method::DELETE,
            "/api/challenges/{id}",
            delete(challenges::cancel),
        ),
        r(
            Method::DELETE,
            "/api/challenges/{id}/seat",
            delete(challenges::leave),
        ),
        r(Method::GET, "/api/simuls/{id}", get(games::simul)),
        r(Method::GET, "/api/computer", get(computer::levels)),
        r(Method::POST, "/api/computer/games", post(computer::create)),
        r(
            Method::GET,
            "/api/lobby/ws",
            get(crate::lobby_socket::lobby_ws),
        ),
        r(Method::GET, "/api/games", get(games::live)),
        r(Method::GET, "/api/games/{id}", get(games::game)),
        r(Method::GET, "/api/games/{id}/sgf", get(games::sgf)),
        r(Method::GET, "/api/games/{id}/events", get(games::events)),
        r(Method::GET, "/api/games/{id}/reviews", get(reviews::list)),
        r(Method::POST, "/api/estimate", post(judgement::any)),
        r(Method::POST, "/api/solve", post(solve::solve)),
        r(Method::GET, "/api/problems", get(problems::sets)),
        r(Method::GET, "/api/proverbs", get(proverbs::list)),
        r(Method::GET, "/api/problems/{set}", get(problems::set)),
        r(
            Method::GET,
            "/api/problems/{set}/{n}",
            get(problems::problem),
        ),
        r(
            Method::POST,
            "/api/problems/{set}/{n}/moves",
            post(problems::play),
        ),
        r(
            Method::POST,
            "/api/problems/{set}/{n}/solution",
            post(problems::show_solution),
        ),
        r(
            Method::POST,
            "/api/problems/{set}/{n}/hint",
            post(problems::hint),
        ),
        r(
            Method::POST,
            "/api/games/{id}/estimate",
            post(judgement::of_game),
        ),
        r(
            Method::POST,
            "/api/games/{id}/reviews",
            post(reviews::request),
        ),
        r(Method::GET, "/api/reviews", get(reviews::levels)),
        r(
            Method::POST,
            "/api/reviews",
            post(reviews::request_record).layer(DefaultBodyLimit::max(reviews::MAX_UPLOAD_BODY)),
        ),
        r(Method::GET, "/api/reviews/{id}", get(reviews::record)),
        r(
            Method::GET,
            "/api/games/{id}/ws",
            get(crate::live::ws::game_ws),
        ),
    ]
}

/// Every route of the API.
#[must_use]
pub fn routes() -> Vec<Route> {
    table().into_iter().map(|(route, _)| route).collect()
}

/// The whole application: the API, and the web client for every other
/// path; the CSRF check against the public `origins` on the API, the
/// security `headers` on every answer.
pub fn router(app: AppState, origins: Arc<Origins>, headers: Arc<SecurityHeaders>) -> Router {
    let mut api = Router::new();
    for (route, handler) in table() {
        api = api.route(route.path, handler);
    }
    let api = api.merge(crate::events::routes::router());
    let api = api
        .layer(axum::middleware::from_fn_with_state(origins, csrf::guard))
        .layer(DefaultBodyLimit::max(MAX_BODY));
    Router::new()
        .merge(api)
        .fallback(fallback)
        .layer(axum::middleware::from_fn_with_state(
            headers,
            crate::net::headers::add,
        ))
        .with_state(app)
}

async fn fallback(uri: Uri) -> Response {
    if uri.path() == "/api" || uri.path().starts_with("/api/") {
        return ApiError::not_found(format!("no API route {}", uri.path())).into_response();
    }
    static_files::serve(uri.path())
}
