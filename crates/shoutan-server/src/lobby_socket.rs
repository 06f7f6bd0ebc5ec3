//! The lobby WebSocket: the lobby's snapshot and changes out, as much of
//! them as the socket's view shows; seeks (automatch) in, the connection's
//! seek withdrawn when it closes.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use futures_util::SinkExt;
use serde::Deserialize;
use shoutan_store::{User, UserId};
use tokio::sync::broadcast;

use crate::AppState;
use crate::accounts::session::Visitor;
use crate::automatch;
use crate::error::{ApiError, ErrorCode};
use crate::extract::Params;
use crate::lobby::{LobbyFrame, LobbyView, Notice, SharedNotice, visible_challenges};
use crate::net::socket::{HARD_LIMIT, close_after};

/// Sends `frame`; false when the socket is closed.
async fn send(socket: &mut WebSocket, frame: &LobbyFrame<'_>) -> bool {
    match frame.message() {
        Some(message) => socket.send(message).await.is_ok(),
        None => true,
    }
}

/// `GET /api/lobby/ws?view=`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyQuery {
    #[serde(default)]
    view: LobbyView,
}

/// `GET /api/lobby/ws`: the lobby's snapshot, then its changes, as much of
/// them as the socket's view shows.
pub async fn lobby_ws(
    State(app): State<AppState>,
    Visitor(user): Visitor,
    Params(LobbyQuery { view }): Params<LobbyQuery>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let viewer = user.as_ref().map(|u| u.id);
    let notices = app.lobby.subscribe(view);
    let (challenges, games) = match view {
        LobbyView::Lobby => (
            visible_challenges(&app, viewer).await?,
            app.lobby.snapshot_games(viewer),
        ),
        LobbyView::Events => (
            Vec::new(),
            (
                viewer.map(|v| app.lobby.games_of(v)).unwrap_or_default(),
                app.lobby.live_games(0, 0).1,
            ),
        ),
    };
    let seekers = automatch::seekers(&app).await?;
    let snapshot = LobbyFrame::Lobby {
        challenges,
        games: games.0,
        games_total: games.1,
        seekers,
    };
    Ok(ws
        .read_buffer_size(8 * 1024)
        .max_message_size(HARD_LIMIT)
        .max_frame_size(HARD_LIMIT)
        .on_upgrade(move |socket| async move {
            let _open = crate::metrics::OpenSocket::open("lobby");
            let mut connection = LobbyConnection {
                app,
                user,
                view,
                seek: None,
                gone: None,
                commands: (tokio::time::Instant::now(), 0),
            };
            connection.run(socket, snapshot, notices).await;
            connection.withdraw().await;
        }))
}

/// Notices written to a lobby socket at once, at most.
const BATCH: usize = 64;
/// The least time between two writes of notices to a lobby socket: a
/// notice after a quiet spell goes at once, a burst in one write a tick.
const WRITE_SPACING: Duration = Duration::from_millis(100);
/// Seek or cancel messages a lobby connection may send per window.
const SEEK_BURST: u32 = 10;
/// Their window.
const SEEK_WINDOW: Duration = Duration::from_secs(10);

/// A message a lobby connection sends.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum LobbyMessage {
    /// Seek a game (automatch), replacing this connection's seek.
    Seek(automatch::SeekRequest),
    /// Withdraw this connection's seek.
    CancelSeek,
}

/// One lobby WebSocket: the snapshot and changes out; seeks in, the
/// connection's seek withdrawn when it closes.
struct LobbyConnection {
    app: AppState,
    user: Option<User>,
    view: LobbyView,
    /// This connection's waiting seek.
    seek: Option<i64>,
    /// Its seek found gone at a renewal: paired (the notice may still be on
    /// its way) or replaced by a seek from another connection.
    gone: Option<i64>,
    /// The seek window's start and the messages in it.
    commands: (tokio::time::Instant, u32),
}

impl LobbyConnection {
    async fn run(
        &mut self,
        mut socket: WebSocket,
        snapshot: LobbyFrame<'static>,
        mut notices: broadcast::Receiver<Arc<SharedNotice>>,
    ) {
        if !send(&mut socket, &snapshot).await {
            return;
        }
        drop(snapshot);
        let viewer = self.user.as_ref().map(|u| u.id);
        let mut ping = tokio::time::interval(automatch::RENEW_EVERY);
        let now = tokio::time::Instant::now();
        let mut last_write = now.checked_sub(WRITE_SPACING).unwrap_or(now);
        loop {
            let out = tokio::select! {
                incoming = socket.recv() => match incoming {
                    Some(Ok(Message::Close(_))) | None => return,
                    Some(Err(e)) => return close_after(&mut socket, e).await,
                    Some(Ok(Message::Text(text))) => {
                        let answer = self.message(&text).await;
                        if !send(&mut socket, &answer).await {
                            return;
                        }
                        continue;
                    }
                    Some(Ok(_)) => continue,
                },
                notice = notices.recv() => match notice {
                    Ok(n) => n,
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        send(&mut socket, &LobbyFrame::Resync).await;
                        return;
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                _ = ping.tick() => {
                    if socket.send(Message::Ping(Default::default())).await.is_err() {
                        return;
                    }
                    if let Some(ended) = self.renew().await
                        && !send(&mut socket, &ended).await
                    {
                        return;
                    }
                    continue;
                }
            };
            // The notice and those that come before the next write is due
            // (at most `BATCH`) go out in one write: thousands of sockets
            // each told a thousand games starting must not cost a system
            // call per socket and game.
            let due = last_write + WRITE_SPACING;
            let mut next = Some(out);
            let mut batch = 0;
            while let Some(out) = next.take() {
                if let Some(message) = self.message_for(&out, viewer) {
                    if socket.feed(message).await.is_err() {
                        return;
                    }
                    batch += 1;
                }
                if batch < BATCH {
                    // Those waiting are taken even when the write is due.
                    next = match tokio::time::timeout_at(due, notices.recv()).await {
                        Ok(Ok(n)) => Some(n),
                        Ok(Err(broadcast::error::RecvError::Lagged(_))) => {
                            send(&mut socket, &LobbyFrame::Resync).await;
                            return;
                        }
                        Ok(Err(broadcast::error::RecvError::Closed)) => return,
                        Err(_) => None,
                    };
                }
            }
            if batch > 0 {
                if socket.flush().await.is_err() {
                    return;
                }
                last_write = tokio::time::Instant::now();
            }
        }
    }

    /// What this connection sends of a notice, if anything: its own seek
    /// paired, or a change `viewer` may see.
    fn message_for(&mut self, out: &SharedNotice, viewer: Option<UserId>) -> Option<Message> {
        match out.notice {
            Notice::Paired { seek, game } => {
                if ![self.seek, self.gone].contains(&Some(seek)) {
                    return None;
                }
                self.seek = None;
                LobbyFrame::Paired { game }.message()
            }
            ref other if visible(other, viewer, self.view) => out.message(),
            _ => None,
        }
    }

    /// Answers a message: `seeking`, `paired` or an error frame.
    async fn message(&mut self, text: &str) -> LobbyFrame<'static> {
        let error = LobbyFrame::refusal;
        let message: LobbyMessage = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => {
                return error(ApiError::bad_request(ErrorCode::Malformed, e.to_string()));
            }
        };
        let Some(user) = self.user.clone() else {
            return error(ApiError::unauthorized());
        };
        let now = tokio::time::Instant::now();
        if now - self.commands.0 >= SEEK_WINDOW {
            self.commands = (now, 0);
        }
        if self.commands.1 >= SEEK_BURST {
            return error(ApiError::new(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                ErrorCode::RateLimited,
                format!("at most {SEEK_BURST} seeks per {} s", SEEK_WINDOW.as_secs()),
            ));
        }
        self.commands.1 += 1;
        match message {
            LobbyMessage::CancelSeek => {
                self.withdraw().await;
                LobbyFrame::SeekCancelled
            }
            LobbyMessage::Seek(request) => {
                // The older seek goes first: a failed seek leaves none.
                self.withdraw().await;
                match automatch::seek(&self.app, &user, request).await {
                    Ok(automatch::Sought::Waiting(id)) => {
                        self.seek = Some(id);
                        LobbyFrame::Seeking { seek: id }
                    }
                    Ok(automatch::Sought::Paired(game)) => LobbyFrame::Paired { game },
                    Err(e) => error(e),
                }
            }
        }
    }

    /// Renews this connection's seek; the frame to send if it ended
    /// elsewhere (replaced by a seek from another connection).
    async fn renew(&mut self) -> Option<LobbyFrame<'static>> {
        let id = self.seek?;
        match automatch::renew(&self.app, id).await {
            Ok(true) | Err(_) => None,
            Ok(false) => {
                self.gone = self.seek.take();
                Some(LobbyFrame::SeekCancelled)
            }
        }
    }

    /// Withdraws this connection's seek, if it has one.
    async fn withdraw(&mut self) {
        if let Some(id) = self.seek.take()
            && let Err(e) = automatch::cancel(&self.app, id).await
        {
            tracing::warn!("withdrawing seek {id}: {}", e.message);
        }
    }
}

/// Whether `viewer`'s socket, for `view`, is told of a notice: a
/// challenge to a named player is shown to its two players only; an
/// event's page hears of the events and of the viewer's own games starting.
fn visible(notice: &Notice, viewer: Option<UserId>, view: LobbyView) -> bool {
    match (view, notice) {
        (_, Notice::EventChanged { .. }) => true,
        (LobbyView::Events, Notice::GameStarted(game)) => viewer.is_some_and(|v| game.plays(v)),
        (LobbyView::Events, _) => false,
        (LobbyView::Lobby, Notice::ChallengeOpened(challenge)) => challenge.visible_to(viewer),
        (LobbyView::Lobby, &Notice::ChallengeClosed { audience, .. }) => {
            audience.is_none_or(|pair| viewer.is_some_and(|v| pair.contains(&v)))
        }
        (LobbyView::Lobby, _) => true,
    }
}
