//! Position judgement (形势判断): who owns each point of a position and the
//! score it points to, in 子 and in points, as the network sees it
//! (`shoutan_engine::judge`: its ownership and lead averaged over the
//! board's eight symmetries). Always allowed on a finished game and on any
//! position of the analysis board; during a live game only in a casual
//! game, [`USES_PER_GAME`] times per account as Fox allows it, and never
//! in a rated game. Each judgement is one batch of the network, tens of
//! milliseconds of CPU on 19×19, so they run on a small pool of their own.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use serde::Serialize;
use shoutan_nn::Network;
use shoutan_rules::{Color, Game, Score};
use shoutan_store::{GameId, UserId};

use crate::blocking::BlockingPool;
use crate::error::{ApiError, ErrorCode};

/// Judgements one account may ask for in one live casual game.
pub const USES_PER_GAME: u32 = 3;
/// Judgements made at once.
const WORKERS: usize = 1;
/// Judgements that may wait.
const QUEUED: usize = 32;
/// The share of a core judgements take at most while they keep coming.
const SHARE: f64 = 0.25;

/// What the judgement says.
#[derive(Clone, Debug, Serialize)]
pub struct Judgement {
    /// Ownership of each point row by row from the top: +1 black's, −1 white's.
    pub ownership: Vec<f32>,
    /// Black's expected area (stones and territory), in 子.
    pub black_area: f32,
    /// White's.
    pub white_area: f32,
    /// The komi counted.
    pub komi: f64,
    /// Black's expected margin in points, komi included (negative: white leads).
    pub black_lead: f32,
    /// The same in 子 (half the points).
    pub black_lead_zi: f32,
    /// For a live game: judgements this account has left in it.
    pub uses_left: Option<u32>,
}

/// Judges the position of `game` now with `network`.
#[must_use]
pub fn judge(network: &Network, game: &Game) -> Judgement {
    let seen = shoutan_engine::judge(network, game);
    let black_area: f32 = seen.ownership.iter().map(|o| (1.0 + o) / 2.0).sum();
    let white_area = seen.ownership.len() as f32 - black_area;
    Judgement {
        ownership: seen.ownership,
        black_area,
        white_area,
        komi: game.komi().points(),
        black_lead: seen.black_lead,
        black_lead_zi: seen.black_lead / 2.0,
        uses_left: None,
    }
}

/// The server's judgements: their pool, and the uses counted in live games.
#[derive(Debug)]
pub struct Judgements {
    pool: BlockingPool,
    network: Arc<Network>,
    uses: Mutex<HashMap<(GameId, UserId), u32>>,
}

impl Judgements {
    /// No judgement made yet; judgements made with `network`.
    #[must_use]
    pub fn new(network: Arc<Network>) -> Judgements {
        Judgements {
            pool: BlockingPool::with_share("judgement", WORKERS, QUEUED, SHARE),
            network,
            uses: Mutex::new(HashMap::new()),
        }
    }

    /// Judges `game` on the pool; `busy` when it is full.
    pub async fn judge(&self, game: Game) -> Result<Judgement, ApiError> {
        let network = Arc::clone(&self.network);
        Ok(self.pool.run(move || judge(&network, &game)).await?)
    }

    /// Takes one of `user`'s uses in live game `game` (rated: none at all).
    /// Returns the uses left after this one.
    pub fn take_live_use(&self, game: GameId, user: UserId, rated: bool) -> Result<u32, ApiError> {
        if rated {
            return Err(ApiError::forbidden(
                ErrorCode::EstimateNotAllowed,
                "position judgement is not allowed during a rated game",
            ));
        }
        let mut uses = self
            .uses
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let used = uses.entry((game, user)).or_insert(0);
        if *used >= USES_PER_GAME {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                ErrorCode::EstimateLimit,
                format!("position judgement may be used {USES_PER_GAME} times per game"),
            ));
        }
        *used += 1;
        Ok(USES_PER_GAME - *used)
    }

    /// Gives back a use the pool could not serve.
    pub fn give_back(&self, game: GameId, user: UserId) {
        let mut uses = self
            .uses
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(used) = uses.get_mut(&(game, user)) {
            *used = used.saturating_sub(1);
        }
    }
}

/// The colour of a side's name in a request.
#[must_use]
pub fn color_named(name: &str) -> Option<Color> {
    match name {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        _ => None,
    }
}

/// Komi from a request, checked.
pub fn komi_from(points: f64) -> Result<Score, ApiError> {
    Score::try_from_points(points)
        .map_err(|e| ApiError::bad_request(ErrorCode::BadKomi, format!("komi {points}: {e}")))
}
