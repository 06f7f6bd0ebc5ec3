//! Several server instances on one PostgreSQL database: who they are, which
//! instance owns each game, and a message bus between them.
//!
//! - **Instances** record a heartbeat every second. An instance whose
//!   heartbeat is older than [`LEASE_MS`] (by the database's clock, so that
//!   the servers' clocks need not agree) is taken for dead.
//! - **Ownership**: each game is owned by one instance at a time (a row of
//!   `game_owners`). An instance claims a game that nobody owns or whose
//!   owner is dead; the claim is a row lock, so two claimants cannot both
//!   win. Only the owner writes a game's log: once an instance has joined,
//!   its appends are **fenced** — in the same transaction they check, under
//!   a shared lock on the ownership rows, that this very process (its
//!   instance id and the token it joined with) still owns each game, and
//!   fail with [`StoreError::NotOwner`] otherwise. A claim therefore waits
//!   for an append in flight, and no append follows a claim.
//! - **Bus**: PostgreSQL's `LISTEN/NOTIFY`. Appended events are published
//!   on [`GAME_CHANNEL`] inside the transaction that appends them, so they
//!   reach listeners exactly when durable and in commit order; other
//!   messages go on named channels ([`Cluster::publish`]).

use tokio::sync::mpsc;

use crate::{GameId, StoreError};

/// How long an instance's heartbeat stays good (ms, database clock).
pub const LEASE_MS: i64 = 5_000;

/// The channel of appended events: each notification is one event,
/// `{"g": game, "v": version, "at": ms, "b": body}`, or `{"g", "v"}` alone
/// when the body is too large for a notification (read it from the log).
pub const GAME_CHANNEL: &str = "shoutan_game";

/// The largest notification payload PostgreSQL takes is 8000 bytes; events
/// whose notification would be larger go without their body.
pub const MAX_PAYLOAD: usize = 7_900;

/// Who owns a game after a claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// This instance owns it now. `previous`: the instance that owned it
    /// before (this one again after a restart, or a dead one), and the last
    /// instant (ms, that instance's own clock) it was seen alive.
    Owned {
        /// The owner before, and when it was last alive.
        previous: Option<(String, i64)>,
    },
    /// A live instance owns it.
    Elsewhere(String),
}

/// A notification received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BusMessage {
    /// A notification on `channel`.
    Message {
        /// The channel.
        channel: String,
        /// The payload.
        payload: String,
    },
    /// The listening connection was lost and made again: notifications
    /// may have been missed meanwhile (resynchronise from the log).
    Reconnected,
}

/// Instances, ownership and the bus, on PostgreSQL.
#[async_trait::async_trait]
pub trait Cluster: Send + Sync {
    /// Enters this process as `instance` (a new token: a process that
    /// joined earlier under the same id loses its fence), and records its
    /// first heartbeat. Appends are fenced from now on. Returns when an
    /// earlier process of this id was last seen alive (ms, its clock): a
    /// restarted instance excuses its games' downtime from then.
    async fn join(&self, instance: &str, started_at: i64) -> Result<Option<i64>, StoreError>;
    /// Records this instance's heartbeat (`seen_at`: now by its own
    /// clock); an error when another process joined under its id since.
    async fn beat(&self, seen_at: i64) -> Result<(), StoreError>;
    /// Claims `game` for this instance: owned if nobody owns it, if this
    /// instance already does, or if its owner is dead.
    async fn claim(&self, game: GameId) -> Result<Claim, StoreError>;
    /// The live instance that owns `game`, if one does.
    async fn owner(&self, game: GameId) -> Result<Option<String>, StoreError>;
    /// Games owned by dead instances, oldest first, at most `limit`.
    async fn orphans(&self, limit: i64) -> Result<Vec<GameId>, StoreError>;
    /// The live games this instance owns (after losing some to a claim,
    /// the rest): a finished game needs no owner to serve it again.
    async fn owned(&self) -> Result<Vec<GameId>, StoreError>;
    /// The instances alive now.
    async fn instances(&self) -> Result<Vec<String>, StoreError>;
    /// Publishes `payload` on `channel` (at most [`MAX_PAYLOAD`] bytes).
    async fn publish(&self, channel: &str, payload: &str) -> Result<(), StoreError>;
    /// Listens on `channels` from a connection of its own (made again when
    /// lost): the notifications, in order.
    async fn listen(
        &self,
        channels: Vec<String>,
    ) -> Result<mpsc::UnboundedReceiver<BusMessage>, StoreError>;
}
