//! Tournaments: each event is a row and an append-only log of what its
//! organiser and arbiters did, from which the server rebuilds the event by
//! replaying it through `shoutan_tournament` (as a live game is rebuilt
//! from its events). A round's games are created with the action that
//! paired them, in one transaction.

use crate::{GameId, GameRow, NewGame, StoreError, UserId};

/// A tournament's id.
pub type TournamentId = i64;

/// A tournament to create.
#[derive(Clone, Debug)]
pub struct NewTournament {
    /// Its name.
    pub name: String,
    /// The account that runs it.
    pub organiser: UserId,
    /// When (ms since the Unix epoch).
    pub created_at: i64,
    /// The first action of its log (the creation with every setting).
    pub first_action: String,
}

/// A stored tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    /// Its id.
    pub id: TournamentId,
    /// Its name.
    pub name: String,
    /// The account that runs it.
    pub organiser: UserId,
    /// When it was created (ms).
    pub created_at: i64,
}

/// One action of a tournament's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentAction {
    /// The tournament.
    pub tournament: TournamentId,
    /// Its place in the log, from 1, without gaps.
    pub seq: u64,
    /// When (ms).
    pub at: i64,
    /// Who did it; `None` for the server itself (a result that came in
    /// from a game, a forfeit after the late-arrival limit).
    pub actor: Option<UserId>,
    /// What was done (JSON, the server's).
    pub body: String,
}

/// A game created for a pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentGame {
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The game.
    pub game: GameId,
}

/// A game to create with an action: where it is in the event, and the game.
#[derive(Clone, Debug)]
pub struct NewTournamentGame {
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The game.
    pub game: NewGame,
}

/// What the server keeps of tournaments. Each method does all it says or
/// returns an error and writes nothing.
#[async_trait::async_trait]
pub trait TournamentStore: Send + Sync {
    /// Creates a tournament with the first action of its log (seq 1, by the
    /// organiser).
    async fn create_tournament(&self, t: NewTournament) -> Result<TournamentRow, StoreError>;
    /// Every tournament, by id.
    async fn tournaments(&self) -> Result<Vec<TournamentRow>, StoreError>;
    /// Appends an action and creates the games it starts, in one
    /// transaction; returns the games. [`StoreError::VersionTaken`] (with
    /// the tournament's id and the seq) if the seq exists.
    async fn append_tournament_action(
        &self,
        action: TournamentAction,
        games: Vec<NewTournamentGame>,
    ) -> Result<Vec<(TournamentGame, GameRow)>, StoreError>;
    /// A tournament's log, in order.
    async fn tournament_actions(
        &self,
        tournament: TournamentId,
    ) -> Result<Vec<TournamentAction>, StoreError>;
    /// The games created for a tournament, by round and table; a table
    /// replayed after a ruling has several, oldest first.
    async fn tournament_games(
        &self,
        tournament: TournamentId,
    ) -> Result<Vec<TournamentGame>, StoreError>;
}
