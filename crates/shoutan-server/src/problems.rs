//! Problems to practise (死活题): the library's problems judged move by move
//! by the solver on a pool of its own, and the first try of each problem
//! recorded with the ratings it moves.
//!
//! A judgement is the same on every request (the judge's budgets count
//! positions), so judgements and solutions are kept in memory once made:
//! players who follow the same lines cost the solver once. Moves are
//! judged on one pool and solution trees, which take longer, worked out on
//! another, so that a tree never holds up a player's move; each takes a
//! quarter of a core at most while work keeps coming, and lets many wait
//! (a crowd of players practising queues rather than being refused).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use shoutan_problems::{Entry, Grade, Judgement, TryError, Variation, judge, solution};
use shoutan_rules::rank_scale::ogs;
use shoutan_rules::{Point, Rank};
use shoutan_store::{NewProblemTry, Rating, Store, UserId};

use crate::blocking::BlockingPool;
use crate::error::{ApiError, ErrorCode};
use crate::rating::{NEWCOMER_DEVIATION, NEWCOMER_VOLATILITY, after_try};

/// Judgements that may wait.
const QUEUED: usize = 64;
/// Solution trees that may wait.
const TREES_QUEUED: usize = 16;
/// The share of a core each pool takes at most while work keeps coming.
const SHARE: f64 = 0.25;
/// Judgements (and solutions) kept; the memory is emptied when full.
const REMEMBERED: usize = 20_000;

/// The judge's pools and what they have worked out.
#[derive(Debug)]
pub struct Problems {
    moves: BlockingPool,
    trees: BlockingPool,
    judged: Mutex<HashMap<(String, Vec<Point>), Judgement>>,
    solutions: Mutex<HashMap<String, Arc<Vec<Variation>>>>,
}

impl Default for Problems {
    fn default() -> Problems {
        Problems::new()
    }
}

impl Problems {
    /// Nothing judged yet.
    #[must_use]
    pub fn new() -> Problems {
        Problems {
            moves: BlockingPool::with_share("problems", 1, QUEUED, SHARE),
            trees: BlockingPool::with_share("solutions", 1, TREES_QUEUED, SHARE),
            judged: Mutex::new(HashMap::new()),
            solutions: Mutex::new(HashMap::new()),
        }
    }

    /// The judgement of the last move of `line`, a try at `entry`.
    pub async fn judge(
        &self,
        entry: &'static Entry,
        line: Vec<Point>,
    ) -> Result<Judgement, ApiError> {
        let key = (entry.id(), line);
        if let Some(known) = remembered(&self.judged, &key) {
            return Ok(known);
        }
        let line = key.1.clone();
        let judged = self
            .moves
            .run(move || judge(&entry.problem(), &line))
            .await?
            .map_err(try_error)?;
        remember(&self.judged, key, judged);
        Ok(judged)
    }

    /// The solution tree of `entry`.
    pub async fn solution(&self, entry: &'static Entry) -> Result<Arc<Vec<Variation>>, ApiError> {
        let key = entry.id();
        if let Some(known) = remembered(&self.solutions, &key) {
            return Ok(known);
        }
        let tree = Arc::new(
            self.trees
                .run(move || solution(&entry.problem(), &entry.answer_points()))
                .await?,
        );
        remember(&self.solutions, key, Arc::clone(&tree));
        Ok(tree)
    }
}

fn remembered<K: std::hash::Hash + Eq, V: Clone>(
    memory: &Mutex<HashMap<K, V>>,
    key: &K,
) -> Option<V> {
    memory.lock().ok()?.get(key).cloned()
}

fn remember<K: std::hash::Hash + Eq, V>(memory: &Mutex<HashMap<K, V>>, key: K, value: V) {
    if let Ok(mut memory) = memory.lock() {
        if memory.len() >= REMEMBERED {
            memory.clear();
        }
        memory.insert(key, value);
    }
}

/// A refused line as the API says it.
fn try_error(e: TryError) -> ApiError {
    let code = match e {
        TryError::Length(_) | TryError::EndsWithReply | TryError::NotTheReply { .. } => {
            ErrorCode::BadLine
        }
        TryError::Outside { .. } => ErrorCode::OutsideProblem,
        TryError::Illegal { .. } => ErrorCode::IllegalMove,
        TryError::Over { .. } => ErrorCode::TryOver,
        TryError::Unsettled { .. } => ErrorCode::Unsettled,
    };
    ApiError::bad_request(code, e.to_string())
}

/// The rating a problem of `grade` starts at: the middle of the rank a
/// player of that grade has (入门 25 kyu, 初级 18 kyu, 中级 12 kyu, 高级
/// 6 kyu, 高段 2 dan), not yet known.
#[must_use]
pub fn problem_start(grade: Grade) -> Rating {
    let rank = match grade {
        Grade::Entry => Rank::Kyu(25),
        Grade::Elementary => Rank::Kyu(18),
        Grade::Intermediate => Rank::Kyu(12),
        Grade::Advanced => Rank::Kyu(6),
        Grade::Dan => Rank::Dan(2),
    };
    Rating {
        rating: ogs::rating(rank.level()),
        deviation: NEWCOMER_DEVIATION,
        volatility: NEWCOMER_VOLATILITY,
    }
}

/// Records `user`'s first try of `entry`, a problem of `grade` (solved or
/// not), and moves both
/// ratings; the player's problem rating before and after, or `None` when
/// he had tried it before. A player's problem rating starts at his game
/// rating, with a newcomer's uncertainty.
pub async fn record_try(
    store: &dyn Store,
    user: UserId,
    grade: Grade,
    entry: &Entry,
    solved: bool,
    at: i64,
) -> Result<Option<(Rating, Rating)>, ApiError> {
    let game_rating = store
        .user(user)
        .await?
        .ok_or_else(|| ApiError::not_found("no such player"))?
        .rating;
    let t = NewProblemTry {
        user,
        problem: entry.id(),
        solved,
        at,
        player_start: Rating {
            deviation: NEWCOMER_DEVIATION,
            volatility: NEWCOMER_VOLATILITY,
            ..game_rating
        },
        problem_start: problem_start(grade),
        rate: Box::new(move |player, problem| after_try(player, problem, solved)),
    };
    Ok(store.record_problem_try(t).await?)
}
