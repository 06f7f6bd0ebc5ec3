//! The game WebSocket's messages from clients, and the error frames that
//! answer what cannot be done. The protocol is documented for client
//! writers in `docs/api/websocket.md`.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use shoutan_clock::ClockError;
use shoutan_rules::{GameError, Vertex};

use crate::error::ErrorCode;

use super::state::Refusal;

/// A client's message, after its `id` and `version` were taken out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// Play a stone.
    Move {
        /// Where (`D4`).
        point: Vertex,
    },
    /// Pass.
    Pass,
    /// Place a free handicap (black, in setup).
    PlaceHandicap {
        /// The stones.
        points: Vec<Vertex>,
    },
    /// Resign.
    Resign,
    /// Ask to take back one's last move.
    Takeback,
    /// Answer the opponent's takeback request.
    TakebackAnswer {
        /// Grant or refuse.
        accept: bool,
    },
    /// Offer a draw.
    Draw,
    /// Answer the opponent's draw offer.
    DrawAnswer {
        /// Accept or decline.
        accept: bool,
    },
    /// Ask to stop and count (申请数子).
    Count,
    /// Answer the opponent's request to count.
    CountAnswer {
        /// Grant or refuse.
        accept: bool,
    },
    /// Mark a group dead, or alive again, in counting.
    Toggle {
        /// A stone of the group.
        point: Vertex,
    },
    /// Accept the marking.
    Accept,
    /// Dispute the marking: play resumes with the sender to move.
    Dispute,
    /// Say something.
    Chat {
        /// The text, 1 to 500 characters.
        text: String,
    },
    /// Claim the win (or the cancellation) after the opponent left.
    ClaimWin,
    /// Ask for the events after `since` (after a gap in versions).
    Resync {
        /// The last version the client has.
        since: u64,
    },
    /// Ask for the clocks now (Art. 16.2: "how much time do I have").
    Time,
}

impl ClientMessage {
    /// Whether the message changes the game (and so needs an `id`).
    #[must_use]
    pub fn is_command(&self) -> bool {
        !matches!(self, ClientMessage::Resync { .. } | ClientMessage::Time)
    }
}

/// A client message with its envelope: the client's id for it, and the
/// version the client has seen, if it states one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Envelope {
    /// A positive number, larger than the last one the client sent to this
    /// game; required for commands.
    pub id: Option<u64>,
    /// If present, the command applies only if the game is still at this
    /// version.
    pub version: Option<u64>,
    /// The message.
    pub message: ClientMessage,
}

/// Every kind of message, for telling an unknown type from a malformed one.
const TYPES: &[&str] = &[
    "move",
    "pass",
    "place_handicap",
    "resign",
    "takeback",
    "takeback_answer",
    "draw",
    "draw_answer",
    "count",
    "count_answer",
    "toggle",
    "accept",
    "dispute",
    "chat",
    "claim_win",
    "resync",
    "time",
];

/// A message the server cannot do, as sent to the client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorFrame {
    /// The id of the message refused, when it had one.
    pub id: Option<u64>,
    /// What was refused, in the vocabulary the HTTP errors share.
    pub code: ErrorCode,
    /// For `illegal_move`: which rule (`occupied`, `suicide`, `ko`,
    /// `superko`, `off_board`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Cow<'static, str>>,
    /// What was wrong, for people.
    pub message: String,
}

impl ErrorFrame {
    /// An error frame.
    #[must_use]
    pub fn new(id: Option<u64>, code: ErrorCode, message: impl Into<String>) -> ErrorFrame {
        metrics::counter!("shoutan_refusals_total", "code" => code.as_str()).increment(1);
        ErrorFrame {
            id,
            code,
            reason: None,
            message: message.into(),
        }
    }

    /// The frame that answers a refused event.
    #[must_use]
    pub fn refusal(id: Option<u64>, refusal: &Refusal) -> ErrorFrame {
        let (code, reason) = match refusal {
            Refusal::Game(e) => match e {
                GameError::OffBoard { .. } => (ErrorCode::IllegalMove, Some("off_board")),
                GameError::Occupied(_) => (ErrorCode::IllegalMove, Some("occupied")),
                GameError::Suicide(_) => (ErrorCode::IllegalMove, Some("suicide")),
                GameError::Ko(_) => (ErrorCode::IllegalMove, Some("ko")),
                GameError::Superko { .. } => (ErrorCode::IllegalMove, Some("superko")),
                GameError::NotYourTurn { .. } => (ErrorCode::NotYourTurn, None),
                GameError::WrongPhase { .. } => (ErrorCode::WrongPhase, None),
                GameError::NoStone(_) => (ErrorCode::NoStone, None),
                GameError::Handicap(_) | GameError::HandicapPoints { .. } => {
                    (ErrorCode::BadHandicap, None)
                }
                GameError::NothingToUndo => (ErrorCode::NothingToTakeBack, None),
            },
            Refusal::Clock(ClockError::Expired(_)) => (ErrorCode::TimeOut, None),
            Refusal::Clock(ClockError::Finished) => (ErrorCode::GameOver, None),
            Refusal::Clock(ClockError::AwaitingPlayers) => (ErrorCode::NotStarted, None),
            Refusal::Clock(_) => (ErrorCode::Clock, None),
            Refusal::BadPoint(_) => (ErrorCode::BadPoint, None),
            Refusal::NoRequest(_) => (ErrorCode::NoRequest, None),
            Refusal::AlreadyAsked(_) => (ErrorCode::AlreadyAsked, None),
            Refusal::AnswerFirst(_) => (ErrorCode::AnswerFirst, None),
            Refusal::NothingToTakeBack => (ErrorCode::NothingToTakeBack, None),
            Refusal::NoSuchFlag => (ErrorCode::Internal, None),
        };
        ErrorFrame {
            reason: reason.map(Cow::Borrowed),
            ..ErrorFrame::new(id, code, refusal.to_string())
        }
    }
}

/// The largest command id: 2^53 − 1, the largest integer a JavaScript
/// number holds exactly. A larger one would leave no room for the next
/// command's id (ids only grow), and a browser could not hold it.
pub const MAX_ID: u64 = (1 << 53) - 1;

/// The id of a message that is refused before it is read (too large): its
/// `"id"` member if the text is a JSON object with a valid one.
#[must_use]
pub fn id_of(text: &str) -> Option<u64> {
    #[derive(Deserialize)]
    struct WithId {
        id: Option<u64>,
    }
    if !text.trim_start().starts_with('{') {
        return None;
    }
    serde_json::from_str::<WithId>(text)
        .ok()
        .and_then(|m| m.id)
        .filter(|id| (1..=MAX_ID).contains(id))
}

/// Reads a client's text frame.
pub fn parse(text: &str) -> Result<Envelope, ErrorFrame> {
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| ErrorFrame::new(None, ErrorCode::Malformed, format!("not JSON: {e}")))?;
    let serde_json::Value::Object(mut object) = value else {
        return Err(ErrorFrame::new(
            None,
            ErrorCode::Malformed,
            "a message is a JSON object",
        ));
    };
    let id = match object.remove("id") {
        None | Some(serde_json::Value::Null) => None,
        Some(v) => match v.as_u64() {
            Some(n) if (1..=MAX_ID).contains(&n) => Some(n),
            _ => {
                return Err(ErrorFrame::new(
                    None,
                    ErrorCode::BadId,
                    format!("an id is an integer from 1 to {MAX_ID} (2^53 − 1), not {v}"),
                ));
            }
        },
    };
    let version = match object.remove("version") {
        None | Some(serde_json::Value::Null) => None,
        Some(v) => Some(v.as_u64().ok_or_else(|| {
            ErrorFrame::new(
                id,
                ErrorCode::Malformed,
                format!("a version is a number, not {v}"),
            )
        })?),
    };
    let kind = match object.get("type") {
        Some(serde_json::Value::String(kind)) => kind.clone(),
        _ => {
            return Err(ErrorFrame::new(
                id,
                ErrorCode::Malformed,
                "a message needs a \"type\"",
            ));
        }
    };
    if !TYPES.contains(&kind.as_str()) {
        return Err(ErrorFrame::new(
            id,
            ErrorCode::UnknownType,
            format!("unknown message type {kind:?}"),
        ));
    }
    check_points(&object, id)?;
    let message: ClientMessage = serde_json::from_value(serde_json::Value::Object(object))
        .map_err(|e| ErrorFrame::new(id, ErrorCode::Malformed, format!("{kind}: {e}")))?;
    if message.is_command() && id.is_none() {
        return Err(ErrorFrame::new(
            None,
            ErrorCode::MissingId,
            format!("{kind} needs an \"id\": a number larger than your last one"),
        ));
    }
    Ok(Envelope {
        id,
        version,
        message,
    })
}

/// A point that GTP cannot read is `bad_point`, as one off the board is,
/// not `malformed`: the message is well formed, its point is not.
fn check_points(
    object: &serde_json::Map<String, serde_json::Value>,
    id: Option<u64>,
) -> Result<(), ErrorFrame> {
    let listed = object
        .get("points")
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten();
    for text in object
        .get("point")
        .into_iter()
        .chain(listed)
        .filter_map(serde_json::Value::as_str)
    {
        if let Err(e) = text.parse::<Vertex>() {
            return Err(ErrorFrame::new(id, ErrorCode::BadPoint, e.to_string()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_messages() {
        assert_eq!(
            parse(r#"{"type":"move","id":3,"point":"D4","version":12}"#).unwrap(),
            Envelope {
                id: Some(3),
                version: Some(12),
                message: ClientMessage::Move {
                    point: "D4".parse().unwrap()
                }
            }
        );
        assert_eq!(
            parse(r#"{"type":"resync","since":4}"#).unwrap().message,
            ClientMessage::Resync { since: 4 }
        );
        assert_eq!(
            parse(r#"{"type":"takeback_answer","id":9,"accept":true}"#)
                .unwrap()
                .message,
            ClientMessage::TakebackAnswer { accept: true }
        );
    }

    #[test]
    fn every_kind_of_bad_message_has_its_code() {
        let code = |text| parse(text).unwrap_err().code;
        assert_eq!(code("{"), ErrorCode::Malformed);
        assert_eq!(code("[1,2]"), ErrorCode::Malformed);
        assert_eq!(code(r#"{"id":1}"#), ErrorCode::Malformed);
        assert_eq!(code(r#"{"type":"castle","id":1}"#), ErrorCode::UnknownType);
        assert_eq!(code(r#"{"type":"move","id":1}"#), ErrorCode::Malformed);
        // A point GTP cannot read is a bad point; one of no type, malformed.
        for bad in [
            r#"{"type":"move","id":1,"point":"I5"}"#,
            r#"{"type":"toggle","id":1,"point":"D"}"#,
            r#"{"type":"place_handicap","id":1,"points":["D4","44"]}"#,
        ] {
            assert_eq!(code(bad), ErrorCode::BadPoint, "{bad}");
        }
        assert_eq!(
            code(r#"{"type":"move","id":1,"point":4}"#),
            ErrorCode::Malformed
        );
        assert_eq!(
            code(r#"{"type":"move","id":1,"point":"D4","color":"white"}"#),
            ErrorCode::Malformed
        );
        assert_eq!(
            code(r#"{"type":"move","point":"D4"}"#),
            ErrorCode::MissingId
        );
        assert_eq!(code(r#"{"type":"pass","id":-1}"#), ErrorCode::BadId);
        assert_eq!(code(r#"{"type":"pass","id":0}"#), ErrorCode::BadId);
        assert_eq!(code(r#"{"type":"pass","id":"x"}"#), ErrorCode::BadId);
        assert_eq!(code(r#"{"type":"pass","id":1.5}"#), ErrorCode::BadId);
        for id in [u64::MAX, MAX_ID + 1] {
            let text = format!(r#"{{"type":"pass","id":{id}}}"#);
            assert_eq!(parse(&text).unwrap_err().code, ErrorCode::BadId);
        }
        assert_eq!(
            parse(&format!(r#"{{"type":"pass","id":{MAX_ID}}}"#))
                .unwrap()
                .id,
            Some(MAX_ID)
        );
        assert_eq!(
            code(r#"{"type":"pass","id":2,"version":"new"}"#),
            ErrorCode::Malformed
        );
    }

    #[test]
    fn the_id_of_an_unread_message() {
        let long = "x".repeat(10_000);
        assert_eq!(
            id_of(&format!(r#"{{"type":"chat","id":51,"text":"{long}"}}"#)),
            Some(51)
        );
        assert_eq!(id_of(r#"{"type":"chat","text":"hi"}"#), None);
        assert_eq!(id_of(r#"{"id":0}"#), None);
        assert_eq!(id_of(&format!(r#"{{"id":{}}}"#, u64::MAX)), None);
        assert_eq!(id_of("not json"), None);
        assert_eq!(id_of("[51]"), None);
    }

    #[test]
    fn every_type_is_known() {
        for kind in TYPES {
            let err = parse(&format!(r#"{{"type":"{kind}","id":1}}"#));
            assert!(
                err.as_ref()
                    .map_or_else(|e| e.code != ErrorCode::UnknownType, |_| true),
                "{kind}"
            );
        }
    }
}
