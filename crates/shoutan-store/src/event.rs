//! The append-only log of a game: each accepted event, versioned from 1.

use crate::GameId;

/// One event of a game's log. The body is the server's (JSON); the store
/// only keeps it in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredEvent {
    /// The game.
    pub game: GameId,
    /// Its version: 1 for the first event, then one more for each.
    pub version: u64,
    /// When it happened (ms since the Unix epoch).
    pub at: i64,
    /// What happened (JSON).
    pub body: String,
}
