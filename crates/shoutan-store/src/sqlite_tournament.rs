//! [`TournamentStore`] on SQLite: appends go through the group-committing
//! writer like every other write.

use rusqlite::{Connection, params};

use super::{SqliteStore, game_by_id, is_constraint};
use crate::tournament::{
    NewTournament, NewTournamentGame, TournamentAction, TournamentGame, TournamentId,
    TournamentRow, TournamentStore,
};
use crate::{GameRow, StoreError};

fn seq_value(seq: u64) -> Result<i64, StoreError> {
    i64::try_from(seq).map_err(|_| StoreError::Corrupt(format!("tournament seq {seq}")))
}

fn insert_action(conn: &Connection, a: &TournamentAction) -> Result<(), StoreError> {
    let seq = seq_value(a.seq)?;
    match conn
        .prepare_cached(
            "INSERT INTO tournament_actions (tournament_id, seq, at, actor_id, body) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![a.tournament, seq, a.at, a.actor, a.body])
    {
        Ok(_) => Ok(()),
        Err(e) if is_constraint(&e) => Err(StoreError::VersionTaken {
            game: a.tournament,
            version: a.seq,
        }),
        Err(e) => Err(e.into()),
    }
}

#[async_trait::async_trait]
impl TournamentStore for SqliteStore {
    async fn create_tournament(&self, t: NewTournament) -> Result<TournamentRow, StoreError> {
        self.write(move |conn| {
            conn.prepare_cached(
                "INSERT INTO tournaments (name, organiser_id, created_at) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![t.name, t.organiser, t.created_at])?;
            let id = conn.last_insert_rowid();
            insert_action(
                conn,
                &TournamentAction {
                    tournament: id,
                    seq: 1,
                    at: t.created_at,
                    actor: Some(t.organiser),
                    body: t.first_action,
                },
            )?;
            Ok(TournamentRow {
                id,
                name: t.name,
                organiser: t.organiser,
                created_at: t.created_at,
            })
        })
        .await
    }

    async fn tournaments(&self) -> Result<Vec<TournamentRow>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, name, organiser_id, created_at FROM tournaments ORDER BY id",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(TournamentRow {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    organiser: r.get(2)?,
                    created_at: r.get(3)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn append_tournament_action(
        &self,
        action: TournamentAction,
        games: Vec<NewTournamentGame>,
    ) -> Result<Vec<(TournamentGame, GameRow)>, StoreError> {
        self.write(move |conn| {
            insert_action(conn, &action)?;
            let mut made = Vec::with_capacity(games.len());
            for g in games {
                conn.prepare_cached(
                    "INSERT INTO games (black_id, white_id, size, rated, settings, status, created_at) \
                     VALUES (?1, ?2, ?3, ?4, ?5, 'live', ?6)",
                )?
                .execute(params![
                    g.game.black,
                    g.game.white,
                    g.game.size,
                    g.game.rated,
                    g.game.settings,
                    g.game.created_at
                ])?;
                let id = conn.last_insert_rowid();
                conn.prepare_cached(
                    "INSERT INTO tournament_games (tournament_id, round, table_no, game_id) \
                     VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![action.tournament, g.round, g.table, id])?;
                let row = game_by_id(conn, id)?
                    .ok_or_else(|| StoreError::Corrupt("a game vanished as it was made".into()))?;
                made.push((
                    TournamentGame {
                        round: g.round,
                        table: g.table,
                        game: id,
                    },
                    row,
                ));
            }
            Ok(made)
        })
        .await
    }

    async fn tournament_actions(
        &self,
        tournament: TournamentId,
    ) -> Result<Vec<TournamentAction>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT seq, at, actor_id, body FROM tournament_actions \
                 WHERE tournament_id = ?1 ORDER BY seq",
            )?;
            let rows = stmt.query_map([tournament], |r| {
                Ok(TournamentAction {
                    tournament,
                    seq: r.get::<_, i64>(0)?.unsigned_abs(),
                    at: r.get(1)?,
                    actor: r.get(2)?,
                    body: r.get(3)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn tournament_games(
        &self,
        tournament: TournamentId,
    ) -> Result<Vec<TournamentGame>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT round, table_no, game_id FROM tournament_games \
                 WHERE tournament_id = ?1 ORDER BY round, table_no, game_id",
            )?;
            let rows = stmt.query_map([tournament], |r| {
                Ok(TournamentGame {
                    round: r.get(0)?,
                    table: r.get(1)?,
                    game: r.get(2)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }
}
