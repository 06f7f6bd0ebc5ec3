//! The enforcement of suspensions and bans on running games, whichever
//! process recorded them (moderation's rules are in
//! [`crate::moderation`]).

use std::sync::Arc;
use std::time::Duration;

use shoutan_rules::{Color, GameResult, WinBy};
use shoutan_store::Store;
use tokio::sync::Notify;

use crate::live::event::GameEvent;
use crate::live::registry::Shared;
use crate::lobby::Lobby;

/// Ends the running games of suspended and banned players: each as a
/// forfeit (不战负) of the player kept out. Every server process runs
/// one, for the games it hosts; it reads the audit log as it grows, so an
/// action recorded at the shell or by another process is enforced too.
pub struct Enforcer {
    wake: Notify,
}

/// How often the audit log is read when nobody says it grew.
const POLL: Duration = Duration::from_secs(1);

impl Enforcer {
    /// An enforcer, to be run with [`Enforcer::run`].
    #[must_use]
    pub fn new() -> Arc<Enforcer> {
        Arc::new(Enforcer {
            wake: Notify::new(),
        })
    }

    /// Reads the log at once (an action was just recorded here).
    pub fn nudge(&self) {
        self.wake.notify_one();
    }

    /// Reads the audit log from the start (what holds at start-up is
    /// enforced on the games restored), then as it grows.
    pub async fn run(
        self: Arc<Self>,
        store: Arc<dyn Store>,
        games: Arc<Shared>,
        lobby: Arc<Lobby>,
    ) {
        let mut last = 0;
        loop {
            match store.actions_after(last).await {
                Ok(actions) => {
                    for action in actions {
                        last = last.max(action.id);
                        if action.kind.excludes() && action.holds(crate::time::now_millis()) {
                            forfeit_games_of(&games, &lobby, action.user.id).await;
                        }
                    }
                }
                Err(e) => tracing::warn!("moderation: the audit log could not be read: {e}"),
            }
            let _ = tokio::time::timeout(POLL, self.wake.notified()).await;
        }
    }
}

/// Ends `user`'s games hosted here as his forfeit.
async fn forfeit_games_of(games: &Shared, lobby: &Lobby, user: i64) {
    for game in lobby.games_of(user) {
        let Some(handle) = games.running(game.id).await else {
            continue;
        };
        let Ok(state) = handle.state().await else {
            continue;
        };
        let Some(color) = state.settings.color_of(user) else {
            continue;
        };
        let ruling = GameEvent::Ruling {
            result: GameResult::Win {
                winner: Color::opponent(color),
                by: WinBy::Forfeit,
            },
        };
        match handle.arbiter(ruling).await {
            Ok(Ok(_)) => tracing::info!(game = game.id, user, "forfeited: the player is kept out"),
            Ok(Err(why)) => tracing::info!(game = game.id, "not forfeited: {why}"),
            Err(_) => {}
        }
    }
}
