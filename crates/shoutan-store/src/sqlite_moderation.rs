//! [`ModerationStore`] and [`AccountStore`] on SQLite, through the
//! group-committing writer.

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::SqliteStore;
use crate::account::{AccountStore, SessionRow, deleted_name};
use crate::moderation::{
    ActionId, ActionKind, ActionRow, ModerationStore, NewAction, NewReport, Relation, ReportId,
    ReportRow, Roles, unblocked,
};
use crate::{GameId, PlayerRef, StoreError, UserId, name_key, name_skeleton};

const ACTION_COLUMNS: &str = "a.id, a.user_id, u.name, a.kind, a.reason, a.until, a.game_id, \
     a.report_id, a.by_id, b.name, a.at, a.lifted_at, a.lifted_by \
     FROM moderation_actions a JOIN users u ON u.id = a.user_id \
     LEFT JOIN users b ON b.id = a.by_id";

fn action_row(r: &Row<'_>) -> rusqlite::Result<ActionRow> {
    let by: Option<UserId> = r.get(8)?;
    let by_name: Option<String> = r.get(9)?;
    let lifted_at: Option<i64> = r.get(11)?;
    let kind: String = r.get(3)?;
    Ok(ActionRow {
        id: r.get(0)?,
        user: PlayerRef {
            id: r.get(1)?,
            name: r.get(2)?,
        },
        kind: ActionKind::read(&kind).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(3, rusqlite::types::Type::Text, e.into())
        })?,
        reason: r.get(4)?,
        until: r.get(5)?,
        game: r.get(6)?,
        report: r.get(7)?,
        by: by.map(|id| PlayerRef {
            id,
            name: by_name.unwrap_or_default(),
        }),
        at: r.get(10)?,
        lifted: match lifted_at {
            Some(at) => Some((at, r.get(12)?)),
            None => None,
        },
    })
}

fn actions_where(
    conn: &Connection,
    condition: &str,
    values: &[&dyn rusqlite::ToSql],
) -> Result<Vec<ActionRow>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!("SELECT {ACTION_COLUMNS} WHERE {condition}"))?;
    let rows = stmt.query_map(values, action_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

const REPORT_COLUMNS: &str = "r.id, r.reporter_id, a.name, r.target_id, t.name, r.game_id, \
     r.chat_version, r.reason, r.text, r.created_at, r.closed_at, r.closed_by, r.resolution \
     FROM reports r JOIN users a ON a.id = r.reporter_id JOIN users t ON t.id = r.target_id";

fn report_row(r: &Row<'_>) -> rusqlite::Result<ReportRow> {
    let closed_at: Option<i64> = r.get(10)?;
    Ok(ReportRow {
        id: r.get(0)?,
        reporter: PlayerRef {
            id: r.get(1)?,
            name: r.get(2)?,
        },
        target: PlayerRef {
            id: r.get(3)?,
            name: r.get(4)?,
        },
        game: r.get(5)?,
        chat: r.get::<_, Option<i64>>(6)?.map(i64::unsigned_abs),
        reason: r.get(7)?,
        text: r.get(8)?,
        at: r.get(9)?,
        closed: match closed_at {
            Some(at) => Some((
                at,
                r.get(11)?,
                r.get::<_, Option<String>>(12)?.unwrap_or_default(),
            )),
            None => None,
        },
    })
}

fn report_by_id(conn: &Connection, id: ReportId) -> Result<Option<ReportRow>, StoreError> {
    Ok(conn
        .prepare_cached(&format!("SELECT {REPORT_COLUMNS} WHERE r.id = ?1"))?
        .query_row([id], report_row)
        .optional()?)
}

fn action_by_id(conn: &Connection, id: ActionId) -> Result<Option<ActionRow>, StoreError> {
    Ok(actions_where(conn, "a.id = ?1", &[&id])?.pop())
}

fn close_report(
    conn: &Connection,
    id: ReportId,
    by: Option<UserId>,
    at: i64,
    resolution: &str,
) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached(
            "UPDATE reports SET closed_at = ?2, closed_by = ?3, resolution = ?4 \
             WHERE id = ?1 AND closed_at IS NULL",
        )?
        .execute(params![id, at, by, resolution])?
        == 1)
}

#[async_trait::async_trait]
impl ModerationStore for SqliteStore {
    async fn set_roles(&self, user: UserId, roles: Roles) -> Result<bool, StoreError> {
        self.write(move |conn| {
            Ok(conn
                .prepare_cached("UPDATE users SET roles = ?2 WHERE id = ?1 AND deleted_at IS NULL")?
                .execute(params![user, roles.bits()])?
                == 1)
        })
        .await
    }

    async fn staff(&self) -> Result<Vec<(PlayerRef, Roles)>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, name, roles FROM users WHERE roles <> 0 ORDER BY name_key",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok((
                    PlayerRef {
                        id: r.get(0)?,
                        name: r.get(1)?,
                    },
                    Roles::from_bits(r.get(2)?),
                ))
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn create_report(&self, report: NewReport) -> Result<ReportRow, StoreError> {
        self.write(move |conn| {
            conn.prepare_cached(
                "INSERT INTO reports (reporter_id, target_id, game_id, chat_version, reason, \
                 text, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                report.reporter,
                report.target,
                report.game,
                report.chat.map(|v| i64::try_from(v).unwrap_or(i64::MAX)),
                report.reason,
                report.text,
                report.at
            ])?;
            report_by_id(conn, conn.last_insert_rowid())?
                .ok_or_else(|| StoreError::Corrupt("a report vanished as it was filed".into()))
        })
        .await
    }

    async fn report(&self, id: ReportId) -> Result<Option<ReportRow>, StoreError> {
        self.read(move |conn| report_by_id(conn, id)).await
    }

    async fn reports(&self, open_only: bool, limit: u32) -> Result<Vec<ReportRow>, StoreError> {
        self.read(move |conn| {
            let sql = if open_only {
                format!("SELECT {REPORT_COLUMNS} WHERE r.closed_at IS NULL ORDER BY r.id LIMIT ?1")
            } else {
                format!("SELECT {REPORT_COLUMNS} ORDER BY r.id DESC LIMIT ?1")
            };
            let mut stmt = conn.prepare_cached(&sql)?;
            let rows = stmt.query_map([limit], report_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn close_report(
        &self,
        id: ReportId,
        by: Option<UserId>,
        at: i64,
        resolution: String,
    ) -> Result<bool, StoreError> {
        self.write(move |conn| close_report(conn, id, by, at, &resolution))
            .await
    }

    async fn record_action(&self, a: NewAction) -> Result<ActionRow, StoreError> {
        self.write(move |conn| {
            conn.prepare_cached(
                "INSERT INTO moderation_actions (user_id, kind, reason, until, game_id, \
                 report_id, by_id, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![
                a.user,
                a.kind.as_str(),
                a.reason,
                a.until,
                a.game,
                a.report,
                a.by,
                a.at
            ])?;
            let id = conn.last_insert_rowid();
            if a.kind.excludes() {
                conn.prepare_cached("DELETE FROM sessions WHERE user_id = ?1")?
                    .execute([a.user])?;
                conn.prepare_cached("DELETE FROM seeks WHERE user_id = ?1")?
                    .execute([a.user])?;
            }
            if let Some(report) = a.report {
                close_report(conn, report, a.by, a.at, a.kind.as_str())?;
            }
            action_by_id(conn, id)?
                .ok_or_else(|| StoreError::Corrupt("an action vanished as it was made".into()))
        })
        .await
    }

    async fn lift_action(
        &self,
        id: ActionId,
        by: Option<UserId>,
        at: i64,
    ) -> Result<Option<ActionRow>, StoreError> {
        self.write(move |conn| {
            let lifted = conn
                .prepare_cached(
                    "UPDATE moderation_actions SET lifted_at = ?2, lifted_by = ?3 \
                     WHERE id = ?1 AND lifted_at IS NULL AND (until IS NULL OR until > ?2) \
                     AND kind IN ('mute', 'suspension', 'ban')",
                )?
                .execute(params![id, at, by])?;
            if lifted == 1 {
                action_by_id(conn, id)
            } else {
                Ok(None)
            }
        })
        .await
    }

    async fn action(&self, id: ActionId) -> Result<Option<ActionRow>, StoreError> {
        self.read(move |conn| action_by_id(conn, id)).await
    }

    async fn actions(
        &self,
        user: Option<UserId>,
        limit: u32,
    ) -> Result<Vec<ActionRow>, StoreError> {
        self.read(move |conn| match user {
            Some(user) => actions_where(
                conn,
                "a.user_id = ?1 ORDER BY a.id DESC LIMIT ?2",
                &[&user, &limit],
            ),
            None => actions_where(conn, "1 ORDER BY a.id DESC LIMIT ?1", &[&limit]),
        })
        .await
    }

    async fn actions_after(&self, after: ActionId) -> Result<Vec<ActionRow>, StoreError> {
        self.read(move |conn| actions_where(conn, "a.id > ?1 ORDER BY a.id", &[&after]))
            .await
    }

    async fn annul_rating(
        &self,
        game: GameId,
        expected: String,
        summary: String,
        changes: [(UserId, f64); 2],
    ) -> Result<bool, StoreError> {
        self.write(move |conn| {
            let changed = conn
                .prepare_cached("UPDATE games SET ratings = ?3 WHERE id = ?1 AND ratings = ?2")?
                .execute(params![game, expected, summary])?;
            if changed != 1 {
                return Ok(false);
            }
            for (user, change) in changes {
                conn.prepare_cached(
                    "UPDATE users SET rating = rating - ?2, \
                     rated_games = MAX(rated_games - 1, 0) WHERE id = ?1",
                )?
                .execute(params![user, change])?;
            }
            Ok(true)
        })
        .await
    }

    async fn set_relation(
        &self,
        user: UserId,
        other: UserId,
        relation: Option<Relation>,
        at: i64,
    ) -> Result<(), StoreError> {
        self.write(move |conn| {
            match relation {
                Some(r) => conn
                    .prepare_cached(
                        "INSERT INTO relations (user_id, other_id, kind, at) \
                         VALUES (?1, ?2, ?3, ?4) \
                         ON CONFLICT (user_id, other_id) DO UPDATE SET kind = ?3, at = ?4",
                    )?
                    .execute(params![user, other, r.as_str(), at])?,
                None => conn
                    .prepare_cached("DELETE FROM relations WHERE user_id = ?1 AND other_id = ?2")?
                    .execute(params![user, other])?,
            };
            Ok(())
        })
        .await
    }

    async fn relations(&self, user: UserId) -> Result<Vec<(PlayerRef, Relation)>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT u.id, u.name, r.kind FROM relations r JOIN users u ON u.id = r.other_id \
                 WHERE r.user_id = ?1 ORDER BY u.name_key",
            )?;
            let rows = stmt.query_map([user], |r| {
                Ok((
                    PlayerRef {
                        id: r.get(0)?,
                        name: r.get(1)?,
                    },
                    r.get::<_, String>(2)?,
                ))
            })?;
            rows.map(|row| {
                let (player, kind) = row?;
                Ok((player, Relation::read(&kind)?))
            })
            .collect()
        })
        .await
    }

    async fn blocked(&self, a: UserId, b: UserId) -> Result<bool, StoreError> {
        self.read(move |conn| {
            let sql = format!("SELECT NOT ({})", unblocked("?1", "?2"));
            Ok(conn
                .prepare_cached(&sql)?
                .query_row(params![a, b], |r| r.get(0))?)
        })
        .await
    }
}

fn end_sessions(
    conn: &Connection,
    user: UserId,
    keep: Option<[u8; 32]>,
) -> Result<u64, StoreError> {
    let ended = conn
        .prepare_cached("DELETE FROM sessions WHERE user_id = ?1 AND token_hash IS NOT ?2")?
        .execute(params![user, keep])?;
    Ok(u64::try_from(ended).unwrap_or(u64::MAX))
}

#[async_trait::async_trait]
impl AccountStore for SqliteStore {
    async fn set_password(
        &self,
        user: UserId,
        password_hash: String,
        keep: Option<[u8; 32]>,
    ) -> Result<bool, StoreError> {
        self.write(move |conn| {
            let set = conn
                .prepare_cached(
                    "UPDATE users SET password_hash = ?2 WHERE id = ?1 AND deleted_at IS NULL",
                )?
                .execute(params![user, password_hash])?;
            if set == 1 {
                end_sessions(conn, user, keep)?;
            }
            Ok(set == 1)
        })
        .await
    }

    async fn sessions(&self, user: UserId, now: i64) -> Result<Vec<SessionRow>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT token_hash, client, created_at, expires_at FROM sessions \
                 WHERE user_id = ?1 AND expires_at > ?2 ORDER BY created_at DESC",
            )?;
            let rows = stmt.query_map(params![user, now], |r| {
                Ok(SessionRow {
                    token_hash: r.get(0)?,
                    client: r.get(1)?,
                    created_at: r.get(2)?,
                    expires_at: r.get(3)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn end_sessions(&self, user: UserId, keep: Option<[u8; 32]>) -> Result<u64, StoreError> {
        self.write(move |conn| end_sessions(conn, user, keep)).await
    }

    async fn create_reset_code(
        &self,
        user: UserId,
        code_hash: [u8; 32],
        expires_at: i64,
    ) -> Result<(), StoreError> {
        self.write(move |conn| {
            conn.prepare_cached("DELETE FROM reset_codes WHERE user_id = ?1")?
                .execute([user])?;
            conn.prepare_cached(
                "INSERT INTO reset_codes (code_hash, user_id, expires_at) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![code_hash, user, expires_at])?;
            Ok(())
        })
        .await
    }

    async fn use_reset_code(
        &self,
        code_hash: [u8; 32],
        now: i64,
        password_hash: String,
    ) -> Result<Option<UserId>, StoreError> {
        self.write(move |conn| {
            let user: Option<UserId> = conn
                .prepare_cached(
                    "DELETE FROM reset_codes WHERE code_hash = ?1 AND expires_at > ?2 \
                     RETURNING user_id",
                )?
                .query_row(params![code_hash, now], |r| r.get(0))
                .optional()?;
            let Some(user) = user else {
                return Ok(None);
            };
            conn.prepare_cached("UPDATE users SET password_hash = ?2 WHERE id = ?1")?
                .execute(params![user, password_hash])?;
            end_sessions(conn, user, None)?;
            Ok(Some(user))
        })
        .await
    }

    async fn delete_account(&self, user: UserId, at: i64) -> Result<bool, StoreError> {
        self.write(move |conn| {
            let name = deleted_name(user);
            let deleted = conn
                .prepare_cached(
                    "UPDATE users SET name = ?2, name_key = ?3, name_skeleton = ?4, \
                     password_hash = '', roles = 0, deleted_at = ?5 \
                     WHERE id = ?1 AND deleted_at IS NULL",
                )?
                .execute(params![
                    user,
                    name,
                    name_key(&name),
                    name_skeleton(&name),
                    at
                ])?;
            if deleted != 1 {
                return Ok(false);
            }
            for sql in [
                "DELETE FROM sessions WHERE user_id = ?1",
                "DELETE FROM seeks WHERE user_id = ?1",
                "DELETE FROM challenges WHERE challenger_id = ?1 OR opponent_id = ?1",
                "DELETE FROM challenge_seats WHERE user_id = ?1",
                "DELETE FROM relations WHERE user_id = ?1 OR other_id = ?1",
                "DELETE FROM reset_codes WHERE user_id = ?1",
                "DELETE FROM problem_solvers WHERE user_id = ?1",
            ] {
                conn.prepare_cached(sql)?.execute([user])?;
            }
            Ok(true)
        })
        .await
    }
}
