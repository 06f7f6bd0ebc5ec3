//! What a game's end writes and tells: the game's status and result and,
//! for a rated game, both players' new ratings, in one write; then the
//! lobby. It consumes the endings the live games publish
//! (`live::registry::Published`), after the events' tap.

use std::sync::Arc;

use shoutan_store::{GameEnd, GameStatus, RatingUpdate, Store, StoreError};
use tokio::sync::mpsc;

use crate::live::registry::Ending;
use crate::lobby::Lobby;
use crate::rank_rule::next_standing;
use crate::rating::{after_game, rank_of};
use crate::result_view::ResultView;

/// Records each ending: the game's status and result and, for a rated
/// game, both players' new ratings, in one write; then tells the lobby.
/// One task, so that two games ending at once for one player both count.
pub async fn record_results(
    store: Arc<dyn Store>,
    lobby: Arc<Lobby>,
    mut endings: mpsc::UnboundedReceiver<Ending>,
) {
    while let Some(ending) = endings.recv().await {
        let game = ending.game;
        match record(&*store, &ending).await {
            Ok(()) => lobby.game_ended(
                game,
                ending
                    .result
                    .filter(|_| !ending.cancelled)
                    .map(ResultView::from),
            ),
            Err(e) => tracing::error!(game, "result not recorded: {e}"),
        }
    }
}

async fn record(store: &dyn Store, ending: &Ending) -> Result<(), StoreError> {
    let s = &ending.settings;
    let ratings = match ending.result {
        Some(result) if s.rated && !ending.cancelled => {
            let black = store.user(s.black.id).await?;
            let white = store.user(s.white.id).await?;
            black.zip(white).and_then(|(black, white)| {
                let (b, w) = after_game(
                    black.rating,
                    white.rating,
                    s.size,
                    s.rating_handicap,
                    result,
                )?;
                let change = |before: shoutan_store::Rating, after: shoutan_store::Rating| {
                    serde_json::json!({
                        "before": (before.rating * 10.0).round() / 10.0,
                        "after": (after.rating * 10.0).round() / 10.0,
                        "change": ((after.rating - before.rating) * 10.0).round() / 10.0,
                    })
                };
                let black_standing = next_standing(black.standing, b);
                let white_standing = next_standing(white.standing, w);
                let shown = |standing: Option<shoutan_store::RankStanding>,
                             r: shoutan_store::Rating| {
                    standing
                        .map_or_else(|| rank_of(r.rating), |s| s.shown)
                        .to_string()
                };
                let mut summary = serde_json::json!({
                    "black": change(black.rating, b),
                    "white": change(white.rating, w),
                });
                summary["black"]["rank"] = shown(black_standing, b).into();
                summary["black"]["provisional"] = black_standing.is_none().into();
                summary["white"]["rank"] = shown(white_standing, w).into();
                summary["white"]["provisional"] = white_standing.is_none().into();
                Some(RatingUpdate {
                    black: b,
                    white: w,
                    black_standing,
                    white_standing,
                    summary: summary.to_string(),
                })
            })
        }
        _ => None,
    };
    store
        .finish_game(GameEnd {
            game: ending.game,
            status: if ending.cancelled {
                GameStatus::Cancelled
            } else {
                GameStatus::Finished
            },
            result: ending
                .result
                .filter(|_| !ending.cancelled)
                .map(|r| r.international()),
            winner: ending.result.and_then(|r| r.winner()),
            ended_at: ending.ended_at,
            ratings,
        })
        .await?;
    Ok(())
}
