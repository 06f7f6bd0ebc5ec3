//! [`ReviewStore`] on SQLite, through the group-committing writer.

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::SqliteStore;
use crate::review::{NewRecordReview, NewReview, RecordReviewRow, ReviewRow, ReviewStore};
use crate::{GameId, StoreError};

const COLUMNS: &str = "game_id, level, requested_by, requested_at, finished_at, body";

fn review_row(r: &Row<'_>) -> rusqlite::Result<ReviewRow> {
    Ok(ReviewRow {
        game: r.get(0)?,
        level: r.get(1)?,
        requested_by: r.get(2)?,
        requested_at: r.get(3)?,
        finished_at: r.get(4)?,
        body: r.get(5)?,
    })
}

fn review_by_key(
    conn: &Connection,
    game: GameId,
    level: &str,
) -> Result<Option<ReviewRow>, StoreError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM reviews WHERE game_id = ?1 AND level = ?2"
        ))?
        .query_row(params![game, level], review_row)
        .optional()?)
}

const RECORD_COLUMNS: &str = "record, level, sgf, requested_by, requested_at, finished_at, body";

fn record_review_row(r: &Row<'_>) -> rusqlite::Result<RecordReviewRow> {
    Ok(RecordReviewRow {
        record: r.get(0)?,
        level: r.get(1)?,
        sgf: r.get(2)?,
        requested_by: r.get(3)?,
        requested_at: r.get(4)?,
        finished_at: r.get(5)?,
        body: r.get(6)?,
    })
}

fn record_review_by_key(
    conn: &Connection,
    record: &str,
    level: &str,
) -> Result<Option<RecordReviewRow>, StoreError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {RECORD_COLUMNS} FROM record_reviews WHERE record = ?1 AND level = ?2"
        ))?
        .query_row(params![record, level], record_review_row)
        .optional()?)
}

#[async_trait::async_trait]
impl ReviewStore for SqliteStore {
    async fn request_review(&self, r: NewReview) -> Result<(ReviewRow, bool), StoreError> {
        self.write(move |conn| {
            let made = conn
                .prepare_cached(
                    "INSERT INTO reviews (game_id, level, requested_by, requested_at) \
                     VALUES (?1, ?2, ?3, ?4) ON CONFLICT (game_id, level) DO NOTHING",
                )?
                .execute(params![r.game, r.level, r.requested_by, r.requested_at])?
                == 1;
            let row = review_by_key(conn, r.game, &r.level)?.ok_or_else(|| {
                StoreError::Corrupt(format!("review of game {} vanished", r.game))
            })?;
            Ok((row, made))
        })
        .await
    }

    async fn reviews(&self, game: GameId) -> Result<Vec<ReviewRow>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM reviews WHERE game_id = ?1 ORDER BY level"
            ))?;
            let rows = stmt.query_map([game], review_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn pending_reviews(&self) -> Result<Vec<ReviewRow>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM reviews WHERE finished_at IS NULL \
                 ORDER BY requested_at, game_id, level"
            ))?;
            let rows = stmt.query_map([], review_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn finish_review(
        &self,
        game: GameId,
        level: &str,
        body: String,
        at: i64,
    ) -> Result<bool, StoreError> {
        let level = level.to_owned();
        self.write(move |conn| {
            Ok(conn
                .prepare_cached(
                    "UPDATE reviews SET finished_at = ?1, body = ?2 \
                     WHERE game_id = ?3 AND level = ?4 AND finished_at IS NULL",
                )?
                .execute(params![at, body, game, level])?
                == 1)
        })
        .await
    }

    async fn request_record_review(
        &self,
        r: NewRecordReview,
    ) -> Result<(RecordReviewRow, bool), StoreError> {
        self.write(move |conn| {
            let made =
                conn.prepare_cached(
                    "INSERT INTO record_reviews \
                     (record, level, sgf, requested_by, requested_at) \
                     VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (record, level) DO NOTHING",
                )?
                .execute(params![
                    r.record,
                    r.level,
                    r.sgf,
                    r.requested_by,
                    r.requested_at
                ])? == 1;
            let row = record_review_by_key(conn, &r.record, &r.level)?.ok_or_else(|| {
                StoreError::Corrupt(format!("review of record {} vanished", r.record))
            })?;
            Ok((row, made))
        })
        .await
    }

    async fn record_review(
        &self,
        record: &str,
        level: &str,
    ) -> Result<Option<RecordReviewRow>, StoreError> {
        let (record, level) = (record.to_owned(), level.to_owned());
        self.read(move |conn| record_review_by_key(conn, &record, &level))
            .await
    }

    async fn pending_record_reviews(&self) -> Result<Vec<RecordReviewRow>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {RECORD_COLUMNS} FROM record_reviews WHERE finished_at IS NULL \
                 ORDER BY requested_at, record, level"
            ))?;
            let rows = stmt.query_map([], record_review_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn finish_record_review(
        &self,
        record: &str,
        level: &str,
        body: String,
        at: i64,
    ) -> Result<bool, StoreError> {
        let (record, level) = (record.to_owned(), level.to_owned());
        self.write(move |conn| {
            Ok(conn
                .prepare_cached(
                    "UPDATE record_reviews SET finished_at = ?1, body = ?2 \
                     WHERE record = ?3 AND level = ?4 AND finished_at IS NULL",
                )?
                .execute(params![at, body, record, level])?
                == 1)
        })
        .await
    }
}
