//! Position judgement (形势判断) over HTTP: of any position (the analysis
//! board), and of a game's position (finished: always; live: as the
//! game's settings allow, see [`crate::judgement`]).

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use shoutan_rules::{Board, BoardSize, Color, Game, Move, Point};

use crate::AppState;
use crate::accounts::session::Visitor;
use crate::error::{ApiError, ErrorCode};
use crate::extract::{Body, Id};
use crate::judgement::{Judgement, color_named, komi_from};
use crate::live::registry::load;

/// The most moves a position of the analysis board may take to reach.
const MAX_MOVES: usize = 1_000;

/// A move of a position to judge.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveIn {
    /// `black` or `white`.
    color: String,
    /// GTP notation; `null` for a pass.
    point: Option<String>,
}

/// `POST /api/estimate` body (and the position of `POST /api/solve`): a
/// position as set-up stones and moves.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionIn {
    /// The board's size.
    size: u32,
    /// Komi in points.
    komi: f64,
    /// The ruleset's name (Chinese when not given).
    rules: Option<String>,
    /// Black's set-up stones.
    #[serde(default)]
    black: Vec<String>,
    /// White's.
    #[serde(default)]
    white: Vec<String>,
    /// Who moves first (black when not given).
    first: Option<String>,
    /// The moves from there.
    #[serde(default)]
    moves: Vec<MoveIn>,
}

fn bad(code: ErrorCode, message: String) -> ApiError {
    ApiError::bad_request(code, message)
}

fn color(name: &str) -> Result<Color, ApiError> {
    color_named(name).ok_or_else(|| {
        bad(
            ErrorCode::BadColor,
            format!("{name:?} is neither black nor white"),
        )
    })
}

pub(super) fn point(text: &str, size: BoardSize) -> Result<Point, ApiError> {
    Point::from_gtp(text, size).map_err(|e| bad(ErrorCode::BadPoint, format!("{text:?}: {e}")))
}

/// The game the request describes, its moves checked under the rules.
pub(super) fn position(p: PositionIn) -> Result<Game, ApiError> {
    let size = BoardSize::new(p.size).map_err(|e| bad(ErrorCode::BadSize, e.to_string()))?;
    if p.moves.len() > MAX_MOVES {
        return Err(bad(
            ErrorCode::TooManyMoves,
            format!("at most {MAX_MOVES} moves"),
        ));
    }
    let ruleset = match p.rules.as_deref() {
        None => shoutan_rules::Ruleset::CHINESE,
        Some(name) => name
            .parse()
            .map_err(|_| bad(ErrorCode::BadRuleset, format!("no ruleset {name:?}")))?,
    };
    let mut board = Board::new(size);
    let mut stones = Vec::new();
    for (list, c) in [(&p.black, Color::Black), (&p.white, Color::White)] {
        for text in list {
            stones.push((point(text, size)?, Some(c)));
        }
    }
    board
        .set_stones(stones)
        .map_err(|e| bad(ErrorCode::BadSetup, e.to_string()))?;
    let first = p
        .first
        .as_deref()
        .map(color)
        .transpose()?
        .unwrap_or(Color::Black);
    let mut game = Game::builder(size)
        .ruleset(ruleset)
        .komi(komi_from(p.komi)?)
        .position(board, first)
        .build()
        .map_err(|e| bad(ErrorCode::BadSetup, e.to_string()))?;
    for (k, m) in p.moves.iter().enumerate() {
        let c = color(&m.color)?;
        let mv = match &m.point {
            Some(text) => Move::Play(point(text, size)?),
            None => Move::Pass,
        };
        let illegal = |e: shoutan_rules::GameError| {
            bad(ErrorCode::IllegalMove, format!("move {}: {e}", k + 1))
        };
        if game.to_move() != c {
            game.set_to_move(c).map_err(illegal)?;
        }
        game.apply(c, mv).map_err(illegal)?;
    }
    Ok(game)
}

/// `POST /api/estimate`: the judgement of any position.
pub async fn any(
    State(app): State<AppState>,
    Body(p): Body<PositionIn>,
) -> Result<Json<Judgement>, ApiError> {
    let game = position(p)?;
    Ok(Json(app.judgements.judge(game).await?))
}

/// `POST /api/games/{id}/estimate`: the judgement of the game's position
/// now; during a live game only as its settings allow.
pub async fn of_game(
    State(app): State<AppState>,
    Visitor(user): Visitor,
    Id(id): Id,
) -> Result<Json<Judgement>, ApiError> {
    let loaded = load(&*app.store, id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| ApiError::not_found(format!("no game {id}")))?;
    let state = match app.games.running(id).await {
        Some(handle) => handle.state().await.unwrap_or(loaded.state),
        None => loaded.state,
    };
    if state.is_over() {
        let turns = state.game.turns().len();
        return Ok(Json(
            app.judgements.judge(state.game.after_turns(turns)).await?,
        ));
    }
    let user = user.ok_or_else(ApiError::unauthorized)?;
    let left = app
        .judgements
        .take_live_use(id, user.id, state.settings.rated)?;
    match app.judgements.judge(state.game).await {
        Ok(judgement) => Ok(Json(Judgement {
            uses_left: Some(left),
            ..judgement
        })),
        Err(e) => {
            app.judgements.give_back(id, user.id);
            Err(e)
        }
    }
}
