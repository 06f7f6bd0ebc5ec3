//! What the games say to each other's instances over the cluster's bus
//! ([`crate::cluster`]), and what they do with what they hear: commands
//! and arbiters' decisions go to a game's owner, attendance to the owner,
//! presence to the followers.

use std::future::Future;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use shoutan_store::GameId;

use super::event::GameEvent;
use super::handle::{GameHandle, Msg, Participant};
use super::presence::{Attendance, PresenceFrame};
use super::protocol::{ClientMessage, ErrorFrame};
use super::registry::{LoadError, Shared};
use crate::cluster::{Games, Logged};

/// A game's message to another instance.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub(crate) enum GameMessage {
    /// A client's command, for the game's owner.
    Command {
        req: u64,
        from: String,
        game: GameId,
        who: Participant,
        id: Option<u64>,
        version: Option<u64>,
        message: ClientMessage,
        lag_ms: u64,
    },
    /// An arbiter's decision, for the game's owner.
    Arbiter {
        req: u64,
        from: String,
        game: GameId,
        event: GameEvent,
    },
    /// A follower's connections to a game, for its owner.
    Attendance {
        from: String,
        game: GameId,
        attendance: Attendance,
    },
    /// The owner's presence frame of a game, for its followers.
    Presence { game: GameId, frame: PresenceFrame },
}

/// What an owner answers a forwarded request.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Outcome {
    /// A command: its version, or the error frame.
    Command {
        /// The answer.
        result: Result<u64, ErrorFrame>,
    },
    /// An arbiter's decision: its version, or why it was refused.
    Arbiter {
        /// The answer.
        result: Result<u64, String>,
    },
    /// This instance does not own the game (any more).
    NotHere,
}

impl Games for Shared {
    type Message = GameMessage;
    type TakeOverError = LoadError;

    fn logged(&self, logged: Logged) {
        if let Some(handle) = self.in_memory(logged.g)
            && handle.is_follower()
        {
            handle.deliver(Msg::Logged(logged));
        }
    }

    fn message(self: &Arc<Self>, message: GameMessage) {
        match message {
            GameMessage::Attendance {
                from,
                game,
                attendance,
            } => {
                if let Some(handle) = self.in_memory(game)
                    && !handle.is_follower()
                {
                    handle.deliver(Msg::Attendance {
                        instance: from,
                        attendance,
                    });
                }
            }
            GameMessage::Presence { game, frame } => {
                if let Some(handle) = self.in_memory(game)
                    && handle.is_follower()
                {
                    handle.deliver(Msg::Presence(frame));
                }
            }
            GameMessage::Command {
                req,
                from,
                game,
                who,
                id,
                version,
                message,
                lag_ms,
            } => self.answer(from, req, game, move |handle| async move {
                let lag = shoutan_clock::Millis::from_millis(lag_ms);
                let result = handle.command(who, id, version, message, lag).await;
                result.ok().map(|result| Outcome::Command { result })
            }),
            GameMessage::Arbiter {
                req,
                from,
                game,
                event,
            } => self.answer(from, req, game, move |handle| async move {
                let result = handle.arbiter(event).await;
                result.ok().map(|result| Outcome::Arbiter { result })
            }),
        }
    }

    fn reconnected(&self) {
        self.catch_up_followers();
    }

    async fn take_over(self: &Arc<Self>, game: GameId) -> Result<(), LoadError> {
        Shared::take_over(self, game).await
    }
}

impl Shared {
    /// The game's actor, if this instance owns it.
    fn owned(&self, game: GameId) -> Option<GameHandle> {
        self.in_memory(game).filter(|h| !h.is_follower())
    }

    /// Answers `from`'s request `req` with what `ask` makes of the game's
    /// actor, or `NotHere` when this instance does not own the game (or its
    /// actor stopped meanwhile); the answer is sought on a task of its own.
    fn answer<F, A>(self: &Arc<Self>, from: String, req: u64, game: GameId, ask: F)
    where
        F: FnOnce(GameHandle) -> A + Send + 'static,
        A: Future<Output = Option<Outcome>> + Send,
    {
        let shared = Arc::clone(self);
        tokio::spawn(async move {
            let outcome = match shared.owned(game) {
                Some(handle) => ask(handle).await.unwrap_or(Outcome::NotHere),
                None => Outcome::NotHere,
            };
            if let Some(membership) = shared.membership() {
                membership.reply(&from, req, &outcome).await;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The messages keep the names instances of the release before read
    /// (`t` and `kind`), so that a rolling upgrade understands both ways.
    #[test]
    fn messages_between_instances_keep_their_names() {
        let attendance = GameMessage::Attendance {
            from: "a_8080".into(),
            game: 7,
            attendance: Attendance::default(),
        };
        let json = serde_json::to_value(&attendance).unwrap();
        assert_eq!(json["t"], "attendance");
        assert_eq!(json["game"], 7);
        let arbiter = GameMessage::Arbiter {
            req: 3,
            from: "b_8080".into(),
            game: 9,
            event: GameEvent::Resign {
                color: shoutan_rules::Color::White,
            },
        };
        assert_eq!(serde_json::to_value(&arbiter).unwrap()["t"], "arbiter");
        assert_eq!(
            serde_json::to_value(Outcome::NotHere).unwrap(),
            serde_json::json!({"kind": "not_here"})
        );
        let answer = Outcome::Arbiter { result: Ok(12) };
        let back: Outcome = serde_json::from_value(serde_json::to_value(&answer).unwrap()).unwrap();
        assert!(matches!(back, Outcome::Arbiter { result: Ok(12) }));
    }
}
