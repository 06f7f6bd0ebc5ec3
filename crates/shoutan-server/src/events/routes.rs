//! The events API (docs/api/events.md): JSON in and out, the server's
//! error style, session and CSRF checks like every other route. Only the
//! organiser and the event's arbiters change an event (403 otherwise);
//! players register and withdraw themselves.

use std::collections::HashMap;

use axum::extract::{FromRequestParts, Path, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use shoutan_rules::{Color, Rank};
use shoutan_store::User;
use shoutan_tournament::{PlayerId, TeamId};

use super::action::{Action, Person, RulingKind};
use super::config::EventRequest;
use super::event::Event;
use super::published::PublicView;
use super::standings::StandingsPart;
use super::{exports, views};
use crate::AppState;
use crate::accounts::session::{LoggedIn, Visitor};
use crate::error::{ApiError, ErrorCode};
use crate::extract::Body;
use crate::text::clean_line;
use crate::time;

/// The routes of the events API.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/events", get(list).post(create))
        .route("/api/events/{id}", get(show))
        .route("/api/events/{id}/head", get(head))
        .route("/api/events/{id}/arbiters", post(appoint))
        .route(
            "/api/events/{id}/registration",
            post(register).delete(unregister),
        )
        .route("/api/events/{id}/players", get(entrants).post(add_player))
        .route("/api/events/{id}/players/{player}/withdraw", post(withdraw))
        .route("/api/events/{id}/teams", post(add_team))
        .route(
            "/api/events/{id}/teams/{team}/withdraw",
            post(withdraw_team),
        )
        .route("/api/events/{id}/lineups", post(lineup))
        .route("/api/events/{id}/rounds", post(start_round))
        .route("/api/events/{id}/rounds/{round}", get(pairings))
        .route(
            "/api/events/{id}/rounds/{round}/tables/{table}/result",
            post(result),
        )
        .route(
            "/api/events/{id}/rounds/{round}/tables/{table}/warning",
            post(warning),
        )
        .route(
            "/api/events/{id}/rounds/{round}/tables/{table}/ruling",
            post(ruling),
        )
        .route("/api/events/{id}/standings", get(standings))
        .route("/api/events/{id}/standings/current", get(current_standings))
        .route(
            "/api/events/{id}/certification",
            get(certification).post(certify),
        )
        .route("/api/events/{id}/crosstable", get(crosstable))
        .route("/api/events/{id}/bracket", get(bracket))
        .route("/api/events/{id}/log", get(log))
        .route("/api/events/{id}/export/{format}", get(export))
}

/// The path's parameters, parsed with JSON errors.
struct Params(HashMap<String, String>);

impl<S: Send + Sync> FromRequestParts<S> for Params {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(map) = Path::<HashMap<String, String>>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::bad_request(ErrorCode::Malformed, e.body_text()))?;
        Ok(Params(map))
    }
}

impl Params {
    fn number<T: std::str::FromStr>(&self, key: &str) -> Result<T, ApiError> {
        let text = self.0.get(key).map_or("", String::as_str);
        text.parse().map_err(|_| {
            ApiError::bad_request(ErrorCode::BadId, format!("{text:?} is not a {key} number"))
        })
    }

    fn text(&self, key: &str) -> &str {
        self.0.get(key).map_or("", String::as_str)
    }

    /// A 1-based number from the path as a 0-based index.
    fn index(&self, key: &str) -> Result<u32, ApiError> {
        let n: u32 = self.number(key)?;
        n.checked_sub(1).ok_or_else(|| {
            ApiError::bad_request(ErrorCode::BadId, format!("{key} numbers start at 1"))
        })
    }
}

/// The organiser, the event's arbiters, and the server's arbiters and
/// administrators run an event.
fn must_run(event: &Event, user: &User) -> Result<(), ApiError> {
    let staff = user.roles.has(shoutan_store::Role::Arbiter)
        || user.roles.has(shoutan_store::Role::Administrator);
    if staff || event.can_change(user.id) {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            ErrorCode::NotArbiter,
            "only the organiser and the arbiters can change this event",
        ))
    }
}

async fn list(State(app): State<AppState>) -> Json<Vec<views::EventSummary>> {
    let mut out = Vec::new();
    for e in app.events.all().await {
        out.push(views::summary(&*e.lock().await));
    }
    out.reverse();
    Json(out)
}

async fn create(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Body(request): Body<EventRequest>,
) -> Result<Response, ApiError> {
    let config = request.check()?;
    let event = app.events.create(Person::of(&user), config).await?;
    let view = views::event(&*event.lock().await, Some(user.id), time::now_millis());
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

async fn show(
    State(app): State<AppState>,
    Visitor(user): Visitor,
    p: Params,
) -> Result<Json<views::EventView>, ApiError> {
    let event = app.events.get(p.number("id")?).await?;
    let e = event.lock().await;
    Ok(Json(views::event(
        &e,
        user.map(|u| u.id),
        time::now_millis(),
    )))
}

async fn head(
    State(app): State<AppState>,
    Visitor(user): Visitor,
    p: Params,
    crate::extract::Params(at): crate::extract::Params<AtVersion>,
) -> Result<Json<views::EventHeadView>, ApiError> {
    let head = app
        .events
        .head(p.number("id")?, user.map(|u| u.id), at.version);
    Ok(Json(head.await?))
}

/// Runs `action` on the event as `user`, who must run it; answers with the
/// event.
async fn run(
    app: &AppState,
    user: &User,
    p: &Params,
    action: impl FnOnce(&Event) -> Result<Action, ApiError>,
) -> Result<Json<views::EventView>, ApiError> {
    let event = app.events.get(p.number("id")?).await?;
    let mut e = event.lock().await;
    must_run(&e, user)?;
    let action = action(&e)?;
    app.events
        .change(&mut e, action, Some(Person::of(user)))
        .await?;
    Ok(Json(views::event(&e, Some(user.id), time::now_millis())))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NameBody {
    name: String,
}

async fn appoint(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    p: Params,
    Body(body): Body<NameBody>,
) -> Result<Json<views::EventView>, ApiError> {
    let arbiter = app
        .store
        .user_by_name(body.name.trim())
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no player {:?}", body.name)))?;
    let event = app.events.get(p.number("id")?).await?;
    let mut e = event.lock().await;
    if e.organiser.id != user.id {
        return Err(ApiError::forbidden(
            ErrorCode::NotOrganiser,
            "only the organiser appoints arbiters",
        ));
    }
    let action = Action::AppointArbiter {
        arbiter: Person::of(&arbiter),
    };
    app.events
        .change(&mut e, action, Some(Person::of(&user)))
        .await?;
    Ok(Json(views::event(&e, Some(user.id), time::now_millis())))
}

async fn register(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    p: Params,
) -> Result<Response, ApiError> {
    let event = app.events.get(p.number("id")?).await?;
    let mut e = event.lock().await;
    let now = time::now_millis();
    if !views::registration_open(&e, now) {
        return Err(ApiError::conflict(
            ErrorCode::RegistrationClosed,
            "registration is closed; ask the organiser to add you",
        ));
    }
    let action = Action::AddPlayer {
        name: user.name.clone(),
        rank: Some(user.declared_rank),
        club: None,
        country: None,
        account: Some(Person::of(&user)),
    };
    app.events
        .change(&mut e, action, Some(Person::of(&user)))
        .await?;
    let view = views::event(&e, Some(user.id), now);
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

async fn unregister(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    p: Params,
) -> Result<Json<views::EventView>, ApiError> {
    let event = app.events.get(p.number("id")?).await?;
    let mut e = event.lock().await;
    let player = e.player_of(user.id).ok_or_else(|| {
        ApiError::conflict(
            ErrorCode::NotRegistered,
            "you are not registered in this event",
        )
    })?;
    app.events
        .change(&mut e, Action::Withdraw { player }, Some(Person::of(&user)))
        .await?;
    Ok(Json(views::event(&e, Some(user.id), time::now_millis())))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerBody {
    /// An account's name: the player plays online with it.
    #[serde(default)]
    account: Option<String>,
    /// The name in the event (default: the account's).
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    rank: Option<Rank>,
    #[serde(default)]
    club: Option<String>,
    #[serde(default)]
    country: Option<String>,
}

async fn add_player(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    p: Params,
    Body(body): Body<PlayerBody>,
) -> Result<Response, ApiError> {
    let account = match &body.account {
        Some(name) => Some(
            app.store
                .user_by_name(name.trim())
                .await?
                .ok_or_else(|| ApiError::not_found(format!("no player {name:?}")))?,
        ),
        None => None,
    };
    let name = body
        .name
        .clone()
        .or_else(|| account.as_ref().map(|a| a.name.clone()))
        .ok_or_else(|| ApiError::bad_request(ErrorCode::BadName, "give a name or an account"))?;
    let name = clean_line(&name)?;
    let club = body.club.as_deref().map(clean_line).transpose()?;
    let country = body.country.as_deref().map(clean_line).transpose()?;
    let rank = body.rank.or(account.as_ref().map(|a| a.declared_rank));
    let view = run(&app, &user, &p, |_| {
        Ok(Action::AddPlayer {
            name,
            rank,
            club,
            country,
            account: account.as_ref().map(Person::of),
        })
    })
    .await?;
    Ok((StatusCode::CREATED, view).into_response())
}

async fn withdraw(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    p: Params,
) -> Result<Json<views::EventView>, ApiError> {
    let player = PlayerId(p.index("player")?);
    run(&app, &user, &p, |_| Ok(Action::Withdraw { player })).await
}

async fn withdraw_team(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    p: Params,
) -> Result<Json<views::EventView>, ApiError> {
    let team = TeamId(p.index("team")?);
    run(&app, &user, &p, |_| Ok(Action::WithdrawTeam { team })).await
}

fn players(numbers: &[u32]) -> Result<Vec<PlayerId>, ApiError> {
    numbers
        .iter()
        .map(|&n| {
            n.checked_sub(1)
                .map(PlayerId)
                .ok_or_else(|| ApiError::bad_request(ErrorCode::BadId, "player numbers start at 1"))
        })
        .collect()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TeamBody {
    name: String,
    /// Player numbers in board order.
    members: Vec<u32>,
}

async fn add_team(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    p: Params,
    Body(body): Body<TeamBody>,
) -> Result<Response, ApiError> {
    let members = players(&body.members)?;
    let name = clean_line(&body.name)?;
    let view = run(&app, &user, &p, |_| Ok(Action::AddTeam { name, members })).await?;
    Ok((StatusCode::CREATED, view).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LineupBody {
    round: u32,
    team: u32,
    players: Vec<u32>,
}

async fn lineup(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    p: Params,
    Body(body): Body<LineupBody>,
) -> Result<Json<views::EventView>, ApiError> {
    let players = players(&body.players)?;
    let team = TeamId(
        body.team
            .checked_sub(1)
            .ok_or_else(|| ApiError::bad_request(ErrorCode::BadId, "team numbers start at 1"))?,
    );
    run(&app, &user, &p, |_| {
        Ok(Action::Lineup {
            round: body.round,
            team,
            players,
        })
    })
    .await
}

async fn start_round(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    p: Params,
) -> Result<Response, ApiError> {
    let event = app.events.get(p.number("id")?).await?;
    let mut e = event.lock().await;
    must_run(&e, &user)?;
    let number = app
        .events
        .start_round(&mut e, Some(Person::of(&user)))
        .await?;
    let round = e
        .tournament
        .rounds()
        .get(number as usize - 1)
        .map(|r| views::round(&e, r))
        .ok_or_else(|| ApiError::internal("a round paired and lost"))?;
    Ok((StatusCode::CREATED, Json(round)).into_response())
}

async fn pairings(
    State(app): State<AppState>,
    p: Params,
    at: crate::extract::Params<AtVersion>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    let view = PublicView::Round(p.number("round")?);
    public(&app, &p, view, at, &headers).await
}

async fn entrants(
    State(app): State<AppState>,
    p: Params,
    at: crate::extract::Params<AtVersion>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    public(&app, &p, PublicView::Entrants, at, &headers).await
}

async fn public(
    app: &AppState,
    p: &Params,
    view: PublicView,
    crate::extract::Params(at): crate::extract::Params<AtVersion>,
    headers: &axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    Ok(app
        .events
        .public_json(p.number("id")?, view, at.version)
        .await?
        .response(headers))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultBody {
    /// `B+`, `W+`, `B+F`, `draw`, `both-lose`, `void`, or any
    /// international result (`B+R`, `W+3.5`).
    result: String,
}

async fn result(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    p: Params,
    Body(body): Body<ResultBody>,
) -> Result<Json<views::EventView>, ApiError> {
    let (round, table) = (p.number("round")?, p.number("table")?);
    run(&app, &user, &p, |event| {
        let outcome = event
            .tournament
            .settings()
            .discipline
            .parse_result(&body.result)
            .map_err(|e| ApiError::bad_request(ErrorCode::BadResult, e.to_string()))?;
        Ok(Action::Result {
            round,
            table,
            outcome,
            game: None,
        })
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WarningBody {
    /// The warned player's number.
    player: u32,
}

async fn warning(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    p: Params,
    Body(body): Body<WarningBody>,
) -> Result<Json<views::EventView>, ApiError> {
    let (round, table) = (p.number("round")?, p.number("table")?);
    let player = players(&[body.player])?[0];
    run(&app, &user, &p, |_| {
        Ok(Action::Warning {
            round,
            table,
            player,
        })
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulingBody {
    /// `draw`, `replay`, `both_lose`, `void`, `forfeit` or `loss`.
    ruling: String,
    /// Who forfeits or loses (`black` or `white`).
    #[serde(default)]
    color: Option<Color>,
    /// Why.
    #[serde(default)]
    reason: String,
}

async fn ruling(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    p: Params,
    Body(body): Body<RulingBody>,
) -> Result<Json<views::EventView>, ApiError> {
    let (round, table) = (p.number("round")?, p.number("table")?);
    let need_color = || {
        body.color.ok_or_else(|| {
            ApiError::bad_request(ErrorCode::BadRuling, "say which colour forfeits or loses")
        })
    };
    let ruling = match body.ruling.as_str() {
        "draw" => RulingKind::Draw,
        "replay" => RulingKind::Replay,
        "both_lose" => RulingKind::BothLose,
        "void" => RulingKind::Void,
        "forfeit" => RulingKind::Forfeit {
            color: need_color()?,
        },
        "loss" => RulingKind::Loss {
            color: need_color()?,
        },
        other => {
            return Err(ApiError::bad_request(
                ErrorCode::BadRuling,
                format!("{other:?} is not a ruling (draw, replay, both_lose, void, forfeit, loss)"),
            ));
        }
    };
    let reason = body.reason.trim().to_owned();
    run(&app, &user, &p, |_| {
        Ok(Action::Ruling {
            round,
            table,
            ruling,
            reason,
        })
    })
    .await
}

async fn standings(
    State(app): State<AppState>,
    p: Params,
    at: crate::extract::Params<AtVersion>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    standings_part(&app, &p, at, &headers, StandingsPart::Whole).await
}

async fn current_standings(
    State(app): State<AppState>,
    p: Params,
    at: crate::extract::Params<AtVersion>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    standings_part(&app, &p, at, &headers, StandingsPart::Current).await
}

async fn standings_part(
    app: &AppState,
    p: &Params,
    crate::extract::Params(at): crate::extract::Params<AtVersion>,
    headers: &axum::http::HeaderMap,
    part: StandingsPart,
) -> Result<Response, ApiError> {
    Ok(app
        .events
        .standings_json(p.number("id")?, part, at.version)
        .await?
        .response(headers))
}

/// `?version=`: the event's version an `event_changed` notice gave; the
/// answer has every change up to it, not necessarily those after.
#[derive(Deserialize)]
struct AtVersion {
    version: Option<u64>,
}

async fn certification(
    State(app): State<AppState>,
    p: Params,
) -> Result<Json<views::CertificationView>, ApiError> {
    let event = app.events.get(p.number("id")?).await?;
    let e = event.lock().await;
    Ok(Json(views::certification(&e)))
}

/// An arbiter confirms the rank certification of a finished event: each
/// qualifier who plays online gets the new rank as his declared rank (set
/// first, so a failure leaves the event unconfirmed and a retry sets the
/// same ranks), then the confirmation is logged.
async fn certify(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    p: Params,
) -> Result<Json<views::CertificationView>, ApiError> {
    let event = app.events.get(p.number("id")?).await?;
    let mut e = event.lock().await;
    must_run(&e, &user)?;
    let qualifiers = e.tournament.certification().ok_or_else(|| {
        ApiError::conflict(
            ErrorCode::NotCertifiable,
            "the event has no certification rule or is not finished",
        )
    })?;
    if !e.certified.is_empty() {
        return Err(ApiError::conflict(
            ErrorCode::AlreadyCertified,
            "the rank certification is already confirmed",
        ));
    }
    for q in &qualifiers {
        if let Some(account) = e.account(q.player) {
            app.store.set_declared_rank(account.id, q.to).await?;
        }
    }
    let ranks = qualifiers.iter().map(|q| (q.player, q.to)).collect();
    app.events
        .change(&mut e, Action::Certify { ranks }, Some(Person::of(&user)))
        .await?;
    Ok(Json(views::certification(&e)))
}

async fn crosstable(
    State(app): State<AppState>,
    p: Params,
) -> Result<Json<views::CrosstableView>, ApiError> {
    let event = app.events.get(p.number("id")?).await?;
    let e = event.lock().await;
    Ok(Json(views::crosstable(&e.tournament.standings())))
}

async fn bracket(
    State(app): State<AppState>,
    p: Params,
) -> Result<Json<Vec<views::BracketRound>>, ApiError> {
    let event = app.events.get(p.number("id")?).await?;
    let e = event.lock().await;
    Ok(Json(views::bracket(&e)))
}

async fn log(
    State(app): State<AppState>,
    p: Params,
) -> Result<Json<Vec<views::LogView>>, ApiError> {
    let event = app.events.get(p.number("id")?).await?;
    let e = event.lock().await;
    Ok(Json(views::log(&e)))
}

async fn export(State(app): State<AppState>, p: Params) -> Result<Response, ApiError> {
    let event = app.events.get(p.number("id")?).await?;
    let e = event.lock().await;
    exports::download(&e, p.text("format"))
}
