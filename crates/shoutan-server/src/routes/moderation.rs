//! Reports and the moderators' desk: a player reports a player, a game
//! or a chat line; moderators read the queue with its context (the game,
//! the chat around the line), act (warn, mute, suspend, ban, annul a
//! game's rating effect) and read the audit log.

use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use shoutan_store::moderation::ReportId;
use shoutan_store::{ActionKind, ActionRow, GameId, NewReport, ReportRow, Store, User};

use crate::AppState;
use crate::accounts::session::LoggedIn;
use crate::error::{ApiError, ErrorCode};
use crate::extract::{Body, Id, Params};
use crate::live::event::{ChatChannel, GameEvent, Record};
use crate::moderation::{self, Actor, Order, must_moderate};
use crate::time;

/// The reasons a report may give.
pub const REASONS: &[&str] = &[
    "abuse",
    "cheating",
    "sandbagging",
    "stalling",
    "spam",
    "other",
];
/// The longest report text, in characters.
const MAX_TEXT: usize = 2000;
/// Chat lines shown on each side of a reported line.
const AROUND: usize = 5;

/// `POST /api/reports`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {
    player: String,
    game: Option<GameId>,
    chat: Option<u64>,
    reason: String,
    #[serde(default)]
    text: String,
}

fn bad_report(message: impl Into<String>) -> ApiError {
    ApiError::bad_request(ErrorCode::BadReport, message)
}

async fn player_named(app: &AppState, name: &str) -> Result<User, ApiError> {
    app.store
        .user_by_name(name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no player {name:?}")))
}

/// The chat lines of a game's log, in order.
pub(super) async fn chat_of(
    store: &dyn Store,
    game: GameId,
) -> Result<Vec<ChatLineView>, ApiError> {
    let mut lines = Vec::new();
    for stored in store.events(game, 0).await? {
        let record: Record = serde_json::from_str(&stored.body).map_err(ApiError::internal)?;
        if let GameEvent::Chat {
            user,
            name,
            channel,
            text,
        } = record.event
        {
            lines.push(ChatLineView {
                v: stored.version,
                at: stored.at,
                user,
                name,
                channel,
                text,
            });
        }
    }
    Ok(lines)
}

/// Files a report.
pub async fn report(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Body(body): Body<ReportRequest>,
) -> Result<Response, ApiError> {
    app.reports_per_user
        .attempt(&user.id.to_string(), std::time::Instant::now())
        .map_err(|wait| ApiError::rate_limited(wait.as_secs() + 1))?;
    let target = player_named(&app, &body.player).await?;
    if target.id == user.id {
        return Err(bad_report("you cannot report yourself"));
    }
    if !REASONS.contains(&body.reason.as_str()) {
        return Err(bad_report(format!(
            "the reason is one of {}",
            REASONS.join(", ")
        )));
    }
    let text = crate::text::clean_line(&body.text)?;
    if text.chars().count() > MAX_TEXT {
        return Err(bad_report(format!(
            "a report says it in {MAX_TEXT} characters at most"
        )));
    }
    if let Some(game) = body.game {
        let row = app
            .store
            .game(game)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("no game {game}")))?;
        if let Some(v) = body.chat {
            let said = chat_of(&*app.store, game)
                .await?
                .into_iter()
                .any(|line| line.v == v && line.user == target.id);
            if !said {
                return Err(bad_report(format!(
                    "line {v} of game {game} is no chat line of {}",
                    target.name
                )));
            }
        } else if row.black.id != target.id && row.white.id != target.id {
            return Err(bad_report(format!(
                "{} did not play game {game}",
                target.name
            )));
        }
    } else if body.chat.is_some() {
        return Err(bad_report("a chat line is reported with its game"));
    }
    let row = app
        .store
        .create_report(NewReport {
            reporter: user.id,
            target: target.id,
            game: body.game,
            chat: body.chat,
            reason: body.reason,
            text,
            at: time::now_millis(),
        })
        .await?;
    Ok((StatusCode::CREATED, Json(ReportView::of(row, Vec::new()))).into_response())
}

/// A chat line, as moderators read it around a report.
#[derive(Serialize)]
pub struct ChatLineView {
    /// Its version in the game's log.
    pub v: u64,
    /// When.
    pub at: i64,
    /// The writer's id.
    pub user: i64,
    /// The writer's name.
    pub name: String,
    /// Players' or spectators' chat.
    pub channel: ChatChannel,
    /// The text.
    pub text: String,
}

/// A report as moderators read it.
#[derive(Serialize)]
pub struct ReportView {
    id: ReportId,
    reporter: String,
    player: String,
    game: Option<GameId>,
    /// The game's record, to read it move by move.
    sgf: Option<String>,
    chat: Option<u64>,
    reason: String,
    text: String,
    at: i64,
    /// Closed: when, and how (an action's kind, or the moderator's words).
    closed_at: Option<i64>,
    resolution: Option<String>,
    /// The chat around the reported line (or the game's last lines).
    context: Vec<ChatLineView>,
}

impl ReportView {
    fn of(row: ReportRow, context: Vec<ChatLineView>) -> ReportView {
        ReportView {
            id: row.id,
            reporter: row.reporter.name,
            player: row.target.name,
            game: row.game,
            sgf: row.game.map(|g| format!("/api/games/{g}/sgf")),
            chat: row.chat,
            reason: row.reason,
            text: row.text,
            at: row.at,
            closed_at: row.closed.as_ref().map(|c| c.0),
            resolution: row.closed.map(|c| c.2),
            context,
        }
    }
}

/// `GET /api/moderation/reports?all=true`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueueQuery {
    all: Option<bool>,
}

/// Reports shown at once.
const PAGE: u32 = 100;

/// The moderators' queue: open reports, oldest first (or every report,
/// newest first), each with its context.
pub async fn queue(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Params(query): Params<QueueQuery>,
) -> Result<Json<Vec<ReportView>>, ApiError> {
    must_moderate(&user)?;
    let rows = app.store.reports(!query.all.unwrap_or(false), PAGE).await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let context = match row.game {
            None => Vec::new(),
            Some(game) => {
                let lines = chat_of(&*app.store, game).await?;
                let at = row
                    .chat
                    .and_then(|v| lines.iter().position(|l| l.v == v))
                    .unwrap_or(lines.len());
                let from = at.saturating_sub(AROUND);
                let to = (at + AROUND + 1).min(lines.len());
                lines.into_iter().take(to).skip(from).collect()
            }
        };
        out.push(ReportView::of(row, context));
    }
    Ok(Json(out))
}

/// `POST /api/moderation/reports/{id}/dismiss`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dismissal {
    reason: String,
}

/// Closes a report without an action.
pub async fn dismiss(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Id(id): Id,
    Body(body): Body<Dismissal>,
) -> Result<StatusCode, ApiError> {
    must_moderate(&user)?;
    let reason = moderation::clean_reason(&body.reason)?;
    if app
        .store
        .close_report(id, Some(user.id), time::now_millis(), reason)
        .await?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found(format!("no open report {id}")))
    }
}

/// `POST /api/moderation/actions`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    player: String,
    kind: String,
    reason: String,
    /// For a mute or a suspension.
    minutes: Option<u64>,
    game: Option<GameId>,
    report: Option<ReportId>,
}

/// An entry of the audit log.
#[derive(Serialize)]
pub struct ActionView {
    id: i64,
    player: String,
    kind: &'static str,
    reason: String,
    until: Option<i64>,
    game: Option<GameId>,
    report: Option<ReportId>,
    /// The moderator; `null`: the operator.
    by: Option<String>,
    at: i64,
    lifted_at: Option<i64>,
    /// Whether it holds now.
    holds: bool,
}

impl ActionView {
    /// The entry as moderators read it.
    #[must_use]
    pub fn of(row: ActionRow, now: i64) -> ActionView {
        ActionView {
            holds: row.holds(now),
            id: row.id,
            player: row.user.name,
            kind: row.kind.as_str(),
            reason: row.reason,
            until: row.until,
            game: row.game,
            report: row.report,
            by: row.by.map(|b| b.name),
            at: row.at,
            lifted_at: row.lifted.map(|l| l.0),
        }
    }
}

/// Acts on a player.
pub async fn act(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Body(body): Body<ActionRequest>,
) -> Result<Response, ApiError> {
    must_moderate(&user)?;
    let kind = ActionKind::parse(&body.kind).ok_or_else(|| {
        ApiError::bad_request(
            ErrorCode::BadAction,
            "the kind is warning, mute, suspension, ban or annulment",
        )
    })?;
    let target = player_named(&app, &body.player).await?;
    let now = time::now_millis();
    let order = Order {
        kind,
        reason: body.reason,
        duration: body
            .minutes
            .map(|m| Duration::from_secs(m.saturating_mul(60))),
        game: body.game,
        report: body.report,
    };
    let row = moderation::act(&*app.store, Actor::Staff(&user), &target, order, now).await?;
    if kind.excludes() {
        app.enforcer.nudge();
    }
    Ok((StatusCode::CREATED, Json(ActionView::of(row, now))).into_response())
}

/// Lifts an action.
pub async fn lift(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Id(id): Id,
) -> Result<Json<ActionView>, ApiError> {
    let now = time::now_millis();
    let row = moderation::lift(&*app.store, Actor::Staff(&user), id, now).await?;
    Ok(Json(ActionView::of(row, now)))
}

/// `POST /api/moderation/reset-codes`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResetCodeRequest {
    player: String,
}

/// A one-time password reset code, to give the player.
#[derive(Serialize)]
pub struct ResetCodeView {
    player: String,
    code: String,
    expires_at: i64,
}

/// Makes a password reset code for a player who forgot his password
/// (administrators only).
pub async fn reset_code(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Body(body): Body<ResetCodeRequest>,
) -> Result<Response, ApiError> {
    let target = player_named(&app, &body.player).await?;
    let (code, expires_at) = moderation::reset_code(
        &*app.store,
        Actor::Staff(&user),
        &target,
        time::now_millis(),
    )
    .await?;
    let view = ResetCodeView {
        player: target.name,
        code,
        expires_at,
    };
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

/// `GET /api/moderation/actions?player=NAME`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogQuery {
    player: Option<String>,
}

/// The audit log, newest first: everyone's, or one player's.
pub async fn log(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Params(query): Params<LogQuery>,
) -> Result<Json<Vec<ActionView>>, ApiError> {
    must_moderate(&user)?;
    let player = match &query.player {
        Some(name) => Some(player_named(&app, name).await?.id),
        None => None,
    };
    let now = time::now_millis();
    Ok(Json(
        app.store
            .actions(player, PAGE)
            .await?
            .into_iter()
            .map(|row| ActionView::of(row, now))
            .collect(),
    ))
}
