//! An arbiter's decisions on a game still being played online reach the
//! live game as logged game events: a ruling (forfeit, loss, draw, both
//! lose, void, replay) or a result entered by hand ends it with that
//! result, a warning (Art. 24) is counted by the rules (−1 子 at counting,
//! the second loses). The players see either at once on their connection.

use shoutan_rules::{GameResult, WinBy};
use shoutan_tournament::Outcome;

use super::Events;
use super::action::{Action, RulingKind};
use super::event::Event;
use crate::live::event::GameEvent;

impl RulingKind {
    /// The game result the ruling gives the live game.
    #[must_use]
    pub fn game_result(self) -> GameResult {
        match self {
            RulingKind::Draw => GameResult::Draw,
            RulingKind::Replay => GameResult::Replay,
            RulingKind::BothLose => GameResult::BothLose,
            RulingKind::Void => GameResult::NoResult,
            RulingKind::Forfeit { color } => GameResult::Win {
                winner: color.opponent(),
                by: WinBy::Forfeit,
            },
            RulingKind::Loss { color } => GameResult::Win {
                winner: color.opponent(),
                by: WinBy::Ruling,
            },
        }
    }
}

/// The game result an arbiter's hand-entered outcome gives a live game: a
/// win is a win by the arbiter's decision, not by counting or resignation.
fn decided_result(outcome: Outcome) -> GameResult {
    match outcome {
        Outcome::Win(winner) => GameResult::Win {
            winner,
            by: WinBy::Ruling,
        },
        Outcome::Forfeit(winner) => GameResult::Win {
            winner,
            by: WinBy::Forfeit,
        },
        Outcome::Draw => GameResult::Draw,
        Outcome::BothLose => GameResult::BothLose,
        Outcome::Void | Outcome::Unplayed => GameResult::NoResult,
    }
}

impl Events {
    /// Applies an arbiter's ruling, result or warning, just recorded in `event`, to
    /// the table's online game if it is still being played. A game that
    /// ended meanwhile keeps its own result (the event has the ruling).
    pub(super) async fn to_live_game(&self, event: &Event, action: &Action) {
        let (round, table, game_event) = match *action {
            Action::Ruling {
                round,
                table,
                ruling,
                ..
            } => (
                round,
                table,
                GameEvent::Ruling {
                    result: ruling.game_result(),
                },
            ),
            Action::Result {
                round,
                table,
                outcome,
                game: None,
            } => (
                round,
                table,
                GameEvent::Ruling {
                    result: decided_result(outcome),
                },
            ),
            Action::Warning {
                round,
                table,
                player,
            } => {
                let Some(color) = event
                    .tournament
                    .rounds()
                    .get((round as usize).wrapping_sub(1))
                    .and_then(|r| r.game(table))
                    .and_then(|g| g.color_of(player))
                else {
                    return;
                };
                (round, table, GameEvent::Warning { color })
            }
            _ => return,
        };
        let Some(&game) = event.games.get(&(round, table)) else {
            return;
        };
        let Some(handle) = self.games().running(game).await else {
            return;
        };
        match handle.arbiter(game_event).await {
            Ok(Ok(_)) => {}
            Ok(Err(why)) => tracing::info!(game, "event {}: not applied: {why}", event.id),
            Err(gone) => tracing::info!(game, "event {}: {gone}", event.id),
        }
    }
}
