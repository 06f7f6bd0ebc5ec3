//! Login sessions: only a hash of the cookie's token is ever stored.

use crate::UserId;

/// A session to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// SHA-256 of the token in the cookie.
    pub token_hash: [u8; 32],
    /// Whose session.
    pub user: UserId,
    /// When it began (ms since the Unix epoch).
    pub created_at: i64,
    /// When it stops being valid.
    pub expires_at: i64,
    /// The client it was opened from (the browser's `User-Agent`, cut
    /// short), for the player's list of his sessions.
    pub client: String,
}
