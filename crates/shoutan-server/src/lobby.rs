//! The lobby: open challenges and live games, listed over HTTP and pushed
//! live over the lobby WebSocket. A challenge to a named player is seen by
//! the two of them only.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use shoutan_rules::Rank;
use shoutan_store::{Challenge, GameId, UserId};
use tokio::sync::broadcast;

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
#[derive(Clone, Debug, Serialize)]
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
    #[serde(skip)]
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
#[derive(Clone, Debug, Serialize)]
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
}

/// The lobby's hub.
pub struct Lobby {
    notices: broadcast::Sender<Notice>,
    live: Mutex<BTreeMap<GameId, LiveGameView>>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            notices: broadcast::channel(1024).0,
            live: Mutex::new(BTreeMap::new()),
        }
    }
}

impl Lobby {
    /// A challenge was made.
    pub fn challenge_opened(&self, view: ChallengeView) {
        let _ = self.notices.send(Notice::ChallengeOpened(Arc::new(view)));
    }

    /// A challenge was accepted or withdrawn.
    pub fn challenge_closed(&self, view: &ChallengeView) {
        let _ = self.notices.send(Notice::ChallengeClosed {
            id: view.id,
            audience: view.audience,
        });
    }

    /// A game began (or was restored after a restart).
    pub fn game_started(&self, view: LiveGameView) {
        if let Ok(mut live) = self.live.lock() {
            live.insert(view.id, view.clone());
        }
        let _ = self.notices.send(Notice::GameStarted(Arc::new(view)));
    }

    /// A game ended.
    pub fn game_ended(&self, id: GameId, result: Option<ResultView>) {
        if let Ok(mut live) = self.live.lock() {
            live.remove(&id);
        }
        let _ = self.notices.send(Notice::GameEnded { id, result });
    }

    /// The live games, oldest first.
    #[must_use]
    pub fn live_games(&self) -> Vec<LiveGameView> {
        self.live
            .lock()
            .map(|live| live.values().cloned().collect())
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
    let games = app.lobby.live_games();
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
    games: Vec<LiveGameView>,
    mut notices: broadcast::Receiver<Notice>,
) {
    let snapshot = serde_json::json!({"type": "lobby", "challenges": challenges, "games": games});
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
            _ => continue,
        };
        if socket.send(frame(&json)).await.is_err() {
            return;
        }
    }
}
