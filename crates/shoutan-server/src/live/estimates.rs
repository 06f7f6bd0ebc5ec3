//! The dead-stone proposal that opens counting: the network's judgement
//! (`shoutan_engine::judge`) costs tens of milliseconds of CPU on 19×19
//! and any client can open counting, so it runs on a small pool of its
//! own, each position is judged once (a cache by position), and each game
//! gets a bounded number of estimates.
//! When the pool is full or a game's estimates are spent, counting opens
//! without a proposal and the players mark the dead stones themselves.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use shoutan_nn::Network;
use shoutan_rules::{Color, Game, PointSet, Ruleset, Score};

use crate::blocking::{BlockingPool, Busy};

/// Estimates one game may ask for; passes into counting after that (a
/// dispute loop) get no proposal.
pub const ESTIMATES_PER_GAME: u32 = 4;
/// Positions remembered.
const CACHED: usize = 1024;
/// Estimates that may wait for the pool.
const QUEUE: usize = 64;
/// The share of a core estimates take at most while they keep coming (a
/// crowd entering counting): one alone is never delayed.
const SHARE: f64 = 0.25;

/// What the estimate depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Position {
    hash: u64,
    size: u8,
    to_move: Color,
    ruleset: Ruleset,
    komi: Score,
}

/// The server's estimator: its pool and its cache.
#[derive(Debug)]
pub struct Estimates {
    pool: BlockingPool,
    network: Arc<Network>,
    cache: Mutex<Cache>,
}

#[derive(Debug, Default)]
struct Cache {
    dead: HashMap<Position, PointSet>,
    order: VecDeque<Position>,
}

/// Why a position got no proposal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NoProposal {
    /// The pool is full.
    #[error(transparent)]
    Busy(#[from] Busy),
    /// The estimate stopped before it was done (the server is stopping).
    #[error("the estimate was cancelled")]
    Cancelled,
}

impl Estimates {
    /// At most `size` estimates at once, made with `network`.
    #[must_use]
    pub fn new(size: usize, network: Arc<Network>) -> Estimates {
        Estimates {
            pool: BlockingPool::with_share("estimate", size, QUEUE, SHARE),
            network,
            cache: Mutex::new(Cache::default()),
        }
    }

    /// The stones the server proposes dead in `game`'s position: from the
    /// cache, or judged on the pool.
    pub async fn dead_stones(&self, game: Game) -> Result<PointSet, NoProposal> {
        let key = Position {
            hash: game.board().hash(),
            size: game.size().get(),
            to_move: game.to_move(),
            ruleset: *game.ruleset(),
            komi: game.komi(),
        };
        if let Some(dead) = self.cached(&key) {
            return Ok(dead);
        }
        let network = Arc::clone(&self.network);
        let dead = self
            .pool
            .run(move || shoutan_engine::judge(&network, &game).status.dead)
            .await?;
        if let Ok(mut cache) = self.cache.lock() {
            if cache.order.len() == CACHED
                && let Some(old) = cache.order.pop_front()
            {
                cache.dead.remove(&old);
            }
            if cache.dead.insert(key, dead.clone()).is_none() {
                cache.order.push_back(key);
            }
        }
        Ok(dead)
    }

    fn cached(&self, key: &Position) -> Option<PointSet> {
        self.cache.lock().ok()?.dead.get(key).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_position_is_estimated_once_and_a_full_pool_refuses() {
        // A lone black stone in atari in white's area: proposed dead.
        let board: shoutan_rules::Board = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            X X X X X X X X X
            O O O O O O O O O
            . . . . . . O . .
            . . . . . O X O .
            . . . . . . . . ."
            .parse()
            .unwrap();
        let size = board.size();
        let game = |to_move| {
            Game::builder(size)
                .position(board.clone(), to_move)
                .build()
                .unwrap()
        };
        let estimates = Arc::new(Estimates {
            pool: BlockingPool::new("estimate", 1, 0),
            network: shoutan_engine::builtin_network(),
            cache: Mutex::new(Cache::default()),
        });
        let first = estimates.dead_stones(game(Color::Black)).await.unwrap();
        assert!(first.contains(size.point(6, 7).unwrap()), "{first:?}");
        // Hold the pool's only place.
        let (release, held) = std::sync::mpsc::channel::<()>();
        let holder = {
            let estimates = Arc::clone(&estimates);
            tokio::spawn(async move { estimates.pool.run(move || held.recv()).await })
        };
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        // The estimated position still answers, from the cache ...
        let again = estimates.dead_stones(game(Color::Black)).await.unwrap();
        assert_eq!(again, first);
        // ... and a new one is refused at once, not queued.
        let refused = estimates.dead_stones(game(Color::White)).await;
        assert!(matches!(refused, Err(NoProposal::Busy(_))), "{refused:?}");
        release.send(()).unwrap();
        assert!(holder.await.unwrap().is_ok());
    }
}
