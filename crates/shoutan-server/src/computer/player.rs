//! One computer seat in one game: a task that watches the game's events
//! and, when the game waits for the computer, decides and sends the
//! command through the game's actor — like a player on a connection.
//!
//! - Its turn: a move from the engine at its level, within its clock
//!   (a pass when the engine passes, a resignation when it is hopeless);
//!   after a dispute it plays cleanup (captures the dead stones first).
//! - A free handicap of its own: the fixed points.
//! - Requests: a takeback is granted, a request to count is granted, a
//!   draw is declined.
//! - Counting: it judges life and death with the engine's ownership; if
//!   the marks agree it accepts; if not, it marks the groups as it sees
//!   them, and when the marks are changed against its view again it
//!   disputes (Art. 21.4) and plays it out — once a game; after that it
//!   accepts the marks.

use std::sync::Arc;

use shoutan_engine::{Decision, Engine, EngineConfig, Level, Mode, StopHandle};
use shoutan_nn::Network;
use shoutan_rules::{Color, Game, Phase, PointSet, Vertex, fixed_handicap};
use shoutan_store::UserId;
use tokio::sync::Semaphore;
use tokio::sync::broadcast::error::RecvError;

use super::budget::budget;
use crate::live::handle::{GameHandle, Participant};
use crate::live::protocol::ClientMessage;
use crate::live::state::LiveState;
use crate::time;

/// The largest search tree of one computer game, in nodes: a move at
/// full strength visits a few thousand; the bound keeps a game's tree
/// (nodes and the legal moves of expanded ones) within tens of megabytes.
const MAX_NODES: u32 = 50_000;

/// What the computer knows of a counting phase.
#[derive(Default)]
struct CountingView {
    /// The number of turns of the position judged (a new position after a
    /// dispute is judged again).
    turns: usize,
    /// The stones it sees dead.
    dead: Option<PointSet>,
    /// Groups it may still toggle: as many as differed from its view when
    /// counting opened, so that it marks as it sees, but does not fight.
    toggles_left: usize,
}

/// The computer in one seat of one game.
pub(super) struct ComputerPlayer {
    handle: GameHandle,
    who: Participant,
    user: UserId,
    color: Color,
    level: Level,
    pool: Arc<Semaphore>,
    network: Arc<Network>,
    engine: Option<Engine>,
    next_id: u64,
    counting: CountingView,
    disputed: bool,
}

impl ComputerPlayer {
    pub(super) fn new(
        handle: GameHandle,
        user: (UserId, String),
        color: Color,
        level: Level,
        pool: Arc<Semaphore>,
        network: Arc<Network>,
    ) -> ComputerPlayer {
        ComputerPlayer {
            handle,
            user: user.0,
            who: Participant {
                user: Some(user),
                color: Some(color),
            },
            color,
            level,
            pool,
            engine: Some(new_engine(level, &network)),
            network,
            next_id: 1,
            counting: CountingView::default(),
            disputed: false,
        }
    }

    /// Plays until the game ends (or its actor stops).
    pub(super) async fn run(mut self) {
        let Ok(joined) = self.handle.join(self.who.clone(), None).await else {
            return;
        };
        let mut events = joined.events;
        loop {
            let Ok(state) = self.handle.state().await else {
                break;
            };
            if state.is_over() {
                break;
            }
            self.next_id = self.next_id.max(
                state
                    .last_command
                    .get(&self.user)
                    .map_or(1, |last| last + 1),
            );
            let decided = match self.decide(&state).await {
                Some(message) => self.send(&state, message).await,
                None => false,
            };
            if decided {
                continue;
            }
            // Nothing to do (or refused): wait for the game to change.
            match events.recv().await {
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => break,
            }
        }
        self.handle.leave(self.who.clone()).await;
    }

    /// Sends `message` at the version it was decided on; true if the game
    /// took it.
    async fn send(&mut self, state: &LiveState, message: ClientMessage) -> bool {
        let id = self.next_id;
        self.next_id += 1;
        let outcome = self
            .handle
            .command(
                self.who.clone(),
                Some(id),
                Some(state.version),
                message.clone(),
                shoutan_clock::Millis::ZERO,
            )
            .await;
        match outcome {
            Ok(Ok(_)) => true,
            Ok(Err(frame)) => {
                // The game moved on while the computer thought (stale), or
                // the clock ran out: the next event says what now.
                tracing::debug!(
                    game = self.handle.id,
                    "computer's {message:?} refused: {}",
                    frame.message
                );
                false
            }
            Err(_) => false,
        }
    }

    /// What the computer does now, if anything.
    async fn decide(&mut self, state: &LiveState) -> Option<ClientMessage> {
        let game = &state.game;
        let me = self.color;
        let them = me.opponent();
        match game.phase() {
            Phase::Finished => None,
            Phase::Setup => (me == Color::Black).then(|| self.place_handicap(game))?,
            Phase::Play => {
                if self.counting.dead.is_some() {
                    // Play resumed after a dispute: capture what is dead.
                    self.disputed = true;
                    self.counting = CountingView::default();
                }
                if state.offers.takeback == Some(them) {
                    return Some(ClientMessage::TakebackAnswer { accept: true });
                }
                if state.offers.count == Some(them) {
                    return Some(ClientMessage::CountAnswer { accept: true });
                }
                if state.offers.draw == Some(them) {
                    return Some(ClientMessage::DrawAnswer { accept: false });
                }
                if game.to_move() != me {
                    return None;
                }
                self.play(state).await
            }
            Phase::Counting => self.count(state).await,
        }
    }

    fn place_handicap(&self, game: &Game) -> Option<ClientMessage> {
        let size = game.size();
        let points = fixed_handicap(size, u32::from(game.handicap())).ok()?;
        Some(ClientMessage::PlaceHandicap {
            points: points.iter().map(|&p| Vertex::of(p, size)).collect(),
        })
    }

    /// Runs `work` with the engine on a blocking thread, once a place in
    /// the pool is free.
    async fn think<T: Send + 'static>(
        &mut self,
        work: impl FnOnce(&mut Engine) -> T + Send + 'static,
    ) -> Option<T> {
        let _job = crate::metrics::PoolJob::start("computer");
        let permit = Arc::clone(&self.pool).acquire_owned().await.ok()?;
        let mut engine = self.engine.take()?;
        let joined = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let out = work(&mut engine);
            (engine, out)
        })
        .await;
        match joined {
            Ok((engine, out)) => {
                self.engine = Some(engine);
                Some(out)
            }
            Err(e) => {
                tracing::error!(game = self.handle.id, "the computer's search failed: {e}");
                self.engine = Some(new_engine(self.level, &self.network));
                None
            }
        }
    }

    async fn play(&mut self, state: &LiveState) -> Option<ClientMessage> {
        let game = state.game.clone();
        let color = self.color;
        // The budget is read when the search can start: waiting for the
        // pool is on the computer's clock too.
        let clock = state.clock.clone();
        let level = self.level;
        let mode = if self.disputed {
            Mode::Cleanup
        } else {
            Mode::Normal
        };
        let decision = self
            .think(move |engine| {
                let budget = budget(level, &game, &clock, color, time::now());
                engine
                    .genmove(&game, color, budget, mode, &StopHandle::new())
                    .map(|t| (t.decision, game.size()))
            })
            .await?;
        match decision {
            Ok((Decision::Play(p), size)) => Some(ClientMessage::Move {
                point: Vertex::of(p, size),
            }),
            Ok((Decision::Pass, _)) => Some(ClientMessage::Pass),
            Ok((Decision::Resign, _)) => Some(ClientMessage::Resign),
            Err(e) => {
                tracing::warn!(game = self.handle.id, "the computer cannot move: {e}");
                None
            }
        }
    }

    async fn count(&mut self, state: &LiveState) -> Option<ClientMessage> {
        let game = &state.game;
        if game.accepted()[self.color] {
            return None;
        }
        let turns = game.turns().len();
        if self.counting.turns != turns || self.counting.dead.is_none() {
            let position = game.clone();
            let dead = self
                .think(move |engine| engine.final_status(&position).status.dead)
                .await?;
            self.counting = CountingView {
                turns,
                toggles_left: differing_groups(game, &dead).len(),
                dead: Some(dead),
            };
        }
        let mine = self.counting.dead.as_ref()?;
        let Some(&first) = differing_groups(game, mine).first() else {
            return Some(ClientMessage::Accept);
        };
        if self.counting.toggles_left > 0 {
            self.counting.toggles_left -= 1;
            return Some(ClientMessage::Toggle {
                point: Vertex::of(first, game.size()),
            });
        }
        // The opponent marks against the computer's view: play it out, once
        // a game (Art. 21.4); after that the marks stand as the players left them.
        Some(if self.disputed {
            ClientMessage::Accept
        } else {
            ClientMessage::Dispute
        })
    }
}

/// A fresh engine for a seat at `level`: one search thread (the pool
/// bounds how many run at once), the level's temperature.
fn new_engine(level: Level, network: &Arc<Network>) -> Engine {
    let config = EngineConfig {
        threads: 1,
        max_nodes: MAX_NODES,
        temperature: level.temperature(),
        seed: fastrand::u64(..),
        ..EngineConfig::default()
    };
    Engine::with_network(config, Arc::clone(network))
}

/// One stone of each group whose marks differ from `dead`.
fn differing_groups(game: &Game, dead: &PointSet) -> Vec<shoutan_rules::Point> {
    let marked = game.dead_stones();
    let mut seen = PointSet::new(game.size());
    let mut stones = Vec::new();
    for p in game.size().points() {
        if game.board().get(p).is_none()
            || seen.contains(p)
            || dead.contains(p) == marked.contains(p)
        {
            continue;
        }
        for q in game.marking_group(p) {
            seen.insert(q);
        }
        stones.push(p);
    }
    stones
}
