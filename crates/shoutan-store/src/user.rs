//! Accounts: a name, a password hash, a declared rank and a rating.

use serde::{Deserialize, Serialize};
use shoutan_rules::Rank;

use crate::moderation::Roles;

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

/// The rank a player shows once the rating has settled, and how far a run
/// of results has gone toward moving it (Fox's 段位 promotion and
/// demotion: the server's rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankStanding {
    /// The rank shown.
    pub shown: Rank,
    /// Rated games in a row whose rating pointed above the shown rank
    /// (positive) or below it (negative).
    pub streak: i32,
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
    /// The rank shown, once the rating has settled; `None` while it is
    /// provisional (the rating's own rank is shown, with a "?").
    pub standing: Option<RankStanding>,
    /// Rated games finished.
    pub rated_games: u32,
    /// When the account was made (ms since the Unix epoch).
    pub created_at: i64,
    /// The roles held besides playing.
    pub roles: Roles,
}

/// The key names are unique under: the name in lower case, so that "Ke Jie"
/// and "ke jie" cannot both exist.
#[must_use]
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// The key no two names may share because they look alike: the confusable
/// skeleton of Unicode TR39 (§4), lower-cased and taken again, so that
/// "Shoutan-AI-1", "Ѕhoutan-AI-1" (a Cyrillic Ѕ) and "Shoutan-Al-1" (a
/// lower-case L) meet. Case variants of one spelling meet in
/// [`name_key`] instead ("ai" keeps its i here, where "AI" has become "al").
/// Not for display: it only compares.
#[must_use]
pub fn name_skeleton(name: &str) -> String {
    let once: String = unicode_security::confusable_detection::skeleton(name).collect();
    unicode_security::confusable_detection::skeleton(&once.to_lowercase()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alike_names_share_a_skeleton() {
        let computer = name_skeleton("Shoutan-AI-1");
        // A Cyrillic Ѕ (U+0405) or ѕ (U+0455), an l for the 1, an l for the I.
        for twin in [
            "\u{405}houtan-AI-1",
            "\u{455}houtan-AI-1",
            "Shoutan-AI-l",
            "Shoutan-Al-1",
            "SHOUTAN-AI-1",
        ] {
            assert_eq!(name_skeleton(twin), computer, "{twin}");
        }
        for other in ["Shoutan-AI-2", "Shoutan-AI", "柯洁", "Shoutan_AI_1"] {
            assert_ne!(name_skeleton(other), computer, "{other}");
        }
        // Full-width letters look like their ASCII forms.
        assert_eq!(name_skeleton("\u{ff2b}e\u{ff2a}ie"), name_skeleton("KeJie"));
    }
}
