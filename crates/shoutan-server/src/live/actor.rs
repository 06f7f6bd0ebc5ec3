//! The actor of one live game: the single writer of its state.
//!
//! Every change goes one way, as in lila's round actor: the event is
//! checked by applying it to a copy of the state; the copy's event is
//! appended to the durable log; only then does the copy become the state,
//! and the event's frame goes out. A refused event or a failed append
//! leaves the state exactly as the log has it.
//!
//! Small collaborators keep the rest: [`Presence`] (who is there, told at
//! most once a second), the [`Estimates`](super::estimates::Estimates)
//! pool (the dead-stone proposal, off the actor), the chat window.

use std::collections::HashMap;
use std::sync::Arc;

use shoutan_clock::{ClockError, Flag, Instant, Millis, Status};
use shoutan_rules::{Color, Phase, PointSet, Vertex};
use shoutan_store::{GameId, StoreError, StoredEvent, UserId};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::bus::GameMessage;
use super::estimates::{ESTIMATES_PER_GAME, NoProposal};
use super::event::{ChatChannel, CommandRef, GameEvent, Record};
use super::frame::ServerFrame;
use super::handle::{GameHandle, INBOX, Joined, Msg, Participant};
use super::presence::Presence;
use super::protocol::{ClientMessage, ErrorFrame};
use super::registry::{Ending, Shared};
use super::replica::{Recent, Replica};
use super::state::{LiveState, Refusal};
use crate::error::ErrorCode;
use crate::time;

/// The longest chat line, in characters.
const MAX_CHAT: usize = 500;
/// Chat lines a user may send per window.
const CHAT_BURST: u32 = 5;
/// The chat window.
const CHAT_WINDOW: Millis = Millis::from_secs(10);

/// Why a change could not be made. Either way the state is as the log has it.
enum Failure {
    Refused(Refusal),
    Storage(StoreError),
}

impl From<Refusal> for Failure {
    fn from(r: Refusal) -> Failure {
        Failure::Refused(r)
    }
}

/// The dead-stone proposal of the counting just opened, on its way.
struct Proposal {
    /// The estimate, running on the server's estimate pool.
    estimate: JoinHandle<Result<PointSet, NoProposal>>,
}

/// The counting phase as the actor follows it.
#[derive(Default)]
struct Counting {
    /// Estimates asked for in this game ([`ESTIMATES_PER_GAME`] at most).
    estimates: u32,
    /// The proposal on its way, if one is.
    proposal: Option<Proposal>,
    /// The last counting action (opening, a mark, an acceptance): counting
    /// idle for the server's limit after it closes as marked.
    last_action: Option<Instant>,
}

/// The actor.
pub(crate) struct Actor {
    replica: Replica,
    incarnation: u64,
    shared: Arc<Shared>,
    presence: Presence,
    chat_window: HashMap<UserId, (Instant, u32)>,
    counting: Counting,
    ending_sent: bool,
    linger_until: Option<tokio::time::Instant>,
    /// Another instance owns the game now: this actor stops.
    deposed: bool,
}

/// What woke the actor up.
enum Wake {
    Message(Option<Msg>),
    Timer,
    Proposal(Result<PointSet, NoProposal>),
}

impl Actor {
    /// An actor for `state`, with the frames of its last events.
    /// `recorded`: the store already holds the game's end, so a finished
    /// game loaded again (a visitor, a restart) is not reported again — a
    /// second report would redo the write and tell the lobby once more.
    pub(crate) fn new(
        id: GameId,
        created_at: i64,
        state: LiveState,
        recent: Recent,
        shared: Arc<Shared>,
        recorded: bool,
    ) -> Actor {
        let now = time::now();
        let counting = Counting {
            last_action: (state.game.phase() == Phase::Counting).then_some(now),
            ..Counting::default()
        };
        Actor {
            replica: Replica::new(id, created_at, state, recent),
            incarnation: super::registry::next_incarnation(),
            shared,
            presence: Presence::new(now),
            chat_window: HashMap::new(),
            counting,
            ending_sent: recorded,
            linger_until: None,
            deposed: false,
        }
    }

    /// Starts the actor; the handle reaches it.
    pub(crate) fn spawn(self) -> GameHandle {
        let (tx, rx) = mpsc::channel(INBOX);
        let handle = GameHandle {
            id: self.replica.id,
            tx,
            incarnation: self.incarnation,
            follower: false,
        };
        tokio::spawn(self.run(rx));
        handle
    }

    /// Appends the first event of a new game (its clock starts).
    pub(crate) async fn open(&mut self, event: GameEvent) -> Result<(), StoreError> {
        let at = time::now().max(self.replica.state.last_at);
        self.open_at(at, event).await
    }

    /// Takes up a game whose server stopped: the time from its last sign
    /// of life (`last_sign`) to this very append is excused on the clock,
    /// so the whole gap — the downtime and the rebuilding — is forgiven.
    pub(crate) async fn resume(&mut self, last_sign: Instant) -> Result<(), StoreError> {
        let at = time::now().max(self.replica.state.last_at);
        let excused_ms = (at - last_sign.min(at)).as_millis();
        self.open_at(at, GameEvent::Resume { excused_ms }).await
    }

    async fn open_at(&mut self, at: Instant, event: GameEvent) -> Result<(), StoreError> {
        match self.commit(at, event, None).await {
            Ok(_) => Ok(()),
            Err(Failure::Storage(e)) => Err(e),
            Err(Failure::Refused(r)) => Err(StoreError::Corrupt(r.to_string())),
        }
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Msg>) {
        if self.replica.state.is_over() {
            self.finished();
        }
        while !self.deposed {
            let wake = self.next_wake();
            let woke = tokio::select! {
                msg = rx.recv() => Wake::Message(msg),
                () = sleep_until(wake) => Wake::Timer,
                result = proposal(&mut self.counting.proposal) => Wake::Proposal(result),
            };
            match woke {
                Wake::Message(Some(msg)) => self.handle(msg).await,
                Wake::Message(None) => break,
                Wake::Timer => {
                    self.on_timer().await;
                    if self.may_retire() {
                        self.shared.retire(self.replica.id, self.incarnation).await;
                        break;
                    }
                }
                Wake::Proposal(result) => self.on_proposal(result).await,
            }
        }
    }

    /// The earliest of: the clock's next flag or byo-yomi call, the
    /// presence frame due, the counting limit, the end of lingering.
    fn next_wake(&self) -> Option<tokio::time::Instant> {
        let presence = self.presence.due();
        if self.replica.state.is_over() {
            return earliest(self.linger_until, presence);
        }
        let clock = &self.replica.state.clock;
        let flag = clock.deadline().map(|d| d + clock.max_lag_credit());
        let call = self.replica.next_call();
        let counting = self
            .counting
            .last_action
            .map(|t| t + Millis::from_millis(millis_of(self.shared.config.counting_limit)));
        let clock_wake = [flag, call, counting]
            .into_iter()
            .flatten()
            .min()
            .map(time::deadline);
        earliest(clock_wake, presence)
    }

    fn may_retire(&self) -> bool {
        self.replica.state.is_over()
            && self.presence.is_empty()
            && self
                .linger_until
                .is_some_and(|t| tokio::time::Instant::now() >= t)
    }

    async fn on_timer(&mut self) {
        if self
            .presence
            .due()
            .is_some_and(|t| t <= tokio::time::Instant::now())
        {
            self.tell_presence();
        }
        if self.replica.state.is_over() {
            return;
        }
        let now = time::now();
        if let Err(e) = self.settle(now, true).await {
            self.log_failure(&e);
        }
        if self.counting_expired(now)
            && let Err(e) = self.commit(now, GameEvent::CountingExpired, None).await
        {
            self.log_failure(&e);
        }
        self.replica.announce(now);
    }

    fn counting_expired(&self, now: Instant) -> bool {
        self.replica.state.game.phase() == Phase::Counting
            && self.counting.last_action.is_some_and(|t| {
                now >= t + Millis::from_millis(millis_of(self.shared.config.counting_limit))
            })
    }

    /// Records the flags that fell by `at` (with lag grace when `lenient`),
    /// as the clock crate's order of work asks.
    async fn settle(&mut self, at: Instant, lenient: bool) -> Result<(), Failure> {
        while !self.replica.state.is_over() {
            let Some(flag) = self.replica.state.clock.flag(at) else {
                return Ok(());
            };
            let grace = if lenient {
                self.replica.state.clock.max_lag_credit()
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
            self.replica.announce(flag.at());
            self.commit(at, event, None).await?;
        }
        Ok(())
    }

    fn log_failure(&self, failure: &Failure) {
        match failure {
            Failure::Refused(r) => tracing::error!(game = self.replica.id, "refused: {r}"),
            Failure::Storage(e) => tracing::error!(game = self.replica.id, "storage: {e}"),
        }
    }

    /// Checks `event` on a copy of the state, appends it to the log, and
    /// only then makes the copy the state and broadcasts the event. A
    /// refusal or a failed append changes nothing: the state stays the
    /// log's. Returns the event's version.
    async fn commit(
        &mut self,
        at: Instant,
        event: GameEvent,
        cmd: Option<CommandRef>,
    ) -> Result<u64, Failure> {
        let mut next = self.replica.state.clone();
        let effects = next.apply(at, &event, cmd)?;
        let stored = StoredEvent {
            game: self.replica.id,
            version: next.version,
            at: time::millis(at),
            body: serde_json::to_string(&Record {
                event: event.clone(),
                cmd,
            })
            .map_err(|e| {
                Failure::Storage(StoreError::Unencodable(format!(
                    "event {}: {e}",
                    next.version
                )))
            })?,
        };
        let appending = std::time::Instant::now();
        let appended = self.shared.store.append_events(vec![stored]).await;
        metrics::histogram!("shoutan_append_seconds").record(appending.elapsed());
        if let Err(e) = appended {
            if let StoreError::NotOwner(_) = e {
                tracing::warn!(
                    game = self.replica.id,
                    "another instance owns the game now: stepping down"
                );
                self.deposed = true;
            }
            return Err(Failure::Storage(e));
        }
        self.replica.state = next;
        self.replica.publish(at, &event, &effects);
        self.follow_counting(at, &event, effects.counting_opened);
        if self.replica.state.is_over() {
            self.finished();
        }
        Ok(self.replica.state.version)
    }

    /// Keeps up with the counting phase after an event: when counting
    /// opens, the proposal is asked of the estimate pool (within the
    /// game's allowance); a player's mark, acceptance or dispute makes any
    /// proposal still on its way moot.
    fn follow_counting(&mut self, at: Instant, event: &GameEvent, opened: bool) {
        if self.replica.state.game.phase() != Phase::Counting {
            self.counting.last_action = None;
            self.drop_proposal();
            return;
        }
        match event {
            GameEvent::Toggle { .. } | GameEvent::Accept { .. } => {
                self.counting.last_action = Some(at);
                self.drop_proposal();
            }
            GameEvent::Counting { .. } => self.counting.last_action = Some(at),
            _ if opened => {
                self.counting.last_action = Some(at);
                self.drop_proposal();
                if self.counting.estimates < ESTIMATES_PER_GAME {
                    self.counting.estimates += 1;
                    let shared = Arc::clone(&self.shared);
                    let game = self.replica.state.game.clone();
                    self.counting.proposal = Some(Proposal {
                        estimate: tokio::spawn(
                            async move { shared.estimates.dead_stones(game).await },
                        ),
                    });
                }
            }
            _ => {}
        }
    }

    fn drop_proposal(&mut self) {
        if let Some(p) = self.counting.proposal.take() {
            p.estimate.abort();
        }
    }

    /// The proposal arrived: it becomes the marking (an empty one too: it
    /// tells the players the server has proposed), unless a player has
    /// marked or accepted since counting opened (then it was dropped).
    async fn on_proposal(&mut self, result: Result<PointSet, NoProposal>) {
        self.counting.proposal = None;
        let dead = match result {
            Ok(dead) => dead,
            Err(why) => {
                tracing::info!(
                    game = self.replica.id,
                    "counting opens without a proposal: {why}"
                );
                return;
            }
        };
        if self.replica.state.game.phase() != Phase::Counting {
            return;
        }
        let size = self.replica.state.game.size();
        let event = GameEvent::Counting {
            dead: dead.iter().map(|p| Vertex::of(p, size)).collect(),
        };
        if let Err(e) = self.commit(time::now(), event, None).await {
            self.log_failure(&e);
        }
    }

    fn finished(&mut self) {
        if !self.ending_sent {
            self.ending_sent = true;
            self.shared.ended(Ending {
                game: self.replica.id,
                settings: self.replica.state.settings.clone(),
                result: self.replica.state.game.result(),
                cancelled: self.replica.state.cancelled,
                ended_at: time::millis(self.replica.state.last_at),
            });
        }
        self.linger_until = Some(tokio::time::Instant::now() + self.shared.config.linger);
    }

    /// When the opponent of the absent `absent` may claim the game: after
    /// the configured wait, or sooner if `absent` had less time left. Never
    /// in an event's game waiting for its players: there one who does not
    /// come loses at the late-arrival limit (Art. 22), not by a claim.
    fn claimable_at(&self, absent: Color) -> Option<Instant> {
        if self.replica.state.is_over() || self.awaiting_players() {
            return None;
        }
        let since = self.presence.away_since(absent)?;
        let wait = Millis::from_millis(millis_of(self.shared.config.abandonment));
        let left = self
            .replica
            .state
            .clock
            .reading(absent, since)
            .total_left
            .unwrap_or(Millis::MAX);
        self.presence.claimable_at(absent, wait, left)
    }

    /// Tells the presence to this instance's connections and to the
    /// instances that serve the game's other connections.
    fn tell_presence(&mut self) {
        let claimable = ByColorClaims::of(self);
        let frame = self.presence.frame(|c| claimable.at(c));
        self.replica.notice(&ServerFrame::Presence(&frame));
        let others = self.presence.other_instances();
        if let (Some(membership), false) = (self.shared.membership(), others.is_empty()) {
            let message = GameMessage::Presence {
                game: self.replica.id,
                frame,
            };
            tokio::spawn(async move {
                for instance in others {
                    membership.send(&instance, &message).await;
                }
            });
        }
    }

    async fn handle(&mut self, msg: Msg) {
        let Some(msg) = self.replica.answer(msg) else {
            return;
        };
        match msg {
            Msg::Join { who, since, reply } => {
                let joined = self.join(&who, since);
                if reply.send(joined).is_ok() {
                    if let Some(color) = who.color {
                        self.arrive(color).await;
                    }
                } else {
                    self.presence.leave(who.color, time::now());
                }
            }
            Msg::Leave { who } => {
                self.presence.leave(who.color, time::now());
                // A finished game nobody is in has no post-game chat to
                // keep: it leaves memory now (its log reloads it for the
                // next visitor), not after the lingering time, so a
                // round of a large event does not stay behind it.
                if self.replica.state.is_over() && self.presence.is_empty() {
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
                let is_move = matches!(message, ClientMessage::Move { .. } | ClientMessage::Pass);
                let received = std::time::Instant::now();
                let outcome = self.command(&who, id, version, message, lag).await;
                if is_move && outcome.is_ok() {
                    metrics::counter!("shoutan_moves_total").increment(1);
                    metrics::histogram!("shoutan_move_seconds").record(received.elapsed());
                }
                let _ = reply.send(outcome);
            }
            Msg::Arbiter { event, reply } => {
                let _ = reply.send(self.arbiter(event).await);
            }
            Msg::Attendance {
                instance,
                attendance,
            } => self.presence.report(&instance, attendance, time::now()),
            // Answered by the replica.
            Msg::Missed { .. } | Msg::Time { .. } | Msg::Snapshot { .. } | Msg::State { .. } => {}
            // A follower's business: the owner writes the log itself.
            Msg::Logged(_)
            | Msg::Presence(_)
            | Msg::CatchUp
            | Msg::Forwarded { .. }
            | Msg::Stop => {}
        }
    }

    fn join(&mut self, who: &Participant, since: Option<u64>) -> Joined {
        self.presence.join(who.color, time::now());
        let claimable = ByColorClaims::of(self);
        let presence = self.presence.snapshot(|c| claimable.at(c));
        self.replica.join(who, since, &presence)
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
            return Err(err(ErrorCode::LoginRequired, "log in to do that"));
        };
        let Some(id_value) = id else {
            return Err(err(ErrorCode::MissingId, "a command needs an id"));
        };
        if let Some(&last) = self.replica.state.last_command.get(&user)
            && id_value <= last
        {
            return Err(ErrorFrame::new(
                id,
                ErrorCode::ReplayedId,
                format!(
                    "id {id_value} is not above your last accepted id {last}: a repeated or replayed message"
                ),
            ));
        }
        if let Some(v) = version {
            if v > self.replica.state.version {
                return Err(ErrorFrame::new(
                    id,
                    ErrorCode::FutureVersion,
                    format!(
                        "version {v} does not exist yet (the game is at {})",
                        self.replica.state.version
                    ),
                ));
            }
            if v < self.replica.state.version {
                return Err(ErrorFrame::new(
                    id,
                    ErrorCode::StaleVersion,
                    format!(
                        "the game moved on to version {}: resync first",
                        self.replica.state.version
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
            return Err(err(
                ErrorCode::NotAPlayer,
                "spectators cannot play in this game",
            ));
        };
        if self.replica.state.is_over() {
            return Err(err(ErrorCode::GameOver, "the game is over"));
        }
        let turn = matches!(
            message,
            ClientMessage::Move { .. } | ClientMessage::Pass | ClientMessage::PlaceHandicap { .. }
        );
        let lenient = turn && self.replica.state.running() == Some(color);
        if let Err(f) = self.settle(at, lenient).await {
            return Err(self.failure(id, f));
        }
        if self.replica.state.is_over() {
            return Err(err(
                ErrorCode::GameOver,
                "the game ended before your message (a clock ran out)",
            ));
        }
        if turn
            && let Some(partner) = self.replica.state.partner_to_move()
            && self.replica.state.game.to_move() == color
            && partner.id != user
        {
            return Err(ErrorFrame::new(
                id,
                ErrorCode::PartnersTurn,
                format!("it is your partner {}'s turn", partner.name),
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
                    return Err(err(ErrorCode::NotYourTurn, "black places the handicap"));
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
                return Err(err(ErrorCode::Malformed, "not a command"));
            }
        };
        match self.commit(at, event, cmd).await {
            Ok(v) => Ok(v),
            Err(Failure::Refused(Refusal::Clock(ClockError::Expired(flag)))) => {
                // Too late even with the lag credit: the flag is recorded.
                if let Err(f) = self.settle(at, false).await {
                    self.log_failure(&f);
                }
                Err(ErrorFrame::new(id, ErrorCode::TimeOut, flag.to_string()))
            }
            Err(f) => Err(self.failure(id, f)),
        }
    }

    fn failure(&self, id: Option<u64>, failure: Failure) -> ErrorFrame {
        match failure {
            Failure::Refused(r) => ErrorFrame::refusal(id, &r),
            Failure::Storage(e) => {
                tracing::error!(game = self.replica.id, "storage: {e}");
                ErrorFrame::new(
                    id,
                    ErrorCode::Storage,
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
                ErrorCode::BadChat,
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
                ErrorCode::RateLimited,
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
        let present =
            || ErrorFrame::new(id, ErrorCode::OpponentPresent, "your opponent is connected");
        if self.presence.is_online(absent) {
            return Err(present());
        }
        if self.awaiting_players() {
            return Err(ErrorFrame::new(
                id,
                ErrorCode::NotStarted,
                "the game has not started: a player who has not sat down by the late-arrival limit loses by forfeit",
            ));
        }
        match self.claimable_at(absent) {
            Some(when) if at >= when => Ok(if self.replica.state.both_moved() {
                GameEvent::Abandon { color }
            } else {
                GameEvent::Cancel { color }
            }),
            Some(when) => Err(ErrorFrame::new(
                id,
                ErrorCode::NotYet,
                format!(
                    "your opponent left {} ago; you may claim in {}",
                    at - self.presence.away_since(absent).unwrap_or(at),
                    when - at
                ),
            )),
            None => Err(present()),
        }
    }

    /// Whether the game waits for its players to sit down (Art. 22).
    fn awaiting_players(&self) -> bool {
        matches!(
            self.replica.state.clock.status(),
            Status::AwaitingPlayers { .. }
        )
    }

    /// The state (before the actor is spawned).
    pub(crate) fn state(&self) -> &LiveState {
        &self.replica.state
    }

    /// A player of a scheduled game connected: he sits down, and is
    /// charged for any lateness (Art. 22), unless his absence already lost.
    async fn arrive(&mut self, color: Color) {
        let waiting = |state: &LiveState| {
            !state.is_over()
                && matches!(
                    state.clock.status(),
                    Status::AwaitingPlayers { seated, .. } if seated[color].is_none()
                )
        };
        if !waiting(&self.replica.state) {
            return;
        }
        let at = time::now();
        if let Err(f) = self.settle(at, false).await {
            self.log_failure(&f);
            return;
        }
        if waiting(&self.replica.state)
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
        if self.replica.state.is_over() {
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

/// The claim times of both players, read before the presence is borrowed
/// for its frame.
struct ByColorClaims(shoutan_rules::ByColor<Option<Instant>>);

impl ByColorClaims {
    fn of(actor: &Actor) -> ByColorClaims {
        ByColorClaims(shoutan_rules::ByColor::of(|c| actor.claimable_at(c)))
    }

    fn at(&self, color: Color) -> Option<Instant> {
        self.0[color]
    }
}

/// The proposal's result, when there is one on its way.
async fn proposal(pending: &mut Option<Proposal>) -> Result<PointSet, NoProposal> {
    match pending {
        Some(p) => match (&mut p.estimate).await {
            Ok(result) => result,
            Err(_) => Err(NoProposal::Cancelled),
        },
        None => std::future::pending().await,
    }
}

fn earliest(
    a: Option<tokio::time::Instant>,
    b: Option<tokio::time::Instant>,
) -> Option<tokio::time::Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn millis_of(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
