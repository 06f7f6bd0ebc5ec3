//! "Is this group alive?" over HTTP: a position of the analysis board and
//! a stone of the group, answered by the solver within its budget (see
//! [`crate::solving`]).

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use shoutan_solver::{Goal, Problem};

use super::judgement::{PositionIn, point, position};
use crate::AppState;
use crate::error::{ApiError, ErrorCode};
use crate::extract::Body;
use crate::solving::Answer;

/// `POST /api/solve` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveIn {
    /// The position, as `POST /api/estimate` takes it.
    position: PositionIn,
    /// A stone of the group asked about (GTP notation).
    group: String,
}

/// `POST /api/solve`: whether the group dies with its opponent moving
/// first and lives with its owner moving first, and by which first moves;
/// `unknown` where the budget ran out.
pub async fn solve(
    State(app): State<AppState>,
    Body(asked): Body<SolveIn>,
) -> Result<Json<Answer>, ApiError> {
    let game = position(asked.position)?;
    let board = game.board().clone();
    let target = point(&asked.group, board.size())?;
    let owner = board.get(target).ok_or_else(|| {
        ApiError::bad_request(
            ErrorCode::NoGroup,
            format!("there is no stone at {}", asked.group),
        )
    })?;
    let problem = Problem::builder(board, owner.opponent(), target, Goal::Kill)
        .ruleset(game.ruleset())
        .build()
        .map_err(|e| ApiError::bad_request(ErrorCode::NoGroup, e.to_string()))?;
    Ok(Json(app.solver.solve(problem).await?))
}
