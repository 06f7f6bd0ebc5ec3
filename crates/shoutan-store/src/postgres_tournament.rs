//! [`TournamentStore`] on PostgreSQL: each append is one transaction on a
//! pooled connection.

use super::{PostgresStore, game_by_id, is_unique_violation};
use crate::tournament::{
    NewTournament, NewTournamentGame, TournamentAction, TournamentGame, TournamentId,
    TournamentRow, TournamentStore,
};
use crate::{GameRow, StoreError};

fn seq_value(seq: u64) -> Result<i64, StoreError> {
    i64::try_from(seq).map_err(|_| StoreError::Corrupt(format!("tournament seq {seq}")))
}

fn small(n: i64, what: &str) -> Result<u32, StoreError> {
    u32::try_from(n).map_err(|_| StoreError::Corrupt(format!("{what} {n}")))
}

async fn insert_action(
    tx: &impl deadpool_postgres::GenericClient,
    a: &TournamentAction,
) -> Result<(), StoreError> {
    let seq = seq_value(a.seq)?;
    match tx
        .execute(
            "INSERT INTO tournament_actions (tournament_id, seq, at, actor_id, body) \
             VALUES ($1, $2, $3, $4, $5)",
            &[&a.tournament, &seq, &a.at, &a.actor, &a.body],
        )
        .await
    {
        Ok(_) => Ok(()),
        Err(e) if is_unique_violation(&e) => Err(StoreError::VersionTaken {
            game: a.tournament,
            version: a.seq,
        }),
        Err(e) => Err(e.into()),
    }
}

#[async_trait::async_trait]
impl TournamentStore for PostgresStore {
    async fn create_tournament(&self, t: NewTournament) -> Result<TournamentRow, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let row = tx
            .query_one(
                "INSERT INTO tournaments (name, organiser_id, created_at) VALUES ($1, $2, $3) \
                 RETURNING id",
                &[&t.name, &t.organiser, &t.created_at],
            )
            .await?;
        let id: i64 = row.try_get(0)?;
        insert_action(
            &tx,
            &TournamentAction {
                tournament: id,
                seq: 1,
                at: t.created_at,
                actor: Some(t.organiser),
                body: t.first_action,
            },
        )
        .await?;
        tx.commit().await?;
        Ok(TournamentRow {
            id,
            name: t.name,
            organiser: t.organiser,
            created_at: t.created_at,
        })
    }

    async fn tournaments(&self) -> Result<Vec<TournamentRow>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT id, name, organiser_id, created_at FROM tournaments ORDER BY id",
                &[],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(TournamentRow {
                    id: r.try_get(0)?,
                    name: r.try_get(1)?,
                    organiser: r.try_get(2)?,
                    created_at: r.try_get(3)?,
                })
            })
            .collect()
    }

    async fn append_tournament_action(
        &self,
        action: TournamentAction,
        games: Vec<NewTournamentGame>,
    ) -> Result<Vec<(TournamentGame, GameRow)>, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        insert_action(&tx, &action).await?;
        let mut made = Vec::with_capacity(games.len());
        for g in games {
            let row = tx
                .query_one(
                    "INSERT INTO games (black_id, white_id, size, rated, settings, status, created_at) \
                     VALUES ($1, $2, $3, $4, $5, 'live', $6) RETURNING id",
                    &[
                        &g.game.black,
                        &g.game.white,
                        &i16::from(g.game.size),
                        &g.game.rated,
                        &g.game.settings,
                        &g.game.created_at,
                    ],
                )
                .await?;
            let id: i64 = row.try_get(0)?;
            tx.execute(
                "INSERT INTO tournament_games (tournament_id, round, table_no, game_id) \
                 VALUES ($1, $2, $3, $4)",
                &[
                    &action.tournament,
                    &i64::from(g.round),
                    &i64::from(g.table),
                    &id,
                ],
            )
            .await?;
            let game = game_by_id(&tx, id)
                .await?
                .ok_or_else(|| StoreError::Corrupt("a game vanished as it was made".into()))?;
            made.push((
                TournamentGame {
                    round: g.round,
                    table: g.table,
                    game: id,
                },
                game,
            ));
        }
        tx.commit().await?;
        Ok(made)
    }

    async fn tournament_actions(
        &self,
        tournament: TournamentId,
    ) -> Result<Vec<TournamentAction>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT seq, at, actor_id, body FROM tournament_actions \
                 WHERE tournament_id = $1 ORDER BY seq",
                &[&tournament],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(TournamentAction {
                    tournament,
                    seq: r.try_get::<_, i64>(0)?.unsigned_abs(),
                    at: r.try_get(1)?,
                    actor: r.try_get(2)?,
                    body: r.try_get(3)?,
                })
            })
            .collect()
    }

    async fn tournament_games(
        &self,
        tournament: TournamentId,
    ) -> Result<Vec<TournamentGame>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT round, table_no, game_id FROM tournament_games \
                 WHERE tournament_id = $1 ORDER BY round, table_no, game_id",
                &[&tournament],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(TournamentGame {
                    round: small(r.try_get(0)?, "round")?,
                    table: small(r.try_get(1)?, "table")?,
                    game: r.try_get(2)?,
                })
            })
            .collect()
    }
}
