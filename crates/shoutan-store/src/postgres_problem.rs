//! [`ProblemStore`] on PostgreSQL. A first try's write locks the problem's
//! and the player's rating rows, so that tries at once each see the
//! other's result.

use tokio_postgres::Row;

use super::PostgresStore;
use crate::problem::{NewProblemTry, ProblemRating, ProblemStore};
use crate::{Rating, StoreError, UserId};

fn rating_row(r: &Row) -> Result<ProblemRating, StoreError> {
    Ok(ProblemRating {
        rating: Rating {
            rating: r.try_get(0)?,
            deviation: r.try_get(1)?,
            volatility: r.try_get(2)?,
        },
        tries: r.try_get(3)?,
        solved: r.try_get(4)?,
    })
}

const SOLVER: &str = "SELECT rating, deviation, volatility, tries, \
     (SELECT count(*) FROM problem_tries WHERE user_id = $1 AND solved) \
     FROM problem_solvers WHERE user_id = $1";

const PROBLEM: &str = "SELECT rating, deviation, volatility, tries, solved \
     FROM problem_ratings WHERE problem = $1";

#[async_trait::async_trait]
impl ProblemStore for PostgresStore {
    async fn problem_tries(&self, user: UserId) -> Result<Vec<(String, bool)>, StoreError> {
        self.client()
            .await?
            .query(
                "SELECT problem, solved FROM problem_tries WHERE user_id = $1 ORDER BY problem",
                &[&user],
            )
            .await?
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }

    async fn problem_try(&self, user: UserId, problem: &str) -> Result<Option<bool>, StoreError> {
        self.client()
            .await?
            .query_opt(
                "SELECT solved FROM problem_tries WHERE user_id = $1 AND problem = $2",
                &[&user, &problem],
            )
            .await?
            .map(|r| r.try_get(0))
            .transpose()
            .map_err(Into::into)
    }

    async fn solver_rating(&self, user: UserId) -> Result<Option<ProblemRating>, StoreError> {
        self.client()
            .await?
            .query_opt(SOLVER, &[&user])
            .await?
            .as_ref()
            .map(rating_row)
            .transpose()
    }

    async fn problem_ratings(&self) -> Result<Vec<(String, ProblemRating)>, StoreError> {
        self.client()
            .await?
            .query(
                "SELECT rating, deviation, volatility, tries, solved, problem \
                 FROM problem_ratings ORDER BY problem",
                &[],
            )
            .await?
            .iter()
            .map(|r| Ok((r.try_get(5)?, rating_row(r)?)))
            .collect()
    }

    async fn problem_rating(&self, problem: &str) -> Result<Option<ProblemRating>, StoreError> {
        self.client()
            .await?
            .query_opt(PROBLEM, &[&problem])
            .await?
            .as_ref()
            .map(rating_row)
            .transpose()
    }

    async fn record_problem_try(
        &self,
        t: NewProblemTry,
    ) -> Result<Option<(Rating, Rating)>, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let first = tx
            .execute(
                "INSERT INTO problem_tries (user_id, problem, solved, at) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                &[&t.user, &t.problem, &t.solved, &t.at],
            )
            .await?
            == 1;
        if !first {
            return Ok(None);
        }
        // Rows to lock before reading them: made at the starting ratings
        // when missing, counted by the updates below.
        tx.execute(
            "INSERT INTO problem_solvers (user_id, rating, deviation, volatility, tries) \
             VALUES ($1, $2, $3, $4, 0) ON CONFLICT DO NOTHING",
            &[
                &t.user,
                &t.player_start.rating,
                &t.player_start.deviation,
                &t.player_start.volatility,
            ],
        )
        .await?;
        tx.execute(
            "INSERT INTO problem_ratings (problem, rating, deviation, volatility, tries, solved) \
             VALUES ($1, $2, $3, $4, 0, 0) ON CONFLICT DO NOTHING",
            &[
                &t.problem,
                &t.problem_start.rating,
                &t.problem_start.deviation,
                &t.problem_start.volatility,
            ],
        )
        .await?;
        let player = rating_row(
            &tx.query_one(&format!("{SOLVER} FOR UPDATE"), &[&t.user])
                .await?,
        )?
        .rating;
        let before = rating_row(
            &tx.query_one(&format!("{PROBLEM} FOR UPDATE"), &[&t.problem])
                .await?,
        )?
        .rating;
        let (player_after, problem_after) = (t.rate)(player, before);
        tx.execute(
            "UPDATE problem_solvers SET rating = $2, deviation = $3, volatility = $4, \
             tries = tries + 1 WHERE user_id = $1",
            &[
                &t.user,
                &player_after.rating,
                &player_after.deviation,
                &player_after.volatility,
            ],
        )
        .await?;
        tx.execute(
            "UPDATE problem_ratings SET rating = $2, deviation = $3, volatility = $4, \
             tries = tries + 1, solved = solved + $5 WHERE problem = $1",
            &[
                &t.problem,
                &problem_after.rating,
                &problem_after.deviation,
                &problem_after.volatility,
                &i64::from(t.solved),
            ],
        )
        .await?;
        tx.commit().await?;
        Ok(Some((player, player_after)))
    }
}
