//! AI reviews of finished games, requested once per game and level, and
//! of uploaded records (SGF), requested once per record and level: made by
//! the server's engine, stored once. A request not yet finished is picked
//! up again after a restart.

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

/// A review of an uploaded record asked for.
#[derive(Clone, Debug)]
pub struct NewRecordReview {
    /// The record's id: the server's digest of its content, the same for
    /// every upload of the same game.
    pub record: String,
    /// How thorough (the server's level name).
    pub level: String,
    /// The record as uploaded (kept: the review is made from it, again
    /// after a restart).
    pub sgf: String,
    /// Who asked.
    pub requested_by: UserId,
    /// When (ms since the Unix epoch).
    pub requested_at: i64,
}

/// A stored review of an uploaded record, finished or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordReviewRow {
    /// The record's id.
    pub record: String,
    /// How thorough.
    pub level: String,
    /// The record as first uploaded.
    pub sgf: String,
    /// Who first asked.
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

    /// Records a request for a review of an uploaded record: the row as
    /// stored, and whether this call made it (false: the record was
    /// already reviewed, or is being, at this level; the earlier request
    /// stays as it was).
    async fn request_record_review(
        &self,
        review: NewRecordReview,
    ) -> Result<(RecordReviewRow, bool), StoreError>;
    /// The review of a record at a level, if one was asked for.
    async fn record_review(
        &self,
        record: &str,
        level: &str,
    ) -> Result<Option<RecordReviewRow>, StoreError>;
    /// The reviews of records still to make, oldest request first.
    async fn pending_record_reviews(&self) -> Result<Vec<RecordReviewRow>, StoreError>;
    /// Stores a review of a record once it is made: false (and nothing
    /// written) if it was never requested or is stored already.
    async fn finish_record_review(
        &self,
        record: &str,
        level: &str,
        body: String,
        at: i64,
    ) -> Result<bool, StoreError>;
}
