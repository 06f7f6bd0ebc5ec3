//! The network as the search uses it: positions evaluated in batches, each
//! under a random one of the board's eight symmetries (which evens out the
//! network's own asymmetries over a search, as KataGo does), and the
//! answers kept in a bounded cache so that a position met again — through
//! another move order, on the next move's reused tree, in the next
//! position of a review — costs nothing.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use shoutan_nn::{Evaluation, Network, Position, Scratch, Symmetry};

/// Evaluations kept; the cache starts over when it is full (about 6 KiB an
/// entry on 19×19).
const CACHE_ENTRIES: usize = 50_000;

/// The network built into the binary, loaded once per process and shared.
pub fn builtin_network() -> Arc<Network> {
    static BUILTIN: OnceLock<Arc<Network>> = OnceLock::new();
    BUILTIN.get_or_init(|| Arc::new(Network::builtin())).clone()
}

/// Keys are already hashes.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type Cache = HashMap<u64, Arc<Evaluation>, BuildHasherDefault<KeyHasher>>;

/// A network with its cache.
pub(crate) struct Evaluator {
    network: Arc<Network>,
    cache: Mutex<Cache>,
}

impl Evaluator {
    pub(crate) fn new(network: Arc<Network>) -> Evaluator {
        Evaluator {
            network,
            cache: Mutex::new(Cache::default()),
        }
    }

    /// The network.
    pub(crate) fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// Forgets every kept evaluation.
    pub(crate) fn clear(&self) {
        if let Ok(mut cache) = self.cache.lock() {
            cache.clear();
        }
    }

    /// The evaluations of `positions`, from the cache where it has them.
    pub(crate) fn evaluate(
        &self,
        positions: &[&Position],
        rng: &mut fastrand::Rng,
        scratch: &mut Scratch,
    ) -> Vec<Arc<Evaluation>> {
        let keys: Vec<u64> = positions.iter().map(|p| p.nn_key()).collect();
        let mut answers: Vec<Option<Arc<Evaluation>>> = match self.cache.lock() {
            Ok(cache) => keys.iter().map(|k| cache.get(k).cloned()).collect(),
            Err(_) => vec![None; positions.len()],
        };
        let missing: Vec<usize> = (0..positions.len())
            .filter(|&i| answers[i].is_none())
            .collect();
        if !missing.is_empty() {
            let batch: Vec<(&Position, Symmetry)> = missing
                .iter()
                .map(|&i| (positions[i], Symmetry::ALL[rng.usize(..8)]))
                .collect();
            let fresh = self.network.evaluate(&batch, scratch);
            let mut cache = self.cache.lock().ok();
            for (&i, evaluation) in missing.iter().zip(fresh) {
                let evaluation = Arc::new(evaluation);
                if let Some(cache) = cache.as_mut() {
                    if cache.len() >= CACHE_ENTRIES {
                        cache.clear();
                    }
                    cache.insert(keys[i], evaluation.clone());
                }
                answers[i] = Some(evaluation);
            }
        }
        answers.into_iter().flatten().collect()
    }
}
