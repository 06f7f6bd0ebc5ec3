//! This server as one instance of several on one PostgreSQL database.
//!
//! Each live game is owned by one instance (a claim in the store, see
//! [`shoutan_store::cluster`]); only the owner runs the game's actor and
//! its clock. Any instance serves any client: a connection to an instance
//! that does not own the game is served by a follower, a replica rebuilt
//! from the log and kept up by the events the owner's appends publish; its
//! clients' commands are sent to the owner and answered by it. This module
//! is the bus and the membership; what the games say over it, and do with
//! what they hear, is theirs (the `Games` trait).
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

use std::borrow::Cow;
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use shoutan_store::cluster::{BusMessage, Claim, GAME_CHANNEL};
use shoutan_store::{GameId, Store, StoreError};
use tokio::sync::{mpsc, oneshot};

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
pub struct Logged {
    /// The game.
    pub g: GameId,
    /// Its version.
    pub v: u64,
    /// When (ms), absent with the body when it did not fit.
    pub at: Option<i64>,
    /// The stored body.
    pub b: Option<String>,
}

/// An answer to another instance's request, as sent: the other messages
/// between instances are the games' (`Games::Message`).
#[derive(Serialize)]
struct Reply<'a, T> {
    /// Always `reply`.
    t: &'static str,
    /// The request answered.
    req: u64,
    /// The answer.
    outcome: &'a T,
}

/// A message to this instance, its name alone read (the rest is skipped,
/// not built): `reply`, or one of the games'.
#[derive(Deserialize)]
struct Named<'a> {
    #[serde(borrow)]
    t: Cow<'a, str>,
}

/// An answer as it arrives, read once its request is found.
#[derive(Deserialize)]
struct ReplyIn {
    req: u64,
    outcome: serde_json::Value,
}

/// What the bus brings to this instance's games.
pub(crate) trait Games: Send + Sync + 'static {
    /// The games' messages between instances: each an object whose `t`
    /// names it (other than `reply`).
    type Message: DeserializeOwned + Send;
    /// Why a game could not be taken over.
    type TakeOverError: std::fmt::Display;
    /// An event the owner of a game appended.
    fn logged(&self, logged: Logged);
    /// A message another instance sent here.
    fn message(self: &Arc<Self>, message: Self::Message);
    /// The bus reconnected: notifications may have been missed.
    fn reconnected(&self);
    /// Rebuilds here a game whose owner died.
    fn take_over(
        self: &Arc<Self>,
        game: GameId,
    ) -> impl Future<Output = Result<(), Self::TakeOverError>> + Send;
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
    requests: Mutex<HashMap<u64, oneshot::Sender<serde_json::Value>>>,
    next_request: AtomicU64,
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
    pub async fn send(&self, instance: &str, message: &impl Serialize) -> bool {
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
    pub fn request_number(&self) -> u64 {
        self.next_request.fetch_add(1, Ordering::Relaxed)
    }

    /// Sends the request `message` (numbered `req`) to `instance` and waits
    /// for its answer; an answer that cannot be read is no answer.
    pub async fn request<A: DeserializeOwned>(
        &self,
        instance: &str,
        req: u64,
        message: &impl Serialize,
    ) -> Result<A, Unreachable> {
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
        let Some(Ok(outcome)) = answer else {
            return Err(Unreachable);
        };
        serde_json::from_value(outcome).map_err(|e| {
            tracing::warn!("an unreadable answer from instance {instance}: {e}");
            Unreachable
        })
    }

    /// Answers `instance`'s request `req` with `outcome`.
    pub async fn reply(&self, instance: &str, req: u64, outcome: &impl Serialize) {
        let reply = Reply {
            t: "reply",
            req,
            outcome,
        };
        self.send(instance, &reply).await;
    }

    /// Publishes `notices` (this instance's lobby changes) to the other
    /// instances, and applies theirs to `lobby`; hands `games` what the bus
    /// brings them and answers to the requests this instance made.
    pub(crate) async fn run<G: Games>(
        self: Arc<Self>,
        games: Arc<G>,
        lobby: Arc<Lobby>,
        mut notices: mpsc::UnboundedReceiver<LobbyNotice>,
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
                    BusMessage::Reconnected => games.reconnected(),
                    BusMessage::Message { channel, payload } => {
                        if channel == GAME_CHANNEL {
                            match serde_json::from_str::<Logged>(&payload) {
                                Ok(logged) => games.logged(logged),
                                Err(_) => {
                                    tracing::warn!("an unreadable event on the bus: {payload}")
                                }
                            }
                        } else if channel == LOBBY_CHANNEL {
                            me.on_lobby(&lobby, &payload);
                        } else if channel == mine {
                            me.on_direct(&games, &payload);
                        }
                    }
                }
            }
        });
        Ok(())
    }

    fn on_lobby(&self, lobby: &Lobby, payload: &str) {
        match serde_json::from_str::<LobbyMessage>(payload) {
            Ok(m) if m.from != self.instance => lobby.apply(m.notice),
            Ok(_) => {}
            Err(e) => tracing::warn!("an unreadable lobby notice on the bus: {e}"),
        }
    }

    /// A message to this instance: an answer goes to its request, any
    /// other message to the games.
    fn on_direct<G: Games>(&self, games: &Arc<G>, payload: &str) {
        match serde_json::from_str::<Named>(payload) {
            Ok(Named { t }) if t == "reply" => match serde_json::from_str::<ReplyIn>(payload) {
                Ok(ReplyIn { req, outcome }) => {
                    let waiting = self.requests.lock().ok().and_then(|mut r| r.remove(&req));
                    if let Some(tx) = waiting {
                        let _ = tx.send(outcome);
                    }
                }
                Err(e) => tracing::warn!("an unreadable answer on the bus: {e}"),
            },
            Ok(_) => match serde_json::from_str::<G::Message>(payload) {
                Ok(message) => games.message(message),
                Err(e) => tracing::warn!("an unreadable message on the bus: {e}"),
            },
            Err(e) => tracing::warn!("an unreadable message on the bus: {e}"),
        }
    }

    /// Every second: the heartbeat, then the games of dead instances taken
    /// over (see the module documentation).
    pub(crate) async fn watch<G: Games>(self: Arc<Self>, games: Arc<G>) {
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
                if let Err(e) = games.take_over(game).await {
                    tracing::warn!("game {game} not taken over: {e}");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer is written as the release before wrote it (`t: reply`),
    /// and read back whatever the games put in it.
    #[test]
    fn replies_keep_their_form() {
        let outcome = serde_json::json!({"kind": "command", "result": {"Ok": 4}});
        let reply = Reply {
            t: "reply",
            req: 17,
            outcome: &outcome,
        };
        let text = serde_json::to_string(&reply).unwrap();
        assert_eq!(
            text,
            r#"{"t":"reply","req":17,"outcome":{"kind":"command","result":{"Ok":4}}}"#
        );
        let read: ReplyIn = serde_json::from_str(&text).unwrap();
        assert_eq!((read.req, read.outcome), (17, outcome));
    }
}
