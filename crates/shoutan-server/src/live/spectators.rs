//! Spectators are served behind the players. One game's move goes to every
//! socket watching it at once: with 2,000 spectators on one board that is
//! 2,000 writes per move, and queued with the players' connections they
//! held every other game's moves back by tens of milliseconds. So
//! spectators' connections run on threads of their own (half the cores, at
//! least one: a crowd never takes more), at a lower CPU priority
//! ([`Behind::Near`]): the players' moves go first, the spectators' frames
//! follow in what CPU is left.

use std::future::Future;

use tokio::runtime::{Builder, Handle, Runtime};
use tokio::task::JoinHandle;

use crate::priority::{Behind, lower_this_thread};

/// The spectators' runtime.
#[derive(Debug)]
pub struct Spectators {
    handle: Handle,
    /// Taken when dropped.
    runtime: Option<Runtime>,
}

impl Spectators {
    /// Starts `threads` (at least one) threads for spectators.
    pub fn new(threads: usize) -> std::io::Result<Spectators> {
        let runtime = Builder::new_multi_thread()
            .worker_threads(threads.max(1))
            .thread_name("spectators")
            .on_thread_start(|| lower_this_thread(Behind::Near))
            .enable_all()
            .build()?;
        Ok(Spectators {
            handle: runtime.handle().clone(),
            runtime: Some(runtime),
        })
    }

    /// Serves one spectator's connection on the spectators' threads.
    pub fn spawn<F>(&self, connection: F) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        self.handle.spawn(connection)
    }
}

impl Drop for Spectators {
    /// Drops the connections without waiting for them: the server may be
    /// stopping inside another runtime, where a blocking wait is refused.
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn spectators_run_on_their_own_threads_behind_the_players() {
        let players = crate::priority::scheduling_of_this_thread();
        let spectators = Spectators::new(1).unwrap();
        let (name, nice) = spectators
            .spawn(async {
                (
                    std::thread::current().name().map(str::to_owned),
                    crate::priority::this_thread_is(Behind::Near),
                )
            })
            .await
            .unwrap();
        assert_eq!(name.as_deref(), Some("spectators"));
        assert!(nice, "nice 10");
        // Compared with what it was, not with the spectators' value: a test
        // run started at nice 10 (`nice -n 10`) already sits where they go.
        assert_eq!(
            crate::priority::scheduling_of_this_thread(),
            players,
            "players keep theirs"
        );
    }
}
