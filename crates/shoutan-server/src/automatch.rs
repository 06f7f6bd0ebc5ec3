//! Automatch (快速匹配): a player seeks a game by board size, clock and
//! rank range, over the lobby WebSocket; the store pairs the seek with the
//! oldest compatible one in the transaction that makes their game, so no
//! seeker is paired twice even with several instances on one database.
//! The seek lives as long as the connection that made it: closing it (or
//! sending `cancel_seek`) withdraws it, and a seek whose connection stopped
//! renewing it (its process died) goes stale and pairs no one.
//!
//! An even pairing is by nigiri; when both seeks allow a handicap, the
//! ranks decide it as for a challenge's automatic handicap.

use serde::{Deserialize, Serialize};
use shoutan_rules::Rank;
use shoutan_store::{NewGame, NewSeek, Pairing, Seek, SeekOutcome, StoreError, User};

use crate::AppState;
use crate::error::{ApiError, ErrorCode};
use crate::lobby::{LiveGameView, Seekers, check_live_games};
use crate::settings::{
    ChallengeRequest, ChallengeSettings, ColorRequest, GameSettings, HandicapRequest, Seat,
};
use crate::time;

/// How often a seeker's connection renews its seek.
pub const RENEW_EVERY: std::time::Duration = std::time::Duration::from_secs(20);
/// A seek not renewed for this long is stale (its connection is gone).
const STALE_AFTER_MS: i64 = 60_000;

/// A seek as the client sends it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// The board size.
    pub size: u32,
    /// The clock, as text or JSON, as for a challenge.
    pub time_control: serde_json::Value,
    /// Rated (default) or casual.
    #[serde(default = "yes")]
    pub rated: bool,
    /// Whether a handicap by the rank difference is acceptable (default
    /// yes); otherwise the game is even whatever the ranks.
    #[serde(default = "yes")]
    pub handicap: bool,
    /// The weakest opponent accepted (default: any).
    #[serde(default)]
    pub min_rank: Option<Rank>,
    /// The strongest opponent accepted (default: any).
    #[serde(default)]
    pub max_rank: Option<Rank>,
}

fn yes() -> bool {
    true
}

/// What the store keeps of a seek besides its pool: the settings checked
/// and the seeker's seat.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct StoredSeek {
    settings: ChallengeSettings,
    seat: Seat,
}

/// A seek made: waiting, or paired at once.
pub enum Sought {
    /// Waiting for a compatible seek.
    Waiting(i64),
    /// Paired into this game.
    Paired(i64),
}

/// Seeks a game for `user`: pairs at once with a compatible seek, or
/// stores the seek to wait (replacing any older seek of his).
pub async fn seek(app: &AppState, user: &User, request: SeekRequest) -> Result<Sought, ApiError> {
    let settings = ChallengeRequest {
        opponent: None,
        size: request.size,
        ruleset: None,
        komi: None,
        handicap: if request.handicap {
            HandicapRequest::Auto
        } else {
            HandicapRequest::None
        },
        color: ColorRequest::Nigiri,
        time_control: Some(request.time_control),
        time_out: shoutan_clock::TimeOutRule::default(),
        rated: request.rated,
        rengo: false,
        simul: None,
    }
    .check()?;
    let min_level = request.min_rank.map_or(i32::MIN, Rank::level);
    let max_level = request.max_rank.map_or(i32::MAX, Rank::level);
    if min_level > max_level {
        return Err(ApiError::bad_request(
            ErrorCode::BadRankRange,
            "the weakest rank accepted is above the strongest",
        ));
    }
    let me = Seat::of(user);
    let stored = StoredSeek {
        settings: settings.clone(),
        seat: me.clone(),
    };
    let now = time::now_millis();
    let new = NewSeek {
        user: user.id,
        size: settings.size.get(),
        time_control: settings.time_control.to_string(),
        rated: settings.rated,
        rank_level: me.rank.level(),
        min_level,
        max_level,
        settings: serde_json::to_string(&stored).map_err(ApiError::internal)?,
        at: now,
        fresh_after: now - STALE_AFTER_MS,
    };
    let pairing: Pairing = Box::new(move |partner: &Seek| pair(&stored, partner));
    let starting = app.game_starts.lock().await;
    check_live_games(app, &[user])?;
    let outcome = app.store.seek(new, pairing).await?;
    let sought = match outcome {
        SeekOutcome::Waiting(seek) => Sought::Waiting(seek.id),
        SeekOutcome::Paired { partner, game } => {
            let settings: GameSettings =
                serde_json::from_str(&game.settings).map_err(ApiError::internal)?;
            let view = LiveGameView::of(game.id, game.created_at, &settings);
            app.games.start(game).await.map_err(ApiError::internal)?;
            app.lobby.game_started(view.clone());
            app.lobby.paired(partner.id, view.id);
            Sought::Paired(view.id)
        }
    };
    drop(starting);
    tell_seekers(app).await;
    Ok(sought)
}

/// The game of `mine` with the older seek `partner`: the settings both
/// agree on (a handicap only if both allow one), colours by nigiri or ranks.
fn pair(mine: &StoredSeek, partner: &Seek) -> Result<NewGame, StoreError> {
    let theirs: StoredSeek = serde_json::from_str(&partner.settings)
        .map_err(|e| StoreError::Corrupt(format!("a seek's settings: {e}")))?;
    let mut settings = mine.settings.clone();
    if theirs.settings.handicap != HandicapRequest::Auto {
        settings.handicap = HandicapRequest::None;
    }
    let game = GameSettings::resolve(
        &settings,
        theirs.seat,
        mine.seat.clone(),
        &mut fastrand::Rng::new(),
    )
    .map_err(|e| StoreError::Corrupt(format!("a pairing's settings: {}", e.message)))?;
    Ok(NewGame {
        black: game.black.id,
        white: game.white.id,
        size: game.size.get(),
        rated: game.rated,
        settings: serde_json::to_string(&game)
            .map_err(|e| StoreError::Corrupt(format!("a pairing's settings: {e}")))?,
        simul: None,
        created_at: time::now_millis(),
    })
}

/// Withdraws seek `id` (its connection closed or cancelled).
pub async fn cancel(app: &AppState, id: i64) -> Result<bool, ApiError> {
    let cancelled = app.store.cancel_seek(id).await?;
    if cancelled {
        tell_seekers(app).await;
    }
    Ok(cancelled)
}

/// Renews seek `id`; false if it is no longer open.
pub async fn renew(app: &AppState, id: i64) -> Result<bool, ApiError> {
    Ok(app.store.renew_seek(id, time::now_millis()).await?)
}

/// How many seek now.
pub async fn seekers(app: &AppState) -> Result<Seekers, ApiError> {
    let seeks = app
        .store
        .open_seeks(time::now_millis() - STALE_AFTER_MS)
        .await?;
    Ok(Seekers::of(&seeks))
}

/// Tells every lobby how many seek now.
async fn tell_seekers(app: &AppState) {
    match seekers(app).await {
        Ok(seekers) => app.lobby.seekers_changed(seekers),
        Err(e) => tracing::warn!("counting seekers: {}", e.message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_count_seekers_by_board_and_clock() {
        let seek = |id, size, tc: &str| Seek {
            id,
            user: shoutan_store::PlayerRef {
                id,
                name: format!("p{id}"),
            },
            size,
            time_control: tc.into(),
            rated: true,
            rank_level: 0,
            min_level: 0,
            max_level: 0,
            settings: String::new(),
            created_at: 0,
        };
        let seekers = Seekers::of(&[
            seek(1, 9, "5 min"),
            seek(2, 9, "5 min"),
            seek(3, 19, "5 min"),
        ]);
        assert_eq!(seekers.count, 3);
        assert_eq!(seekers.pools["9 5 min"], 2);
        assert_eq!(seekers.pools["19 5 min"], 1);
    }
}
