//! Passwords are kept as argon2id hashes (PHC strings with their own salt
//! and parameters), computed off the async threads.
//!
//! Each hash costs ~19 MiB and tens of milliseconds of one core, and any
//! visitor can ask for one (a login, a registration). So hashing has a
//! budget ([`Hasher`]): a few workers at a time, each reusing one block of
//! argon2 memory that is kept for the next hash (the allocator is never
//! asked for 19 MiB per login, so a flood leaves no freed-but-kept heap
//! behind), and a queue fair across client addresses
//! ([`super::hash_queue`]): a crowd waits its turn (up to a bound of
//! time), while beyond its address's short line a request is answered at
//! once with 503 `busy`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use axum::http::StatusCode;

use super::hash_queue::{FairQueue, Full};
use crate::blocking::BlockingPool;
use crate::error::{ApiError, ErrorCode};
use crate::net::connections::AddressKey;

/// The argon2id cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PasswordCost {
    /// Memory in KiB.
    pub memory_kib: u32,
    /// Passes.
    pub iterations: u32,
}

impl Default for PasswordCost {
    /// OWASP's recommendation for argon2id: 19 MiB, 2 passes, 1 lane.
    fn default() -> PasswordCost {
        PasswordCost {
            memory_kib: 19 * 1024,
            iterations: 2,
        }
    }
}

impl PasswordCost {
    /// The cheapest argon2id allows: for tests and load benchmarks only,
    /// where thousands of accounts are made in seconds.
    pub const TESTING: PasswordCost = PasswordCost {
        memory_kib: 8,
        iterations: 1,
    };

    fn params(self) -> Result<Params, argon2::Error> {
        Params::new(self.memory_kib, self.iterations, 1, Some(HASH_LEN))
    }
}

/// How many hashes run at once and how many may wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashBudget {
    /// Hashes computed at once, each on a thread of its own (at the lowest
    /// CPU priority, behind live play) with its own block of memory.
    pub workers: usize,
    /// Requests that may wait for a worker, from all addresses together;
    /// one more is refused.
    pub queue: usize,
    /// Requests that may wait from one client address.
    pub per_address: usize,
    /// The longest a request waits for its turn before it is refused.
    pub wait: Duration,
}

impl Default for HashBudget {
    /// Half the cores (at least one), so that a login flood leaves the
    /// other half to the games; 4,096 waiting (each holds a password and a
    /// channel: a few MiB in all), 4 from one address, for at most 10 s.
    fn default() -> HashBudget {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        HashBudget {
            workers: (cores / 2).max(1),
            queue: 4096,
            per_address: 4,
            wait: Duration::from_secs(10),
        }
    }
}

/// Bytes of a hash.
const HASH_LEN: usize = 32;
/// The share of each worker's time hashing takes at most while checks keep
/// coming (a flood): half, so a crowd of 64 logins at 15 ms a hash is in
/// within 2 s on one worker.
const SHARE: f64 = 0.5;
/// Bytes of a salt.
const SALT_LEN: usize = 16;

/// A password could not be hashed or checked.
#[derive(Debug, thiserror::Error)]
pub enum HashError {
    /// Every worker is busy and the queue is full (or the wait too long):
    /// try again shortly.
    #[error("the server is busy checking passwords; try again in a moment")]
    Busy,
    /// Bad parameters or no randomness: a configuration or system error.
    #[error("password hashing failed: {0}")]
    Failed(String),
}

/// A busy pool is 503 with `Retry-After`; a failure, 500.
impl From<HashError> for ApiError {
    fn from(e: HashError) -> ApiError {
        match e {
            HashError::Busy => ApiError {
                retry_after: Some(1),
                ..ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    ErrorCode::Busy,
                    e.to_string(),
                )
            },
            HashError::Failed(_) => ApiError::internal(e),
        }
    }
}

fn failed(e: impl std::fmt::Display) -> HashError {
    HashError::Failed(e.to_string())
}

/// Hashes and verifies passwords within a [`HashBudget`].
pub struct Hasher {
    cost: PasswordCost,
    budget: HashBudget,
    turns: FairQueue,
    pool: BlockingPool,
    /// Memory for argon2, one block per worker at most, kept between
    /// hashes.
    memory: Arc<Mutex<Vec<Vec<Block>>>>,
}

impl Hasher {
    /// A hasher that makes hashes of `cost` within `budget`.
    #[must_use]
    pub fn new(cost: PasswordCost, budget: HashBudget) -> Hasher {
        let workers = budget.workers.max(1);
        Hasher {
            cost,
            budget: HashBudget { workers, ..budget },
            turns: FairQueue::new(workers, budget.queue, budget.per_address),
            // Room for the hashes of requests that went away mid-hash
            // (their turns passed on while their threads finish).
            pool: BlockingPool::with_share("password", workers, workers, SHARE),
            memory: Arc::new(Mutex::new(Vec::with_capacity(workers))),
        }
    }

    /// The PHC string of `password` with a fresh random salt, hashed in
    /// `address`'s turn.
    pub async fn hash(&self, address: AddressKey, password: String) -> Result<String, HashError> {
        let params = self.cost.params().map_err(failed)?;
        let mut salt = [0u8; SALT_LEN];
        getrandom::fill(&mut salt).map_err(failed)?;
        let hash = self
            .run(
                address,
                params.clone(),
                Version::V0x13,
                salt.to_vec(),
                password,
            )
            .await?;
        let salt = SaltString::encode_b64(&salt).map_err(failed)?;
        let output = Output::new(&hash).map_err(failed)?;
        let params = ParamsString::try_from(&params).map_err(failed)?;
        Ok(PasswordHash {
            algorithm: Algorithm::Argon2id.ident(),
            version: Some(Version::V0x13.into()),
            params,
            salt: Some(salt.as_salt()),
            hash: Some(output),
        }
        .to_string())
    }

    /// Whether `password` matches the stored PHC string (with the
    /// parameters stored in it), checked in `address`'s turn. A malformed
    /// stored hash matches nothing.
    pub async fn verify(
        &self,
        address: AddressKey,
        password: String,
        phc: &str,
    ) -> Result<bool, HashError> {
        let Ok(parsed) = PasswordHash::new(phc) else {
            return Ok(false);
        };
        let (Some(expected), Some(salt)) = (parsed.hash, parsed.salt) else {
            return Ok(false);
        };
        if parsed.algorithm != Algorithm::Argon2id.ident() {
            return Ok(false);
        }
        let version = match parsed.version.map(Version::try_from) {
            None => Version::V0x13,
            Some(Ok(v)) => v,
            Some(Err(_)) => return Ok(false),
        };
        let Ok(params) = Params::try_from(&parsed) else {
            return Ok(false);
        };
        let Ok(params) = Params::new(
            params.m_cost(),
            params.t_cost(),
            params.p_cost(),
            Some(expected.len()),
        ) else {
            return Ok(false);
        };
        let mut raw_salt = [0u8; 64];
        let Ok(raw_salt) = salt.decode_b64(&mut raw_salt) else {
            return Ok(false);
        };
        let computed = self
            .run(address, params, version, raw_salt.to_vec(), password)
            .await?;
        // `Output`'s equality is constant-time.
        Ok(Output::new(&computed).is_ok_and(|c| c == expected))
    }

    /// Runs one argon2id hash on a worker of the pool, after waiting for
    /// `address`'s turn within the budget.
    async fn run(
        &self,
        address: AddressKey,
        params: Params,
        version: Version,
        salt: Vec<u8>,
        password: String,
    ) -> Result<Vec<u8>, HashError> {
        let memory = Arc::clone(&self.memory);
        let usual = self.cost.params().map_or(0, |p| p.block_count());
        let kept_at_most = self.budget.workers;
        let turn = match tokio::time::timeout(self.budget.wait, self.turns.turn(address)).await {
            Ok(Ok(turn)) => turn,
            Ok(Err(Full)) | Err(_) => return Err(HashError::Busy),
        };
        let hash = self.pool.run(move || {
            let mut block = take_memory(&memory, params.block_count());
            let mut out = vec![0u8; params.output_len().unwrap_or(HASH_LEN)];
            let hashed = Argon2::new(Algorithm::Argon2id, version, params)
                .hash_password_into_with_memory(password.as_bytes(), &salt, &mut out, &mut block)
                .map(|()| out);
            give_back(&memory, block, usual, kept_at_most);
            hashed
        });
        let hashed = hash.await;
        drop(turn);
        match hashed {
            Ok(hashed) => hashed.map_err(failed),
            Err(_) => Err(HashError::Busy),
        }
    }
}

/// A block of at least `blocks` argon2 blocks: a kept one if there is one
/// (grown if this hash needs more), else a new one.
fn take_memory(kept: &Mutex<Vec<Vec<Block>>>, blocks: usize) -> Vec<Block> {
    let mut memory = kept
        .lock()
        .ok()
        .and_then(|mut m| m.pop())
        .unwrap_or_default();
    if memory.len() < blocks {
        memory.resize(blocks, Block::default());
    }
    memory
}

/// Keeps `memory` for the next hash (at most `at_most` blocks are kept),
/// unless it is larger than the configured cost's `usual` (a hash stored
/// with an older, dearer cost).
fn give_back(kept: &Mutex<Vec<Vec<Block>>>, memory: Vec<Block>, usual: usize, at_most: usize) {
    if memory.len() > usual {
        return;
    }
    if let Ok(mut kept) = kept.lock()
        && kept.len() < at_most
    {
        kept.push(memory);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HERE: AddressKey = AddressKey::LOOPBACK;

    fn hasher(cost: PasswordCost) -> Hasher {
        Hasher::new(cost, HashBudget::default())
    }

    #[tokio::test]
    async fn hashes_are_argon2id_salted_and_verify() {
        let h = hasher(PasswordCost::TESTING);
        let a = h.hash(HERE, "秘密 password".into()).await.unwrap();
        let b = h.hash(HERE, "秘密 password".into()).await.unwrap();
        assert!(a.starts_with("$argon2id$v=19$m=8,t=1,p=1$"), "{a}");
        assert_ne!(a, b, "each hash has its own salt");
        assert!(h.verify(HERE, "秘密 password".into(), &a).await.unwrap());
        assert!(!h.verify(HERE, "秘密 passwore".into(), &a).await.unwrap());
        assert!(!h.verify(HERE, "x".into(), "not a hash").await.unwrap());
    }

    #[tokio::test]
    async fn the_default_cost_is_owasps_and_agrees_with_the_crate() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let h = hasher(PasswordCost::default());
        let ours = h.hash(HERE, "pw".into()).await.unwrap();
        assert!(
            ours.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{ours}"
        );
        // The argon2 crate's own verifier accepts our hashes, and we accept
        // its (with other parameters: they are read from the string).
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(Argon2::default().verify_password(b"pw", &parsed).is_ok());
        let salt = SaltString::encode_b64(b"0123456789abcdef").unwrap();
        let params = Params::new(4096, 3, 1, None).unwrap();
        let theirs = Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
            .hash_password(b"other", &salt)
            .unwrap()
            .to_string();
        assert!(h.verify(HERE, "other".into(), &theirs).await.unwrap());
        assert!(!h.verify(HERE, "pw".into(), &theirs).await.unwrap());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn beyond_the_workers_and_the_queue_requests_are_refused_at_once() {
        let cost = PasswordCost {
            memory_kib: 32 * 1024,
            iterations: 4,
        };
        let budget = HashBudget {
            workers: 1,
            queue: 2,
            per_address: 2,
            wait: Duration::from_secs(30),
        };
        let h = std::sync::Arc::new(Hasher::new(cost, budget));
        let phc = h.hash(HERE, "pw".into()).await.unwrap();
        let started = std::time::Instant::now();
        let tries: Vec<_> = (0..10)
            .map(|_| {
                let (h, phc) = (std::sync::Arc::clone(&h), phc.clone());
                tokio::spawn(async move {
                    let outcome = h.verify(HERE, "wrong".into(), &phc).await;
                    (outcome, started.elapsed())
                })
            })
            .collect();
        let mut checked = 0;
        let mut busy = Vec::new();
        for t in tries {
            match t.await.unwrap() {
                (Ok(matched), _) => {
                    assert!(!matched);
                    checked += 1;
                }
                (Err(HashError::Busy), after) => busy.push(after),
                (Err(e), _) => panic!("{e}"),
            }
        }
        // One running and two waiting are served; seven are refused.
        assert_eq!((checked, busy.len()), (3, 7));
        // The refused were told at once, not after the hashes before them.
        let one_hash = started.elapsed() / 3;
        assert!(
            busy.iter().all(|&t| t < one_hash),
            "{busy:?} vs {one_hash:?}"
        );
        // One worker: one block of memory kept.
        assert_eq!(h.memory.lock().unwrap().len(), 1);
    }
}
