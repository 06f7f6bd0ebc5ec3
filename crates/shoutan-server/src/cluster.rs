//! This server as one instance of several on one PostgreSQL database.
//!
//! Each live game is owned by one instance (a claim in the store, see
//! [`shoutan_store::cluster`]); only the owner runs the game's actor and
//! its clock. Any instance serves any client: a connection to an instance
//! that does not own the game is served by a [`follower`](crate::live::follower),
//! a replica rebuilt from the log and kept up by the events the owner's
//! appends publish; its clients' commands are sent to the owner and
//! answered by it.
//!
//! The instances talk over PostgreSQL's `LISTEN/NOTIFY`, which the database
//! every instance already uses provides: one channel for appended events
//! (published inside the appending transaction, so in commit order and
//! only once durable), one for the lobby, and one per instance for
//! requests and replies. A notification missed while the listening
//! connection was down is recovered from the log, which stays the truth.
//!
//! Every second each instance records a heartbeat and takes over the games
//! of instances whose heartbeat is older than the lease: it rebuilds them
//! from the log and excuses their clocks from the dead owner's last
//! heartbeat to the takeover.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use shoutan_store::cluster::{BusMessage, Claim, GAME_CHANNEL};
use shoutan_store::{GameId, Store, StoreError};
use tokio::sync::{mpsc, oneshot};

use crate::live::event::GameEvent;
use crate::live::handle::{Msg, Participant};
use crate::live::presence::{Attendance, PresenceFrame};
use crate::live::protocol::{ClientMessage, ErrorFrame};
use crate::live::registry::Shared;
use crate::lobby::{Lobby, LobbyNotice};
use crate::time;

/// The lobby's channel.
pub const LOBBY_CHANNEL: &str = "shoutan_lobby";
/// How long a request to another instance may take before the instance is
/// taken for gone.
const REQUEST_PATIENCE: Duration = Duration::from_secs(5);
/// Orphaned games taken over per round of the watch.
const TAKEOVERS: i64 = 256;

/// Why an instance id is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not an instance id: 1 to 40 lower-case letters, digits and '_' (it names a PostgreSQL channel)"
)]
pub struct BadInstanceId(pub String);

/// An instance's id: lower-case letters, digits and `_`, as it names the
/// instance's channel on the bus.
pub fn check_instance_id(id: &str) -> Result<(), BadInstanceId> {
    let fits = (1..=40).contains(&id.len())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if fits {
        Ok(())
    } else {
        Err(BadInstanceId(id.to_owned()))
    }
}

/// The default id of an instance: its host's name and its port.
#[must_use]
pub fn default_instance_id(port: u16) -> String {
    let host = std::fs::read_to_string("/etc/hostname").unwrap_or_else(|_| "shoutan".into());
    let host: String = host
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .take(32)
        .collect();
    format!("{host}_{port}")
}

/// The channel of an instance.
fn direct_channel(instance: &str) -> String {
    format!("shoutan_i_{instance}")
}

/// An event as the bus carries it.
#[derive(Debug, Deserialize)]
pub(crate) struct Logged {
    /// The game.
    pub g: GameId,
    /// Its version.
    pub v: u64,
    /// When (ms), absent with the body when it did not fit.
    pub at: Option<i64>,
    /// The stored body.
    pub b: Option<String>,
}

/// What an owner answers a forwarded request.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Outcome {
    /// A command: its version, or the error frame.
    Command {
        /// The answer.
        result: Result<u64, ErrorFrame>,
    },
    /// An arbiter's decision: its version, or why it was refused.
    Arbiter {
        /// The answer.
        result: Result<u64, String>,
    },
    /// This instance does not own the game (any more).
    NotHere,
}

/// A message to one instance.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub(crate) enum Direct {
    /// A client's command, for the game's owner.
    Command {
        req: u64,
        from: String,
        game: GameId,
        who: Participant,
        id: Option<u64>,
        version: Option<u64>,
        message: ClientMessage,
        lag_ms: u64,
    },
    /// An arbiter's decision, for the game's owner.
    Arbiter {
        req: u64,
        from: String,
        game: GameId,
        event: GameEvent,
    },
    /// The answer to a request.
    Reply { req: u64, outcome: Outcome },
    /// A follower's connections to a game, for its owner.
    Attendance {
        from: String,
        game: GameId,
        attendance: Attendance,
    },
    /// The owner's presence frame of a game, for its followers.
    Presence { game: GameId, frame: PresenceFrame },
}

/// A lobby notice as the bus carries it.
#[derive(Debug, Serialize, Deserialize)]
struct LobbyMessage {
    from: String,
    notice: LobbyNotice,
}

/// The other instance did not answer in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the instance that owns the game did not answer")]
pub struct Unreachable;

/// This instance among the others.
pub struct Membership {
    /// This instance's id.
    pub instance: String,
    store: Arc<dyn Store>,
    /// When this instance (an earlier process of it) was last alive before
    /// this start: its own games' downtime is excused from then.
    pub last_seen_before: Option<i64>,
    requests: Mutex<HashMap<u64, oneshot::Sender<Outcome>>>,
    next_request: AtomicU64,
    /// Lobby notices to publish.
    lobby_out: OnceLock<mpsc::UnboundedSender<LobbyNotice>>,
}

impl std::fmt::Debug for Membership {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Membership")
            .field("instance", &self.instance)
            .finish_non_exhaustive()
    }
}

impl Membership {
    /// Joins the cluster of `store` as `instance`; `None` when the store
    /// serves one process (SQLite).
    pub async fn join(
        store: &Arc<dyn Store>,
        instance: &str,
    ) -> Result<Option<Arc<Membership>>, StoreError> {
        let Some(cluster) = store.cluster() else {
            return Ok(None);
        };
        let last_seen_before = cluster.join(instance, time::now_millis()).await?;
        Ok(Some(Arc::new(Membership {
            instance: instance.to_owned(),
            store: Arc::clone(store),
            last_seen_before,
            requests: Mutex::new(HashMap::new()),
            next_request: AtomicU64::new(1),
            lobby_out: OnceLock::new(),
        })))
    }

    fn cluster(&self) -> &dyn shoutan_store::cluster::Cluster {
        self.store
            .cluster()
            .expect("a membership is made only for a store with a cluster")
    }

    /// Claims `game` for this instance.
    pub async fn claim(&self, game: GameId) -> Result<Claim, StoreError> {
        self.cluster().claim(game).await
    }

    /// Sends `message` to `instance`; false (and logged) when it could not
    /// be written or published.
    pub(crate) async fn send(&self, instance: &str, message: &Direct) -> bool {
        let payload = match serde_json::to_string(message) {
            Ok(payload) => payload,
            Err(e) => {
                tracing::error!("a message to instance {instance} cannot be written: {e}");
                return false;
            }
        };
        match self
            .cluster()
            .publish(&direct_channel(instance), &payload)
            .await
        {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!("a message to instance {instance} was not sent: {e}");
                false
            }
        }
    }

    /// A fresh request number.
    pub(crate) fn request_number(&self) -> u64 {
        self.next_request.fetch_add(1, Ordering::Relaxed)
    }

    /// Sends the request `message` (numbered `req`) to `instance` and waits
    /// for its answer.
    pub(crate) async fn request(
        &self,
        instance: &str,
        req: u64,
        message: &Direct,
    ) -> Result<Outcome, Unreachable> {
        let (tx, rx) = oneshot::channel();
        if let Ok(mut requests) = self.requests.lock() {
            requests.insert(req, tx);
        }
        let sent = self.send(instance, message).await;
        let answer = if sent {
            tokio::time::timeout(REQUEST_PATIENCE, rx).await.ok()
        } else {
            None
        };
        if let Ok(mut requests) = self.requests.lock() {
            requests.remove(&req);
        }
        match answer {
            Some(Ok(outcome)) => Ok(outcome),
            _ => Err(Unreachable),
        }
    }

    /// Publishes the lobby's notices to the other instances, and applies
    /// theirs to `lobby`; dispatches every other message of the bus.
    pub async fn run(
        self: Arc<Self>,
        shared: Arc<Shared>,
        lobby: Arc<Lobby>,
    ) -> Result<(), StoreError> {
        let mine = direct_channel(&self.instance);
        let mut bus = self
            .cluster()
            .listen(vec![
                GAME_CHANNEL.to_owned(),
                LOBBY_CHANNEL.to_owned(),
                mine.clone(),
            ])
            .await?;
        let (out, mut notices) = mpsc::unbounded_channel();
        if self.lobby_out.set(out.clone()).is_ok() {
            lobby.relay_to(out);
        }
        let publisher = Arc::clone(&self);
        tokio::spawn(async move {
            while let Some(notice) = notices.recv().await {
                let message = LobbyMessage {
                    from: publisher.instance.clone(),
                    notice,
                };
                let payload = match serde_json::to_string(&message) {
                    Ok(payload) => payload,
                    Err(e) => {
                        tracing::error!("a lobby notice cannot be written: {e}");
                        continue;
                    }
                };
                if let Err(e) = publisher.cluster().publish(LOBBY_CHANNEL, &payload).await {
                    tracing::warn!("a lobby notice was not published: {e}");
                }
            }
        });
        let me = Arc::clone(&self);
        tokio::spawn(async move {
            while let Some(message) = bus.recv().await {
                match message {
                    BusMessage::Reconnected => shared.catch_up_followers(),
                    BusMessage::Message { channel, payload } => {
                        if channel == GAME_CHANNEL {
                            me.on_logged(&shared, &payload);
                        } else if channel == LOBBY_CHANNEL {
                            me.on_lobby(&lobby, &payload);
                        } else if channel == mine {
                            me.on_direct(&shared, &payload);
                        }
                    }
                }
            }
        });
        Ok(())
    }

    fn on_logged(&self, shared: &Arc<Shared>, payload: &str) {
        let Ok(logged) = serde_json::from_str::<Logged>(payload) else {
            tracing::warn!("an unreadable event on the bus: {payload}");
            return;
        };
        if let Some(handle) = shared.in_memory(logged.g)
            && handle.is_follower()
        {
            handle.deliver(Msg::Logged(logged));
        }
    }

    fn on_lobby(&self, lobby: &Lobby, payload: &str) {
        match serde_json::from_str::<LobbyMessage>(payload) {
            Ok(m) if m.from != self.instance => lobby.apply(m.notice),
            Ok(_) => {}
            Err(e) => tracing::warn!("an unreadable lobby notice on the bus: {e}"),
        }
    }

    fn on_direct(self: &Arc<Self>, shared: &Arc<Shared>, payload: &str) {
        let message = match serde_json::from_str::<Direct>(payload) {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!("an unreadable message on the bus: {e}");
                return;
            }
        };
        match message {
            Direct::Reply { req, outcome } => {
                let waiting = self.requests.lock().ok().and_then(|mut r| r.remove(&req));
                if let Some(tx) = waiting {
                    let _ = tx.send(outcome);
                }
            }
            Direct::Attendance {
                from,
                game,
                attendance,
            } => {
                if let Some(handle) = shared.in_memory(game)
                    && !handle.is_follower()
                {
                    handle.deliver(Msg::Attendance {
                        instance: from,
                        attendance,
                    });
                }
            }
            Direct::Presence { game, frame } => {
                if let Some(handle) = shared.in_memory(game)
                    && handle.is_follower()
                {
                    handle.deliver(Msg::Presence(frame));
                }
            }
            Direct::Command {
                req,
                from,
                game,
                who,
                id,
                version,
                message,
                lag_ms,
            } => {
                let me = Arc::clone(self);
                let shared = Arc::clone(shared);
                tokio::spawn(async move {
                    let outcome = match shared.in_memory(game).filter(|h| !h.is_follower()) {
                        Some(handle) => match handle
                            .command(
                                who,
                                id,
                                version,
                                message,
                                shoutan_clock::Millis::from_millis(lag_ms),
                            )
                            .await
                        {
                            Ok(result) => Outcome::Command { result },
                            Err(_) => Outcome::NotHere,
                        },
                        None => Outcome::NotHere,
                    };
                    me.send(&from, &Direct::Reply { req, outcome }).await;
                });
            }
            Direct::Arbiter {
                req,
                from,
                game,
                event,
            } => {
                let me = Arc::clone(self);
                let shared = Arc::clone(shared);
                tokio::spawn(async move {
                    let outcome = match shared.in_memory(game).filter(|h| !h.is_follower()) {
                        Some(handle) => match handle.arbiter(event).await {
                            Ok(result) => Outcome::Arbiter { result },
                            Err(_) => Outcome::NotHere,
                        },
                        None => Outcome::NotHere,
                    };
                    me.send(&from, &Direct::Reply { req, outcome }).await;
                });
            }
        }
    }

    /// Every second: the heartbeat, then the games of dead instances taken
    /// over (see the module documentation).
    pub async fn watch(self: Arc<Self>, shared: Arc<Shared>) {
        let mut every = tokio::time::interval(Duration::from_secs(1));
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            if let Err(e) = self.cluster().beat(time::now_millis()).await {
                tracing::error!("heartbeat not recorded: {e}");
                continue;
            }
            let orphans = match self.cluster().orphans(TAKEOVERS).await {
                Ok(orphans) => orphans,
                Err(e) => {
                    tracing::warn!("cannot list the games of dead instances: {e}");
                    continue;
                }
            };
            for game in orphans {
                if let Err(e) = shared.take_over(game).await {
                    tracing::warn!("game {game} not taken over: {e}");
                }
            }
        }
    }
}
