//! [`ModerationStore`] and [`AccountStore`] on PostgreSQL.

use deadpool_postgres::GenericClient;
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use super::PostgresStore;
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

fn action_row(r: &Row) -> Result<ActionRow, StoreError> {
    let by: Option<UserId> = r.try_get(8)?;
    let lifted_at: Option<i64> = r.try_get(11)?;
    Ok(ActionRow {
        id: r.try_get(0)?,
        user: PlayerRef {
            id: r.try_get(1)?,
            name: r.try_get(2)?,
        },
        kind: ActionKind::read(r.try_get(3)?)?,
        reason: r.try_get(4)?,
        until: r.try_get(5)?,
        game: r.try_get(6)?,
        report: r.try_get(7)?,
        by: match by {
            Some(id) => Some(PlayerRef {
                id,
                name: r.try_get::<_, Option<String>>(9)?.unwrap_or_default(),
            }),
            None => None,
        },
        at: r.try_get(10)?,
        lifted: match lifted_at {
            Some(at) => Some((at, r.try_get(12)?)),
            None => None,
        },
    })
}

async fn actions_where(
    client: &impl GenericClient,
    condition: &str,
    values: &[&(dyn ToSql + Sync)],
) -> Result<Vec<ActionRow>, StoreError> {
    client
        .query(
            &format!("SELECT {ACTION_COLUMNS} WHERE {condition}"),
            values,
        )
        .await?
        .iter()
        .map(action_row)
        .collect()
}

const REPORT_COLUMNS: &str = "r.id, r.reporter_id, a.name, r.target_id, t.name, r.game_id, \
     r.chat_version, r.reason, r.text, r.created_at, r.closed_at, r.closed_by, r.resolution \
     FROM reports r JOIN users a ON a.id = r.reporter_id JOIN users t ON t.id = r.target_id";

fn report_row(r: &Row) -> Result<ReportRow, StoreError> {
    let closed_at: Option<i64> = r.try_get(10)?;
    Ok(ReportRow {
        id: r.try_get(0)?,
        reporter: PlayerRef {
            id: r.try_get(1)?,
            name: r.try_get(2)?,
        },
        target: PlayerRef {
            id: r.try_get(3)?,
            name: r.try_get(4)?,
        },
        game: r.try_get(5)?,
        chat: r.try_get::<_, Option<i64>>(6)?.map(i64::unsigned_abs),
        reason: r.try_get(7)?,
        text: r.try_get(8)?,
        at: r.try_get(9)?,
        closed: match closed_at {
            Some(at) => Some((
                at,
                r.try_get(11)?,
                r.try_get::<_, Option<String>>(12)?.unwrap_or_default(),
            )),
            None => None,
        },
    })
}

async fn report_by_id(
    client: &impl GenericClient,
    id: ReportId,
) -> Result<Option<ReportRow>, StoreError> {
    client
        .query_opt(&format!("SELECT {REPORT_COLUMNS} WHERE r.id = $1"), &[&id])
        .await?
        .as_ref()
        .map(report_row)
        .transpose()
}

async fn close_report(
    client: &impl GenericClient,
    id: ReportId,
    by: Option<UserId>,
    at: i64,
    resolution: &str,
) -> Result<bool, StoreError> {
    Ok(client
        .execute(
            "UPDATE reports SET closed_at = $2, closed_by = $3, resolution = $4 \
             WHERE id = $1 AND closed_at IS NULL",
            &[&id, &at, &by, &resolution],
        )
        .await?
        == 1)
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

#[async_trait::async_trait]
impl ModerationStore for PostgresStore {
    async fn set_roles(&self, user: UserId, roles: Roles) -> Result<bool, StoreError> {
        Ok(self
            .client()
            .await?
            .execute(
                "UPDATE users SET roles = $2 WHERE id = $1 AND deleted_at IS NULL",
                &[&user, &roles.bits()],
            )
            .await?
            == 1)
    }

    async fn staff(&self) -> Result<Vec<(PlayerRef, Roles)>, StoreError> {
        self.client()
            .await?
            .query(
                "SELECT id, name, roles FROM users WHERE roles <> 0 ORDER BY name_key",
                &[],
            )
            .await?
            .iter()
            .map(|r| {
                Ok((
                    PlayerRef {
                        id: r.try_get(0)?,
                        name: r.try_get(1)?,
                    },
                    Roles::from_bits(r.try_get(2)?),
                ))
            })
            .collect()
    }

    async fn create_report(&self, report: NewReport) -> Result<ReportRow, StoreError> {
        let client = self.client().await?;
        let id: i64 = client
            .query_one(
                "INSERT INTO reports (reporter_id, target_id, game_id, chat_version, reason, \
                 text, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                &[
                    &report.reporter as &(dyn ToSql + Sync),
                    &report.target,
                    &report.game,
                    &report.chat.map(to_i64),
                    &report.reason,
                    &report.text,
                    &report.at,
                ],
            )
            .await?
            .try_get(0)?;
        report_by_id(&client, id)
            .await?
            .ok_or_else(|| StoreError::Corrupt("a report vanished as it was filed".into()))
    }

    async fn report(&self, id: ReportId) -> Result<Option<ReportRow>, StoreError> {
        report_by_id(&self.client().await?, id).await
    }

    async fn reports(&self, open_only: bool, limit: u32) -> Result<Vec<ReportRow>, StoreError> {
        let sql = if open_only {
            format!("SELECT {REPORT_COLUMNS} WHERE r.closed_at IS NULL ORDER BY r.id LIMIT $1")
        } else {
            format!("SELECT {REPORT_COLUMNS} ORDER BY r.id DESC LIMIT $1")
        };
        self.client()
            .await?
            .query(&sql, &[&i64::from(limit)])
            .await?
            .iter()
            .map(report_row)
            .collect()
    }

    async fn close_report(
        &self,
        id: ReportId,
        by: Option<UserId>,
        at: i64,
        resolution: String,
    ) -> Result<bool, StoreError> {
        close_report(&self.client().await?, id, by, at, &resolution).await
    }

    async fn record_action(&self, a: NewAction) -> Result<ActionRow, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let id: i64 = tx
            .query_one(
                "INSERT INTO moderation_actions (user_id, kind, reason, until, game_id, \
                 report_id, by_id, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
                &[
                    &a.user as &(dyn ToSql + Sync),
                    &a.kind.as_str(),
                    &a.reason,
                    &a.until,
                    &a.game,
                    &a.report,
                    &a.by,
                    &a.at,
                ],
            )
            .await?
            .try_get(0)?;
        if a.kind.excludes() {
            tx.execute("DELETE FROM sessions WHERE user_id = $1", &[&a.user])
                .await?;
            tx.execute("DELETE FROM seeks WHERE user_id = $1", &[&a.user])
                .await?;
        }
        if let Some(report) = a.report {
            close_report(&tx, report, a.by, a.at, a.kind.as_str()).await?;
        }
        let row = actions_where(&tx, "a.id = $1", &[&id])
            .await?
            .pop()
            .ok_or_else(|| StoreError::Corrupt("an action vanished as it was made".into()))?;
        tx.commit().await?;
        Ok(row)
    }

    async fn lift_action(
        &self,
        id: ActionId,
        by: Option<UserId>,
        at: i64,
    ) -> Result<Option<ActionRow>, StoreError> {
        let client = self.client().await?;
        let lifted = client
            .execute(
                "UPDATE moderation_actions SET lifted_at = $2, lifted_by = $3 \
                 WHERE id = $1 AND lifted_at IS NULL AND (until IS NULL OR until > $2) \
                 AND kind IN ('mute', 'suspension', 'ban')",
                &[&id, &at, &by],
            )
            .await?;
        if lifted == 1 {
            Ok(actions_where(&client, "a.id = $1", &[&id]).await?.pop())
        } else {
            Ok(None)
        }
    }

    async fn action(&self, id: ActionId) -> Result<Option<ActionRow>, StoreError> {
        Ok(actions_where(&self.client().await?, "a.id = $1", &[&id])
            .await?
            .pop())
    }

    async fn actions(
        &self,
        user: Option<UserId>,
        limit: u32,
    ) -> Result<Vec<ActionRow>, StoreError> {
        let client = self.client().await?;
        let limit = i64::from(limit);
        match user {
            Some(user) => {
                actions_where(
                    &client,
                    "a.user_id = $1 ORDER BY a.id DESC LIMIT $2",
                    &[&user, &limit],
                )
                .await
            }
            None => actions_where(&client, "TRUE ORDER BY a.id DESC LIMIT $1", &[&limit]).await,
        }
    }

    async fn actions_after(&self, after: ActionId) -> Result<Vec<ActionRow>, StoreError> {
        actions_where(&self.client().await?, "a.id > $1 ORDER BY a.id", &[&after]).await
    }

    async fn annul_rating(
        &self,
        game: GameId,
        expected: String,
        summary: String,
        changes: [(UserId, f64); 2],
    ) -> Result<bool, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let changed = tx
            .execute(
                "UPDATE games SET ratings = $3 WHERE id = $1 AND ratings = $2",
                &[&game, &expected, &summary],
            )
            .await?;
        if changed != 1 {
            return Ok(false);
        }
        for (user, change) in changes {
            tx.execute(
                "UPDATE users SET rating = rating - $2, \
                 rated_games = GREATEST(rated_games - 1, 0) WHERE id = $1",
                &[&user, &change],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn set_relation(
        &self,
        user: UserId,
        other: UserId,
        relation: Option<Relation>,
        at: i64,
    ) -> Result<(), StoreError> {
        let client = self.client().await?;
        match relation {
            Some(r) => {
                client
                    .execute(
                        "INSERT INTO relations (user_id, other_id, kind, at) \
                         VALUES ($1, $2, $3, $4) \
                         ON CONFLICT (user_id, other_id) DO UPDATE SET kind = $3, at = $4",
                        &[&user, &other, &r.as_str(), &at],
                    )
                    .await?
            }
            None => {
                client
                    .execute(
                        "DELETE FROM relations WHERE user_id = $1 AND other_id = $2",
                        &[&user, &other],
                    )
                    .await?
            }
        };
        Ok(())
    }

    async fn relations(&self, user: UserId) -> Result<Vec<(PlayerRef, Relation)>, StoreError> {
        self.client()
            .await?
            .query(
                "SELECT u.id, u.name, r.kind FROM relations r JOIN users u ON u.id = r.other_id \
                 WHERE r.user_id = $1 ORDER BY u.name_key",
                &[&user],
            )
            .await?
            .iter()
            .map(|r| {
                Ok((
                    PlayerRef {
                        id: r.try_get(0)?,
                        name: r.try_get(1)?,
                    },
                    Relation::read(r.try_get(2)?)?,
                ))
            })
            .collect()
    }

    async fn blocked(&self, a: UserId, b: UserId) -> Result<bool, StoreError> {
        let sql = format!("SELECT NOT ({})", unblocked("$1", "$2"));
        Ok(self
            .client()
            .await?
            .query_one(&sql, &[&a, &b])
            .await?
            .try_get(0)?)
    }
}

async fn end_sessions(
    client: &impl GenericClient,
    user: UserId,
    keep: Option<[u8; 32]>,
) -> Result<u64, StoreError> {
    let keep = keep.map(|k| k.to_vec());
    Ok(client
        .execute(
            "DELETE FROM sessions WHERE user_id = $1 AND token_hash IS DISTINCT FROM $2",
            &[&user, &keep],
        )
        .await?)
}

#[async_trait::async_trait]
impl AccountStore for PostgresStore {
    async fn set_password(
        &self,
        user: UserId,
        password_hash: String,
        keep: Option<[u8; 32]>,
    ) -> Result<bool, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let set = tx
            .execute(
                "UPDATE users SET password_hash = $2 WHERE id = $1 AND deleted_at IS NULL",
                &[&user, &password_hash],
            )
            .await?;
        if set == 1 {
            end_sessions(&tx, user, keep).await?;
        }
        tx.commit().await?;
        Ok(set == 1)
    }

    async fn sessions(&self, user: UserId, now: i64) -> Result<Vec<SessionRow>, StoreError> {
        self.client()
            .await?
            .query(
                "SELECT token_hash, client, created_at, expires_at FROM sessions \
                 WHERE user_id = $1 AND expires_at > $2 ORDER BY created_at DESC",
                &[&user, &now],
            )
            .await?
            .iter()
            .map(|r| {
                let hash: &[u8] = r.try_get(0)?;
                Ok(SessionRow {
                    token_hash: hash
                        .try_into()
                        .map_err(|_| StoreError::Corrupt("a session's hash".into()))?,
                    client: r.try_get(1)?,
                    created_at: r.try_get(2)?,
                    expires_at: r.try_get(3)?,
                })
            })
            .collect()
    }

    async fn end_sessions(&self, user: UserId, keep: Option<[u8; 32]>) -> Result<u64, StoreError> {
        end_sessions(&self.client().await?, user, keep).await
    }

    async fn create_reset_code(
        &self,
        user: UserId,
        code_hash: [u8; 32],
        expires_at: i64,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.execute("DELETE FROM reset_codes WHERE user_id = $1", &[&user])
            .await?;
        tx.execute(
            "INSERT INTO reset_codes (code_hash, user_id, expires_at) VALUES ($1, $2, $3)",
            &[&&code_hash[..], &user, &expires_at],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn use_reset_code(
        &self,
        code_hash: [u8; 32],
        now: i64,
        password_hash: String,
    ) -> Result<Option<UserId>, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let Some(row) = tx
            .query_opt(
                "DELETE FROM reset_codes WHERE code_hash = $1 AND expires_at > $2 \
                 RETURNING user_id",
                &[&&code_hash[..], &now],
            )
            .await?
        else {
            return Ok(None);
        };
        let user: UserId = row.try_get(0)?;
        tx.execute(
            "UPDATE users SET password_hash = $2 WHERE id = $1",
            &[&user, &password_hash],
        )
        .await?;
        end_sessions(&tx, user, None).await?;
        tx.commit().await?;
        Ok(Some(user))
    }

    async fn delete_account(&self, user: UserId, at: i64) -> Result<bool, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let name = deleted_name(user);
        let deleted = tx
            .execute(
                "UPDATE users SET name = $2, name_key = $3, name_skeleton = $4, \
                 password_hash = '', roles = 0, deleted_at = $5 \
                 WHERE id = $1 AND deleted_at IS NULL",
                &[&user, &name, &name_key(&name), &name_skeleton(&name), &at],
            )
            .await?;
        if deleted != 1 {
            return Ok(false);
        }
        for sql in [
            "DELETE FROM sessions WHERE user_id = $1",
            "DELETE FROM seeks WHERE user_id = $1",
            "DELETE FROM challenges WHERE challenger_id = $1 OR opponent_id = $1",
            "DELETE FROM challenge_seats WHERE user_id = $1",
            "DELETE FROM relations WHERE user_id = $1 OR other_id = $1",
            "DELETE FROM reset_codes WHERE user_id = $1",
            "DELETE FROM problem_solvers WHERE user_id = $1",
        ] {
            tx.execute(sql, &[&user]).await?;
        }
        tx.commit().await?;
        Ok(true)
    }
}
