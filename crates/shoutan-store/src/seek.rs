//! Automatch (快速匹配): a player's standing offer to play anyone
//! compatible, paired with the first compatible seek in the transaction
//! that creates their game, so two seekers are never both paired with a
//! third, however many server instances share the database.

use crate::challenge::PlayerRef;
use crate::{GameRow, NewGame, StoreError, UserId};

/// A seek's id.
pub type SeekId = i64;

/// A seek to store. Two seeks are compatible when they are of different
/// players, on the same board, clock and rating, and each player's rank
/// level is within the other's range.
#[derive(Clone, Debug)]
pub struct NewSeek {
    /// Who seeks.
    pub user: UserId,
    /// The board size.
    pub size: u8,
    /// The clock, as canonical text (equal text, equal clock).
    pub time_control: String,
    /// Rated or casual.
    pub rated: bool,
    /// The seeker's rank level ([`shoutan_rules::Rank::level`]).
    pub rank_level: i32,
    /// The lowest rank level he accepts.
    pub min_level: i32,
    /// The highest rank level he accepts.
    pub max_level: i32,
    /// The rest of the seek as the server writes it (JSON).
    pub settings: String,
    /// When (ms since the Unix epoch).
    pub at: i64,
    /// Seeks not renewed since this instant are stale: removed, never paired.
    pub fresh_after: i64,
}

/// A stored seek.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seek {
    /// Its id.
    pub id: SeekId,
    /// Who seeks.
    pub user: PlayerRef,
    /// The board size.
    pub size: u8,
    /// The clock, as text.
    pub time_control: String,
    /// Rated or casual.
    pub rated: bool,
    /// The seeker's rank level.
    pub rank_level: i32,
    /// The lowest rank level accepted.
    pub min_level: i32,
    /// The highest rank level accepted.
    pub max_level: i32,
    /// The rest of the seek (JSON, the server's).
    pub settings: String,
    /// When it was made.
    pub created_at: i64,
}

/// Makes the game of a new seek with the compatible seek found: runs
/// inside the pairing transaction (an error pairs nobody and stores
/// nothing).
pub type Pairing = Box<dyn FnOnce(&Seek) -> Result<NewGame, StoreError> + Send>;

/// What became of a seek.
#[derive(Clone, Debug, PartialEq)]
pub enum SeekOutcome {
    /// No compatible seek: it waits (any older seek of the player is gone).
    Waiting(Seek),
    /// Paired with `partner`'s seek (now gone) into `game`; the new seek
    /// was never stored.
    Paired {
        /// The seek it was paired with.
        partner: Seek,
        /// Their game.
        game: GameRow,
    },
}

/// The columns of a seek with its player's name, in the order the
/// backends read them.
pub(crate) const SEEK_COLUMNS: &str = "s.id, s.user_id, u.name, s.size, s.time_control, \
     s.rated, s.rank_level, s.min_level, s.max_level, s.settings, s.created_at \
     FROM seeks s JOIN users u ON u.id = s.user_id";

/// The condition (after `WHERE`) that a stored seek `s` is compatible with
/// a new one, with `ph(n)` writing the n-th placeholder in the database's
/// dialect: 1 user, 2 size, 3 clock, 4 rated, 5 rank, 6 min, 7 max, 8 fresh.
/// Players of whom either blocked the other are never compatible.
pub(crate) fn compatible(ph: fn(usize) -> String) -> String {
    format!(
        "s.user_id <> {u} AND s.size = {size} AND s.time_control = {tc} AND s.rated = {rated} \
         AND s.rank_level BETWEEN {min} AND {max} AND {rank} BETWEEN s.min_level AND s.max_level \
         AND s.seen_at >= {fresh} AND {unblocked}",
        u = ph(1),
        size = ph(2),
        tc = ph(3),
        rated = ph(4),
        rank = ph(5),
        min = ph(6),
        max = ph(7),
        fresh = ph(8),
        unblocked = crate::moderation::unblocked("s.user_id", &ph(1)),
    )
}
