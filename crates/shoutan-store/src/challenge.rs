//! Challenges in the lobby: an offer of a game, open to all or to one player.

use crate::UserId;

/// A challenge's id.
pub type ChallengeId = i64;

/// A challenge to store.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    /// Who offers the game.
    pub challenger: UserId,
    /// The one player it is for; `None` for an open challenge.
    pub opponent: Option<UserId>,
    /// The game's settings as the server writes them (JSON).
    pub settings: String,
    /// When (ms since the Unix epoch).
    pub created_at: i64,
}

/// A stored challenge, with the players' names.
#[derive(Clone, Debug, PartialEq)]
pub struct Challenge {
    /// Its id.
    pub id: ChallengeId,
    /// Who offers the game.
    pub challenger: PlayerRef,
    /// Who it is for, if anyone in particular.
    pub opponent: Option<PlayerRef>,
    /// The game's settings (JSON).
    pub settings: String,
    /// When (ms since the Unix epoch).
    pub created_at: i64,
}

/// A player named in a challenge or a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRef {
    /// The user's id.
    pub id: UserId,
    /// The user's name.
    pub name: String,
}
