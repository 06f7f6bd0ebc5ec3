//! Challenges in the lobby: an offer of a game, open to all or to one
//! player; or of several seats (a rengo's three, a simul's boards) that
//! players join until the last seat starts the games.

use crate::{GameRow, NewGame, StoreError, UserId};

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
    /// Players to join besides the challenger: 1 for a game of two (one
    /// accepts), more for seats joined one by one.
    pub seats: u32,
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
    /// Players to join besides the challenger.
    pub seats: u32,
    /// Who has joined so far, in order (for seats joined one by one).
    pub joined: Vec<Joiner>,
    /// When (ms since the Unix epoch).
    pub created_at: i64,
}

/// A player who took a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Joiner {
    /// Who.
    pub player: PlayerRef,
    /// His seat as the server wrote it when he joined (JSON).
    pub seat: String,
}

/// Makes the games of a challenge whose last seat was just taken, from the
/// challenge with every joined player: runs inside the joining transaction
/// (an error starts nothing and keeps the seat free).
pub type Starting = Box<dyn FnOnce(&Challenge) -> Result<Vec<NewGame>, StoreError> + Send>;

/// What a join did.
#[derive(Clone, Debug, PartialEq)]
pub enum Joined {
    /// A seat taken; others are still free.
    Waiting(Challenge),
    /// The last seat taken: the challenge is gone, its games are made.
    Started(Vec<GameRow>),
}

/// A player named in a challenge or a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRef {
    /// The user's id.
    pub id: UserId,
    /// The user's name.
    pub name: String,
}
