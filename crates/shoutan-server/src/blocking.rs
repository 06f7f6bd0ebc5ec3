//! A bounded share of the machine for blocking work that clients trigger
//! (dead-stone estimates when counting opens, position judgements,
//! reviews): at most `size` jobs run at once, on threads of the pool's own
//! at the lowest CPU priority (Linux's idle policy), at most `queue` more wait, and beyond that
//! a job is refused at once instead of piling up.
//!
//! The low priority is what keeps live play at pace: an estimate of 60–80
//! ms of CPU on 19×19 yields the core to every game actor and socket that
//! wants it, and takes only what they leave. A pool may also keep to a
//! share of its threads' time ([`BlockingPool::with_share`]): after each
//! job its thread rests in proportion, so a sustained flood of such work
//! takes at most that share of a core, even from what the scheduler would
//! give it (a database server on the same machine, in another scheduling
//! group, competes with the whole process, idle threads included), while
//! one job alone is never delayed.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use tokio::sync::oneshot;

use crate::priority::Behind;

/// The pool is full: `size` jobs run and `queue` wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the server is busy: {running} jobs run and {waiting} wait")]
pub struct Busy {
    /// Jobs running.
    pub running: usize,
    /// Jobs waiting.
    pub waiting: usize,
}

type Job = Box<dyn FnOnce() + Send>;

/// A pool of blocking jobs with a size and a queue.
#[derive(Debug)]
pub struct BlockingPool {
    /// Its name, in its threads' names and its metrics.
    name: String,
    jobs: mpsc::Sender<Job>,
    size: usize,
    queue: usize,
    /// Jobs admitted and not finished (running or waiting).
    admitted: Arc<AtomicUsize>,
}

/// Gives its place back when a job ends, however it ends (run, panicked,
/// or dropped unrun when the pool stops).
struct Admission(Arc<AtomicUsize>, metrics::Gauge);

impl Drop for Admission {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
        self.1.decrement(1.0);
    }
}

impl BlockingPool {
    /// At most `size` (at least one) jobs at once, `queue` more waiting;
    /// starts the pool's `size` threads, named `name-0`, `name-1` ….
    ///
    /// # Panics
    /// When the system refuses to start a thread.
    #[must_use]
    pub fn new(name: &str, size: usize, queue: usize) -> BlockingPool {
        BlockingPool::with_share(name, size, queue, 1.0)
    }

    /// As [`BlockingPool::new`], each thread working at most `share` (0 to
    /// 1) of its time: after a job of `t`, it rests `t × (1 − share) /
    /// share` before the next.
    ///
    /// # Panics
    /// When the system refuses to start a thread.
    #[must_use]
    pub fn with_share(name: &str, size: usize, queue: usize, share: f64) -> BlockingPool {
        let size = size.max(1);
        let rest_per_work = (1.0 - share.clamp(0.01, 1.0)) / share.clamp(0.01, 1.0);
        let (jobs, waiting) = mpsc::channel::<Job>();
        let waiting = Arc::new(Mutex::new(waiting));
        for n in 0..size {
            let waiting = Arc::clone(&waiting);
            std::thread::Builder::new()
                .name(format!("{name}-{n}"))
                .spawn(move || work(&waiting, rest_per_work))
                .unwrap_or_else(|e| panic!("cannot start a {name} thread: {e}"));
        }
        BlockingPool {
            name: name.to_owned(),
            jobs,
            size,
            queue,
            admitted: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// How many jobs may run at once.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// Runs `job` on one of the pool's threads once one is free, or
    /// refuses it at once when the queue is full. A job that panics counts
    /// as busy (its result is lost), never as a crash of the caller. A job
    /// whose caller stopped waiting before it started is skipped.
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Busy> {
        let limit = self.size + self.queue;
        let admitted = self
            .admitted
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < limit).then_some(n + 1)
            });
        if let Err(n) = admitted {
            metrics::counter!("shoutan_pool_refused_total", "pool" => self.name.clone())
                .increment(1);
            return Err(Busy {
                running: self.size.min(n),
                waiting: n.saturating_sub(self.size),
            });
        }
        let jobs = metrics::gauge!("shoutan_pool_jobs", "pool" => self.name.clone());
        jobs.increment(1.0);
        let admission = Admission(Arc::clone(&self.admitted), jobs);
        let busy = Busy {
            running: self.size,
            waiting: self.queue,
        };
        let (done, result) = oneshot::channel();
        let job: Job = Box::new(move || {
            let value = if done.is_closed() {
                None
            } else {
                catch_unwind(AssertUnwindSafe(job)).ok()
            };
            // The place is free before the caller hears the result, so a
            // caller that runs its next job at once is never refused by
            // its own last one.
            drop(admission);
            if let Some(value) = value {
                let _ = done.send(value);
            }
        });
        self.jobs.send(job).map_err(|_| busy)?;
        result.await.map_err(|_| busy)
    }
}

/// A pool thread: lowers its own priority, then runs jobs until the pool
/// is dropped, resting `rest_per_work` of each job's time after it.
fn work(waiting: &Mutex<mpsc::Receiver<Job>>, rest_per_work: f64) {
    crate::priority::lower_this_thread(Behind::Far);
    loop {
        let next = match waiting.lock() {
            Ok(receiver) => receiver.recv(),
            Err(_) => return,
        };
        match next {
            Ok(job) => {
                let started = std::time::Instant::now();
                job();
                if rest_per_work > 0.0 {
                    std::thread::sleep(started.elapsed().mul_f64(rest_per_work));
                }
            }
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn never_runs_more_than_its_size_and_refuses_past_its_queue() {
        let pool = Arc::new(BlockingPool::new("test", 2, 3));
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let (release, gate) = std::sync::mpsc::channel::<()>();
        let gate = Arc::new(std::sync::Mutex::new(gate));
        let mut jobs = Vec::new();
        for _ in 0..5 {
            let (pool, running, most, gate) = (
                Arc::clone(&pool),
                Arc::clone(&running),
                Arc::clone(&most),
                Arc::clone(&gate),
            );
            jobs.push(tokio::spawn(async move {
                pool.run(move || {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    let _ = gate.lock().map(|g| g.recv());
                    running.fetch_sub(1, Ordering::SeqCst);
                })
                .await
            }));
        }
        // Five admitted: two run, three wait; the sixth is refused at once.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let refused = pool.run(|| ()).await.unwrap_err();
        assert_eq!(
            refused,
            Busy {
                running: 2,
                waiting: 3
            }
        );
        for _ in 0..5 {
            release.send(()).unwrap();
        }
        for job in jobs {
            assert!(job.await.unwrap().is_ok());
        }
        assert_eq!(
            most.load(Ordering::SeqCst),
            2,
            "never more than the size at once"
        );
        assert!(pool.run(|| 7).await == Ok(7), "places are given back");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_job_gives_its_place_back_before_its_caller_hears_the_result() {
        let pool = BlockingPool::new("test", 1, 0);
        for n in 0..2_000 {
            assert_eq!(pool.run(move || n).await, Ok(n), "job {n}");
        }
    }

    #[tokio::test]
    async fn a_pool_keeps_to_its_share_by_resting_after_each_job() {
        let pool = BlockingPool::with_share("test", 1, 4, 0.5);
        let job = || {
            let started = std::time::Instant::now();
            std::thread::sleep(Duration::from_millis(30));
            (started, std::time::Instant::now())
        };
        let (_, first_ended) = pool.run(job).await.unwrap();
        let (second_started, _) = pool.run(job).await.unwrap();
        // Half the time: a job of 30 ms, then 30 ms of rest.
        assert!(
            second_started.duration_since(first_ended) >= Duration::from_millis(29),
            "{:?}",
            second_started.duration_since(first_ended)
        );
    }

    #[tokio::test]
    async fn jobs_run_far_behind_live_play_and_a_panic_is_busy() {
        let pool = BlockingPool::new("test", 1, 1);
        let far = pool
            .run(|| crate::priority::this_thread_is(Behind::Far))
            .await;
        assert_eq!(far, Ok(true), "SCHED_IDLE");
        let panicked = pool.run(|| panic!("a job that fails")).await;
        assert!(matches!(panicked, Err(Busy { .. })));
        assert_eq!(pool.run(|| 7).await, Ok(7), "the thread survives a panic");
    }
}
