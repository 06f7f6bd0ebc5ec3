//! The games in memory: starting new ones, rebuilding live ones after a
//! restart, loading finished ones on demand, and recording results and
//! ratings when games end.
//!
//! # Downtime policy
//! While the server is down nobody can move, so the time is not charged:
//! on restart each live game's running clock is excused the time from the
//! server's last sign of life — the later of its last heartbeat (written
//! every second) and the game's last event — to the moment the game is
//! live again (the `resume` event's own instant, so the rebuilding is
//! excused too). The excuse is itself an event of the log, so later
//! replays agree. A player loses at most the heartbeat interval of
//! thinking time to a crash.
//!
//! # No lock across I/O
//! The map of games is locked only to find or place a game's slot; a game
//! is loaded from the store inside its own slot, so loading one game never
//! holds up another.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use futures_util::StreamExt;
use shoutan_clock::Instant;
use shoutan_rules::GameResult;
use shoutan_store::{GameEnd, GameId, GameRow, GameStatus, RatingUpdate, Store, StoreError};
use tokio::sync::{OnceCell, mpsc};

use super::actor::{Actor, EventFrame, GameHandle};
use super::estimates::Estimates;
use super::event::{GameEvent, Record};
use super::state::LiveState;
use super::view::{ResultView, event_frames};
use crate::config::ServerConfig;
use crate::lobby::Lobby;
use crate::rating::after_game;
use crate::settings::GameSettings;
use crate::time;

/// Events whose frames are rebuilt when a game is loaded.
const RECENT: usize = 256;

/// A game that ended, for the results task.
#[derive(Clone, Debug)]
pub struct Ending {
    /// The game.
    pub game: GameId,
    /// Its settings (players, rated or not).
    pub settings: GameSettings,
    /// The result.
    pub result: Option<GameResult>,
    /// Cancelled rather than finished.
    pub cancelled: bool,
    /// When (ms).
    pub ended_at: i64,
}

/// Games rebuilt at once after a restart.
const RESTORING: usize = 16;

/// A game's place in the registry: empty while it loads, then its actor.
type Slot = Arc<OnceCell<GameHandle>>;

/// What the actors share: the store, the settings, the registry of games,
/// the dead-stone estimator.
pub struct Shared {
    /// The store.
    pub store: Arc<dyn Store>,
    /// The settings.
    pub config: ServerConfig,
    /// The estimates that open counting.
    pub estimates: Estimates,
    games: Mutex<HashMap<GameId, Slot>>,
    endings: mpsc::UnboundedSender<Ending>,
}

/// Why a game could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// There is no such game.
    #[error("no such game")]
    Missing,
    /// The log does not replay.
    #[error("game {game}: {why}")]
    Corrupt {
        /// The game.
        game: GameId,
        /// What went wrong.
        why: String,
    },
}

/// A game rebuilt from its log.
pub struct Loaded {
    /// Its row.
    pub row: GameRow,
    /// Its state.
    pub state: LiveState,
    /// The frames of its last events.
    pub recent: VecDeque<Arc<EventFrame>>,
}

/// Rebuilds a game from the store by replaying its log.
pub async fn load(store: &dyn Store, id: GameId) -> Result<Option<Loaded>, LoadError> {
    let Some(row) = store.game(id).await? else {
        return Ok(None);
    };
    let corrupt = |why: String| LoadError::Corrupt { game: id, why };
    let settings: GameSettings =
        serde_json::from_str(&row.settings).map_err(|e| corrupt(format!("settings: {e}")))?;
    let game = settings.new_game().map_err(|e| corrupt(e.message))?;
    let clock = settings.new_clock().map_err(|e| corrupt(e.message))?;
    let mut state = LiveState::new(settings, game, clock);
    let events = store.events(id, 0).await?;
    let first_framed = events.len().saturating_sub(RECENT);
    let mut recent = VecDeque::with_capacity(RECENT);
    for (i, stored) in events.iter().enumerate() {
        let record: Record = serde_json::from_str(&stored.body)
            .map_err(|e| corrupt(format!("event {}: {e}", stored.version)))?;
        if stored.version != state.version + 1 {
            return Err(corrupt(format!("event {} out of order", stored.version)));
        }
        let at = time::instant(stored.at);
        let effects = state
            .apply(at, &record.event, record.cmd)
            .map_err(|e| corrupt(format!("event {}: {e}", stored.version)))?;
        if i >= first_framed {
            let (all, players) = event_frames(&state, at, &record.event, &effects);
            recent.push_back(Arc::new(EventFrame {
                v: stored.version,
                all: all.into(),
                players: players.map(Into::into),
            }));
        }
    }
    Ok(Some(Loaded { row, state, recent }))
}

impl Shared {
    /// The shared part of the server's games, and the receiver of endings
    /// for [`record_results`].
    pub fn new(
        store: Arc<dyn Store>,
        config: ServerConfig,
    ) -> (Arc<Shared>, mpsc::UnboundedReceiver<Ending>) {
        let (endings, rx) = mpsc::unbounded_channel();
        (
            Arc::new(Shared {
                store,
                estimates: Estimates::new(config.estimate_workers),
                config,
                games: Mutex::new(HashMap::new()),
                endings,
            }),
            rx,
        )
    }

    pub(crate) fn ended(&self, ending: Ending) {
        // The receiver lives as long as the server.
        let _ = self.endings.send(ending);
    }

    /// Forgets the game of the actor that stops (its `incarnation` tells
    /// it from a newer actor of the same game).
    pub(crate) async fn retire(&self, id: GameId, incarnation: u64) {
        let Ok(mut games) = self.games.lock() else {
            return;
        };
        let stale = games
            .get(&id)
            .and_then(|slot| slot.get())
            .is_none_or(|handle| handle.tx.is_closed() || handle.is_of(incarnation));
        if stale {
            games.remove(&id);
        }
    }

    /// The slot of `id`: the one in the map, or a fresh one in place of a
    /// missing slot or one whose actor stopped.
    fn slot(&self, id: GameId) -> Slot {
        let Ok(mut games) = self.games.lock() else {
            return Arc::new(OnceCell::new());
        };
        let slot = games.entry(id).or_default();
        if slot.get().is_some_and(|h| h.tx.is_closed()) {
            *slot = Arc::default();
        }
        Arc::clone(slot)
    }

    /// Starts the actor of a game just created: its clock starts now.
    pub async fn start(self: &Arc<Self>, row: GameRow) -> Result<GameHandle, LoadError> {
        self.start_with(row, GameEvent::Start).await
    }

    /// Starts the actor of a game just created with its first event:
    /// [`GameEvent::Start`], or [`GameEvent::Schedule`] for an event's game.
    pub async fn start_with(
        self: &Arc<Self>,
        row: GameRow,
        first: GameEvent,
    ) -> Result<GameHandle, LoadError> {
        let slot = self.slot(row.id);
        let handle = slot
            .get_or_try_init(|| async {
                let mut actor = self.actor(row.id).await?;
                actor.open(first).await?;
                Ok::<_, LoadError>(actor.spawn())
            })
            .await?;
        Ok(handle.clone())
    }

    /// The actor of a game rebuilt from its log.
    async fn actor(self: &Arc<Self>, id: GameId) -> Result<Actor, LoadError> {
        let loaded = load(&*self.store, id).await?.ok_or(LoadError::Corrupt {
            game: id,
            why: "the game vanished".into(),
        })?;
        Ok(Actor::new(
            id,
            loaded.row.created_at,
            loaded.state,
            loaded.recent,
            Arc::clone(self),
        ))
    }

    /// The game's actor, loading the game from the store if it is not in
    /// memory; `None` if there is no such game.
    pub async fn get(self: &Arc<Self>, id: GameId) -> Result<Option<GameHandle>, LoadError> {
        let slot = self.slot(id);
        let loaded = slot
            .get_or_try_init(|| async {
                let Some(loaded) = load(&*self.store, id).await? else {
                    return Err(LoadError::Missing);
                };
                let live = loaded.row.status == GameStatus::Live;
                let mut actor = Actor::new(
                    id,
                    loaded.row.created_at,
                    loaded.state,
                    loaded.recent,
                    Arc::clone(self),
                );
                if live && actor_needs_start(&actor) {
                    actor.open(GameEvent::Start).await?;
                }
                Ok(actor.spawn())
            })
            .await;
        match loaded {
            Ok(handle) => Ok(Some(handle.clone())),
            Err(LoadError::Missing) => {
                if let Ok(mut games) = self.games.lock() {
                    games.remove(&id);
                }
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// The game's actor if it is in memory.
    pub async fn running(&self, id: GameId) -> Option<GameHandle> {
        let games = self.games.lock().ok()?;
        games
            .get(&id)
            .and_then(|slot| slot.get())
            .filter(|h| !h.tx.is_closed())
            .cloned()
    }

    /// After a restart: rebuilds every live game, excusing the downtime on
    /// its clock (see the module documentation), several at a time.
    /// Returns the games, for the lobby.
    pub async fn restore(self: &Arc<Self>) -> Result<Vec<(GameRow, GameSettings)>, StoreError> {
        let heartbeat = self.store.last_heartbeat().await?.map(time::instant);
        let rows = self.store.live_games().await?;
        let restored = futures_util::stream::iter(rows)
            .map(|row| self.restore_one(row, heartbeat))
            .buffer_unordered(RESTORING)
            .filter_map(|restored| async move { restored })
            .collect()
            .await;
        Ok(restored)
    }

    async fn restore_one(
        self: &Arc<Self>,
        row: GameRow,
        heartbeat: Option<Instant>,
    ) -> Option<(GameRow, GameSettings)> {
        let id = row.id;
        let slot = self.slot(id);
        let restored = slot
            .get_or_try_init(|| async {
                let mut actor = self.actor(id).await?;
                let last_sign =
                    heartbeat.map_or(actor.state().last_at, |h| h.max(actor.state().last_at));
                if actor_needs_start(&actor) {
                    actor.open(GameEvent::Start).await?;
                } else if actor_clock_runs(&actor) {
                    actor.resume(last_sign).await?;
                }
                Ok::<_, LoadError>(actor.spawn())
            })
            .await;
        if let Err(e) = restored {
            tracing::error!("cannot restore game {id}: {e}");
            return None;
        }
        let settings = serde_json::from_str(&row.settings).ok()?;
        Some((row, settings))
    }

    /// Writes down that the server is alive, every `config.heartbeat`.
    pub async fn heartbeats(self: Arc<Self>) {
        let mut every = tokio::time::interval(self.config.heartbeat);
        loop {
            every.tick().await;
            if let Err(e) = self.store.heartbeat(time::now_millis()).await {
                tracing::warn!("heartbeat not recorded: {e}");
            }
        }
    }
}

fn actor_needs_start(actor: &Actor) -> bool {
    actor.state().version == 0
}

/// A clock runs, or a scheduled game waits for its players (whose
/// lateness must not include the downtime either).
fn actor_clock_runs(actor: &Actor) -> bool {
    let state = actor.state();
    !state.is_over()
        && (state.running().is_some()
            || matches!(
                state.clock.status(),
                shoutan_clock::Status::AwaitingPlayers { .. }
            ))
}

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
                let (b, w) = after_game(black.rating, white.rating, s.rating_handicap, result)?;
                let change = |before: shoutan_store::Rating, after: shoutan_store::Rating| {
                    serde_json::json!({
                        "before": (before.rating * 10.0).round() / 10.0,
                        "after": (after.rating * 10.0).round() / 10.0,
                        "change": ((after.rating - before.rating) * 10.0).round() / 10.0,
                    })
                };
                Some(RatingUpdate {
                    black: b,
                    white: w,
                    summary: serde_json::json!({
                        "black": change(black.rating, b),
                        "white": change(white.rating, w),
                    })
                    .to_string(),
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
