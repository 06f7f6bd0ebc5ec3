//! The games in memory: starting new ones, rebuilding live ones after a
//! restart, loading finished ones on demand; it publishes the games that
//! open and end ([`Published`]) to those that act on them.
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

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use futures_util::StreamExt;
use shoutan_clock::Instant;
use shoutan_rules::GameResult;
use shoutan_store::{GameId, GameRow, GameStatus, Store, StoreError, StoredEvent};
use tokio::sync::{OnceCell, mpsc};

use super::actor::Actor;
use super::estimates::Estimates;
use super::event::{GameEvent, Record};
use super::follower::Follower;
use super::handle::{GameHandle, Msg, RECENT};
use super::replica::{Recent, event_frame};
use super::state::{Effects, LiveState};
use crate::cluster::Membership;
use crate::config::ServerConfig;
use crate::settings::GameSettings;
use crate::time;
use shoutan_store::cluster::Claim;

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

/// A live game opened on this instance (created, rebuilt after a restart,
/// or taken over), for whoever plays its seats: the computer players
/// subscribe (`Computer::seat_players`). Sent on a channel made with the
/// registry, so a game opened before the subscriber starts is not missed.
pub struct Opened {
    /// The game.
    pub handle: GameHandle,
    /// Its players.
    pub settings: GameSettings,
}

/// What the registry publishes: the games that end and the games that open.
pub struct Published {
    /// Endings, for the results task.
    pub endings: mpsc::UnboundedReceiver<Ending>,
    /// Live games opened here.
    pub opened: mpsc::UnboundedReceiver<Opened>,
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
    /// This instance among several, when the store is shared.
    membership: Option<Arc<Membership>>,
    opened: mpsc::UnboundedSender<Opened>,
}

/// How a game comes to be served here.
enum Arrival {
    /// Just created, with its first event.
    Created(GameEvent),
    /// Asked for (a connection, a page, the computer).
    Requested,
    /// Rebuilt after a restart; the server's last sign of life before it.
    Restored { last_sign: Option<Instant> },
}

/// A number no other actor or follower of this process has.
pub(crate) fn next_incarnation() -> u64 {
    static INCARNATIONS: AtomicU64 = AtomicU64::new(0);
    INCARNATIONS.fetch_add(1, Ordering::Relaxed)
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
    pub recent: Recent,
}

/// Applies one stored event to `state` (the next version of its log):
/// when it happened, what it was, and what it did.
pub(crate) fn apply_stored(
    state: &mut LiveState,
    stored: &StoredEvent,
) -> Result<(Instant, Record, Effects), String> {
    let record: Record =
        serde_json::from_str(&stored.body).map_err(|e| format!("event {}: {e}", stored.version))?;
    if stored.version != state.version + 1 {
        return Err(format!("event {} out of order", stored.version));
    }
    let at = time::instant(stored.at);
    let effects = state
        .apply(at, &record.event, record.cmd)
        .map_err(|e| format!("event {}: {e}", stored.version))?;
    Ok((at, record, effects))
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
    let mut recent = Recent::default();
    for (i, stored) in events.iter().enumerate() {
        let (at, record, effects) = apply_stored(&mut state, stored).map_err(corrupt)?;
        if i >= first_framed {
            recent.push(event_frame(&state, at, &record.event, &effects));
        }
    }
    Ok(Some(Loaded { row, state, recent }))
}

impl Shared {
    /// The shared part of the server's games (one instance of several
    /// when `membership` is given), and what they publish: the endings for
    /// [`crate::results::record_results`], the openings for the computer
    /// players.
    pub fn new(
        store: Arc<dyn Store>,
        config: ServerConfig,
        membership: Option<Arc<Membership>>,
    ) -> (Arc<Shared>, Published) {
        let (endings, ended) = mpsc::unbounded_channel();
        let (opened, opening) = mpsc::unbounded_channel();
        (
            Arc::new(Shared {
                store,
                estimates: Estimates::new(config.estimate_workers, Arc::clone(&config.network)),
                config,
                games: Mutex::new(HashMap::new()),
                endings,
                membership,
                opened,
            }),
            Published {
                endings: ended,
                opened: opening,
            },
        )
    }

    /// How many games are in memory (played, watched or lingering).
    pub fn loaded(&self) -> usize {
        self.games.lock().map_or(0, |games| games.len())
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
        // A slot still loading belongs to a newer actor: it stays.
        let stale = games
            .get(&id)
            .and_then(|slot| slot.get())
            .is_some_and(|handle| handle.tx.is_closed() || handle.is_of(incarnation));
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
        self.serve(row.id, Arrival::Created(first)).await
    }

    /// The game's handle, loading the game from the store if it is not in
    /// memory; `None` if there is no such game.
    pub async fn get(self: &Arc<Self>, id: GameId) -> Result<Option<GameHandle>, LoadError> {
        match self.serve(id, Arrival::Requested).await {
            Ok(handle) => Ok(Some(handle)),
            Err(LoadError::Missing) => {
                if let Ok(mut games) = self.games.lock() {
                    games.remove(&id);
                }
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// The game's handle if it is in memory.
    pub async fn running(&self, id: GameId) -> Option<GameHandle> {
        self.in_memory(id)
    }

    /// The game's handle if it is in memory (for the bus: no waiting).
    pub(crate) fn in_memory(&self, id: GameId) -> Option<GameHandle> {
        let games = self.games.lock().ok()?;
        games
            .get(&id)
            .and_then(|slot| slot.get())
            .filter(|h| !h.tx.is_closed())
            .cloned()
    }

    /// The game served here: from memory, or loaded into its slot (one
    /// load at a time per game, none holding up another game). Where
    /// another live instance owns the game, it is served by a follower.
    async fn serve(
        self: &Arc<Self>,
        id: GameId,
        arrival: Arrival,
    ) -> Result<GameHandle, LoadError> {
        let slot = self.slot(id);
        let handle = slot.get_or_try_init(|| self.open(id, arrival)).await?;
        Ok(handle.clone())
    }

    async fn open(self: &Arc<Self>, id: GameId, arrival: Arrival) -> Result<GameHandle, LoadError> {
        let mut loaded = load(&*self.store, id).await?.ok_or(LoadError::Missing)?;
        let mut excuse_from = match arrival {
            Arrival::Restored { last_sign } => last_sign,
            _ => None,
        };
        if let Some(membership) = self.membership() {
            match membership.claim(id).await? {
                Claim::Owned { previous: None } => {}
                Claim::Owned {
                    previous: Some((owner, seen)),
                } => {
                    excuse_from = if owner == membership.instance {
                        // Our own game: rebuilt after our restart, from our
                        // last heartbeat before it.
                        match arrival {
                            Arrival::Restored { .. } => {
                                membership.last_seen_before.map(time::instant)
                            }
                            _ => None,
                        }
                    } else {
                        // A dead instance's game, from its last heartbeat.
                        // It may have appended between our load and the
                        // claim (the claim waits for its appends, and
                        // fences off any later one): read the log again.
                        loaded = load(&*self.store, id).await?.ok_or(LoadError::Missing)?;
                        Some(time::instant(seen))
                    };
                }
                Claim::Elsewhere(owner) => {
                    if let Arrival::Created(_) = arrival {
                        return Err(LoadError::Corrupt {
                            game: id,
                            why: format!("a new game is owned by instance {owner}"),
                        });
                    }
                    return Ok(Follower::new(
                        loaded,
                        owner,
                        Arc::clone(self),
                        membership,
                        next_incarnation(),
                    )
                    .spawn());
                }
            }
        }
        let live = loaded.row.status == GameStatus::Live;
        let mut actor = Actor::new(
            id,
            loaded.row.created_at,
            loaded.state,
            loaded.recent,
            Arc::clone(self),
            !live,
        );
        match arrival {
            Arrival::Created(first) => actor.open(first).await?,
            _ if live && actor_needs_start(&actor) => actor.open(GameEvent::Start).await?,
            _ if live && actor_clock_runs(&actor) => {
                if let Some(from) = excuse_from {
                    actor.resume(from.max(actor.state().last_at)).await?;
                }
            }
            _ => {}
        }
        let settings = actor.state().settings.clone();
        let handle = actor.spawn();
        if live {
            // The subscribers live as long as the server.
            let _ = self.opened.send(Opened {
                handle: handle.clone(),
                settings,
            });
        }
        Ok(handle)
    }

    /// After a restart: rebuilds the live games this instance serves (all
    /// of them on SQLite; on PostgreSQL its own, the unowned ones and those
    /// of dead instances), excusing the downtime on their clocks (see the
    /// module documentation), several at a time.
    pub async fn restore(self: &Arc<Self>) -> Result<(), StoreError> {
        let (games, last_sign) = match self.membership() {
            None => {
                let heartbeat = self.store.last_heartbeat().await?.map(time::instant);
                let live = self.store.live_games().await?;
                (live.iter().map(|row| row.id).collect::<Vec<_>>(), heartbeat)
            }
            Some(membership) => {
                let cluster = self.store.cluster().ok_or(StoreError::Closed)?;
                let mut games = cluster.owned().await?;
                games.extend(cluster.orphans(i64::MAX).await?);
                games.sort_unstable();
                games.dedup();
                (games, membership.last_seen_before.map(time::instant))
            }
        };
        futures_util::stream::iter(games)
            .map(|id| async move {
                if let Err(e) = self.serve(id, Arrival::Restored { last_sign }).await {
                    tracing::error!("cannot restore game {id}: {e}");
                }
            })
            .buffer_unordered(RESTORING)
            .collect::<()>()
            .await;
        Ok(())
    }

    /// Takes over a game whose owner died: its follower here (if any)
    /// stops, and the game is rebuilt as this instance's.
    pub(crate) async fn take_over(self: &Arc<Self>, id: GameId) -> Result<(), LoadError> {
        if let Some(handle) = self.in_memory(id) {
            if !handle.is_follower() {
                return Ok(());
            }
            handle.deliver(Msg::Stop);
            if let Ok(mut games) = self.games.lock()
                && games
                    .get(&id)
                    .and_then(|slot| slot.get())
                    .is_some_and(|h| h.is_of(handle.incarnation))
            {
                games.remove(&id);
            }
        }
        self.serve(id, Arrival::Requested).await.map(|_| ())
    }

    /// Tells every follower here to catch up from the log (the bus was
    /// down: events may have been missed).
    pub(crate) fn catch_up_followers(&self) {
        let followers: Vec<GameHandle> = self
            .games
            .lock()
            .map(|games| {
                games
                    .values()
                    .filter_map(|slot| slot.get())
                    .filter(|h| h.is_follower())
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        for follower in followers {
            follower.deliver(Msg::CatchUp);
        }
    }

    /// This instance among several, when the store is shared.
    pub(crate) fn membership(&self) -> Option<Arc<Membership>> {
        self.membership.clone()
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
