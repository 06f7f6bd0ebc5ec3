//! `GET /api/games/{id}/ws`: one connection of a player or spectator to a
//! game. It relays commands to the game's actor and the actor's events to
//! the client, measures the network delay with WebSocket pings (browsers
//! answer them by themselves) for lag compensation, and answers bad input
//! with error frames while staying open.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use futures_util::SinkExt;
use serde::Deserialize;
use shoutan_clock::Millis;
use shoutan_store::Store;
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

use super::frame::ServerFrame;
use super::handle::{GameHandle, Outgoing, Participant};
use super::protocol::{ClientMessage, ErrorFrame, id_of, parse};
use crate::AppState;
use crate::accounts::session::Visitor;
use crate::error::{ApiError, ErrorCode};
use crate::net::socket::{HARD_LIMIT, close_after};

/// How often the connection pings the client.
const PING_EVERY: Duration = Duration::from_secs(5);
/// Bytes read from the socket at a time. Frames are small; the library's
/// default (128 KiB, zero-filled on every read) costs more than the game.
const READ_BUFFER: usize = 8 * 1024;

/// The query of the WebSocket URL.
#[derive(Deserialize)]
pub struct JoinQuery {
    /// The last version the client has, after a reconnect.
    pub since: Option<u64>,
}

/// Opens the connection.
pub async fn game_ws(
    State(app): State<AppState>,
    Path(id): Path<i64>,
    Query(query): Query<JoinQuery>,
    Visitor(user): Visitor,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let handle = app
        .games
        .get(id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| ApiError::not_found(format!("no game {id}")))?;
    let state = handle.state().await.map_err(ApiError::internal)?;
    let who = Participant {
        color: user.as_ref().and_then(|u| state.settings.color_of(u.id)),
        user: user.map(|u| (u.id, u.name)),
    };
    let max_message = app.config.max_message;
    Ok(ws
        .read_buffer_size(READ_BUFFER)
        .max_message_size(HARD_LIMIT)
        .max_frame_size(HARD_LIMIT)
        .on_upgrade(move |socket| async move {
            let _open = crate::metrics::OpenSocket::open("game");
            let is_player = who.color.is_some();
            let store = Arc::clone(&app.store);
            let connection = run(socket, handle, who, store, max_message, query.since);
            if is_player {
                connection.await;
            } else {
                let _ = app.spectators.spawn(connection).await;
            }
        }))
}

async fn run(
    mut socket: WebSocket,
    handle: GameHandle,
    who: Participant,
    store: Arc<dyn Store>,
    max_message: usize,
    since: Option<u64>,
) {
    let Ok(joined) = handle.join(who.clone(), since).await else {
        let frame = ErrorFrame::new(None, ErrorCode::GameClosed, "the game is closed; reconnect");
        let _ = socket.send(Message::Text(frame.text())).await;
        return;
    };
    let mut connection = Connection {
        socket,
        handle,
        is_player: who.color.is_some(),
        who,
        store,
        events: joined.events,
        max_message,
        lag: Millis::ZERO,
        seen: 0,
    };
    let mut ok = connection.send(joined.welcome).await.is_ok();
    for frame in joined.missed {
        connection.seen = frame.v;
        ok = ok
            && connection
                .send(frame.for_viewer(connection.is_player))
                .await
                .is_ok();
    }
    if ok {
        connection.serve().await;
    }
    connection.handle.leave(connection.who.clone()).await;
}

struct Connection {
    socket: WebSocket,
    handle: GameHandle,
    who: Participant,
    is_player: bool,
    /// For the moderators' mutes.
    store: Arc<dyn Store>,
    events: broadcast::Receiver<Outgoing>,
    max_message: usize,
    /// One-way network delay: half the last ping's round trip.
    lag: Millis,
    /// The last version sent to the client.
    seen: u64,
}

/// The connection is over.
struct Closed;

impl Connection {
    async fn serve(&mut self) {
        let mut ping = tokio::time::interval(PING_EVERY);
        loop {
            let step = tokio::select! {
                incoming = self.socket.recv() => match incoming {
                    Some(Ok(message)) => self.on_message(message).await,
                    Some(Err(e)) => {
                        close_after(&mut self.socket, e).await;
                        Err(Closed)
                    }
                    None => Err(Closed),
                },
                out = self.events.recv() => self.forward(out).await,
                _ = ping.tick() => {
                    let sent = crate::time::now().as_millis().to_be_bytes();
                    self.socket
                        .send(Message::Ping(sent.to_vec().into()))
                        .await
                        .map_err(|_| Closed)
                }
            };
            if step.is_err() {
                return;
            }
        }
    }

    /// Sends what the actor broadcast.
    async fn forward(&mut self, out: Result<Outgoing, RecvError>) -> Result<(), Closed> {
        match out {
            Ok(Outgoing::Event(frame)) => {
                self.seen = frame.v;
                self.send(frame.for_viewer(self.is_player)).await
            }
            Ok(Outgoing::Notice(text)) => self.send(text).await,
            Err(RecvError::Lagged(_)) => self.resync(self.seen).await,
            Err(RecvError::Closed) => Err(Closed),
        }
    }

    async fn send(&mut self, text: Utf8Bytes) -> Result<(), Closed> {
        self.socket
            .send(Message::Text(text))
            .await
            .map_err(|_| Closed)
    }

    async fn send_error(&mut self, frame: &ErrorFrame) -> Result<(), Closed> {
        self.send(frame.text()).await
    }

    async fn on_message(&mut self, message: Message) -> Result<(), Closed> {
        match message {
            Message::Text(text) if text.len() > self.max_message => {
                let frame = ErrorFrame::new(
                    id_of(text.as_str()),
                    ErrorCode::TooLarge,
                    format!(
                        "a message is at most {} bytes; this one has {}",
                        self.max_message,
                        text.len()
                    ),
                );
                self.send_error(&frame).await
            }
            Message::Text(text) => self.on_text(text.as_str()).await,
            Message::Binary(_) => {
                let frame =
                    ErrorFrame::new(None, ErrorCode::Malformed, "messages are JSON text frames");
                self.send_error(&frame).await
            }
            Message::Pong(payload) => {
                if let Ok(sent) = <[u8; 8]>::try_from(payload.as_ref()) {
                    let round_trip = crate::time::now()
                        .as_millis()
                        .saturating_sub(u64::from_be_bytes(sent));
                    self.lag = Millis::from_millis(round_trip / 2);
                }
                Ok(())
            }
            Message::Ping(_) => Ok(()),
            Message::Close(_) => Err(Closed),
        }
    }

    async fn on_text(&mut self, text: &str) -> Result<(), Closed> {
        let envelope = match parse(text) {
            Ok(e) => e,
            Err(frame) => return self.send_error(&frame).await,
        };
        match envelope.message {
            ClientMessage::Resync { since } => self.resync(since).await,
            ClientMessage::Time => match self.handle.time().await {
                Ok(frame) => self.send(frame).await,
                Err(_) => Err(Closed),
            },
            ClientMessage::Chat { .. } if self.chat_refused(envelope.id).await? => Ok(()),
            message => {
                let outcome = self
                    .handle
                    .command(
                        self.who.clone(),
                        envelope.id,
                        envelope.version,
                        message,
                        self.lag,
                    )
                    .await
                    .map_err(|_| Closed)?;
                // The event goes out before its acknowledgement, in the
                // same write: queued, then flushed with the ack.
                loop {
                    match self.events.try_recv() {
                        Err(TryRecvError::Empty) => break,
                        Ok(Outgoing::Event(frame)) => {
                            self.seen = frame.v;
                            let text = frame.for_viewer(self.is_player);
                            self.socket
                                .feed(Message::Text(text))
                                .await
                                .map_err(|_| Closed)?;
                        }
                        out => {
                            self.forward(out.map_err(|e| match e {
                                TryRecvError::Lagged(n) => RecvError::Lagged(n),
                                _ => RecvError::Closed,
                            }))
                            .await?
                        }
                    }
                }
                let reply = match outcome {
                    Ok(v) => ServerFrame::Ack {
                        id: envelope.id.unwrap_or_default(),
                        v,
                    }
                    .answer(),
                    Err(frame) => frame.text(),
                };
                self.send(reply).await
            }
        }
    }

    /// Whether a moderator's mute (or a suspension) keeps this chat line
    /// out; if so, the client is told why.
    async fn chat_refused(&mut self, id: Option<u64>) -> Result<bool, Closed> {
        let Some((user, _)) = self.who.user else {
            return Ok(false);
        };
        match crate::moderation::chat_refusal(&*self.store, user, crate::time::now_millis()).await {
            Ok(()) => Ok(false),
            Err(e) => {
                self.send_error(&ErrorFrame::new(id, e.code, e.message))
                    .await?;
                Ok(true)
            }
        }
    }

    /// Sends the events after `since`, or the whole game again when they
    /// are no longer in memory.
    async fn resync(&mut self, since: u64) -> Result<(), Closed> {
        let is_player = self.is_player;
        match self.handle.missed(since).await.map_err(|_| Closed)? {
            Some(frames) => {
                for frame in frames {
                    self.seen = self.seen.max(frame.v);
                    self.send(frame.for_viewer(is_player)).await?;
                }
                Ok(())
            }
            None => {
                let frame = self.handle.snapshot(is_player).await.map_err(|_| Closed)?;
                self.send(frame).await
            }
        }
    }
}
