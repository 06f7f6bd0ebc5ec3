//! The lobby: open challenges and live games, listed over HTTP and pushed
//! live over the lobby WebSocket ([`crate::lobby_socket`]). A challenge to
//! a named player is seen by the two of them only. The socket also says
//! when an event (tournament) changed, so that its pages fetch it again
//! instead of polling.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use axum::extract::ws::Message;
use serde::{Deserialize, Serialize};
use shoutan_rules::Rank;
use shoutan_store::{Challenge, GameId, Seek, TournamentId, User, UserId};
use tokio::sync::{broadcast, mpsc};

use crate::AppState;
use crate::error::{ApiError, ErrorCode};
use crate::net::socket::written;
use crate::result_view::ResultView;
use crate::settings::{
    ChallengeSettings, ColorRequest, GameSettings, HandicapRequest, Mode, Partners, Seat,
};

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
    /// Who takes black (`colour` from an instance of the release before).
    #[serde(alias = "colour")]
    pub color: ColorRequest,
    /// The clock, as text.
    pub time_control: String,
    /// The clock in Chinese (empty from an instance that predates it).
    #[serde(default)]
    pub time_control_zh: String,
    /// Art. 22.5's option.
    pub time_out: shoutan_clock::TimeOutRule,
    /// Rated or casual.
    pub rated: bool,
    /// One game of two, rengo or a simul.
    #[serde(default)]
    pub mode: Mode,
    /// Who has taken a seat (rengo, simul), in order.
    #[serde(default)]
    pub joined: Vec<Seat>,
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
            color: s.color,
            time_control: s.time_control.to_string(),
            time_control_zh: s.time_control.text_zh(),
            time_out: s.time_out,
            rated: s.rated,
            mode: s.mode,
            joined: challenge
                .joined
                .iter()
                .map(|j| serde_json::from_str(&j.seat).map_err(ApiError::internal))
                .collect::<Result<_, _>>()?,
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
    /// In rengo, each team's second player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partners: Option<Partners>,
    /// The simul the game is a board of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simul: Option<i64>,
    /// Board size.
    pub size: u8,
    /// The ruleset's name.
    pub ruleset: String,
    /// The clock, as text.
    pub time_control: String,
    /// The clock in Chinese (empty from an instance that predates it).
    #[serde(default)]
    pub time_control_zh: String,
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
            partners: s.partners.clone(),
            simul: s.simul,
            size: s.size.get(),
            ruleset: s.ruleset.to_string(),
            time_control: s.time_control.to_string(),
            time_control_zh: s.time_control.text_zh(),
            rated: s.rated,
            created_at,
        }
    }
}

impl LiveGameView {
    /// Whether `user` plays in the game (in rengo, in either team).
    #[must_use]
    pub fn plays(&self, user: UserId) -> bool {
        self.black.id == user
            || self.white.id == user
            || self
                .partners
                .as_ref()
                .is_some_and(|p| p.black.id == user || p.white.id == user)
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
        /// Its version after the change (0 from an instance of the release
        /// before, which did not send it).
        #[serde(default)]
        version: u64,
    },
    /// A waiting seek was paired (its connection tells its player).
    Paired {
        /// The seek.
        seek: i64,
        /// The game.
        game: GameId,
    },
    /// The number of players seeking changed.
    Seekers {
        /// How many seek now.
        seekers: Seekers,
    },
}

#[derive(Clone, Debug)]
pub(crate) enum Notice {
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
    EventChanged {
        id: TournamentId,
        version: u64,
    },
    Paired {
        seek: i64,
        game: GameId,
    },
    Seekers(Arc<Seekers>),
}

/// A notice as every lobby socket receives it: its frame is written once,
/// by the first socket that sends it, and the text shared by the others
/// (a round of a thousand boards starting is a thousand notices to each of
/// thousands of sockets).
#[derive(Debug)]
pub(crate) struct SharedNotice {
    pub(crate) notice: Notice,
    text: OnceLock<Option<Message>>,
}

impl SharedNotice {
    /// The frame as every viewer who may see it gets it (`None`: one
    /// connection's own, or a frame that cannot be written).
    pub(crate) fn message(&self) -> Option<Message> {
        self.text
            .get_or_init(|| notice_frame(&self.notice)?.message())
            .clone()
    }
}

/// Notices a lobby socket may fall behind before it is told to `resync`: a
/// round of 2,000 boards starting at once, with room to spare.
const NOTICES_BEHIND: usize = 4096;

/// The lobby's hub.
pub struct Lobby {
    /// Live games a snapshot lists (the newest; the viewer's own come
    /// besides): a lobby of thousands of games must not cost every visitor
    /// the whole list. The rest are paged over `GET /api/games`.
    snapshot_games: usize,
    notices: broadcast::Sender<Arc<SharedNotice>>,
    /// The notices an event page's socket may be told (events changed,
    /// games started): those sockets are not woken for the others.
    event_notices: broadcast::Sender<Arc<SharedNotice>>,
    live: Mutex<BTreeMap<GameId, LiveGameView>>,
    /// Where this instance's changes go for the other instances.
    relay: mpsc::UnboundedSender<LobbyNotice>,
    /// Where the events changed on another instance go, to be read again
    /// from the store before this instance's clients are told.
    stale_events: mpsc::UnboundedSender<TournamentId>,
}

/// What the lobby publishes, for whoever subscribes (an outlet whose
/// receiver is dropped is not fed).
pub struct LobbyOutlets {
    /// Every change made here, for the other instances of a cluster.
    pub relayed: mpsc::UnboundedReceiver<LobbyNotice>,
    /// The events another instance changed: their copies here are out of
    /// date until read again, and the clients are told by
    /// [`Lobby::event_refreshed`] once they are.
    pub stale_events: mpsc::UnboundedReceiver<TournamentId>,
}

impl Lobby {
    /// An empty lobby whose snapshots list `snapshot_games` live games,
    /// and what it publishes.
    #[must_use]
    pub fn new(snapshot_games: usize) -> (Lobby, LobbyOutlets) {
        let (relay, relayed) = mpsc::unbounded_channel();
        let (stale_events, stale) = mpsc::unbounded_channel();
        let lobby = Lobby {
            snapshot_games,
            notices: broadcast::channel(NOTICES_BEHIND).0,
            event_notices: broadcast::channel(NOTICES_BEHIND).0,
            live: Mutex::new(BTreeMap::new()),
            relay,
            stale_events,
        };
        let outlets = LobbyOutlets {
            relayed,
            stale_events: stale,
        };
        (lobby, outlets)
    }

    /// Live games a snapshot lists, besides the viewer's own.
    #[must_use]
    pub fn snapshot_size(&self) -> usize {
        self.snapshot_games
    }

    fn changed(&self, notice: LobbyNotice) {
        if !self.relay.is_closed() {
            let _ = self.relay.send(notice.clone());
        }
        self.tell(notice);
    }

    /// Applies a change told by another instance.
    pub fn apply(&self, notice: LobbyNotice) {
        if let LobbyNotice::EventChanged { id, .. } = notice
            && self.stale_events.send(id).is_ok()
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
            LobbyNotice::EventChanged { id, version } => Notice::EventChanged { id, version },
            LobbyNotice::Paired { seek, game } => Notice::Paired { seek, game },
            LobbyNotice::Seekers { seekers } => Notice::Seekers(Arc::new(seekers)),
        };
        let shared = Arc::new(SharedNotice {
            notice,
            text: OnceLock::new(),
        });
        if matches!(
            shared.notice,
            Notice::EventChanged { .. } | Notice::GameStarted(_)
        ) {
            let _ = self.event_notices.send(Arc::clone(&shared));
        }
        let _ = self.notices.send(shared);
    }

    /// The notices a socket for `view` is woken for.
    pub(crate) fn subscribe(&self, view: LobbyView) -> broadcast::Receiver<Arc<SharedNotice>> {
        match view {
            LobbyView::Lobby => self.notices.subscribe(),
            LobbyView::Events => self.event_notices.subscribe(),
        }
    }

    /// An event changed here; `version`: its version now.
    pub fn event_changed(&self, id: TournamentId, version: u64) {
        self.changed(LobbyNotice::EventChanged { id, version });
    }

    /// An event changed on another instance is up to date here, at
    /// `version`: the clients are told.
    pub fn event_refreshed(&self, id: TournamentId, version: u64) {
        self.tell(LobbyNotice::EventChanged { id, version });
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

    /// Waiting seek `seek` was paired into `game`.
    pub fn paired(&self, seek: i64, game: GameId) {
        self.changed(LobbyNotice::Paired { seek, game });
    }

    /// The number of players seeking changed.
    pub fn seekers_changed(&self, seekers: Seekers) {
        self.changed(LobbyNotice::Seekers { seekers });
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
                    .filter(|g| g.plays(user))
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
                    .filter(|(i, g)| *i < self.snapshot_games || viewer.is_some_and(|v| g.plays(v)))
                    .map(|(_, g)| g.clone())
                    .collect();
                (games, live.len())
            })
            .unwrap_or_default()
    }
}

/// Refuses when one of `players` has the most live games a player may have
/// already. Before a start, call it holding [`crate::App::game_starts`],
/// so that games started at the same moment are counted.
pub(crate) fn check_live_games(app: &AppState, players: &[&User]) -> Result<(), ApiError> {
    let max = app.config.max_live_games;
    for player in players {
        let playing = app.lobby.games_of(player.id).len();
        if playing >= max {
            return Err(ApiError::conflict(
                ErrorCode::TooManyGames,
                format!(
                    "{} has {playing} live games, the most a player may have at once ({max})",
                    player.name
                ),
            ));
        }
    }
    Ok(())
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

/// A frame the lobby socket sends (`docs/api/websocket.md`, "The lobby").
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum LobbyFrame<'a> {
    /// The snapshot a connection starts with.
    Lobby {
        challenges: Vec<ChallengeView>,
        games: Vec<LiveGameView>,
        games_total: usize,
        seekers: Seekers,
    },
    /// The connection fell too far behind: reconnect for a fresh snapshot.
    Resync,
    ChallengeOpened {
        challenge: &'a ChallengeView,
    },
    ChallengeClosed {
        id: i64,
    },
    GameStarted {
        game: &'a LiveGameView,
    },
    GameEnded {
        id: GameId,
        result: &'a Option<ResultView>,
    },
    EventChanged {
        id: TournamentId,
        version: u64,
    },
    /// This connection's seek waits.
    Seeking {
        seek: i64,
    },
    /// This connection's seek was paired into `game`.
    Paired {
        game: GameId,
    },
    /// This connection's seek ended without a game.
    SeekCancelled,
    /// Who is seeking, by time control.
    Seekers {
        seekers: &'a Seekers,
    },
    /// A refused message.
    Error {
        code: ErrorCode,
        message: String,
    },
}

impl LobbyFrame<'_> {
    /// The frame as a WebSocket message; `None` (and logged) in the
    /// impossible case that it cannot be written.
    pub(crate) fn message(&self) -> Option<Message> {
        written("lobby", self).map(Message::Text)
    }

    pub(crate) fn refusal(e: ApiError) -> LobbyFrame<'static> {
        LobbyFrame::Error {
            code: e.code,
            message: e.message,
        }
    }
}

/// What a lobby socket is for, and so what it is told.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LobbyView {
    /// The lobby page: every change of the challenges and live games.
    #[default]
    Lobby,
    /// An event's pages: which events changed, and the viewer's own games
    /// as they start — not the other games of the server, which would be
    /// a thousand frames a second to each player of a large event.
    Events,
}

/// How many players seek, in all and per board and clock.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seekers {
    /// Everyone seeking.
    pub count: usize,
    /// Per pool: `"<size> <clock>"` → players.
    pub pools: BTreeMap<String, usize>,
}

impl Seekers {
    /// The count of `seeks`.
    pub(crate) fn of(seeks: &[Seek]) -> Seekers {
        let mut pools = BTreeMap::new();
        for s in seeks {
            *pools.entry(pool_key(s.size, &s.time_control)).or_insert(0) += 1;
        }
        Seekers {
            count: seeks.len(),
            pools,
        }
    }
}

/// A pool's key as clients look it up.
fn pool_key(size: u8, time_control: &str) -> String {
    format!("{size} {time_control}")
}

/// The frame of a notice, the same for every viewer who may see it (none
/// for a seek paired: its connection says it).
fn notice_frame(out: &Notice) -> Option<LobbyFrame<'_>> {
    Some(match out {
        Notice::ChallengeOpened(view) => LobbyFrame::ChallengeOpened { challenge: view },
        &Notice::ChallengeClosed { id, .. } => LobbyFrame::ChallengeClosed { id },
        Notice::GameStarted(view) => LobbyFrame::GameStarted { game: view },
        Notice::GameEnded { id, result } => LobbyFrame::GameEnded { id: *id, result },
        &Notice::EventChanged { id, version } => LobbyFrame::EventChanged { id, version },
        Notice::Seekers(seekers) => LobbyFrame::Seekers { seekers },
        Notice::Paired { .. } => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every frame's type as the documentation names it, one arm per
    /// variant: a new frame does not compile here until it is named.
    fn documented_as(frame: &LobbyFrame<'_>) -> &'static str {
        match frame {
            LobbyFrame::Lobby { .. } => "lobby",
            LobbyFrame::Resync => "resync",
            LobbyFrame::ChallengeOpened { .. } => "challenge_opened",
            LobbyFrame::ChallengeClosed { .. } => "challenge_closed",
            LobbyFrame::GameStarted { .. } => "game_started",
            LobbyFrame::GameEnded { .. } => "game_ended",
            LobbyFrame::EventChanged { .. } => "event_changed",
            LobbyFrame::Seeking { .. } => "seeking",
            LobbyFrame::Paired { .. } => "paired",
            LobbyFrame::SeekCancelled => "seek_cancelled",
            LobbyFrame::Seekers { .. } => "seekers",
            LobbyFrame::Error { .. } => "error",
        }
    }

    /// The frames are written as `docs/api/websocket.md` shows them.
    #[test]
    fn every_lobby_frame_is_written_as_documented() {
        let doc = include_str!("../../../docs/api/websocket.md");
        let seekers = Seekers::default();
        let frames = [
            LobbyFrame::Lobby {
                challenges: Vec::new(),
                games: Vec::new(),
                games_total: 0,
                seekers: Seekers::default(),
            },
            LobbyFrame::Resync,
            LobbyFrame::ChallengeClosed { id: 5 },
            LobbyFrame::GameEnded {
                id: 17,
                result: &None,
            },
            LobbyFrame::EventChanged { id: 3, version: 41 },
            LobbyFrame::Seeking { seek: 12 },
            LobbyFrame::Paired { game: 40 },
            LobbyFrame::SeekCancelled,
            LobbyFrame::Seekers { seekers: &seekers },
            LobbyFrame::refusal(ApiError::unauthorized()),
        ];
        for frame in &frames {
            let json: serde_json::Value = serde_json::to_value(frame).unwrap();
            let name = documented_as(frame);
            assert_eq!(json["type"], name, "{json}");
            assert!(
                doc.contains(&format!(r#"{{"type": "{name}""#))
                    || doc.contains(&format!("`{name}`")),
                "docs/api/websocket.md does not show the {name} frame"
            );
        }
        assert_eq!(
            serde_json::to_value(&frames[0]).unwrap(),
            serde_json::json!({"type": "lobby", "challenges": [], "games": [], "games_total": 0,
                "seekers": {"count": 0, "pools": {}}})
        );
        assert_eq!(
            serde_json::to_value(&frames[3]).unwrap(),
            serde_json::json!({"type": "game_ended", "id": 17, "result": null})
        );
        for name in ["challenge_opened", "game_started"] {
            assert!(doc.contains(&format!(r#"{{"type": "{name}""#)), "{name}");
        }
    }
}
