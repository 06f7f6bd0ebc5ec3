//! Results flowing in by themselves: each game that ends reaches its event
//! (a tap on the server's stream of endings) — a forfeit for a player who
//! did not appear by the event's late-arrival limit included, which the
//! game's own clock declares (Art. 22.1–22.3) — and results missed while
//! the server was down are taken from the finished games at start. Rounds
//! with a set time start by themselves.

use std::sync::Arc;
use std::time::Duration;

use shoutan_store::{GameId, GameStatus};
use shoutan_tournament::Outcome;
use tokio::sync::mpsc;

use super::Events;
use super::action::Action;
use super::event::Event;
use crate::live::registry::Ending;
use crate::time;

/// How often the rounds' set times are checked.
const WATCH_EVERY: Duration = Duration::from_millis(250);

/// Passes every ending on to the returned receiver (the results task) and
/// records it in its event, if it belongs to one.
pub fn tap(
    mut endings: mpsc::UnboundedReceiver<Ending>,
    events: Arc<Events>,
) -> mpsc::UnboundedReceiver<Ending> {
    let (forward, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(ending) = endings.recv().await {
            let result = (!ending.cancelled)
                .then_some(ending.result)
                .flatten()
                .and_then(|r| Outcome::from_game(&r));
            let game = ending.game;
            // The receiver lives as long as the server.
            let _ = forward.send(ending);
            if let Some(outcome) = result {
                events.game_result(game, outcome).await;
            }
        }
    });
    rx
}

impl Events {
    /// Records a finished online game's result in its event, unless an
    /// arbiter already decided the game.
    pub async fn game_result(&self, game: GameId, outcome: Outcome) {
        let Some(seat) = self.seat_of(game).await else {
            return;
        };
        let Ok(event) = self.get(seat.event).await else {
            return;
        };
        let mut event = event.lock().await;
        // A game replaced at its table (a replay, a new line-up) decides nothing.
        let current = event.games.get(&(seat.round, seat.table)) == Some(&game);
        if !current || decided(&event, seat.round, seat.table) {
            return;
        }
        let action = Action::Result {
            round: seat.round,
            table: seat.table,
            outcome,
            game: Some(game),
        };
        if let Err(e) = self.change(&mut event, action, None).await {
            tracing::error!(
                game,
                "event {}: result not recorded: {}",
                seat.event,
                e.message
            );
        }
    }

    /// After a restart: the results of event games that finished while the
    /// event did not hear of them.
    pub async fn catch_up(&self) {
        for event in self.all().await {
            let pending: Vec<(u32, u32, GameId)> = {
                let e = event.lock().await;
                e.games
                    .iter()
                    .filter(|((r, t), _)| !decided(&e, *r, *t))
                    .map(|(&(r, t), &g)| (r, t, g))
                    .collect()
            };
            for (_, _, game) in pending {
                let row = match self.store().game(game).await {
                    Ok(Some(row)) => row,
                    Ok(None) => continue,
                    Err(e) => {
                        tracing::error!(game, "cannot read the game: {e}");
                        continue;
                    }
                };
                if row.status != GameStatus::Finished {
                    continue;
                }
                if let Some(outcome) = row.result.and_then(|r| r.parse::<Outcome>().ok()) {
                    self.game_result(game, outcome).await;
                }
            }
        }
    }

    /// Every `WATCH_EVERY`, for as long as the server runs: starts the
    /// rounds whose time has come. (Players who do not appear lose by
    /// their game's own clock: see [`crate::live::event::GameEvent::Schedule`].)
    pub async fn watch(self: Arc<Self>) {
        let mut every = tokio::time::interval(WATCH_EVERY);
        loop {
            every.tick().await;
            for event in self.all().await {
                let mut event = event.lock().await;
                self.start_on_time(&mut event, time::now_millis()).await;
            }
        }
    }

    /// Starts the next round when its set time has come and the round
    /// before is complete.
    async fn start_on_time(&self, event: &mut Event, now: i64) {
        let next = event.tournament.next_round();
        let due = event
            .config
            .round_times
            .get(next as usize - 1)
            .is_some_and(|&at| now >= at);
        let previous_done = next == 1 || !(1..next).any(|r| round_pending(event, r));
        if due
            && previous_done
            && let Err(e) = self.start_round(event, None).await
            && self.first_failure(event.id, next).await
        {
            tracing::warn!(
                "event {}: round {next} not started on time: {}",
                event.id,
                e.message
            );
        }
    }
}

fn round_pending(event: &Event, round: u32) -> bool {
    event
        .tournament
        .rounds()
        .get((round as usize).wrapping_sub(1))
        .is_some_and(|r| r.pending().next().is_some())
}

fn decided(event: &Event, round: u32, table: u32) -> bool {
    event
        .tournament
        .rounds()
        .get((round as usize).wrapping_sub(1))
        .and_then(|r| r.game(table))
        .is_none_or(|g| g.outcome.is_some())
}
