//! A game owned by another instance, as this instance serves it: a replica
//! of its state rebuilt from the log and kept up with the events the
//! owner's appends publish on the bus (a gap in versions, or a bus
//! reconnection, is filled from the log). Its clients get the same
//! protocol as the owner's: the welcome, the versioned events, the
//! timekeeper's calls (from the replica's clock), the presence (the
//! owner's, which counts this instance's connections as reported to it).
//! Their commands go to the owner, and each is acknowledged only once its
//! event has reached the replica, so that the event comes before its
//! acknowledgement here as it does on the owner.
//!
//! The follower never writes the log and never rules on the clock: flags
//! are the owner's to record. When the owner stops answering, the follower
//! stops: its clients reconnect, and the game is then served by whichever
//! instance has taken it over.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;

use super::bus::{GameMessage, Outcome};
use super::frame::ServerFrame;
use super::handle::{GameHandle, INBOX, Joined, Msg, Participant, Reply};
use super::presence::{Attendance, PresenceFrame};
use super::protocol::ErrorFrame;
use super::registry::{Loaded, Shared, apply_stored};
use super::replica::Replica;
use crate::cluster::{Logged, Membership, Unreachable};
use crate::error::ErrorCode;
use crate::time;

/// How often a follower tells the owner its connections, at most (and at
/// least, as a refresh: the owner forgets reports older than a minute).
const REPORT_EVERY: Duration = Duration::from_secs(1);
const REPORT_REFRESH: Duration = Duration::from_secs(20);
/// How long a follower with no connections stays.
const IDLE: Duration = Duration::from_secs(60);

/// A replica of a game another instance owns.
pub(crate) struct Follower {
    replica: Replica,
    incarnation: u64,
    /// The owner's instance id.
    owner: String,
    shared: Arc<Shared>,
    membership: Arc<Membership>,
    /// This instance's connections, and whether the owner knows them.
    attendance: Attendance,
    reported: Option<(Attendance, tokio::time::Instant)>,
    /// The owner's last presence frame.
    presence: PresenceFrame,
    /// Acknowledgements waiting for their event to reach the replica.
    waiting: Vec<(u64, Reply, Result<u64, String>)>,
    idle_since: Option<tokio::time::Instant>,
    stop: bool,
}

impl Follower {
    /// A follower of the game `loaded`, owned by `owner`.
    pub(crate) fn new(
        loaded: Loaded,
        owner: String,
        shared: Arc<Shared>,
        membership: Arc<Membership>,
        incarnation: u64,
    ) -> Follower {
        Follower {
            replica: Replica::new(
                loaded.row.id,
                loaded.row.created_at,
                loaded.state,
                loaded.recent,
            ),
            incarnation,
            owner,
            shared,
            membership,
            attendance: Attendance::default(),
            reported: None,
            presence: PresenceFrame::default(),
            waiting: Vec::new(),
            idle_since: Some(tokio::time::Instant::now()),
            stop: false,
        }
    }

    /// Starts the follower; the handle reaches it.
    pub(crate) fn spawn(self) -> GameHandle {
        let (tx, rx) = mpsc::channel(INBOX);
        let handle = GameHandle {
            id: self.replica.id,
            tx: tx.clone(),
            incarnation: self.incarnation,
            follower: true,
        };
        tokio::spawn(self.run(rx, tx.downgrade()));
        handle
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Msg>, me: mpsc::WeakSender<Msg>) {
        while !self.stop {
            let wake = self.next_wake();
            tokio::select! {
                msg = rx.recv() => match msg {
                    Some(msg) => self.handle(msg, &me).await,
                    None => break,
                },
                () = sleep_until(wake) => self.on_timer().await,
            }
        }
        if self
            .reported
            .is_some_and(|(told, _)| told != Attendance::default())
        {
            self.report(Attendance::default()).await;
        }
        self.shared.retire(self.replica.id, self.incarnation).await;
    }

    fn next_wake(&self) -> Option<tokio::time::Instant> {
        let call = self.replica.next_call().map(time::deadline);
        let report = match self.reported {
            Some((told, at)) if told == self.attendance => Some(at + REPORT_REFRESH),
            Some((_, at)) => Some(at + REPORT_EVERY),
            None => Some(tokio::time::Instant::now()),
        };
        let idle = self.idle_since.map(|t| t + IDLE);
        [call, report, idle].into_iter().flatten().min()
    }

    async fn on_timer(&mut self) {
        let now = tokio::time::Instant::now();
        if self.idle_since.is_some_and(|t| now >= t + IDLE) {
            self.stop = true;
            return;
        }
        let due = match self.reported {
            Some((told, at)) if told == self.attendance => now >= at + REPORT_REFRESH,
            Some((_, at)) => now >= at + REPORT_EVERY,
            None => true,
        };
        if due {
            self.report(self.attendance).await;
        }
        self.replica.announce(time::now());
    }

    async fn report(&mut self, attendance: Attendance) {
        self.reported = Some((attendance, tokio::time::Instant::now()));
        let message = GameMessage::Attendance {
            from: self.membership.instance.clone(),
            game: self.replica.id,
            attendance,
        };
        self.membership.send(&self.owner, &message).await;
    }

    async fn handle(&mut self, msg: Msg, me: &mpsc::WeakSender<Msg>) {
        let Some(msg) = self.replica.answer(msg) else {
            return;
        };
        match msg {
            Msg::Join { who, since, reply } => {
                let joined = self.join(&who, since);
                if reply.send(joined).is_ok() {
                    self.count(&who, true);
                }
            }
            Msg::Leave { who } => self.count(&who, false),
            Msg::Command {
                who,
                id,
                version,
                message,
                lag,
                reply,
            } => {
                let req = self.membership.request_number();
                let request = GameMessage::Command {
                    req,
                    from: self.membership.instance.clone(),
                    game: self.replica.id,
                    who,
                    id,
                    version,
                    message,
                    lag_ms: lag.as_millis(),
                };
                self.forward(req, request, Reply::Command(reply, id), me);
            }
            Msg::Arbiter { event, reply } => {
                let req = self.membership.request_number();
                let request = GameMessage::Arbiter {
                    req,
                    from: self.membership.instance.clone(),
                    game: self.replica.id,
                    event,
                };
                self.forward(req, request, Reply::Arbiter(reply), me);
            }
            Msg::Forwarded { outcome, reply } => self.on_forwarded(outcome, reply).await,
            Msg::Logged(logged) => self.on_logged(logged).await,
            Msg::CatchUp => self.catch_up().await,
            Msg::Presence(frame) => {
                self.replica.notice(&ServerFrame::Presence(&frame));
                self.presence = frame;
            }
            Msg::Stop => self.stop = true,
            // Answered by the replica; the owner's business.
            Msg::Missed { .. }
            | Msg::Time { .. }
            | Msg::Snapshot { .. }
            | Msg::State { .. }
            | Msg::Attendance { .. } => {}
        }
    }

    fn join(&self, who: &Participant, since: Option<u64>) -> Joined {
        self.replica.join(who, since, &self.presence)
    }

    fn count(&mut self, who: &Participant, joined: bool) {
        let n = match who.color {
            Some(c) => &mut self.attendance.players[c],
            None => &mut self.attendance.spectators,
        };
        *n = if joined { *n + 1 } else { n.saturating_sub(1) };
        self.idle_since =
            (self.attendance == Attendance::default()).then(tokio::time::Instant::now);
    }

    /// Sends `request` to the owner; its answer comes back to this
    /// follower's own mailbox, so that the follower goes on meanwhile.
    fn forward(&self, req: u64, request: GameMessage, reply: Reply, me: &mpsc::WeakSender<Msg>) {
        let membership = Arc::clone(&self.membership);
        let owner = self.owner.clone();
        let me = me.clone();
        tokio::spawn(async move {
            let outcome = membership.request(&owner, req, &request).await;
            if let Some(me) = me.upgrade() {
                let _ = me.send(Msg::Forwarded { outcome, reply }).await;
            }
        });
    }

    async fn on_forwarded(&mut self, outcome: Result<Outcome, Unreachable>, reply: Reply) {
        let version = match (outcome, reply) {
            (Ok(Outcome::Command { result: Ok(v) }), reply) => (v, reply, Ok(v)),
            (Ok(Outcome::Command { result: Err(frame) }), Reply::Command(tx, _)) => {
                let _ = tx.send(Err(frame));
                return;
            }
            (Ok(Outcome::Arbiter { result: Ok(v) }), reply) => (v, reply, Ok(v)),
            (Ok(Outcome::Arbiter { result: Err(why) }), Reply::Arbiter(tx)) => {
                let _ = tx.send(Err(why));
                return;
            }
            (_, reply) => {
                // The owner is gone, or no longer owns the game: stop, so
                // that the clients reconnect to whoever serves it now.
                refuse(reply, "the game moved to another server; reconnect");
                self.stop = true;
                return;
            }
        };
        self.waiting.push(version);
        if self.replica.state.version < self.waiting.iter().map(|w| w.0).max().unwrap_or(0) {
            self.catch_up().await;
        }
        self.acknowledge();
    }

    /// Answers the acknowledgements whose events the replica has.
    fn acknowledge(&mut self) {
        let version = self.replica.state.version;
        let (ready, waiting): (Vec<_>, Vec<_>) =
            self.waiting.drain(..).partition(|(v, _, _)| *v <= version);
        self.waiting = waiting;
        for (_, reply, result) in ready {
            match (reply, result) {
                (Reply::Command(tx, _), Ok(v)) => {
                    let _ = tx.send(Ok(v));
                }
                (Reply::Arbiter(tx), result) => {
                    let _ = tx.send(result);
                }
                (Reply::Command(tx, id), Err(why)) => {
                    let _ = tx.send(Err(ErrorFrame::new(id, ErrorCode::Internal, why)));
                }
            }
        }
    }

    async fn on_logged(&mut self, logged: Logged) {
        if logged.v <= self.replica.state.version {
            return;
        }
        match (logged.at, logged.b) {
            (Some(at), Some(body)) if logged.v == self.replica.state.version + 1 => {
                let stored = shoutan_store::StoredEvent {
                    game: self.replica.id,
                    version: logged.v,
                    at,
                    body,
                };
                self.apply(&stored);
            }
            _ => self.catch_up().await,
        }
        self.acknowledge();
    }

    /// Reads the events the replica lacks from the log.
    async fn catch_up(&mut self) {
        match self
            .shared
            .store
            .events(self.replica.id, self.replica.state.version)
            .await
        {
            Ok(events) => {
                for stored in &events {
                    if !self.apply(stored) {
                        break;
                    }
                }
            }
            Err(e) => tracing::warn!(
                game = self.replica.id,
                "the follower cannot read the log: {e}"
            ),
        }
        self.acknowledge();
    }

    /// Applies the next event of the log; false (and the follower stops)
    /// when it does not apply, which only a corrupt log would do.
    fn apply(&mut self, stored: &shoutan_store::StoredEvent) -> bool {
        match apply_stored(&mut self.replica.state, stored) {
            Ok((at, record, effects)) => {
                self.replica.publish(at, &record.event, &effects);
                true
            }
            Err(why) => {
                tracing::error!(
                    game = self.replica.id,
                    "the follower cannot apply the log: {why}"
                );
                self.stop = true;
                false
            }
        }
    }
}

/// Tells the sender of a forwarded request that it could not be done.
fn refuse(reply: Reply, why: &str) {
    match reply {
        Reply::Command(tx, id) => {
            let _ = tx.send(Err(ErrorFrame::new(id, ErrorCode::GameMoved, why)));
        }
        Reply::Arbiter(tx) => {
            let _ = tx.send(Err(why.to_owned()));
        }
    }
}

async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
