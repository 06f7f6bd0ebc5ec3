//! What the owner's actor and a follower both keep of a game to serve its
//! readers: the state as the log has it, the frames of its last events
//! (for clients that reconnect), the broadcast to its connections, and the
//! byo-yomi calls already told. The owner applies an event once it is
//! appended, a follower once it has read it; both then publish it here and
//! answer every reading message here, so a client is served the same
//! wherever it connects.

use std::collections::VecDeque;
use std::sync::Arc;

use shoutan_clock::Instant;
use shoutan_store::GameId;
use tokio::sync::broadcast;

use super::event::GameEvent;
use super::frame::{ServerFrame, call_frame, event_frames};
use super::handle::{BROADCAST, EventFrame, Joined, Msg, Outgoing, Participant, RECENT};
use super::presence::PresenceFrame;
use super::state::{Effects, LiveState};
use crate::time;

/// The frames of a game's last events, oldest first, without gaps.
#[derive(Debug, Default)]
pub struct Recent(VecDeque<Arc<EventFrame>>);

impl Recent {
    /// Keeps the next event's frame, and only the last 256 (`RECENT`).
    /// `None` — its frame could not be written — drops them all: a client
    /// that missed that event is then sent the whole game instead.
    pub fn push(&mut self, frame: Option<Arc<EventFrame>>) {
        let Some(frame) = frame else {
            self.0.clear();
            return;
        };
        if self.0.len() == RECENT {
            self.0.pop_front();
        }
        self.0.push_back(frame);
    }

    /// The frames after `since` of a game at `version`, or `None` if some
    /// are no longer kept.
    #[must_use]
    pub fn after(&self, version: u64, since: u64) -> Option<Vec<Arc<EventFrame>>> {
        if since >= version {
            return Some(Vec::new());
        }
        let oldest = self.0.front()?.v;
        (since + 1 >= oldest).then(|| self.0.iter().filter(|f| f.v > since).cloned().collect())
    }
}

/// The frame of the event just applied to `state`, with its effects;
/// `None` if it cannot be written.
#[must_use]
pub fn event_frame(
    state: &LiveState,
    at: Instant,
    event: &GameEvent,
    effects: &Effects,
) -> Option<Arc<EventFrame>> {
    let (all, players) = event_frames(state, at, event, effects)?;
    Some(Arc::new(EventFrame {
        v: state.version,
        all,
        players,
    }))
}

/// A game as its readers see it.
pub(crate) struct Replica {
    pub id: GameId,
    pub created_at: i64,
    /// The state after the last event published.
    pub state: LiveState,
    recent: Recent,
    events: broadcast::Sender<Outgoing>,
    /// The byo-yomi calls due up to here have been told.
    announced: Instant,
}

impl Replica {
    /// The game `id` at `state`, with the frames of its last events.
    pub fn new(id: GameId, created_at: i64, state: LiveState, recent: Recent) -> Replica {
        Replica {
            id,
            created_at,
            announced: time::now().max(state.last_at),
            state,
            recent,
            events: broadcast::channel(BROADCAST).0,
        }
    }

    /// Tells the connections `event`, just applied to the state with
    /// `effects`, and keeps its frame.
    pub fn publish(&mut self, at: Instant, event: &GameEvent, effects: &Effects) {
        let frame = event_frame(&self.state, at, event, effects);
        self.recent.push(frame.clone());
        if let Some(frame) = frame {
            let _ = self.events.send(Outgoing::Event(frame));
        }
        self.announced = self.announced.max(at);
    }

    /// Tells the connections an unversioned frame (a call, the presence).
    pub fn notice(&self, frame: &ServerFrame<'_>) {
        if let Some(text) = frame.text() {
            let _ = self.events.send(Outgoing::Notice(text));
        }
    }

    /// When the next byo-yomi call is due, while the game is live.
    #[must_use]
    pub fn next_call(&self) -> Option<Instant> {
        if self.state.is_over() {
            return None;
        }
        self.state
            .clock
            .next_announcement(self.announced)
            .map(|a| a.at)
    }

    /// Tells the byo-yomi calls due by `now`.
    pub fn announce(&mut self, now: Instant) {
        if self.state.is_over() {
            return;
        }
        for call in self.state.clock.announcements_between(self.announced, now) {
            self.notice(&call_frame(&call));
        }
        self.announced = self.announced.max(now);
    }

    /// A connection of `who` joins, having seen the events up to `since`.
    #[must_use]
    pub fn join(&self, who: &Participant, since: Option<u64>, presence: &PresenceFrame) -> Joined {
        let events = self.events.subscribe();
        let welcome = ServerFrame::Welcome {
            you: who.color.map_or("spectator", shoutan_rules::Color::name),
            last_command_id: who
                .user
                .as_ref()
                .and_then(|(user, _)| self.state.last_command.get(user).copied()),
            game: self.game_view(who.color.is_some()),
            presence,
        };
        Joined {
            welcome: welcome.answer(),
            missed: since
                .and_then(|s| self.recent.after(self.state.version, s))
                .unwrap_or_default(),
            events,
        }
    }

    fn game_view(&self, viewer_is_player: bool) -> super::view::GameView {
        self.state
            .game_view(self.id, self.created_at, time::now(), viewer_is_player)
    }

    /// Answers a message that only reads the game; gives any other back.
    pub fn answer(&self, msg: Msg) -> Option<Msg> {
        match msg {
            Msg::Missed { since, reply } => {
                let _ = reply.send(self.recent.after(self.state.version, since));
            }
            Msg::Time { reply } => {
                let clock = self.state.clock_view(time::now());
                let _ = reply.send(ServerFrame::Clock { clock }.answer());
            }
            Msg::Snapshot {
                viewer_is_player,
                reply,
            } => {
                let game = self.game_view(viewer_is_player);
                let _ = reply.send(ServerFrame::Snapshot { game }.answer());
            }
            Msg::State { reply } => {
                let _ = reply.send(self.state.clone());
            }
            other => return Some(other),
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use axum::extract::ws::Utf8Bytes;

    use super::*;

    fn frame(v: u64) -> Option<Arc<EventFrame>> {
        Some(Arc::new(EventFrame {
            v,
            all: Utf8Bytes::from(v.to_string()),
            players: None,
        }))
    }

    fn versions(frames: Option<Vec<Arc<EventFrame>>>) -> Option<Vec<u64>> {
        frames.map(|f| f.iter().map(|f| f.v).collect())
    }

    #[test]
    fn recent_frames_serve_a_reconnection_while_they_reach_back() {
        let mut recent = Recent::default();
        for v in 1..=RECENT as u64 + 10 {
            recent.push(frame(v));
        }
        let version = RECENT as u64 + 10;
        assert_eq!(versions(recent.after(version, version)), Some(vec![]));
        assert_eq!(
            versions(recent.after(version, version - 2)),
            Some(vec![version - 1, version])
        );
        // The oldest kept is version 11: one who saw 10 is served, one who
        // saw 9 missed a frame no longer kept.
        assert_eq!(recent.after(version, 10).map(|f| f.len()), Some(RECENT));
        assert_eq!(versions(recent.after(version, 9)), None);
    }

    #[test]
    fn an_unwritable_frame_leaves_no_gap_behind() {
        let mut recent = Recent::default();
        recent.push(frame(1));
        recent.push(frame(2));
        recent.push(None);
        recent.push(frame(4));
        // Version 3 was never sent: one who saw 2 must get the whole game,
        // not 4 alone.
        assert_eq!(versions(recent.after(4, 2)), None);
        assert_eq!(versions(recent.after(4, 3)), Some(vec![4]));
    }
}
