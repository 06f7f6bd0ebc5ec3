//! What a player does with his own account: a new password, his sessions,
//! a reset code the operator gave him, deleting the account.

use crate::{StoreError, UserId};

/// One of a user's sessions, as listed to him.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    /// SHA-256 of its token (not the token: listing opens nothing).
    pub token_hash: [u8; 32],
    /// The client it was opened from (the browser's `User-Agent`).
    pub client: String,
    /// When it began.
    pub created_at: i64,
    /// When it stops being valid.
    pub expires_at: i64,
}

/// The name a deleted account's games keep: `deleted-` and its id. New
/// accounts may not take a name of this form.
#[must_use]
pub fn deleted_name(user: UserId) -> String {
    format!("{DELETED_PREFIX}{user}")
}

/// How the names of deleted accounts begin.
pub const DELETED_PREFIX: &str = "deleted-";

/// Passwords, sessions and the end of accounts.
#[async_trait::async_trait]
pub trait AccountStore: Send + Sync {
    /// Sets a new password hash and ends every session of the user but
    /// `keep`, in one transaction; false if there is no such account.
    async fn set_password(
        &self,
        user: UserId,
        password_hash: String,
        keep: Option<[u8; 32]>,
    ) -> Result<bool, StoreError>;
    /// The user's sessions valid at `now`, newest first.
    async fn sessions(&self, user: UserId, now: i64) -> Result<Vec<SessionRow>, StoreError>;
    /// Ends every session of the user but `keep`; how many ended.
    async fn end_sessions(&self, user: UserId, keep: Option<[u8; 32]>) -> Result<u64, StoreError>;

    /// Stores a one-time reset code's hash (replacing any earlier code of
    /// the user).
    async fn create_reset_code(
        &self,
        user: UserId,
        code_hash: [u8; 32],
        expires_at: i64,
    ) -> Result<(), StoreError>;
    /// Uses a reset code: if it is valid at `now`, sets the password, ends
    /// every session and removes the code, in one transaction, and returns
    /// the user; `None` (and nothing changed) otherwise.
    async fn use_reset_code(
        &self,
        code_hash: [u8; 32],
        now: i64,
        password_hash: String,
    ) -> Result<Option<UserId>, StoreError>;

    /// Deletes an account: its name becomes [`deleted_name`], its password
    /// matches nothing, it leaves the lists (search, ratings), and its
    /// sessions, seeks, open challenges, roles and relations go; its games
    /// stay, under the new name. False if it was deleted already.
    async fn delete_account(&self, user: UserId, at: i64) -> Result<bool, StoreError>;
}
