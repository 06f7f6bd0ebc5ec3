//! [`ProblemStore`] on SQLite, through the group-committing writer.

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::SqliteStore;
use crate::problem::{NewProblemTry, ProblemRating, ProblemStore};
use crate::{Rating, StoreError, UserId};

/// A rating from the columns `rating, deviation, volatility, tries,
/// solved` starting at `first`.
fn rating_row(r: &Row<'_>, first: usize) -> rusqlite::Result<ProblemRating> {
    Ok(ProblemRating {
        rating: Rating {
            rating: r.get(first)?,
            deviation: r.get(first + 1)?,
            volatility: r.get(first + 2)?,
        },
        tries: r.get(first + 3)?,
        solved: r.get(first + 4)?,
    })
}

fn solver(conn: &Connection, user: UserId) -> Result<Option<ProblemRating>, StoreError> {
    let rating = conn
        .prepare_cached(
            "SELECT rating, deviation, volatility, tries, \
             (SELECT count(*) FROM problem_tries WHERE user_id = ?1 AND solved) \
             FROM problem_solvers WHERE user_id = ?1",
        )?
        .query_row([user], |r| rating_row(r, 0))
        .optional()?;
    Ok(rating)
}

fn problem(conn: &Connection, problem: &str) -> Result<Option<ProblemRating>, StoreError> {
    let rating = conn
        .prepare_cached(
            "SELECT rating, deviation, volatility, tries, solved \
             FROM problem_ratings WHERE problem = ?1",
        )?
        .query_row([problem], |r| rating_row(r, 0))
        .optional()?;
    Ok(rating)
}

#[async_trait::async_trait]
impl ProblemStore for SqliteStore {
    async fn problem_tries(&self, user: UserId) -> Result<Vec<(String, bool)>, StoreError> {
        self.read(move |conn| {
            let mut statement = conn.prepare_cached(
                "SELECT problem, solved FROM problem_tries WHERE user_id = ?1 ORDER BY problem",
            )?;
            let rows = statement.query_map([user], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn problem_try(&self, user: UserId, problem: &str) -> Result<Option<bool>, StoreError> {
        let problem = problem.to_owned();
        self.read(move |conn| {
            Ok(conn
                .prepare_cached(
                    "SELECT solved FROM problem_tries WHERE user_id = ?1 AND problem = ?2",
                )?
                .query_row(params![user, problem], |r| r.get(0))
                .optional()?)
        })
        .await
    }

    async fn solver_rating(&self, user: UserId) -> Result<Option<ProblemRating>, StoreError> {
        self.read(move |conn| solver(conn, user)).await
    }

    async fn problem_ratings(&self) -> Result<Vec<(String, ProblemRating)>, StoreError> {
        self.read(move |conn| {
            let mut statement = conn.prepare_cached(
                "SELECT problem, rating, deviation, volatility, tries, solved \
                 FROM problem_ratings ORDER BY problem",
            )?;
            let rows = statement.query_map([], |r| Ok((r.get(0)?, rating_row(r, 1)?)))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn problem_rating(&self, id: &str) -> Result<Option<ProblemRating>, StoreError> {
        let id = id.to_owned();
        self.read(move |conn| problem(conn, &id)).await
    }

    async fn record_problem_try(
        &self,
        t: NewProblemTry,
    ) -> Result<Option<(Rating, Rating)>, StoreError> {
        self.write(move |conn| {
            let first = conn
                .prepare_cached(
                    "INSERT INTO problem_tries (user_id, problem, solved, at) \
                     VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
                )?
                .execute(params![t.user, t.problem, t.solved, t.at])?
                == 1;
            if !first {
                return Ok(None);
            }
            let player = solver(conn, t.user)?.map_or(t.player_start, |r| r.rating);
            let before = problem(conn, &t.problem)?.map_or(t.problem_start, |r| r.rating);
            let (player_after, problem_after) = (t.rate)(player, before);
            conn.prepare_cached(
                "INSERT INTO problem_solvers (user_id, rating, deviation, volatility, tries) \
                 VALUES (?1, ?2, ?3, ?4, 1) ON CONFLICT (user_id) DO UPDATE SET \
                 rating = excluded.rating, deviation = excluded.deviation, \
                 volatility = excluded.volatility, tries = tries + 1",
            )?
            .execute(params![
                t.user,
                player_after.rating,
                player_after.deviation,
                player_after.volatility
            ])?;
            conn.prepare_cached(
                "INSERT INTO problem_ratings \
                 (problem, rating, deviation, volatility, tries, solved) \
                 VALUES (?1, ?2, ?3, ?4, 1, ?5) ON CONFLICT (problem) DO UPDATE SET \
                 rating = excluded.rating, deviation = excluded.deviation, \
                 volatility = excluded.volatility, tries = tries + 1, \
                 solved = solved + excluded.solved",
            )?
            .execute(params![
                t.problem,
                problem_after.rating,
                problem_after.deviation,
                problem_after.volatility,
                i64::from(t.solved)
            ])?;
            Ok(Some((player, player_after)))
        })
        .await
    }
}
