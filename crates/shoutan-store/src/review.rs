//! AI reviews of finished games: requested once per game and level, made
//! by the server's engine, stored once with the game. A request not yet
//! finished is picked up again after a restart.

use crate::{GameId, StoreError, UserId};

/// A review asked for.
#[derive(Clone, Debug)]
pub struct NewReview {
    /// The game.
    pub game: GameId,
    /// How thorough (the server's level name).
    pub level: String,
    /// Who asked.
    pub requested_by: UserId,
    /// When (ms since the Unix epoch).
    pub requested_at: i64,
}

/// A stored review, finished or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewRow {
    /// The game.
    pub game: GameId,
    /// How thorough.
    pub level: String,
    /// Who asked.
    pub requested_by: UserId,
    /// When (ms).
    pub requested_at: i64,
    /// When it was made (ms); `None` while it is still to make.
    pub finished_at: Option<i64>,
    /// The review (JSON, the server's) once made.
    pub body: Option<String>,
}

/// What the server keeps of reviews. Each method does all it says or
/// returns an error and writes nothing.
#[async_trait::async_trait]
pub trait ReviewStore: Send + Sync {
    /// Records a request: the row as stored, and whether this call made it
    /// (false: the game was already reviewed, or is being, at this level).
    async fn request_review(&self, review: NewReview) -> Result<(ReviewRow, bool), StoreError>;
    /// A game's reviews, by level.
    async fn reviews(&self, game: GameId) -> Result<Vec<ReviewRow>, StoreError>;
    /// The reviews still to make, oldest request first.
    async fn pending_reviews(&self) -> Result<Vec<ReviewRow>, StoreError>;
    /// Stores a review once it is made: false (and nothing written) if it
    /// was never requested or is stored already.
    async fn finish_review(
        &self,
        game: GameId,
        level: &str,
        body: String,
        at: i64,
    ) -> Result<bool, StoreError>;
}
