//! Accounts: a name, a password hash, a declared rank and a rating.

use serde::{Deserialize, Serialize};
use shoutan_rules::Rank;

/// A user's id.
pub type UserId = i64;

/// A Glicko-2 rating as stored (on the Glicko scale: 1500 ± 350 for a
/// newcomer).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// The rating deviation (RD).
    pub deviation: f64,
    /// The volatility (σ).
    pub volatility: f64,
}

/// An account to create.
#[derive(Clone, Debug)]
pub struct NewUser {
    /// The name as the player wrote it.
    pub name: String,
    /// The argon2id PHC string; never the password.
    pub password_hash: String,
    /// The rank the player declared.
    pub declared_rank: Rank,
    /// The starting rating (from the declared rank).
    pub rating: Rating,
    /// When, in milliseconds since the Unix epoch.
    pub created_at: i64,
}

/// A stored account.
#[derive(Clone, Debug, PartialEq)]
pub struct User {
    /// Its id.
    pub id: UserId,
    /// The name as the player wrote it.
    pub name: String,
    /// The argon2id PHC string.
    pub password_hash: String,
    /// The rank the player declared.
    pub declared_rank: Rank,
    /// The current rating.
    pub rating: Rating,
    /// Rated games finished.
    pub rated_games: u32,
    /// When the account was made (ms since the Unix epoch).
    pub created_at: i64,
}

/// The key names are unique under: the name in lower case, so that "Ke Jie"
/// and "ke jie" cannot both exist.
#[must_use]
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}
