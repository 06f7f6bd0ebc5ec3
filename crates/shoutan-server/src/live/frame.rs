//! The frames a game's socket sends (`docs/api/websocket.md`, "A game"):
//! one type, so that the wire format is declared once and checked against
//! the documentation by a test, and written in one place, where a frame
//! that cannot be written is an error — logged and counted — never an
//! empty message.

use axum::extract::ws::Utf8Bytes;
use serde::{Serialize, Serializer};
use shoutan_clock::{Announcement, Call, Instant};
use shoutan_rules::{Color, Vertex};

use super::event::{ChatChannel, GameEvent};
use super::presence::PresenceFrame;
use super::protocol::ErrorFrame;
use super::state::{Effects, LiveState};
use super::view::{ClockView, GameView, StateView, points};
use crate::net::socket::written;

/// A frame of a game's socket.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerFrame<'a> {
    /// The first frame of a connection: the whole game as the viewer may
    /// see it, and who is there.
    Welcome {
        /// `black`, `white` or `spectator`.
        you: &'static str,
        /// The highest command id accepted from this user in this game.
        last_command_id: Option<u64>,
        /// The game.
        game: GameView,
        /// Who is there, as a `presence` frame.
        #[serde(serialize_with = "as_presence_frame")]
        presence: &'a PresenceFrame,
    },
    /// Something happened: the event, its effects, the state after it.
    Event {
        /// The game's version after it.
        v: u64,
        /// When (ms).
        at: u64,
        /// The event, or what players see instead of spectators' chat.
        event: Shown<'a>,
        /// The stones a move took.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        captured: Vec<Vertex>,
        /// The stones a counting mark toggled.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        toggled: Vec<Vertex>,
        /// The state after the event.
        state: StateView,
        /// Both clocks.
        clock: ClockView,
    },
    /// A command was applied and is durable.
    Ack {
        /// The command's id.
        id: u64,
        /// The version of its event.
        v: u64,
    },
    /// A message was refused; nothing changed.
    Error(&'a ErrorFrame),
    /// Who is connected.
    Presence(&'a PresenceFrame),
    /// A byo-yomi call (读秒).
    Call {
        /// When it is called (ms).
        at: u64,
        /// Whose clock.
        player: Color,
        /// What is called.
        call: Call,
        /// As a timekeeper says it in Chinese.
        zh: String,
        /// In English.
        en: String,
    },
    /// The clocks now (the answer to `time`).
    Clock {
        /// Both clocks.
        clock: ClockView,
    },
    /// The whole game again (the answer to a `resync` that came too late
    /// for the missed events).
    Snapshot {
        /// The game.
        game: GameView,
    },
}

/// An event as a frame shows it.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Shown<'a> {
    /// The event itself.
    Event(&'a GameEvent),
    /// Spectators' chat, as the players of a live game get it.
    Hidden(Hidden),
}

/// What stands for a hidden event: `{"type": "hidden"}`.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Hidden {
    /// The only value.
    Hidden,
}

fn as_presence_frame<S: Serializer>(frame: &&PresenceFrame, s: S) -> Result<S::Ok, S::Error> {
    ServerFrame::Presence(frame).serialize(s)
}

/// The error frame that stands for an answer that cannot be written; it
/// holds nothing that could fail.
const UNWRITABLE: &str =
    r#"{"type":"error","id":null,"code":"internal","message":"the answer could not be written"}"#;

impl ServerFrame<'_> {
    /// The frame as text; `None` (logged) if it cannot be written.
    #[must_use]
    pub fn text(&self) -> Option<Utf8Bytes> {
        written("game", self)
    }

    /// The frame as text, or an `internal` error frame in its place: for
    /// answers, which the client waits for.
    #[must_use]
    pub fn answer(&self) -> Utf8Bytes {
        self.text()
            .unwrap_or_else(|| Utf8Bytes::from_static(UNWRITABLE))
    }
}

impl ErrorFrame {
    /// The error as a frame's text.
    #[must_use]
    pub fn text(&self) -> Utf8Bytes {
        ServerFrame::Error(self).answer()
    }
}

/// The event frames of `event`, just applied to `state` with `effects`:
/// the one for everybody and, for spectators' chat in a live game, the one
/// the players get instead. `None` if they cannot be written.
pub fn event_frames(
    state: &LiveState,
    at: Instant,
    event: &GameEvent,
    effects: &Effects,
) -> Option<(Utf8Bytes, Option<Utf8Bytes>)> {
    let size = state.game.size();
    let frame = |event| ServerFrame::Event {
        v: state.version,
        at: at.as_millis(),
        event,
        captured: points(size, effects.captured.iter().copied()),
        toggled: points(size, effects.toggled.iter().copied()),
        state: state.state_view(),
        clock: state.clock_view(at),
    };
    let hidden = matches!(
        event,
        GameEvent::Chat {
            channel: ChatChannel::Spectators,
            ..
        }
    ) && !state.is_over();
    let all = frame(Shown::Event(event)).text()?;
    let players = if hidden {
        Some(frame(Shown::Hidden(Hidden::Hidden)).text()?)
    } else {
        None
    };
    Some((all, players))
}

/// The frame of the timekeeper's call.
#[must_use]
pub fn call_frame(call: &Announcement) -> ServerFrame<'static> {
    ServerFrame::Call {
        at: call.at.as_millis(),
        player: call.player,
        call: call.call,
        zh: call.text_zh(),
        en: call.text_en(),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::error::ErrorCode;

    /// A value serde cannot write as JSON: a map with non-string keys.
    fn unwritable() -> BTreeMap<(u8, u8), u8> {
        BTreeMap::from([((1, 2), 3)])
    }

    #[test]
    fn a_frame_that_cannot_be_written_is_none_not_empty() {
        assert_eq!(written("game", &unwritable()), None);
        assert_eq!(
            written("game", &BTreeMap::from([("a", 1)])).as_deref(),
            Some(r#"{"a":1}"#)
        );
    }

    /// A 9×9 game under byo-yomi, before its first event.
    fn state() -> LiveState {
        use shoutan_clock::TimeOutRule;
        use shoutan_rules::{BoardSize, Handicap, Ruleset, Score};

        use crate::settings::{ColorDecision, GameSettings, Seat};
        let seat = |id, name: &str| Seat {
            id,
            name: name.to_owned(),
            rank: "1d".parse().unwrap(),
        };
        let settings = GameSettings {
            black: seat(1, "黑"),
            white: seat(2, "白"),
            size: BoardSize::NINE,
            ruleset: Ruleset::CHINESE,
            komi: Score::from_half_points(15),
            handicap: Handicap::None,
            time_control: "1 min + 3×10s byo-yomi".parse().unwrap(),
            time_out: TimeOutRule::Lose,
            rated: false,
            colors: ColorDecision::Choice,
            rating_handicap: 0,
            partners: None,
            simul: None,
        };
        let game = settings.new_game().unwrap();
        let clock = settings.new_clock().unwrap();
        LiveState::new(settings, game, clock)
    }

    /// The `type` each frame is documented under; a new kind of frame
    /// does not compile here until it is named (and so documented).
    fn documented_as(frame: &ServerFrame<'_>) -> &'static str {
        match frame {
            ServerFrame::Welcome { .. } => "welcome",
            ServerFrame::Event { .. } => "event",
            ServerFrame::Ack { .. } => "ack",
            ServerFrame::Error(_) => "error",
            ServerFrame::Presence(_) => "presence",
            ServerFrame::Call { .. } => "call",
            ServerFrame::Clock { .. } => "clock",
            ServerFrame::Snapshot { .. } => "snapshot",
        }
    }

    #[test]
    fn every_game_frame_is_written_as_documented() {
        let doc = include_str!("../../../../docs/api/websocket.md");
        let mut state = state();
        let at = Instant::ORIGIN;
        state.clock.start(Color::Black, at).unwrap();
        let presence = PresenceFrame::default();
        let refusal = ErrorFrame::new(Some(13), ErrorCode::NotYourTurn, "not your turn");
        let event = GameEvent::Pass {
            color: Color::Black,
            lag_ms: 0,
        };
        let call = state
            .clock
            .announcements_between(at, Instant::ORIGIN + shoutan_clock::Millis::from_mins(2))
            .into_iter()
            .next()
            .unwrap();
        let frames = [
            ServerFrame::Welcome {
                you: "black",
                last_command_id: None,
                game: state.game_view(7, 0, at, true),
                presence: &presence,
            },
            ServerFrame::Event {
                v: 1,
                at: 0,
                event: Shown::Event(&event),
                captured: vec!["B5".parse().unwrap()],
                toggled: vec![],
                state: state.state_view(),
                clock: state.clock_view(at),
            },
            ServerFrame::Ack { id: 12, v: 43 },
            ServerFrame::Error(&refusal),
            ServerFrame::Presence(&presence),
            call_frame(&call),
            ServerFrame::Clock {
                clock: state.clock_view(at),
            },
            ServerFrame::Snapshot {
                game: state.game_view(7, 0, at, false),
            },
        ];
        for frame in &frames {
            let json = serde_json::to_value(frame).unwrap();
            let name = documented_as(frame);
            assert_eq!(json["type"], name, "{json}");
            assert!(
                doc.contains(&format!("| `{name}` |")),
                "docs/api/websocket.md does not list the {name} frame"
            );
        }
        let welcome = serde_json::to_value(&frames[0]).unwrap();
        assert_eq!(welcome["presence"]["type"], "presence", "{welcome}");
        assert_eq!(welcome["game"]["id"], 7);
        assert_eq!(
            serde_json::to_value(&frames[2]).unwrap(),
            serde_json::json!({"type": "ack", "id": 12, "v": 43})
        );
        let error = serde_json::to_value(&frames[3]).unwrap();
        assert_eq!(error["code"], "not_your_turn", "{error}");
        assert_eq!(error["id"], 13);
    }

    #[test]
    fn players_see_spectators_chat_hidden_while_the_game_is_live() {
        let state = state();
        let chat = GameEvent::Chat {
            channel: ChatChannel::Spectators,
            user: 9,
            name: "观众".into(),
            text: "黑棋要输".into(),
        };
        let (all, players) =
            event_frames(&state, Instant::ORIGIN, &chat, &Effects::default()).unwrap();
        let all: serde_json::Value = serde_json::from_str(&all).unwrap();
        assert_eq!(all["event"]["text"], "黑棋要输", "{all}");
        let players: serde_json::Value = serde_json::from_str(&players.unwrap()).unwrap();
        assert_eq!(players["event"], serde_json::json!({"type": "hidden"}));
    }

    #[test]
    fn the_unwritable_answer_is_the_internal_error_frame() {
        let fallback: serde_json::Value = serde_json::from_str(UNWRITABLE).unwrap();
        let refusal = ErrorFrame::new(None, ErrorCode::Internal, "the answer could not be written");
        let error = serde_json::to_value(ServerFrame::Error(&refusal)).unwrap();
        assert_eq!(fallback, error);
    }
}
