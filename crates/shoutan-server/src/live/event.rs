//! The events of a game's log, as stored: everything that changed the game,
//! its clock, its counting marks or its chat, in order. Replaying them
//! through [`super::state::LiveState::apply`] rebuilds the game exactly.
//! Points are [`Vertex`]es, stored in GTP notation (`D4`); instants are
//! the stored rows'.

use serde::{Deserialize, Serialize};
use shoutan_rules::{Color, GameResult, Vertex};
use shoutan_store::UserId;

/// One event of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GameEvent {
    /// The game begins: the first player's clock runs.
    Start,
    /// A stone, with the network delay credited to the mover's clock.
    Move {
        /// The mover.
        color: Color,
        /// Where.
        point: Vertex,
        /// Lag compensation asked for (the clock bounds it).
        lag_ms: u64,
    },
    /// A pass (虚着).
    Pass {
        /// Who passed.
        color: Color,
        /// Lag compensation asked for.
        lag_ms: u64,
    },
    /// Black places a free handicap.
    PlaceHandicap {
        /// The stones.
        points: Vec<Vertex>,
        /// Lag compensation asked for.
        lag_ms: u64,
    },
    /// 超时判负: a clock ran out.
    TimeOut {
        /// Who ran out.
        color: Color,
    },
    /// Art. 22.5: a time-out in the last byo-yomi period counts as a pass.
    TimeOutPass {
        /// Who ran out and so passed.
        color: Color,
    },
    /// 中盘认输.
    Resign {
        /// Who resigned.
        color: Color,
    },
    /// A request to take back (悔棋).
    Takeback {
        /// Who asks.
        color: Color,
    },
    /// The answer to a takeback request; granted, the requester's last
    /// move (and any reply to it) is taken back.
    TakebackAnswer {
        /// Who answers.
        color: Color,
        /// Granted or refused.
        accept: bool,
    },
    /// An offer of a draw (和棋).
    DrawOffer {
        /// Who offers.
        color: Color,
    },
    /// The answer to a draw offer.
    DrawAnswer {
        /// Who answers.
        color: Color,
        /// Accepted or declined.
        accept: bool,
    },
    /// 申请数子: a request to stop and count.
    CountRequest {
        /// Who asks.
        color: Color,
    },
    /// The answer to a request to count.
    CountAnswer {
        /// Who answers.
        color: Color,
        /// Granted or refused.
        accept: bool,
    },
    /// Counting opens with the server's proposal of dead stones.
    Counting {
        /// The stones proposed dead.
        dead: Vec<Vertex>,
    },
    /// A player marks a group dead, or alive again (Art. 8).
    Toggle {
        /// Who.
        color: Color,
        /// A stone of the group.
        point: Vertex,
    },
    /// A player accepts the marking; both → the result.
    Accept {
        /// Who.
        color: Color,
    },
    /// Counting stood idle for the server's counting limit (nobody marked,
    /// accepted or disputed): the marking stands as it is, as if both
    /// players had accepted it.
    CountingExpired,
    /// A dispute over life and death: play resumes with the claimant to
    /// move (Art. 21.4).
    Dispute {
        /// The player who claims the disputed group is dead.
        color: Color,
    },
    /// A chat line, kept with the game.
    Chat {
        /// The writer.
        user: UserId,
        /// The writer's name.
        name: String,
        /// Players' chat (everyone sees it) or spectators' (hidden from the
        /// players while the game is live).
        channel: ChatChannel,
        /// The text.
        text: String,
    },
    /// The opponent left and did not come back: the present player claims
    /// the win (不战胜).
    Abandon {
        /// The claimant, who wins.
        color: Color,
    },
    /// The game is cancelled: abandoned before both players had moved.
    Cancel {
        /// The claimant.
        color: Color,
    },
    /// The server restarted: the downtime is not charged to the clock.
    Resume {
        /// The time forgiven.
        excused_ms: u64,
    },
    /// An event's game opens at its round's start instead of [`Start`]
    /// (Art. 22): the clock waits for both players; a player late has the
    /// time late charged twice, and beyond the limit forfeits.
    ///
    /// [`Start`]: GameEvent::Start
    Schedule {
        /// The scheduled start (ms since the Unix epoch).
        scheduled: u64,
        /// The event's late-arrival limit (ms).
        late_limit_ms: u64,
    },
    /// A player of a scheduled game arrives (connects to it).
    SitDown {
        /// Who arrived.
        color: Color,
    },
    /// A player of a scheduled game did not arrive by the late-arrival
    /// limit: he loses by forfeit (不战败).
    AbsentForfeit {
        /// Who was absent.
        color: Color,
    },
    /// Neither player arrived by the limit: both lose (Art. 22.3).
    BothAbsent,
    /// An arbiter's ruling (a forfeit, a draw, both lose…) ends the game.
    Ruling {
        /// The result ruled.
        result: GameResult,
    },
    /// An arbiter's warning (Art. 24): each costs 1 子 at counting; the
    /// second loses the game.
    Warning {
        /// Who was warned.
        color: Color,
    },
}

/// Who sees a chat line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatChannel {
    /// The players' chat, shown to all.
    Players,
    /// The spectators' chat, hidden from the players until the game ends.
    Spectators,
}

/// The client command that caused an event: its user and id, so that a
/// repeated command is recognised after a restart too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandRef {
    /// The user who sent it.
    pub user: UserId,
    /// The client's id for it.
    pub id: u64,
}

/// The stored body of an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The event.
    #[serde(flatten)]
    pub event: GameEvent,
    /// The command behind it, if a client sent one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cmd: Option<CommandRef>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_flat_json_that_reads_back() {
        let record = Record {
            event: GameEvent::Move {
                color: Color::Black,
                point: "D4".parse().unwrap(),
                lag_ms: 40,
            },
            cmd: Some(CommandRef { user: 3, id: 17 }),
        };
        let json = serde_json::to_string(&record).unwrap();
        assert_eq!(
            json,
            r#"{"type":"move","color":"black","point":"D4","lag_ms":40,"cmd":{"user":3,"id":17}}"#
        );
        assert_eq!(serde_json::from_str::<Record>(&json).unwrap(), record);
        let bare: Record = serde_json::from_str(r#"{"type":"start"}"#).unwrap();
        assert_eq!((bare.event, bare.cmd), (GameEvent::Start, None));
    }

    /// Logs written while points were plain strings read as typed points,
    /// and are written back byte for byte: no stored log needs migrating.
    #[test]
    fn logs_written_with_string_points_read_as_typed_points() {
        let stored = [
            r#"{"type":"place_handicap","points":["D4","Q16"],"lag_ms":0}"#,
            r#"{"type":"move","color":"white","point":"q3","lag_ms":12,"cmd":{"user":4,"id":2}}"#,
            r#"{"type":"counting","dead":["C3","T19"]}"#,
            r#"{"type":"toggle","color":"black","point":"J10"}"#,
        ];
        let records: Vec<Record> = stored
            .iter()
            .map(|json| serde_json::from_str(json).unwrap())
            .collect();
        let v = |text: &str| text.parse::<Vertex>().unwrap();
        assert_eq!(
            records[0].event,
            GameEvent::PlaceHandicap {
                points: vec![v("D4"), v("Q16")],
                lag_ms: 0
            }
        );
        assert_eq!(
            records[1].event,
            GameEvent::Move {
                color: Color::White,
                point: v("Q3"),
                lag_ms: 12
            }
        );
        for (json, record) in stored.iter().zip(&records) {
            // Only the letter's case is normalised.
            assert_eq!(
                serde_json::to_string(record).unwrap(),
                json.replace("q3", "Q3")
            );
        }
        // A point no GTP board has is a corrupt log, not a point.
        assert!(
            serde_json::from_str::<Record>(
                r#"{"type":"move","color":"black","point":"I5","lag_ms":0}"#
            )
            .is_err()
        );
    }
}
