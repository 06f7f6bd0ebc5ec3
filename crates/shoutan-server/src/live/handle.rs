//! How a connection, the computer and the server reach a game: its
//! [`GameHandle`], whichever runs the game here (the owner's actor, or a
//! follower of a game another instance owns), and what it sends back.

use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use serde::{Deserialize, Serialize};
use shoutan_clock::Millis;
use shoutan_rules::Color;
use shoutan_store::{GameId, UserId};
use tokio::sync::{broadcast, mpsc, oneshot};

use super::bus::Outcome;
use super::event::GameEvent;
use super::presence::{Attendance, PresenceFrame};
use super::protocol::{ClientMessage, ErrorFrame};
use super::state::LiveState;
use crate::cluster::{Logged, Unreachable};

/// Events kept in memory for clients that reconnect.
pub(crate) const RECENT: usize = 256;
/// Messages waiting for a game's actor.
pub(crate) const INBOX: usize = 1024;
/// Events waiting for a slow connection before it must resynchronise.
pub(crate) const BROADCAST: usize = 512;

/// A versioned event as sent to clients.
#[derive(Debug)]
pub struct EventFrame {
    /// Its version.
    pub v: u64,
    /// The frame for spectators (and for players, unless `players` is set).
    pub all: Utf8Bytes,
    /// The frame for the players when it differs (spectators' chat hidden).
    pub players: Option<Utf8Bytes>,
}

impl EventFrame {
    /// The frame a player or a spectator gets.
    #[must_use]
    pub fn for_viewer(&self, is_player: bool) -> Utf8Bytes {
        match (&self.players, is_player) {
            (Some(hidden), true) => hidden.clone(),
            _ => self.all.clone(),
        }
    }
}

/// What the actor broadcasts.
#[derive(Clone, Debug)]
pub enum Outgoing {
    /// A versioned event.
    Event(Arc<EventFrame>),
    /// An unversioned notice: a byo-yomi call, presence.
    Notice(Utf8Bytes),
}

/// Who is on the other end of a connection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Participant {
    /// The logged-in user, if any (spectators may be anonymous).
    pub user: Option<(UserId, String)>,
    /// The colour he plays in this game, if he plays.
    pub color: Option<Color>,
}

/// What a connection gets when it joins.
pub struct Joined {
    /// The welcome frame: the whole game.
    pub welcome: Utf8Bytes,
    /// The events after the version the client had, when they are still in
    /// memory (otherwise the welcome alone brings the client up to date).
    pub missed: Vec<Arc<EventFrame>>,
    /// The stream of what follows.
    pub events: broadcast::Receiver<Outgoing>,
}

/// The ways to talk to a game's actor (its owner's actor, or a follower
/// on another instance; each ignores what is only for the other).
pub(crate) enum Msg {
    Join {
        who: Participant,
        since: Option<u64>,
        reply: oneshot::Sender<Joined>,
    },
    Leave {
        who: Participant,
    },
    Command {
        who: Participant,
        id: Option<u64>,
        version: Option<u64>,
        message: ClientMessage,
        lag: Millis,
        reply: oneshot::Sender<Result<u64, ErrorFrame>>,
    },
    Missed {
        since: u64,
        reply: oneshot::Sender<Option<Vec<Arc<EventFrame>>>>,
    },
    Time {
        reply: oneshot::Sender<Utf8Bytes>,
    },
    Snapshot {
        viewer_is_player: bool,
        reply: oneshot::Sender<Utf8Bytes>,
    },
    State {
        reply: oneshot::Sender<LiveState>,
    },
    Arbiter {
        event: GameEvent,
        reply: oneshot::Sender<Result<u64, String>>,
    },
    /// For the owner: another instance's connections to the game.
    Attendance {
        instance: String,
        attendance: Attendance,
    },
    /// For a follower: an event the owner appended.
    Logged(Logged),
    /// For a follower: the owner's presence frame.
    Presence(PresenceFrame),
    /// For a follower: catch up from the log (events may have been missed).
    CatchUp,
    /// For a follower: stop (this instance takes the game over).
    Stop,
    /// For a follower: the owner's answer to a command it forwarded.
    Forwarded {
        outcome: Result<Outcome, Unreachable>,
        reply: Reply,
    },
}

/// Where the answer to a forwarded request goes.
pub(crate) enum Reply {
    /// A client's command, and its id.
    Command(oneshot::Sender<Result<u64, ErrorFrame>>, Option<u64>),
    /// An arbiter's decision.
    Arbiter(oneshot::Sender<Result<u64, String>>),
}

/// A handle on a live game: cheap to clone, usable from any task.
#[derive(Clone)]
pub struct GameHandle {
    /// The game.
    pub id: GameId,
    pub(crate) tx: mpsc::Sender<Msg>,
    /// Which actor of the game it reaches (a game retired and loaded again
    /// gets a new one).
    pub(crate) incarnation: u64,
    /// It reaches a follower: the game is owned by another instance.
    pub(crate) follower: bool,
}

/// The actor has stopped (the game was retired from memory).
#[derive(Debug, thiserror::Error)]
#[error("the game's actor has stopped")]
pub struct Gone;

impl GameHandle {
    /// Whether this is the handle of the actor `incarnation`.
    pub(crate) fn is_of(&self, incarnation: u64) -> bool {
        self.incarnation == incarnation
    }

    /// Whether the game is owned by another instance (this reaches its
    /// follower here).
    pub(crate) fn is_follower(&self) -> bool {
        self.follower
    }

    /// Delivers a message of the bus without waiting. When the mailbox is
    /// full an event is not lost: the follower is told to catch up from
    /// the log instead.
    pub(crate) fn deliver(&self, msg: Msg) {
        match self.tx.try_send(msg) {
            Ok(()) | Err(mpsc::error::TrySendError::Closed(_)) => {}
            Err(mpsc::error::TrySendError::Full(Msg::Logged(_))) => {
                let tx = self.tx.clone();
                tokio::spawn(async move {
                    let _ = tx.send(Msg::CatchUp).await;
                });
            }
            Err(mpsc::error::TrySendError::Full(_)) => {}
        }
    }

    async fn ask<T>(&self, msg: impl FnOnce(oneshot::Sender<T>) -> Msg) -> Result<T, Gone> {
        let (reply, answer) = oneshot::channel();
        self.tx.send(msg(reply)).await.map_err(|_| Gone)?;
        answer.await.map_err(|_| Gone)
    }

    /// Joins the game as `who`, with the last version the client has.
    pub async fn join(&self, who: Participant, since: Option<u64>) -> Result<Joined, Gone> {
        self.ask(|reply| Msg::Join { who, since, reply }).await
    }

    /// Leaves (the connection closed).
    pub async fn leave(&self, who: Participant) {
        // A stopped actor has no presence to update.
        let _ = self.tx.send(Msg::Leave { who }).await;
    }

    /// Sends a command; the answer is the new version once the event is
    /// durable, or the error frame.
    pub async fn command(
        &self,
        who: Participant,
        id: Option<u64>,
        version: Option<u64>,
        message: ClientMessage,
        lag: Millis,
    ) -> Result<Result<u64, ErrorFrame>, Gone> {
        self.ask(|reply| Msg::Command {
            who,
            id,
            version,
            message,
            lag,
            reply,
        })
        .await
    }

    /// The events after `since`, if still in memory.
    pub async fn missed(&self, since: u64) -> Result<Option<Vec<Arc<EventFrame>>>, Gone> {
        self.ask(|reply| Msg::Missed { since, reply }).await
    }

    /// The clocks now, as a frame.
    pub async fn time(&self) -> Result<Utf8Bytes, Gone> {
        self.ask(|reply| Msg::Time { reply }).await
    }

    /// The whole game, as a `snapshot` frame.
    pub async fn snapshot(&self, viewer_is_player: bool) -> Result<Utf8Bytes, Gone> {
        self.ask(|reply| Msg::Snapshot {
            viewer_is_player,
            reply,
        })
        .await
    }

    /// A copy of the game's state (for records).
    pub async fn state(&self) -> Result<LiveState, Gone> {
        self.ask(|reply| Msg::State { reply }).await
    }

    /// Applies an arbiter's decision (a [`GameEvent::Ruling`] or
    /// [`GameEvent::Warning`]) to the game; the answer is the new version,
    /// or why the game refused it (it is over, say).
    pub async fn arbiter(&self, event: GameEvent) -> Result<Result<u64, String>, Gone> {
        self.ask(|reply| Msg::Arbiter { event, reply }).await
    }
}
