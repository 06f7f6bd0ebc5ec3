//! Games: the live list, one game, its record (SGF) and its event log;
//! and the small fixed answers (health, metrics, rulesets).

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use shoutan_rules::Ruleset;
use shoutan_sgf::{GameInfo, record};

use crate::AppState;
use crate::accounts::session::Visitor;
use crate::error::{ApiError, ErrorCode};
use crate::extract::{Id, Params};
use crate::live::event::{ChatChannel, GameEvent, Record};
use crate::live::registry::load;
use crate::live::state::LiveState;
use crate::lobby::LiveGameView;
use crate::net::client::ClientAddress;
use crate::time;

/// `GET /api/health`.
pub async fn health(State(app): State<AppState>) -> Result<Json<serde_json::Value>, ApiError> {
    match app.storage.check(&*app.store).await {
        Ok(()) => Ok(Json(
            serde_json::json!({"ok": true, "version": env!("CARGO_PKG_VERSION")}),
        )),
        Err(what) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::StorageFailed,
            format!("the store does not take writes: {what}"),
        )),
    }
}

/// `GET /metrics`: Prometheus' text format, to the allowed addresses only
/// (to anyone else there is no such page).
pub async fn metrics(
    State(app): State<AppState>,
    ClientAddress(address): ClientAddress,
) -> Result<impl IntoResponse, ApiError> {
    if !app.config.metrics_from.contains(address) {
        return Err(ApiError::not_found("no such page"));
    }
    Ok((
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        crate::metrics::render(app.games.loaded(), app.lobby.live_games(0, 0).1),
    ))
}

/// A ruleset preset.
#[derive(Serialize)]
pub struct Preset {
    /// Its name.
    pub name: &'static str,
    /// Other names it goes by.
    pub aliases: &'static [&'static str],
    /// Its dimensions.
    pub ruleset: Ruleset,
}

/// `GET /api/rulesets`: the presets a challenge may name.
pub async fn rulesets() -> Json<Vec<Preset>> {
    Json(
        Ruleset::PRESETS
            .iter()
            .map(|&(name, aliases, ruleset)| Preset {
                name,
                aliases,
                ruleset,
            })
            .collect(),
    )
}

/// The most live games one request lists.
const MAX_PAGE: usize = 500;

/// `GET /api/games` paging.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Page {
    /// Games to skip.
    #[serde(default)]
    offset: usize,
    /// Games to list (at most 500; as many as a lobby snapshot when not
    /// given).
    limit: Option<usize>,
}

/// `GET /api/games`: the live games, newest first, a page at a time; the
/// count of all in `X-Total-Count`.
pub async fn live(
    State(app): State<AppState>,
    Params(page): Params<Page>,
) -> Result<Response, ApiError> {
    let limit = page.limit.unwrap_or(app.lobby.snapshot_size());
    if limit == 0 || limit > MAX_PAGE {
        return Err(ApiError::bad_request(
            ErrorCode::BadPage,
            format!("limit is 1 to {MAX_PAGE}"),
        ));
    }
    let (games, total): (Vec<LiveGameView>, usize) = app.lobby.live_games(page.offset, limit);
    Ok(([("x-total-count", total.to_string())], Json(games)).into_response())
}

/// The game's state: from its actor if it is in memory, else replayed from
/// the store (so that browsing the archive loads no actors).
async fn state_of(app: &AppState, id: i64) -> Result<(LiveState, i64), ApiError> {
    if let Some(handle) = app.games.running(id).await
        && let Ok(state) = handle.state().await
    {
        let created_at = app.store.game(id).await?.map_or(0, |row| row.created_at);
        return Ok((state, created_at));
    }
    let loaded = load(&*app.store, id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| ApiError::not_found(format!("no game {id}")))?;
    Ok((loaded.state, loaded.row.created_at))
}

/// `GET /api/games/{id}`: the whole game, as the caller may see it.
pub async fn game(
    State(app): State<AppState>,
    Visitor(user): Visitor,
    Id(id): Id,
) -> Result<Response, ApiError> {
    let (state, created_at) = state_of(&app, id).await?;
    let is_player = user.is_some_and(|u| state.settings.color_of(u.id).is_some());
    let mut view = state.game_view(id, created_at, time::now(), is_player);
    if state.is_over() && state.settings.rated {
        view.ratings = app
            .store
            .game(id)
            .await?
            .and_then(|row| row.ratings)
            .and_then(|r| serde_json::from_str(&r).ok());
    }
    Ok(Json(view).into_response())
}

/// `GET /api/games/{id}/sgf`: the record, with the players, their ranks,
/// the rules, komi, time and result.
pub async fn sgf(State(app): State<AppState>, Id(id): Id) -> Result<Response, ApiError> {
    let text = sgf_text(&app, id).await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-go-sgf; charset=utf-8".to_owned(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"shoutan-{id}.sgf\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// Game `id`'s record as SGF.
pub(crate) async fn sgf_text(app: &AppState, id: i64) -> Result<String, ApiError> {
    let (state, created_at) = state_of(app, id).await?;
    let s = &state.settings;
    let mut info = GameInfo::new(s.size);
    info.black.name = Some(s.black.name.clone());
    info.black.rank = Some(s.black.rank.to_string());
    info.white.name = Some(s.white.name.clone());
    info.white.rank = Some(s.white.rank.to_string());
    info.time = Some(s.time_control);
    info.place = Some("Shoutan".into());
    info.date = ::time::OffsetDateTime::from_unix_timestamp(created_at / 1000)
        .ok()
        .map(|t| t.date().to_string());
    Ok(record(&state.game, &info).to_sgf())
}

/// `GET /api/games/{id}/events`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventsParams {
    /// Only events after this version.
    after: Option<u64>,
}

/// An event of the log as listed.
#[derive(Serialize)]
pub struct LoggedEvent {
    /// Its version.
    pub v: u64,
    /// When (ms).
    pub at: i64,
    /// What happened.
    pub event: GameEvent,
}

/// `GET /api/games/{id}/events`: the log itself (spectators' chat is
/// hidden from the players while the game is live).
pub async fn events(
    State(app): State<AppState>,
    Visitor(user): Visitor,
    Id(id): Id,
    Params(params): Params<EventsParams>,
) -> Result<Json<Vec<LoggedEvent>>, ApiError> {
    let row = app
        .store
        .game(id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no game {id}")))?;
    let is_player = user.is_some_and(|u| u.id == row.black.id || u.id == row.white.id);
    let hide = is_player && row.status == shoutan_store::GameStatus::Live;
    let mut out = Vec::new();
    for stored in app.store.events(id, params.after.unwrap_or(0)).await? {
        let record: Record = serde_json::from_str(&stored.body).map_err(ApiError::internal)?;
        let hidden = matches!(
            record.event,
            GameEvent::Chat {
                channel: ChatChannel::Spectators,
                ..
            }
        ) && hide;
        out.push(LoggedEvent {
            v: stored.version,
            at: stored.at,
            event: if hidden {
                GameEvent::Chat {
                    user: 0,
                    name: String::new(),
                    channel: ChatChannel::Spectators,
                    text: String::new(),
                }
            } else {
                record.event
            },
        });
    }
    Ok(Json(out))
}

/// A board of a simul as its page lists it.
#[derive(Serialize)]
pub struct SimulBoard {
    /// The game.
    pub id: i64,
    /// Black.
    pub black: crate::settings::Seat,
    /// White.
    pub white: crate::settings::Seat,
    /// `live`, `finished` or `cancelled`.
    pub status: &'static str,
    /// Who is to move, while it is played.
    pub to_move: Option<shoutan_rules::Color>,
    /// Turns played (of a game in memory).
    pub moves: Option<usize>,
    /// The result in international notation, once over.
    pub result: Option<String>,
}

/// `GET /api/simuls/{id}`: the boards of the simul opened as challenge
/// `id`, by game id: who plays whom, whose move, the results.
pub async fn simul(
    State(app): State<AppState>,
    Id(id): Id,
) -> Result<Json<serde_json::Value>, ApiError> {
    let rows = app.store.simul_games(id).await?;
    let mut boards = Vec::with_capacity(rows.len());
    for row in rows {
        let settings: crate::settings::GameSettings =
            serde_json::from_str(&row.settings).map_err(ApiError::internal)?;
        let mut board = SimulBoard {
            id: row.id,
            black: settings.black.clone(),
            white: settings.white.clone(),
            status: row.status.as_str(),
            to_move: None,
            moves: None,
            result: row.result.clone(),
        };
        if let Some(handle) = app.games.running(row.id).await
            && let Ok(state) = handle.state().await
        {
            let view = state.state_view();
            board.to_move = view.to_move;
            board.moves = Some(view.moves);
        }
        boards.push(board);
    }
    // The host is the player of every board.
    let host = boards.first().and_then(|first| {
        [&first.black, &first.white]
            .into_iter()
            .find(|s| {
                boards
                    .iter()
                    .all(|b| b.black.id == s.id || b.white.id == s.id)
            })
            .cloned()
    });
    let Some(host) = host else {
        return Err(ApiError::not_found(format!("no simul {id} has started")));
    };
    Ok(Json(
        serde_json::json!({"id": id, "host": host, "boards": boards}),
    ))
}
