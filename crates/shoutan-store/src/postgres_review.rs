//! [`ReviewStore`] on PostgreSQL.

use tokio_postgres::Row;

use super::PostgresStore;
use crate::review::{NewRecordReview, NewReview, RecordReviewRow, ReviewRow, ReviewStore};
use crate::{GameId, StoreError};

const COLUMNS: &str = "game_id, level, requested_by, requested_at, finished_at, body";

fn review_row(r: &Row) -> Result<ReviewRow, StoreError> {
    Ok(ReviewRow {
        game: r.try_get(0)?,
        level: r.try_get(1)?,
        requested_by: r.try_get(2)?,
        requested_at: r.try_get(3)?,
        finished_at: r.try_get(4)?,
        body: r.try_get(5)?,
    })
}

const RECORD_COLUMNS: &str = "record, level, sgf, requested_by, requested_at, finished_at, body";

fn record_review_row(r: &Row) -> Result<RecordReviewRow, StoreError> {
    Ok(RecordReviewRow {
        record: r.try_get(0)?,
        level: r.try_get(1)?,
        sgf: r.try_get(2)?,
        requested_by: r.try_get(3)?,
        requested_at: r.try_get(4)?,
        finished_at: r.try_get(5)?,
        body: r.try_get(6)?,
    })
}

#[async_trait::async_trait]
impl ReviewStore for PostgresStore {
    async fn request_review(&self, r: NewReview) -> Result<(ReviewRow, bool), StoreError> {
        let client = self.client().await?;
        let made = client
            .execute(
                "INSERT INTO reviews (game_id, level, requested_by, requested_at) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (game_id, level) DO NOTHING",
                &[&r.game, &r.level, &r.requested_by, &r.requested_at],
            )
            .await?
            == 1;
        let row = client
            .query_opt(
                &format!("SELECT {COLUMNS} FROM reviews WHERE game_id = $1 AND level = $2"),
                &[&r.game, &r.level],
            )
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("review of game {} vanished", r.game)))?;
        Ok((review_row(&row)?, made))
    }

    async fn reviews(&self, game: GameId) -> Result<Vec<ReviewRow>, StoreError> {
        self.client()
            .await?
            .query(
                &format!("SELECT {COLUMNS} FROM reviews WHERE game_id = $1 ORDER BY level"),
                &[&game],
            )
            .await?
            .iter()
            .map(review_row)
            .collect()
    }

    async fn pending_reviews(&self) -> Result<Vec<ReviewRow>, StoreError> {
        self.client()
            .await?
            .query(
                &format!(
                    "SELECT {COLUMNS} FROM reviews WHERE finished_at IS NULL \
                     ORDER BY requested_at, game_id, level"
                ),
                &[],
            )
            .await?
            .iter()
            .map(review_row)
            .collect()
    }

    async fn finish_review(
        &self,
        game: GameId,
        level: &str,
        body: String,
        at: i64,
    ) -> Result<bool, StoreError> {
        Ok(self
            .client()
            .await?
            .execute(
                "UPDATE reviews SET finished_at = $1, body = $2 \
                 WHERE game_id = $3 AND level = $4 AND finished_at IS NULL",
                &[&at, &body, &game, &level],
            )
            .await?
            == 1)
    }

    async fn request_record_review(
        &self,
        r: NewRecordReview,
    ) -> Result<(RecordReviewRow, bool), StoreError> {
        let client = self.client().await?;
        let made = client
            .execute(
                "INSERT INTO record_reviews (record, level, sgf, requested_by, requested_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (record, level) DO NOTHING",
                &[
                    &r.record,
                    &r.level,
                    &r.sgf,
                    &r.requested_by,
                    &r.requested_at,
                ],
            )
            .await?
            == 1;
        let row = client
            .query_opt(
                &format!(
                    "SELECT {RECORD_COLUMNS} FROM record_reviews WHERE record = $1 AND level = $2"
                ),
                &[&r.record, &r.level],
            )
            .await?
            .ok_or_else(|| {
                StoreError::Corrupt(format!("review of record {} vanished", r.record))
            })?;
        Ok((record_review_row(&row)?, made))
    }

    async fn record_review(
        &self,
        record: &str,
        level: &str,
    ) -> Result<Option<RecordReviewRow>, StoreError> {
        self.client()
            .await?
            .query_opt(
                &format!(
                    "SELECT {RECORD_COLUMNS} FROM record_reviews WHERE record = $1 AND level = $2"
                ),
                &[&record, &level],
            )
            .await?
            .as_ref()
            .map(record_review_row)
            .transpose()
    }

    async fn pending_record_reviews(&self) -> Result<Vec<RecordReviewRow>, StoreError> {
        self.client()
            .await?
            .query(
                &format!(
                    "SELECT {RECORD_COLUMNS} FROM record_reviews WHERE finished_at IS NULL \
                     ORDER BY requested_at, record, level"
                ),
                &[],
            )
            .await?
            .iter()
            .map(record_review_row)
            .collect()
    }

    async fn finish_record_review(
        &self,
        record: &str,
        level: &str,
        body: String,
        at: i64,
    ) -> Result<bool, StoreError> {
        Ok(self
            .client()
            .await?
            .execute(
                "UPDATE record_reviews SET finished_at = $1, body = $2 \
                 WHERE record = $3 AND level = $4 AND finished_at IS NULL",
                &[&at, &body, &record, &level],
            )
            .await?
            == 1)
    }
}
