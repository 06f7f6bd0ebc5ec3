//! The queue of password checks waiting for a worker, fair across client
//! addresses: each address waits in a line of its own, and the lines are
//! served in turn, one check each. A crowd of players logging in at the
//! start of a round waits its turn (seconds, not refusals), while a flood
//! from one address fills only that address's short line and is refused
//! beyond it, without pushing anybody else back.
//!
//! What waits is small (a password of at most 256 characters and a
//! channel), so the queue is sized by memory: thousands, not a few per
//! worker.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use tokio::sync::oneshot;

use crate::net::connections::AddressKey;

/// The queue (or the address's line) is full.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Full;

/// Turns at a bounded number of workers, fair across addresses.
pub struct FairQueue {
    workers: usize,
    queue: usize,
    per_address: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Turns taken and not given back.
    running: usize,
    /// Each address's line, oldest first.
    lines: HashMap<AddressKey, VecDeque<(u64, oneshot::Sender<()>)>>,
    /// The addresses with a line, in the order they are served.
    order: VecDeque<AddressKey>,
    /// Waiting in all lines.
    waiting: usize,
    /// The next waiter's number.
    next: u64,
}

/// A worker's turn; given to the next in line when dropped.
pub struct Turn<'a> {
    queue: &'a FairQueue,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.queue.hand_on();
    }
}

/// A place in a line; leaves the line if dropped before its turn comes
/// (and passes the turn on if it came just then).
struct Place<'a> {
    queue: &'a FairQueue,
    address: AddressKey,
    number: u64,
    turn: Option<oneshot::Receiver<()>>,
}

impl Drop for Place<'_> {
    fn drop(&mut self) {
        let Some(mut turn) = self.turn.take() else {
            return;
        };
        if turn.try_recv().is_ok() {
            self.queue.hand_on();
            return;
        }
        let Ok(mut state) = self.queue.state.lock() else {
            return;
        };
        let Some(line) = state.lines.get_mut(&self.address) else {
            return;
        };
        let before = line.len();
        line.retain(|(n, _)| *n != self.number);
        let left = before - line.len();
        if line.is_empty() {
            state.lines.remove(&self.address);
            let address = self.address;
            state.order.retain(|a| *a != address);
        }
        state.waiting -= left;
        waiting_gauge(state.waiting);
    }
}

fn waiting_gauge(waiting: usize) {
    #[allow(clippy::cast_precision_loss)] // a queue length
    metrics::gauge!("shoutan_pool_waiting", "pool" => "password").set(waiting as f64);
}

impl FairQueue {
    /// `workers` turns at once; at most `queue` waiting in all and
    /// `per_address` from one address.
    #[must_use]
    pub fn new(workers: usize, queue: usize, per_address: usize) -> FairQueue {
        FairQueue {
            workers: workers.max(1),
            queue,
            per_address,
            state: Mutex::new(State::default()),
        }
    }

    /// A turn for a check from `address`: at once if a worker is free,
    /// else when the lines before it have been served; [`Full`] at once
    /// if there is no room to wait.
    pub async fn turn(&self, address: AddressKey) -> Result<Turn<'_>, Full> {
        let mut place = {
            let Ok(mut state) = self.state.lock() else {
                return Err(Full);
            };
            if state.running < self.workers {
                state.running += 1;
                return Ok(Turn { queue: self });
            }
            let line_len = state.lines.get(&address).map_or(0, VecDeque::len);
            if state.waiting >= self.queue || line_len >= self.per_address {
                return Err(Full);
            }
            let (tx, rx) = oneshot::channel();
            let number = state.next;
            state.next += 1;
            if line_len == 0 {
                state.order.push_back(address);
            }
            state
                .lines
                .entry(address)
                .or_default()
                .push_back((number, tx));
            state.waiting += 1;
            waiting_gauge(state.waiting);
            Place {
                queue: self,
                address,
                number,
                turn: Some(rx),
            }
        };
        let came = match place.turn.as_mut() {
            Some(turn) => turn.await.is_ok(),
            None => false,
        };
        place.turn = None;
        if came {
            Ok(Turn { queue: self })
        } else {
            Err(Full)
        }
    }

    /// Gives a finished turn to the first in the next line (the line then
    /// goes to the back), or frees the worker if nobody waits.
    fn hand_on(&self) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        while let Some(address) = state.order.pop_front() {
            let Some(line) = state.lines.get_mut(&address) else {
                continue;
            };
            let next = line.pop_front();
            let more = !line.is_empty();
            if more {
                state.order.push_back(address);
            } else {
                state.lines.remove(&address);
            }
            let Some((_, waiter)) = next else {
                continue;
            };
            state.waiting -= 1;
            waiting_gauge(state.waiting);
            if waiter.send(()).is_ok() {
                return;
            }
        }
        state.running -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn address(n: u8) -> AddressKey {
        AddressKey::of(std::net::IpAddr::from([10, 0, 0, n]))
    }

    #[tokio::test]
    async fn lines_are_served_in_turn_and_a_flood_fills_only_its_own() {
        let queue = Arc::new(FairQueue::new(1, 100, 3));
        let first = queue.turn(address(9)).await.unwrap();
        let served = Arc::new(Mutex::new(Vec::new()));
        let mut waiting = Vec::new();
        // The flood's address asks five times: three wait, two are refused.
        let mut refused = 0;
        for _ in 0..5 {
            let (queue, served) = (Arc::clone(&queue), Arc::clone(&served));
            let task = tokio::spawn(async move {
                let turn = queue.turn(address(9)).await?;
                served.lock().unwrap().push(9);
                drop(turn);
                Ok::<(), Full>(())
            });
            tokio::task::yield_now().await;
            if task.is_finished() {
                assert_eq!(task.await.unwrap(), Err(Full));
                refused += 1;
            } else {
                waiting.push(task);
            }
        }
        assert_eq!(refused, 2);
        // Then three others, one check each.
        for n in 1..=3 {
            let (queue, served) = (Arc::clone(&queue), Arc::clone(&served));
            waiting.push(tokio::spawn(async move {
                let turn = queue.turn(address(n)).await?;
                served.lock().unwrap().push(n);
                drop(turn);
                Ok::<(), Full>(())
            }));
            tokio::task::yield_now().await;
        }
        drop(first);
        for task in waiting {
            task.await.unwrap().unwrap();
        }
        // The flood's line was first, and still every other address came
        // before its second and third checks.
        assert_eq!(*served.lock().unwrap(), [9, 1, 2, 3, 9, 9]);
    }

    #[tokio::test]
    async fn a_place_given_up_leaves_the_line_and_the_queue_has_a_bound() {
        let queue = Arc::new(FairQueue::new(1, 2, 10));
        let running = queue.turn(address(1)).await.unwrap();
        let gave_up =
            tokio::time::timeout(std::time::Duration::from_millis(10), queue.turn(address(2)))
                .await;
        assert!(gave_up.is_err());
        let (a, b) = (Arc::clone(&queue), Arc::clone(&queue));
        let second = tokio::spawn(async move { a.turn(address(3)).await.map(drop) });
        let third = tokio::spawn(async move { b.turn(address(4)).await.map(drop) });
        tokio::task::yield_now().await;
        assert_eq!(
            queue.turn(address(5)).await.err(),
            Some(Full),
            "two wait: full"
        );
        drop(running);
        second.await.unwrap().unwrap();
        third.await.unwrap().unwrap();
        assert_eq!(queue.state.lock().unwrap().running, 0);
        drop(queue.turn(address(6)).await.unwrap());
    }
}
