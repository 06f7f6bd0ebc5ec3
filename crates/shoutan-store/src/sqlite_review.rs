//! [`ReviewStore`] on SQLite, through the group-committing writer.

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::SqliteStore;
use crate::review::{NewReview, ReviewRow, ReviewStore};
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
}
