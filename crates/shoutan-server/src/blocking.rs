//! A bounded share of the machine for blocking work that clients trigger
//! (dead-stone estimates when counting opens): at most `size` jobs run at
//! once on tokio's blocking threads, at most `queue` more wait, and beyond
//! that a job is refused at once instead of piling up.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::Semaphore;

/// The pool is full: `size` jobs run and `queue` wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the server is busy: {running} jobs run and {waiting} wait")]
pub struct Busy {
    /// Jobs running.
    pub running: usize,
    /// Jobs waiting.
    pub waiting: usize,
}

/// A pool of blocking jobs with a size and a queue.
#[derive(Debug)]
pub struct BlockingPool {
    permits: Arc<Semaphore>,
    size: usize,
    queue: usize,
    /// Jobs admitted and not finished (running or waiting).
    admitted: AtomicUsize,
}

/// Gives its place back when a job ends, however it ends.
struct Admission<'a>(&'a AtomicUsize);

impl Drop for Admission<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl BlockingPool {
    /// At most `size` (at least one) jobs at once, `queue` more waiting.
    #[must_use]
    pub fn new(size: usize, queue: usize) -> BlockingPool {
        let size = size.max(1);
        BlockingPool {
            permits: Arc::new(Semaphore::new(size)),
            size,
            queue,
            admitted: AtomicUsize::new(0),
        }
    }

    /// How many jobs may run at once.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// Runs `job` on a blocking thread once a place is free, or refuses it
    /// at once when the queue is full. A job that panics counts as busy
    /// (its result is lost), never as a crash of the caller.
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
            return Err(Busy {
                running: self.size.min(n),
                waiting: n.saturating_sub(self.size),
            });
        }
        let _admission = Admission(&self.admitted);
        let busy = Busy {
            running: self.size,
            waiting: self.queue,
        };
        let permit = Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .map_err(|_| busy)?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            job()
        })
        .await
        .map_err(|_| busy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn never_runs_more_than_its_size_and_refuses_past_its_queue() {
        let pool = Arc::new(BlockingPool::new(2, 3));
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
}
