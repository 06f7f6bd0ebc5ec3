//! The lobby: open challenges and live games, listed over HTTP and pushed
//! live over the lobby WebSocket. A challenge to a named player is seen by
//! the two of them only. The socket also says when an event (tournament)
//! changed, so that its pages fetch it again instead of polling.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use axum::extract::State;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use shoutan_rules::Rank;
use shoutan_store::{Challenge, GameId, TournamentId, UserId};
use tokio::sync::{broadcast, mpsc};

use crate::AppState;
use crate::accounts::session::Visitor;
use crate::error::ApiError;
use crate::live::view::ResultView;
use crate::settings::{ChallengeSettings, ColourRequest, GameSettings, HandicapRequest, Seat};

/// What the store keeps of a challenge: its settings and the challenger's
/// rank when it was made.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StoredChallenge {
    /// The settings.
    pub settings: ChallengeSettings,
    /// The challenger's rank.
    pub challenger_rank: Rank,
}

/// A challenge as listed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChallengeView {
    /// Its id.
    pub id: i64,
    /// Who offers the game.
    pub challenger: String,
    /// His rank.
    pub challenger_rank: Rank,
    /// Who it is for, if anyone in particular.
    pub opponent: Option<String>,
    /// Board size.
    pub size: u8,
    /// The ruleset's name (`custom` for a custom one).
    pub ruleset: String,
    /// Komi in points, if fixed by the challenger.
    pub komi: Option<f64>,
    /// The handicap.
    pub handicap: HandicapRequest,
    /// Who takes black.
    pub colour: ColourRequest,
    /// The clock, as text.
    pub time_control: String,
    /// Art. 22.5's option.
    pub time_out: shoutan_clock::TimeOutRule,
    /// Rated or casual.
    pub rated: bool,
    /// When (ms since the Unix epoch).
    pub created_at: i64,
    /// The two players a challenge to a named player is shown to (not
    /// shown to clients).
    #[serde(skip_serializing, default)]
    audience: Option<[UserId; 2]>,
}

impl ChallengeView {
    /// The view of a stored challenge.
    pub fn of(challenge: &Challenge) -> Result<ChallengeView, ApiError> {
        let stored: StoredChallenge =
            serde_json::from_str(&challenge.settings).map_err(ApiError::internal)?;
        let s = &stored.settings;
        Ok(ChallengeView {
            id: challenge.id,
            challenger: challenge.challenger.name.clone(),
            challenger_rank: stored.challenger_rank,
            opponent: challenge.opponent.as_ref().map(|o| o.name.clone()),
            size: s.size.get(),
            ruleset: s.ruleset.to_string(),
            komi: s.komi.map(shoutan_rules::Score::points),
            handicap: s.handicap,
            colour: s.colour,
            time_control: s.time_control.to_string(),
            time_out: s.time_out,
            rated: s.rated,
            created_at: challenge.created_at,
            audience: challenge
                .opponent
                .as_ref()
                .map(|o| [challenge.challenger.id, o.id]),
        })
    }

    /// Whether `viewer` may see it.
    #[must_use]
    pub fn visible_to(&self, viewer: Option<UserId>) -> bool {
        match self.audience {
            None => true,
            Some(pair) => viewer.is_some_and(|v| pair.contains(&v)),
        }
    }
}

/// A live game as listed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LiveGameView {
    /// The game.
    pub id: GameId,
    /// Black.
    pub black: Seat,
    /// White.
    pub white: Seat,
    /// Board size.
    pub size: u8,
    /// The ruleset's name.
    pub ruleset: String,
    /// The clock, as text.
    pub time_control: String,
    /// Rated or casual.
    pub rated: bool,
    /// When it began (ms).
    pub created_at: i64,
}

impl LiveGameView {
    /// The view of a game that starts.
    #[must_use]
    pub fn of(id: GameId, created_at: i64, s: &GameSettings) -> LiveGameView {
        LiveGameView {
            id,
            black: s.black.clone(),
            white: s.white.clone(),
            size: s.size.get(),
            ruleset: s.ruleset.to_string(),
            time_control: s.time_control.to_string(),
            rated: s.rated,
            created_at,
        }
    }
}

/// A change of the lobby, as the instances of a cluster tell each other.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LobbyNotice {
    /// A challenge was made.
    ChallengeOpened {
        /// It.
        challenge: ChallengeView,
        /// Its two players, for a challenge to a named player.
        audience: Option<[UserId; 2]>,
    },
    /// A challenge was accepted or withdrawn.
    ChallengeClosed {
        /// Its id.
        id: i64,
        /// Its two players, for a challenge to a named player.
        audience: Option<[UserId; 2]>,
    },
    /// A game began.
    GameStarted {
        /// It.
        game: LiveGameView,
    },
    /// A game ended.
    GameEnded {
        /// Its id.
        id: GameId,
        /// Its result (none if cancelled).
        result: Option<ResultView>,
    },
    /// An event changed: a registration, a pairing, a result, a ruling…
    EventChanged {
        /// The event.
        id: TournamentId,
    },
}

#[derive(Clone, Debug)]
enum Notice {
    ChallengeOpened(Arc<ChallengeView>),
    ChallengeClosed {
        id: i64,
        audience: Option<[UserId; 2]>,
    },
    GameStarted(Arc<LiveGameView>),
    GameEnded {
        id: GameId,
        result: Option<ResultView>,
    },
    EventChanged(TournamentId),
}

/// The lobby's hub.
pub struct Lobby {
    /// Live games a snapshot lists (the newest; the viewer's own come
    /// besides): a lobby of thousands of games must not cost every visitor
    /// the whole list. The rest are paged over `GET /api/games`.
    snapshot_games: usize,
    notices: broadcast::Sender<Notice>,
    live: Mutex<BTreeMap<GameId, LiveGameView>>,
    /// Where this instance's changes go for the other instances.
    relay: OnceLock<mpsc::UnboundedSender<LobbyNotice>>,
    /// Where the events changed on another instance go, to be read again
    /// from the store before this instance's clients are told.
    stale_events: OnceLock<mpsc::UnboundedSender<TournamentId>>,
}

impl Lobby {
    /// An empty lobby whose snapshots list `snapshot_games` live games.
    #[must_use]
    pub fn new(snapshot_games: usize) -> Lobby {
        Lobby {
            snapshot_games,
            notices: broadcast::channel(1024).0,
            live: Mutex::new(BTreeMap::new()),
            relay: OnceLock::new(),
            stale_events: OnceLock::new(),
        }
    }

    /// Live games a snapshot lists, besides the viewer's own.
    #[must_use]
    pub fn snapshot_size(&self) -> usize {
        self.snapshot_games
    }

    /// Sends every change made here to `relay` too (for the other
    /// instances of a cluster).
    pub fn relay_to(&self, relay: mpsc::UnboundedSender<LobbyNotice>) {
        let _ = self.relay.set(relay);
    }

    /// Sends the ids of the events changed on other instances to `stale`:
    /// their copies here are out of date until read again, and the clients
    /// are told by [`Lobby::event_refreshed`] once they are.
    pub fn refresh_events_with(&self, stale: mpsc::UnboundedSender<TournamentId>) {
        let _ = self.stale_events.set(stale);
    }

    fn changed(&self, notice: LobbyNotice) {
        if let Some(relay) = self.relay.get() {
            let _ = relay.send(notice.clone());
        }
        self.tell(notice);
    }

    /// Applies a change told by another instance.
    pub fn apply(&self, notice: LobbyNotice) {
        if let LobbyNotice::EventChanged { id } = notice
            && let Some(stale) = self.stale_events.get()
            && stale.send(id).is_ok()
        {
            return;
        }
        self.tell(notice);
    }

    /// Applies a change to this instance's lobby and tells its clients.
    fn tell(&self, notice: LobbyNotice) {
        let notice = match notice {
            LobbyNotice::ChallengeOpened {
                mut challenge,
                audience,
            } => {
                challenge.audience = audience;
                Notice::ChallengeOpened(Arc::new(challenge))
            }
            LobbyNotice::ChallengeClosed { id, audience } => {
                Notice::ChallengeClosed { id, audience }
            }
            LobbyNotice::GameStarted { game } => {
                if let Ok(mut live) = self.live.lock() {
                    live.insert(game.id, game.clone());
                }
                Notice::GameStarted(Arc::new(game))
            }
            LobbyNotice::GameEnded { id, result } => {
                if let Ok(mut live) = self.live.lock() {
                    live.remove(&id);
                }
                Notice::GameEnded { id, result }
            }
            LobbyNotice::EventChanged { id } => Notice::EventChanged(id),
        };
        let _ = self.notices.send(notice);
    }

    /// An event changed here.
    pub fn event_changed(&self, id: TournamentId) {
        self.changed(LobbyNotice::EventChanged { id });
    }

    /// An event changed on another instance is up to date here: the
    /// clients are told.
    pub fn event_refreshed(&self, id: TournamentId) {
        self.tell(LobbyNotice::EventChanged { id });
    }

    /// A challenge was made.
    pub fn challenge_opened(&self, view: ChallengeView) {
        let audience = view.audience;
        self.changed(LobbyNotice::ChallengeOpened {
            challenge: view,
            audience,
        });
    }

    /// A challenge was accepted or withdrawn.
    pub fn challenge_closed(&self, view: &ChallengeView) {
        self.changed(LobbyNotice::ChallengeClosed {
            id: view.id,
            audience: view.audience,
        });
    }

    /// A game began.
    pub fn game_started(&self, view: LiveGameView) {
        self.changed(LobbyNotice::GameStarted { game: view });
    }

    /// A game already live when this instance started (rebuilt after a
    /// restart, or running on another instance): listed, told to nobody.
    pub fn game_listed(&self, view: LiveGameView) {
        if let Ok(mut live) = self.live.lock() {
            live.insert(view.id, view);
        }
    }

    /// A game ended.
    pub fn game_ended(&self, id: GameId, result: Option<ResultView>) {
        self.changed(LobbyNotice::GameEnded { id, result });
    }

    /// Live games, newest first: `limit` of them after skipping `offset`;
    /// and how many there are in all.
    #[must_use]
    pub fn live_games(&self, offset: usize, limit: usize) -> (Vec<LiveGameView>, usize) {
        self.live
            .lock()
            .map(|live| {
                let page = live.values().rev().skip(offset).take(limit).cloned();
                (page.collect(), live.len())
            })
            .unwrap_or_default()
    }

    /// The live games `user` plays in, newest first.
    #[must_use]
    pub fn games_of(&self, user: UserId) -> Vec<LiveGameView> {
        self.live
            .lock()
            .map(|live| {
                live.values()
                    .rev()
                    .filter(|g| g.black.id == user || g.white.id == user)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }

    /// What a lobby snapshot lists: the newest live games and the viewer's
    /// own, newest first; and the count of all.
    #[must_use]
    pub fn snapshot_games(&self, viewer: Option<UserId>) -> (Vec<LiveGameView>, usize) {
        self.live
            .lock()
            .map(|live| {
                let games = live
                    .values()
                    .rev()
                    .enumerate()
                    .filter(|(i, g)| {
                        *i < self.snapshot_games
                            || viewer.is_some_and(|v| g.black.id == v || g.white.id == v)
                    })
                    .map(|(_, g)| g.clone())
                    .collect();
                (games, live.len())
            })
            .unwrap_or_default()
    }
}

/// The open challenges `viewer` may see.
pub async fn visible_challenges(
    app: &AppState,
    viewer: Option<UserId>,
) -> Result<Vec<ChallengeView>, ApiError> {
    let mut views = Vec::new();
    for c in app.store.open_challenges().await? {
        let view = ChallengeView::of(&c)?;
        if view.visible_to(viewer) {
            views.push(view);
        }
    }
    Ok(views)
}

fn frame(value: &serde_json::Value) -> Message {
    Message::Text(Utf8Bytes::from(value.to_string()))
}

/// `GET /api/lobby/ws`: the lobby's snapshot, then its changes.
pub async fn lobby_ws(
    State(app): State<AppState>,
    Visitor(user): Visitor,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let viewer = user.map(|u| u.id);
    let challenges = visible_challenges(&app, viewer).await?;
    let notices = app.lobby.notices.subscribe();
    let games = app.lobby.snapshot_games(viewer);
    Ok(ws
        .read_buffer_size(8 * 1024)
        .max_message_size(crate::live::ws::HARD_LIMIT)
        .max_frame_size(crate::live::ws::HARD_LIMIT)
        .on_upgrade(move |socket| lobby_connection(socket, viewer, challenges, games, notices)))
}

async fn lobby_connection(
    mut socket: WebSocket,
    viewer: Option<UserId>,
    challenges: Vec<ChallengeView>,
    (games, games_total): (Vec<LiveGameView>, usize),
    mut notices: broadcast::Receiver<Notice>,
) {
    let snapshot = serde_json::json!({
        "type": "lobby",
        "challenges": challenges,
        "games": games,
        "games_total": games_total,
    });
    if socket.send(frame(&snapshot)).await.is_err() {
        return;
    }
    let mut ping = tokio::time::interval(Duration::from_secs(20));
    loop {
        let out = tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | None => return,
                Some(Err(e)) => return crate::live::ws::close_after(&mut socket, e).await,
                Some(Ok(_)) => continue,
            },
            notice = notices.recv() => match notice {
                Ok(n) => n,
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    let _ = socket.send(frame(&serde_json::json!({"type": "resync"}))).await;
                    return;
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
            _ = ping.tick() => {
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    return;
                }
                continue;
            }
        };
        let json = match out {
            Notice::ChallengeOpened(view) if view.visible_to(viewer) => {
                serde_json::json!({"type": "challenge_opened", "challenge": &*view})
            }
            Notice::ChallengeClosed { id, audience }
                if audience.is_none_or(|pair| viewer.is_some_and(|v| pair.contains(&v))) =>
            {
                serde_json::json!({"type": "challenge_closed", "id": id})
            }
            Notice::GameStarted(view) => {
                serde_json::json!({"type": "game_started", "game": &*view})
            }
            Notice::GameEnded { id, result } => {
                serde_json::json!({"type": "game_ended", "id": id, "result": result})
            }
            Notice::EventChanged(id) => {
                serde_json::json!({"type": "event_changed", "id": id})
            }
            _ => continue,
        };
        if socket.send(frame(&json)).await.is_err() {
            return;
        }
    }
}
