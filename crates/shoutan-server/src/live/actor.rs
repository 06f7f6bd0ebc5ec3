//! The actor of one live game: the single writer of its state.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use serde::Serialize;
use shoutan_clock::{ClockError, Flag, Instant, Millis, Status};
use shoutan_rules::{Color, estimate};
use shoutan_store::{GameId, StoreError, StoredEvent, UserId};
use tokio::sync::{broadcast, mpsc, oneshot};

use super::event::{ChatChannel, CommandRef, GameEvent, Record};
use super::protocol::{ClientMessage, ErrorFrame};
use super::registry::{Ending, Shared};
use super::state::{LiveState, Refusal};
use super::view::{ByColor, event_frames};
use crate::time;

/// Events kept in memory for clients that reconnect.
const RECENT: usize = 256;
/// Commands waiting for a game's actor.
const INBOX: usize = 1024;
/// Events waiting for a slow connection before it must resynchronise.
const BROADCAST: usize = 512;
/// The longest chat line, in characters.
const MAX_CHAT: usize = 500;
/// Chat lines a user may send per window.
const CHAT_BURST: u32 = 5;
/// The chat window.
const CHAT_WINDOW: Millis = Millis::from_secs(10);

/// A versioned event as sent to clients.
#[derive(Debug)]
pub struct EventFrame {
    /// Its version.
    pub v: u64,
    /// The frame for spectators (and for players, unless `players` is set).
    pub all: Utf8Bytes,
    /// The frame for the players when it differs (spectators' chat hidden).
    pub players: Option<Utf8Bytes>,
}

impl EventFrame {
    /// The frame a player or a spectator gets.
    #[must_use]
    pub fn for_viewer(&self, is_player: bool) -> Utf8Bytes {
        match (&self.players, is_player) {
            (Some(hidden), true) => hidden.clone(),
            _ => self.all.clone(),
        }
    }
}

/// What the actor broadcasts.
#[derive(Clone, Debug)]
pub enum Outgoing {
    /// A versioned event.
    Event(Arc<EventFrame>),
    /// An unversioned notice: a byo-yomi call, presence.
    Notice(Utf8Bytes),
}

/// Who is on the other end of a connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Participant {
    /// The logged-in user, if any (spectators may be anonymous).
    pub user: Option<(UserId, String)>,
    /// The colour he plays in this game, if he plays.
    pub color: Option<Color>,
}

/// What a connection gets when it joins.
pub struct Joined {
    /// The welcome frame: the whole game.
    pub welcome: Utf8Bytes,
    /// The events after the version the client had, when they are still in
    /// memory (otherwise the welcome alone brings the client up to date).
    pub missed: Vec<Arc<EventFrame>>,
    /// The stream of what follows.
    pub events: broadcast::Receiver<Outgoing>,
}

/// The ways to talk to a game's actor.
pub(crate) enum Msg {
    Join {
        who: Participant,
        since: Option<u64>,
        reply: oneshot::Sender<Joined>,
    },
    Leave {
        who: Participant,
    },
    Command {
        who: Participant,
        id: Option<u64>,
        version: Option<u64>,
        message: ClientMessage,
        lag: Millis,
        reply: oneshot::Sender<Result<u64, ErrorFrame>>,
    },
    Missed {
        since: u64,
        reply: oneshot::Sender<Option<Vec<Arc<EventFrame>>>>,
    },
    Time {
        reply: oneshot::Sender<Utf8Bytes>,
    },
    View {
        viewer_is_player: bool,
        reply: oneshot::Sender<Utf8Bytes>,
    },
    State {
        reply: oneshot::Sender<LiveState>,
    },
    Arbiter {
        event: GameEvent,
        reply: oneshot::Sender<Result<u64, String>>,
    },
}

/// A handle on a live game: cheap to clone, usable from any task.
#[derive(Clone)]
pub struct GameHandle {
    /// The game.
    pub id: GameId,
    pub(crate) tx: mpsc::Sender<Msg>,
}

/// The actor has stopped (the game was retired from memory).
#[derive(Debug, thiserror::Error)]
#[error("the game's actor has stopped")]
pub struct Gone;

impl GameHandle {
    async fn ask<T>(&self, msg: impl FnOnce(oneshot::Sender<T>) -> Msg) -> Result<T, Gone> {
        let (reply, answer) = oneshot::channel();
        self.tx.send(msg(reply)).await.map_err(|_| Gone)?;
        answer.await.map_err(|_| Gone)
    }

    /// Joins the game as `who`, with the last version the client has.
    pub async fn join(&self, who: Participant, since: Option<u64>) -> Result<Joined, Gone> {
        self.ask(|reply| Msg::Join { who, since, reply }).await
    }

    /// Leaves (the connection closed).
    pub async fn leave(&self, who: Participant) {
        // A stopped actor has no presence to update.
        let _ = self.tx.send(Msg::Leave { who }).await;
    }

    /// Sends a command; the answer is the new version once the event is
    /// durable, or the error frame.
    pub async fn command(
        &self,
        who: Participant,
        id: Option<u64>,
        version: Option<u64>,
        message: ClientMessage,
        lag: Millis,
    ) -> Result<Result<u64, ErrorFrame>, Gone> {
        self.ask(|reply| Msg::Command {
            who,
            id,
            version,
            message,
            lag,
            reply,
        })
        .await
    }

    /// The events after `since`, if still in memory.
    pub async fn missed(&self, since: u64) -> Result<Option<Vec<Arc<EventFrame>>>, Gone> {
        self.ask(|reply| Msg::Missed { since, reply }).await
    }

    /// The clocks now, as a frame.
    pub async fn time(&self) -> Result<Utf8Bytes, Gone> {
        self.ask(|reply| Msg::Time { reply }).await
    }

    /// The whole game as JSON.
    pub async fn view(&self, viewer_is_player: bool) -> Result<Utf8Bytes, Gone> {
        self.ask(|reply| Msg::View {
            viewer_is_player,
            reply,
        })
        .await
    }

    /// A copy of the game's state (for records).
    pub async fn state(&self) -> Result<LiveState, Gone> {
        self.ask(|reply| Msg::State { reply }).await
    }

    /// Applies an arbiter's decision (a [`GameEvent::Ruling`] or
    /// [`GameEvent::Warning`]) to the game; the answer is the new version,
    /// or why the game refused it (it is over, say).
    pub async fn arbiter(&self, event: GameEvent) -> Result<Result<u64, String>, Gone> {
        self.ask(|reply| Msg::Arbiter { event, reply }).await
    }
}

/// Why a change could not be made.
enum Failure {
    Refused(Refusal),
    Storage(StoreError),
}

impl From<Refusal> for Failure {
    fn from(r: Refusal) -> Failure {
        Failure::Refused(r)
    }
}

/// The actor.
pub(crate) struct Actor {
    id: GameId,
    created_at: i64,
    state: LiveState,
    shared: Arc<Shared>,
    events: broadcast::Sender<Outgoing>,
    recent: VecDeque<Arc<EventFrame>>,
    online: [u32; 2],
    away_since: [Option<Instant>; 2],
    spectators: u32,
    announced: Instant,
    chat_window: HashMap<UserId, (Instant, u32)>,
    ending_sent: bool,
    linger_until: Option<tokio::time::Instant>,
}

#[derive(Serialize)]
struct Presence {
    r#type: &'static str,
    online: ByColor<bool>,
    away_since: ByColor<Option<u64>>,
    claimable_at: ByColor<Option<u64>>,
    spectators: u32,
}

#[derive(Serialize)]
struct Welcome<'a> {
    r#type: &'static str,
    you: &'static str,
    last_command_id: Option<u64>,
    game: super::view::GameView,
    presence: &'a Presence,
}

fn text(json: String) -> Utf8Bytes {
    Utf8Bytes::from(json)
}

impl Actor {
    /// An actor for `state`, with the frames of its last events.
    pub(crate) fn new(
        id: GameId,
        created_at: i64,
        state: LiveState,
        recent: VecDeque<Arc<EventFrame>>,
        shared: Arc<Shared>,
    ) -> Actor {
        let now = time::now();
        Actor {
            id,
            created_at,
            announced: now.max(state.last_at),
            state,
            shared,
            events: broadcast::channel(BROADCAST).0,
            recent,
            online: [0, 0],
            away_since: [Some(now), Some(now)],
            spectators: 0,
            chat_window: HashMap::new(),
            ending_sent: false,
            linger_until: None,
        }
    }

    /// Starts the actor; the handle reaches it.
    pub(crate) fn spawn(self) -> GameHandle {
        let (tx, rx) = mpsc::channel(INBOX);
        let handle = GameHandle { id: self.id, tx };
        tokio::spawn(self.run(rx));
        handle
    }

    /// Appends the first event of a new game (its clock starts), or the
    /// downtime excuse of a restored one.
    pub(crate) async fn open(&mut self, event: GameEvent) -> Result<(), StoreError> {
        let at = time::now().max(self.state.last_at);
        match self.commit(at, event, None).await {
            Ok(_) => Ok(()),
            Err(Failure::Storage(e)) => Err(e),
            Err(Failure::Refused(r)) => Err(StoreError::Corrupt(r.to_string())),
        }
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Msg>) {
        if self.state.is_over() {
            self.finished();
        }
        loop {
            let wake = self.next_wake();
            let msg = tokio::select! {
                msg = rx.recv() => msg,
                () = sleep_until(wake) => {
                    self.on_timer().await;
                    if self.may_retire() {
                        self.shared.retire(self.id).await;
                        break;
                    }
                    continue;
                }
            };
            let Some(msg) = msg else { break };
            self.handle(msg).await;
        }
    }

    fn next_wake(&self) -> Option<tokio::time::Instant> {
        if self.state.is_over() {
            return self.linger_until;
        }
        let clock = &self.state.clock;
        let flag = clock.deadline().map(|d| d + clock.max_lag_credit());
        let call = clock.next_announcement(self.announced).map(|a| a.at);
        let at = match (flag, call) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        Some(time::deadline(at))
    }

    fn may_retire(&self) -> bool {
        self.state.is_over()
            && self.online == [0, 0]
            && self.spectators == 0
            && self
                .linger_until
                .is_some_and(|t| tokio::time::Instant::now() >= t)
    }

    async fn on_timer(&mut self) {
        if self.state.is_over() {
            return;
        }
        let now = time::now();
        if let Err(e) = self.settle(now, true).await {
            self.log_failure(&e);
        }
        self.announce(now);
    }

    /// Broadcasts the byo-yomi calls due by `now`.
    fn announce(&mut self, now: Instant) {
        if self.state.is_over() {
            return;
        }
        for call in self.state.clock.announcements_between(self.announced, now) {
            let frame = serde_json::json!({
                "type": "call",
                "at": call.at.as_millis(),
                "player": call.player,
                "call": call.call,
                "zh": call.text_zh(),
                "en": call.text_en(),
            });
            let _ = self.events.send(Outgoing::Notice(text(frame.to_string())));
        }
        self.announced = self.announced.max(now);
    }

    /// Records the flags that fell by `at` (with lag grace when `lenient`),
    /// as the clock crate's order of work asks.
    async fn settle(&mut self, at: Instant, lenient: bool) -> Result<(), Failure> {
        while !self.state.is_over() {
            let Some(flag) = self.state.clock.flag(at) else {
                return Ok(());
            };
            let grace = if lenient {
                self.state.clock.max_lag_credit()
            } else {
                Millis::ZERO
            };
            if at < flag.at() + grace {
                return Ok(());
            }
            let event = match flag {
                Flag::TimeOut { player, .. } => GameEvent::TimeOut { color: player },
                Flag::TimeOutPass { player, .. } => GameEvent::TimeOutPass { color: player },
                Flag::Forfeit { player, .. } => GameEvent::AbsentForfeit { color: player },
                Flag::BothForfeit { .. } => GameEvent::BothAbsent,
            };
            self.announce(flag.at());
            self.commit(at, event, None).await?;
        }
        Ok(())
    }

    fn log_failure(&self, failure: &Failure) {
        match failure {
            Failure::Refused(r) => tracing::error!(game = self.id, "refused: {r}"),
            Failure::Storage(e) => tracing::error!(game = self.id, "storage: {e}"),
        }
    }

    /// Applies `event`, and the counting proposal it may open; appends them
    /// durably; then broadcasts. On a storage failure the state is rebuilt
    /// from the log, which does not have them.
    async fn commit(
        &mut self,
        at: Instant,
        event: GameEvent,
        cmd: Option<CommandRef>,
    ) -> Result<u64, Failure> {
        let mut applied = Vec::with_capacity(2);
        let effects = self.state.apply(at, &event, cmd)?;
        let opened = effects.counting_opened;
        applied.push((self.state.version, event, cmd, effects));
        if opened {
            let (board, to_move, ruleset) = (
                self.state.game.board().clone(),
                self.state.game.to_move(),
                *self.state.game.ruleset(),
            );
            let proposal = tokio::task::spawn_blocking(move || estimate(&board, to_move, &ruleset))
                .await
                .map(|e| e.dead)
                .unwrap_or_else(|_| shoutan_rules::PointSet::new(self.state.game.size()));
            let size = self.state.game.size();
            let counting = GameEvent::Counting {
                dead: proposal.iter().map(|p| p.to_gtp(size)).collect(),
            };
            let effects = self.state.apply(at, &counting, None)?;
            applied.push((self.state.version, counting, None, effects));
        }
        // The frames show the state after each event; with a proposal, the
        // move's frame already shows counting open.
        let stored: Vec<StoredEvent> = applied
            .iter()
            .map(|(v, event, cmd, _)| StoredEvent {
                game: self.id,
                version: *v,
                at: time::millis(at),
                body: serde_json::to_string(&Record {
                    event: event.clone(),
                    cmd: *cmd,
                })
                .unwrap_or_default(),
            })
            .collect();
        let frames: Vec<Arc<EventFrame>> = applied
            .iter()
            .map(|(v, event, _, effects)| {
                let (all, players) = event_frames(&self.state, at, event, effects);
                Arc::new(EventFrame {
                    v: *v,
                    all: text(all),
                    players: players.map(text),
                })
            })
            .collect();
        if let Err(e) = self.shared.store.append_events(stored).await {
            self.reload().await;
            return Err(Failure::Storage(e));
        }
        for frame in frames {
            if self.recent.len() == RECENT {
                self.recent.pop_front();
            }
            self.recent.push_back(Arc::clone(&frame));
            let _ = self.events.send(Outgoing::Event(frame));
        }
        self.announced = self.announced.max(at);
        if self.state.is_over() {
            self.finished();
        }
        Ok(applied[0].0)
    }

    /// Rebuilds the state from the log after a failed append.
    async fn reload(&mut self) {
        match super::registry::load(&*self.shared.store, self.id).await {
            Ok(Some(loaded)) => {
                self.state = loaded.state;
                self.recent = loaded.recent;
            }
            Ok(None) => tracing::error!(game = self.id, "the game vanished from the store"),
            Err(e) => tracing::error!(game = self.id, "cannot reload the game: {e}"),
        }
    }

    fn finished(&mut self) {
        if !self.ending_sent {
            self.ending_sent = true;
            self.shared.ended(Ending {
                game: self.id,
                settings: self.state.settings.clone(),
                result: self.state.game.result(),
                cancelled: self.state.cancelled,
                ended_at: time::millis(self.state.last_at),
            });
        }
        self.linger_until = Some(tokio::time::Instant::now() + self.shared.config.linger);
    }

    fn presence(&self) -> Presence {
        let online = ByColor {
            black: self.online[0] > 0,
            white: self.online[1] > 0,
        };
        let claimable = |c: Color| {
            (!self.state.is_over())
                .then(|| self.claimable_at(c))
                .flatten()
                .map(Instant::as_millis)
        };
        Presence {
            r#type: "presence",
            online,
            away_since: ByColor {
                black: self.away_since[0].map(Instant::as_millis),
                white: self.away_since[1].map(Instant::as_millis),
            },
            claimable_at: ByColor {
                black: claimable(Color::Black),
                white: claimable(Color::White),
            },
            spectators: self.spectators,
        }
    }

    /// When the opponent of the absent `absent` may claim the game: after
    /// the configured wait, or sooner if `absent` had less time left.
    fn claimable_at(&self, absent: Color) -> Option<Instant> {
        let since = self.away_since[absent.index()]?;
        let wait = Millis::from_millis(
            u64::try_from(self.shared.config.abandonment.as_millis()).unwrap_or(u64::MAX),
        );
        let left = self
            .state
            .clock
            .reading(absent, since)
            .total_left
            .unwrap_or(Millis::MAX);
        Some(since + wait.min(left))
    }

    fn broadcast_presence(&self) {
        let json = serde_json::to_string(&self.presence()).unwrap_or_default();
        let _ = self.events.send(Outgoing::Notice(text(json)));
    }

    async fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Join { who, since, reply } => {
                let joined = self.join(&who, since);
                if reply.send(joined).is_ok() {
                    self.broadcast_presence();
                    if let Some(color) = who.color {
                        self.arrive(color).await;
                    }
                } else {
                    self.leave(&who);
                }
            }
            Msg::Leave { who } => {
                self.leave(&who);
                self.broadcast_presence();
                if self.may_retire() {
                    self.linger_until = Some(tokio::time::Instant::now());
                }
            }
            Msg::Command {
                who,
                id,
                version,
                message,
                lag,
                reply,
            } => {
                let outcome = self.command(&who, id, version, message, lag).await;
                let _ = reply.send(outcome);
            }
            Msg::Missed { since, reply } => {
                let _ = reply.send(self.missed(since));
            }
            Msg::Time { reply } => {
                let frame = serde_json::json!({
                    "type": "clock",
                    "clock": self.state.clock_view(time::now()),
                });
                let _ = reply.send(text(frame.to_string()));
            }
            Msg::View {
                viewer_is_player,
                reply,
            } => {
                let view =
                    self.state
                        .game_view(self.id, self.created_at, time::now(), viewer_is_player);
                let _ = reply.send(text(serde_json::to_string(&view).unwrap_or_default()));
            }
            Msg::State { reply } => {
                let _ = reply.send(self.state.clone());
            }
            Msg::Arbiter { event, reply } => {
                let _ = reply.send(self.arbiter(event).await);
            }
        }
    }

    fn join(&mut self, who: &Participant, since: Option<u64>) -> Joined {
        match who.color {
            Some(c) => {
                self.online[c.index()] += 1;
                self.away_since[c.index()] = None;
            }
            None => self.spectators += 1,
        }
        let events = self.events.subscribe();
        let presence = self.presence();
        let welcome = Welcome {
            r#type: "welcome",
            you: who.color.map_or("spectator", Color::name),
            last_command_id: who
                .user
                .as_ref()
                .and_then(|(id, _)| self.state.last_command.get(id).copied()),
            game: self
                .state
                .game_view(self.id, self.created_at, time::now(), who.color.is_some()),
            presence: &presence,
        };
        let missed = since.and_then(|s| self.missed(s)).unwrap_or_default();
        Joined {
            welcome: text(serde_json::to_string(&welcome).unwrap_or_default()),
            missed,
            events,
        }
    }

    fn leave(&mut self, who: &Participant) {
        match who.color {
            Some(c) => {
                let online = &mut self.online[c.index()];
                *online = online.saturating_sub(1);
                if *online == 0 {
                    self.away_since[c.index()] = Some(time::now());
                }
            }
            None => self.spectators = self.spectators.saturating_sub(1),
        }
    }

    /// The frames after `since`, or `None` if some are no longer in memory.
    fn missed(&self, since: u64) -> Option<Vec<Arc<EventFrame>>> {
        if since >= self.state.version {
            return Some(Vec::new());
        }
        let oldest = self.recent.front()?.v;
        (since + 1 >= oldest).then(|| {
            self.recent
                .iter()
                .filter(|f| f.v > since)
                .cloned()
                .collect()
        })
    }

    async fn command(
        &mut self,
        who: &Participant,
        id: Option<u64>,
        version: Option<u64>,
        message: ClientMessage,
        lag: Millis,
    ) -> Result<u64, ErrorFrame> {
        let at = time::now();
        let err = |code, message: &str| ErrorFrame::new(id, code, message);
        let Some((user, name)) = who.user.clone() else {
            return Err(err("login_required", "log in to do that"));
        };
        let Some(id_value) = id else {
            return Err(err("missing_id", "a command needs an id"));
        };
        if let Some(&last) = self.state.last_command.get(&user)
            && id_value <= last
        {
            return Err(ErrorFrame::new(
                id,
                "replayed_id",
                format!(
                    "id {id_value} is not above your last accepted id {last}: a repeated or replayed message"
                ),
            ));
        }
        if let Some(v) = version {
            if v > self.state.version {
                return Err(ErrorFrame::new(
                    id,
                    "future_version",
                    format!(
                        "version {v} does not exist yet (the game is at {})",
                        self.state.version
                    ),
                ));
            }
            if v < self.state.version {
                return Err(ErrorFrame::new(
                    id,
                    "stale_version",
                    format!(
                        "the game moved on to version {}: resync first",
                        self.state.version
                    ),
                ));
            }
        }
        let cmd = Some(CommandRef { user, id: id_value });
        if let ClientMessage::Chat { text } = &message {
            let event = self.chat(who, user, name, text, at, id)?;
            return self
                .commit(at, event, cmd)
                .await
                .map_err(|f| self.failure(id, f));
        }
        let Some(color) = who.color else {
            return Err(err("not_a_player", "spectators cannot play in this game"));
        };
        if self.state.is_over() {
            return Err(err("game_over", "the game is over"));
        }
        let turn = matches!(
            message,
            ClientMessage::Move { .. } | ClientMessage::Pass | ClientMessage::PlaceHandicap { .. }
        );
        let lenient = turn && self.state.running() == Some(color);
        if let Err(f) = self.settle(at, lenient).await {
            return Err(self.failure(id, f));
        }
        if self.state.is_over() {
            return Err(err(
                "game_over",
                "the game ended before your message (a clock ran out)",
            ));
        }
        let lag_ms = lag.as_millis();
        let event = match message {
            ClientMessage::Move { point } => GameEvent::Move {
                color,
                point,
                lag_ms,
            },
            ClientMessage::Pass => GameEvent::Pass { color, lag_ms },
            ClientMessage::PlaceHandicap { points } => {
                if color != Color::Black {
                    return Err(err("not_your_turn", "black places the handicap"));
                }
                GameEvent::PlaceHandicap { points, lag_ms }
            }
            ClientMessage::Resign => GameEvent::Resign { color },
            ClientMessage::Takeback => GameEvent::Takeback { color },
            ClientMessage::TakebackAnswer { accept } => GameEvent::TakebackAnswer { color, accept },
            ClientMessage::Draw => GameEvent::DrawOffer { color },
            ClientMessage::DrawAnswer { accept } => GameEvent::DrawAnswer { color, accept },
            ClientMessage::Count => GameEvent::CountRequest { color },
            ClientMessage::CountAnswer { accept } => GameEvent::CountAnswer { color, accept },
            ClientMessage::Toggle { point } => GameEvent::Toggle { color, point },
            ClientMessage::Accept => GameEvent::Accept { color },
            ClientMessage::Dispute => GameEvent::Dispute { color },
            ClientMessage::ClaimWin => self.claim(color, at, id)?,
            ClientMessage::Chat { .. } | ClientMessage::Resync { .. } | ClientMessage::Time => {
                return Err(err("malformed", "not a command"));
            }
        };
        match self.commit(at, event, cmd).await {
            Ok(v) => Ok(v),
            Err(Failure::Refused(Refusal::Clock(ClockError::Expired(flag)))) => {
                // Too late even with the lag credit: the flag is recorded.
                if let Err(f) = self.settle(at, false).await {
                    self.log_failure(&f);
                }
                Err(ErrorFrame::new(id, "time_out", flag.to_string()))
            }
            Err(f) => Err(self.failure(id, f)),
        }
    }

    fn failure(&self, id: Option<u64>, failure: Failure) -> ErrorFrame {
        match failure {
            Failure::Refused(r) => ErrorFrame::refusal(id, &r),
            Failure::Storage(e) => {
                tracing::error!(game = self.id, "storage: {e}");
                ErrorFrame::new(
                    id,
                    "storage",
                    "the server could not save this; nothing changed",
                )
            }
        }
    }

    fn chat(
        &mut self,
        who: &Participant,
        user: UserId,
        name: String,
        text: &str,
        at: Instant,
        id: Option<u64>,
    ) -> Result<GameEvent, ErrorFrame> {
        let text = &crate::text::clean_chat(text)
            .map_err(|e| ErrorFrame::new(id, e.code(), e.to_string()))?;
        let length = text.chars().count();
        if length == 0 || length > MAX_CHAT {
            return Err(ErrorFrame::new(
                id,
                "bad_chat",
                format!("a chat line has 1 to {MAX_CHAT} characters"),
            ));
        }
        let window = self.chat_window.entry(user).or_insert((at, 0));
        if at - window.0 >= CHAT_WINDOW {
            *window = (at, 0);
        }
        if window.1 >= CHAT_BURST {
            return Err(ErrorFrame::new(
                id,
                "rate_limited",
                format!("at most {CHAT_BURST} chat lines per {CHAT_WINDOW}"),
            ));
        }
        window.1 += 1;
        Ok(GameEvent::Chat {
            user,
            name,
            channel: if who.color.is_some() {
                ChatChannel::Players
            } else {
                ChatChannel::Spectators
            },
            text: text.to_owned(),
        })
    }

    /// A claim by `color` that the opponent abandoned the game.
    fn claim(&self, color: Color, at: Instant, id: Option<u64>) -> Result<GameEvent, ErrorFrame> {
        let absent = color.opponent();
        if self.online[absent.index()] > 0 {
            return Err(ErrorFrame::new(
                id,
                "opponent_present",
                "your opponent is connected",
            ));
        }
        match self.claimable_at(absent) {
            Some(when) if at >= when => Ok(if self.state.both_moved() {
                GameEvent::Abandon { color }
            } else {
                GameEvent::Cancel { color }
            }),
            Some(when) => Err(ErrorFrame::new(
                id,
                "not_yet",
                format!(
                    "your opponent left {} ago; you may claim in {}",
                    at - self.away_since[absent.index()].unwrap_or(at),
                    when - at
                ),
            )),
            None => Err(ErrorFrame::new(
                id,
                "opponent_present",
                "your opponent is connected",
            )),
        }
    }
}

async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

impl Actor {
    /// The state (before the actor is spawned).
    pub(crate) fn state(&self) -> &LiveState {
        &self.state
    }

    /// A player of a scheduled game connected: he sits down, and is
    /// charged for any lateness (Art. 22), unless his absence already lost.
    async fn arrive(&mut self, color: Color) {
        let waiting = |state: &LiveState| {
            !state.is_over()
                && matches!(
                    state.clock.status(),
                    Status::AwaitingPlayers { seated, .. } if seated[color.index()].is_none()
                )
        };
        if !waiting(&self.state) {
            return;
        }
        let at = time::now();
        if let Err(f) = self.settle(at, false).await {
            self.log_failure(&f);
            return;
        }
        if waiting(&self.state)
            && let Err(f) = self.commit(at, GameEvent::SitDown { color }, None).await
        {
            self.log_failure(&f);
        }
    }

    /// An arbiter's decision on the game, recorded after any flag that fell.
    async fn arbiter(&mut self, event: GameEvent) -> Result<u64, String> {
        let at = time::now();
        // As the timer does: a flag counts once the lag grace is over.
        let settled = self.settle(at, true).await;
        if self.state.is_over() {
            return Err("the game is over".to_owned());
        }
        let version = match settled {
            Ok(()) => self.commit(at, event, None).await,
            Err(f) => Err(f),
        };
        version.map_err(|f| match f {
            Failure::Refused(r) => r.to_string(),
            Failure::Storage(e) => format!("storage: {e}"),
        })
    }
}
