//! AI reviews (AI 复盘) of finished games and of uploaded records
//! ([`record`]), asked for with one click: the engine analyses every
//! position (`shoutan_engine::review`) on a pool of its own — one engine
//! thread per review, at most [`WORKERS`] at once, at most [`QUEUED`]
//! waiting, at most [`PER_USER`] waiting for any one account, games and
//! records alike — so that a review never takes the cores live games and
//! the computer players need. Requests and reviews are stored, with the
//! game or with the record (made once per game or record and level); a
//! request not yet made when the server stops is made again from the start
//! after the restart.

pub mod record;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use shoutan_engine::{Engine, EngineConfig, MoveEval, PositionEval, Review, StopHandle};
use shoutan_nn::Network;
use shoutan_rules::{BoardSize, Color, Game, Move};
use shoutan_store::{
    GameId, NewRecordReview, NewReview, RecordReviewRow, ReviewRow, Store, StoreError, UserId,
};

use crate::blocking::BlockingPool;
use crate::error::{ApiError, ErrorCode};
use record::{Record, RecordId};

/// Reviews made at once (one engine thread each).
pub const WORKERS: usize = 1;
/// Reviews that may wait for a worker.
pub const QUEUED: usize = 16;
/// Reviews one account may have waiting or running.
pub const PER_USER: usize = 2;
/// The largest tree of a review's search, in nodes: a deep review's
/// position takes 512 visits and the tree of the one before it is reused,
/// so this bounds a review's memory (tens of megabytes) without cutting a
/// search short.
const REVIEW_NODES: u32 = 20_000;

/// How thorough a review is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// A network search of 64 visits a position: under a minute for a
    /// 19×19 game of 250 moves on one core.
    Quick,
    /// 512 visits a position, eight times the work of a quick review.
    Deep,
}

impl Level {
    /// Every level, the cheapest first.
    pub const ALL: [Level; 2] = [Level::Quick, Level::Deep];

    /// Its name, as stored and in the API.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::Quick => "quick",
            Level::Deep => "deep",
        }
    }

    /// The level named so.
    #[must_use]
    pub fn named(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }

    /// Visits per position.
    #[must_use]
    pub fn visits(self) -> u64 {
        match self {
            Level::Quick => 64,
            Level::Deep => 512,
        }
    }

    /// Its cost, said to whoever chooses it.
    #[must_use]
    pub fn cost(self) -> &'static str {
        match self {
            Level::Quick => "64 visits a position: under a minute for a 250-move 19×19 game",
            Level::Deep => {
                "512 visits a position, 8× a quick review: several minutes for a 250-move 19×19 game"
            }
        }
    }
}

/// What a review is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Subject {
    /// A finished game of the server.
    Game(GameId),
    /// An uploaded record.
    Record(RecordId),
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Game(id) => write!(f, "game {id}"),
            Subject::Record(id) => write!(f, "record {id}"),
        }
    }
}

/// A review job's key: one job per subject and level, whoever asks.
type Key = (Subject, Level);

/// A review waiting or being made.
#[derive(Clone, Copy, Debug)]
struct Job {
    user: UserId,
    done: usize,
    total: usize,
}

/// The server's reviews in progress, and their pool.
#[derive(Debug)]
pub struct Reviews {
    pool: BlockingPool,
    network: Arc<Network>,
    jobs: Mutex<HashMap<Key, Job>>,
    /// Stops every review when the server goes (they are made again
    /// after the restart).
    stop: StopHandle,
}

impl Drop for Reviews {
    fn drop(&mut self) {
        self.stop.stop();
    }
}

/// Progress of a review being made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Positions analysed.
    pub done: usize,
    /// Positions in all (0 until the review has begun).
    pub total: usize,
}

/// A review as the API shows it.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewView {
    /// The level.
    pub level: Level,
    /// `queued` (waiting or being made) or `done`.
    pub status: &'static str,
    /// While queued: how far it is.
    pub progress: Option<Progress>,
    /// Once done: the review (see [`ReviewBody`]).
    pub review: Option<serde_json::Value>,
}

/// A review of an uploaded record as the API shows it: its id, then the
/// review as for a game.
#[derive(Clone, Debug, Serialize)]
pub struct RecordReviewView {
    /// The record's id (`GET /api/reviews/{id}`).
    pub id: RecordId,
    /// The review.
    #[serde(flatten)]
    pub review: ReviewView,
}

/// A level as offered.
#[derive(Clone, Debug, Serialize)]
pub struct LevelView {
    /// The level.
    pub level: Level,
    /// Visits per position.
    pub visits: u64,
    /// What it costs.
    pub cost: &'static str,
}

/// A position's evaluation as stored and shown: moves in GTP notation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PositionBody {
    /// Turns before it.
    pub turns: usize,
    /// Black's chance to win.
    pub black_winrate: f32,
    /// Black's expected margin in points.
    pub black_lead: f32,
    /// The engine's move.
    pub best: Option<String>,
    /// Its continuation.
    pub pv: Vec<String>,
}

/// A move's evaluation as stored and shown.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MoveBody {
    /// Its number, from 1.
    pub number: usize,
    /// Who played it.
    pub color: Color,
    /// What.
    pub mv: String,
    /// Win rate it lost its player.
    pub winrate_loss: f32,
    /// Points it lost its player.
    pub points_loss: f32,
    /// The engine's move instead.
    pub best: Option<String>,
    /// The engine's line from there.
    pub pv: Vec<String>,
}

/// A finished review as stored with the game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ReviewBody {
    /// Visits per position (reviews made before the network engine
    /// stored playouts under the old name).
    #[serde(alias = "playouts")]
    pub visits: u64,
    /// Every position, `positions[n]` after `n` turns.
    pub positions: Vec<PositionBody>,
    /// Every move.
    pub moves: Vec<MoveBody>,
    /// Numbers of black's biggest mistakes, the biggest first.
    pub black_mistakes: Vec<usize>,
    /// Numbers of white's.
    pub white_mistakes: Vec<usize>,
}

fn line(pv: &[Move], size: BoardSize) -> Vec<String> {
    pv.iter().map(|&m| m.to_gtp(size)).collect()
}

impl ReviewBody {
    /// The stored form of `review` of a game on a board of `size`.
    #[must_use]
    pub fn of(review: &Review, size: BoardSize) -> ReviewBody {
        let position = |p: &PositionEval| PositionBody {
            turns: p.turns,
            black_winrate: p.black_winrate,
            black_lead: p.black_lead,
            best: p.best.map(|m| m.to_gtp(size)),
            pv: line(&p.pv, size),
        };
        let mv = |m: &MoveEval| MoveBody {
            number: m.number,
            color: m.color,
            mv: m.mv.to_gtp(size),
            winrate_loss: m.winrate_loss,
            points_loss: m.points_loss,
            best: m.best.map(|b| b.to_gtp(size)),
            pv: line(&m.pv, size),
        };
        let numbers = |c: Color| review.mistakes(c).iter().map(|m| m.number).collect();
        ReviewBody {
            visits: review.visits_per_position,
            positions: review.positions.iter().map(position).collect(),
            moves: review.moves.iter().map(mv).collect(),
            black_mistakes: numbers(Color::Black),
            white_mistakes: numbers(Color::White),
        }
    }
}

impl Reviews {
    /// No review in progress; reviews made with `network`.
    #[must_use]
    pub fn new(network: Arc<Network>) -> Reviews {
        Reviews {
            pool: BlockingPool::new("review", WORKERS, QUEUED),
            network,
            jobs: Mutex::new(HashMap::new()),
            stop: StopHandle::new(),
        }
    }

    /// The levels offered.
    #[must_use]
    pub fn levels() -> Vec<LevelView> {
        Level::ALL
            .into_iter()
            .map(|level| LevelView {
                level,
                visits: level.visits(),
                cost: level.cost(),
            })
            .collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Job>> {
        self.jobs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// How a stored row of a game's review looks to a client (`None` for
    /// a level this server does not know).
    #[must_use]
    pub fn view(&self, row: &ReviewRow) -> Option<ReviewView> {
        let level = Level::named(&row.level)?;
        Some(self.view_of((Subject::Game(row.game), level), row.body.as_deref()))
    }

    /// How a stored row of a record's review looks to a client (`None`
    /// for a level this server does not know).
    #[must_use]
    pub fn record_view(&self, id: RecordId, row: &RecordReviewRow) -> Option<RecordReviewView> {
        let level = Level::named(&row.level)?;
        Some(RecordReviewView {
            id,
            review: self.view_of((Subject::Record(id), level), row.body.as_deref()),
        })
    }

    /// The review of `key`, made (`body`) or not.
    fn view_of(&self, key: Key, body: Option<&str>) -> ReviewView {
        let (_, level) = key;
        match body {
            Some(body) => ReviewView {
                level,
                status: "done",
                progress: None,
                review: serde_json::from_str(body).ok(),
            },
            None => ReviewView {
                level,
                status: "queued",
                progress: self.lock().get(&key).map(|j| Progress {
                    done: j.done,
                    total: j.total,
                }),
                review: None,
            },
        }
    }

    /// Asks for a review of the finished game `game` by `user`: the stored
    /// request (made now, or earlier by anyone) as a client sees it.
    /// Refused when the account has [`PER_USER`] reviews waiting or the
    /// queue is full; nothing is stored then.
    pub async fn request(
        self: &Arc<Self>,
        store: &Arc<dyn Store>,
        game: Game,
        id: GameId,
        level: Level,
        user: UserId,
        now: i64,
    ) -> Result<ReviewView, ApiError> {
        let key = (Subject::Game(id), level);
        let fresh = self.reserve(key, user)?;
        let stored = store
            .request_review(NewReview {
                game: id,
                level: level.name().to_owned(),
                requested_by: user,
                requested_at: now,
            })
            .await;
        let row = self.held(key, stored)?;
        self.settle(store, key, game, user, fresh, row.finished_at.is_some());
        Ok(self.view_of(key, row.body.as_deref()))
    }

    /// Asks for a review of the uploaded `record` (`sgf` as uploaded) by
    /// `user`, under the same budget as a game's: the stored request (made
    /// now, or earlier by anyone who uploaded the same game) as a client
    /// sees it. Refused as [`Reviews::request`] is; nothing is stored then.
    pub async fn request_record(
        self: &Arc<Self>,
        store: &Arc<dyn Store>,
        record: Record,
        sgf: String,
        level: Level,
        user: UserId,
        now: i64,
    ) -> Result<RecordReviewView, ApiError> {
        let key = (Subject::Record(record.id), level);
        let fresh = self.reserve(key, user)?;
        let stored = store
            .request_record_review(NewRecordReview {
                record: record.id.to_string(),
                level: level.name().to_owned(),
                sgf,
                requested_by: user,
                requested_at: now,
            })
            .await;
        let row = self.held(key, stored)?;
        self.settle(
            store,
            key,
            record.game,
            user,
            fresh,
            row.finished_at.is_some(),
        );
        Ok(RecordReviewView {
            id: record.id,
            review: self.view_of(key, row.body.as_deref()),
        })
    }

    /// Holds a place for `key` in the queue and in `user`'s budget, unless
    /// it is being made already (then asking again costs nothing): whether
    /// this call holds it, that is whether no job of `key` was running.
    fn reserve(&self, key: Key, user: UserId) -> Result<bool, ApiError> {
        let mut jobs = self.lock();
        if jobs.contains_key(&key) {
            return Ok(false);
        }
        if jobs.values().filter(|j| j.user == user).count() >= PER_USER {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                ErrorCode::ReviewBudget,
                format!("you have {PER_USER} reviews waiting; ask for another once one is done"),
            ));
        }
        if jobs.len() >= WORKERS + QUEUED {
            return Err(ApiError {
                retry_after: Some(60),
                ..ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    ErrorCode::Busy,
                    format!("{} reviews are waiting; try again later", jobs.len()),
                )
            });
        }
        // Held while the request is stored, so that the budget and the
        // queue count it.
        jobs.insert(
            key,
            Job {
                user,
                done: 0,
                total: 0,
            },
        );
        Ok(true)
    }

    /// The stored request (whether this call or an earlier one stored it),
    /// or the store's error with the reservation of `key` dropped.
    fn held<R>(&self, key: Key, stored: Result<(R, bool), StoreError>) -> Result<R, ApiError> {
        stored.map(|(row, _)| row).map_err(|e| {
            self.forget_if_unstarted(key);
            e.into()
        })
    }

    /// After the request of `key` is stored: made already, the reservation
    /// goes; else, when this call holds the place (`fresh`: no job of `key`
    /// runs), its job starts. That is a new request, or one stored earlier
    /// whose job never ran (the full pool refused it): asking again makes
    /// it, where it would otherwise hold the asker's budget for good.
    fn settle(
        self: &Arc<Self>,
        store: &Arc<dyn Store>,
        key: Key,
        game: Game,
        user: UserId,
        fresh: bool,
        finished: bool,
    ) {
        if finished {
            self.forget_if_unstarted(key);
        } else if fresh {
            self.start(Arc::clone(store), key, game, user);
        }
    }

    /// Drops a reservation that led to no job.
    fn forget_if_unstarted(&self, key: Key) {
        let mut jobs = self.lock();
        if jobs.get(&key).is_some_and(|j| j.total == 0 && j.done == 0) {
            jobs.remove(&key);
        }
    }

    /// Makes a stored request: on the pool, then stored once.
    fn start(self: &Arc<Self>, store: Arc<dyn Store>, key: Key, game: Game, user: UserId) {
        let (subject, level) = key;
        self.lock().entry(key).or_insert(Job {
            user,
            done: 0,
            total: 0,
        });
        let reviews = Arc::clone(self);
        tokio::spawn(async move {
            let progress = Arc::downgrade(&reviews);
            let stop = reviews.stop.clone();
            let network = Arc::clone(&reviews.network);
            let size = game.size();
            let made = reviews
                .pool
                .run(move || {
                    let mut engine = Engine::with_network(
                        EngineConfig {
                            threads: 1,
                            max_nodes: REVIEW_NODES,
                            ..EngineConfig::default()
                        },
                        network,
                    );
                    shoutan_engine::review(
                        &mut engine,
                        &game,
                        level.visits(),
                        &stop,
                        &mut |done, total| {
                            if let Some(reviews) = progress.upgrade()
                                && let Some(job) = reviews.lock().get_mut(&key)
                            {
                                job.done = done;
                                job.total = total;
                            }
                        },
                    )
                })
                .await;
            match made {
                Ok(Ok(Some(review))) => {
                    let body = ReviewBody::of(&review, size);
                    match serde_json::to_string(&body) {
                        Ok(text) => {
                            if let Err(e) = finish(&*store, key, text).await {
                                tracing::error!("review of {subject}: not stored: {e}");
                            }
                        }
                        Err(e) => tracing::error!("review of {subject}: {e}"),
                    }
                }
                Ok(Ok(None)) => tracing::warn!("review of {subject}: stopped"),
                Ok(Err(e)) => tracing::error!("review of {subject}: {e}"),
                Err(busy) => tracing::warn!("review of {subject}: {busy}; made after a restart"),
            }
            reviews.lock().remove(&key);
        });
    }

    /// Makes again the reviews of games and records stored as requested
    /// and not made (the server stopped first).
    pub async fn resume(self: &Arc<Self>, store: &Arc<dyn Store>) -> Result<(), StoreError> {
        for row in store.pending_reviews().await? {
            let Some(level) = Level::named(&row.level) else {
                tracing::error!("review of game {}: unknown level {:?}", row.game, row.level);
                continue;
            };
            match crate::live::registry::load(&**store, row.game).await {
                Ok(Some(loaded)) => {
                    self.start(
                        Arc::clone(store),
                        (Subject::Game(row.game), level),
                        loaded.state.game,
                        row.requested_by,
                    );
                }
                Ok(None) => tracing::error!("review of game {}: no such game", row.game),
                Err(e) => tracing::error!("review of game {}: {e}", row.game),
            }
        }
        for row in store.pending_record_reviews().await? {
            let (Some(level), Ok(id)) = (Level::named(&row.level), row.record.parse()) else {
                tracing::error!(
                    "review of record {:?} at level {:?}: unknown",
                    row.record,
                    row.level
                );
                continue;
            };
            // Kept under the id it was asked for, even should a later
            // server compute ids otherwise.
            match Record::read(&row.sgf) {
                Ok(record) => {
                    self.start(
                        Arc::clone(store),
                        (Subject::Record(id), level),
                        record.game,
                        row.requested_by,
                    );
                }
                Err(e) => tracing::error!("review of record {id}: {e}"),
            }
        }
        Ok(())
    }
}

/// Stores the review of `key` once it is made.
async fn finish(store: &dyn Store, key: Key, body: String) -> Result<bool, StoreError> {
    let (subject, level) = key;
    let at = crate::time::now_millis();
    match subject {
        Subject::Game(id) => store.finish_review(id, level.name(), body, at).await,
        Subject::Record(id) => {
            store
                .finish_record_review(&id.to_string(), level.name(), body, at)
                .await
        }
    }
}
