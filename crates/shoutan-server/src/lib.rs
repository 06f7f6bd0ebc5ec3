//! 手谈 online: the weiqi server. HTTP for accounts, the lobby, players and
//! records; a WebSocket per game for play, counting, clocks and chat; the
//! web client embedded. One tokio runtime, one axum router, one store.
//!
//! - Accounts: argon2id passwords hashed within a budget, session cookies
//!   (`HttpOnly`, `SameSite=Lax`, optionally `Secure`) of which only a hash
//!   is stored, CSRF checks on every state-changing request, login rate
//!   limits per address and growing waits per account and address; names
//!   in NFC and unlike any other's ([`text`]); declared ranks and Glicko-2
//!   ratings ([`rating`]).
//! - The network edge ([`net`]): connections capped per address, a
//!   deadline for request headers, client addresses behind trusted
//!   proxies, configured public origins, security headers.
//! - The lobby ([`lobby`]): challenges open or to a named player, with
//!   every setting of a game ([`settings`]); live games; pushed live.
//! - Live games ([`live`]): one actor per game, a durable event log
//!   written before anything is acknowledged, versioned events, replay
//!   after a restart with the downtime excused.
//! - The computer ([`computer`]): an account per engine level, played
//!   from a bounded pool of blocking threads.
//! - AI reviews of finished games and uploaded records ([`review`]) on a
//!   pool of their own, stored once; position judgement ([`judgement`]).
//!
//! The API is documented in `docs/api/openapi.yaml` (HTTP) and
//! `docs/api/websocket.md` (the WebSocket protocol).
//!
//! # Run a server
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use shoutan_server::{ServerConfig, start, serve};
//! let store = shoutan_store::open(&shoutan_store::Database::sqlite_in("./shoutan-data")).await?;
//! let app = start(store, ServerConfig::default()).await?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! serve(listener, app, std::future::pending()).await?;
//! # Ok(()) }
//! ```

pub mod accounts;
pub mod automatch;
pub mod blocking;
pub mod cluster;
pub mod computer;
pub mod config;
pub mod enforcement;
pub mod error;
pub mod error_code;
pub mod events;
pub mod extract;
pub mod health;
pub mod judgement;
pub mod listener;
pub mod live;
pub mod lobby;
pub mod lobby_socket;
pub mod metrics;
pub mod moderation;
pub mod net;
pub mod priority;
pub mod problems;
pub mod rank_rule;
pub mod rating;
pub mod result_view;
pub mod results;
pub mod review;
pub mod routes;
pub mod settings;
pub mod solving;
pub mod text;
pub mod time;

use std::ops::Deref;
use std::sync::Arc;

use shoutan_store::{Store, StoreError};

use crate::accounts::login_throttle::LoginThrottle;
use crate::accounts::password::Hasher;
use crate::accounts::rate_limit::RateLimiter;
use crate::cluster::Membership;
use crate::computer::Computer;
use crate::live::registry::Shared;
use crate::lobby::{LiveGameView, Lobby, LobbyOutlets};
use crate::results::record_results;

pub use config::ServerConfig;
pub use listener::serve;

/// The application's state, shared by every request and connection.
#[derive(Clone)]
pub struct AppState(Arc<App>);

/// What [`AppState`] holds.
pub struct App {
    /// The store.
    pub store: Arc<dyn Store>,
    /// The settings.
    pub config: ServerConfig,
    /// The games in memory.
    pub games: Arc<Shared>,
    /// The lobby.
    pub lobby: Arc<Lobby>,
    /// The tournaments.
    pub events: Arc<events::Events>,
    /// The computer players.
    pub computer: Arc<Computer>,
    /// The AI reviews being made.
    pub reviews: Arc<review::Reviews>,
    /// Position judgements (形势判断).
    pub judgements: judgement::Judgements,
    /// Life-and-death questions from the analysis board.
    pub solver: solving::Solver,
    /// Problems to practise: tries judged, solutions worked out.
    pub problems: problems::Problems,
    /// The threads that serve spectators, behind the players.
    pub spectators: live::spectators::Spectators,
    /// Login attempts per client address.
    pub login_per_address: RateLimiter,
    /// Login attempts per account and address.
    pub login_throttle: LoginThrottle,
    /// Registrations per client address.
    pub register_per_address: RateLimiter,
    /// Problem moves judged per client address.
    pub problem_moves_per_address: RateLimiter,
    /// A hash of the configured cost that no password matches, checked
    /// when a login names nobody so that it takes as long as a wrong password.
    pub decoy_hash: String,
    /// Password hashing, within its budget.
    pub hasher: Hasher,
    /// Data exports per player (each reads every game he played).
    pub export_per_user: RateLimiter,
    /// Reports per player (each waits for a moderator).
    pub reports_per_user: RateLimiter,
    /// Ends the games of players suspended or banned.
    pub enforcer: Arc<enforcement::Enforcer>,
    /// The last check that the store takes writes.
    pub storage: health::StorageProbe,
    /// Held while a challenge's or a computer game's start is decided and
    /// made, so that the live games counted are all there are.
    pub game_starts: tokio::sync::Mutex<()>,
}

impl Deref for AppState {
    type Target = App;
    fn deref(&self) -> &App {
        &self.0
    }
}

/// The server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The password hasher rejects its settings.
    #[error(transparent)]
    Password(#[from] accounts::password::HashError),
    /// The system refused the spectators' threads.
    #[error("cannot start the spectators' threads: {0}")]
    Threads(#[from] std::io::Error),
}

/// Prepares the server over `store`: rebuilds every live game from its log
/// (excusing the downtime on the clocks), and starts the background work
/// (results and ratings, heartbeats).
pub async fn start(store: Arc<dyn Store>, config: ServerConfig) -> Result<AppState, StartError> {
    // The recorder before anything records.
    metrics::recorder();
    let hasher = Hasher::new(config.password_cost, config.hash_budget);
    let decoy_hash = hasher
        .hash(
            net::connections::AddressKey::LOOPBACK,
            format!("decoy-{}", fastrand::u64(..)),
        )
        .await?;
    let membership = Membership::join(&store, &config.instance).await?;
    let (games, published) = Shared::new(Arc::clone(&store), config.clone(), membership.clone());
    let (lobby, outlets) = Lobby::new(config.lobby_games);
    let lobby = Arc::new(lobby);
    let LobbyOutlets {
        relayed,
        stale_events,
    } = outlets;
    let workers = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let spectators = live::spectators::Spectators::new(workers / 2)?;
    let computer = Arc::new(Computer::open(&*store, workers, Arc::clone(&config.network)).await?);
    tokio::spawn(Arc::clone(&computer).seat_players(published.opened));
    match &membership {
        // Listening first: nothing told after the lobby is listed is missed.
        Some(membership) => {
            Arc::clone(membership)
                .run(Arc::clone(&games), Arc::clone(&lobby), relayed)
                .await?;
        }
        // One instance: nobody to relay the lobby's changes to.
        None => drop(relayed),
    }
    for row in store.live_games().await? {
        match serde_json::from_str::<settings::GameSettings>(&row.settings) {
            Ok(s) => lobby.game_listed(LiveGameView::of(row.id, row.created_at, &s)),
            Err(e) => tracing::error!("game {}: unreadable settings: {e}", row.id),
        }
    }
    games.restore().await?;
    let reviews = Arc::new(review::Reviews::new(Arc::clone(&config.network)));
    let judgements = judgement::Judgements::new(Arc::clone(&config.network));
    reviews.resume(&store).await?;
    let events = events::Events::load(
        Arc::clone(&store),
        Arc::clone(&games),
        Arc::clone(&lobby),
        stale_events,
    )
    .await?;
    let endings = events::results::tap(published.endings, Arc::clone(&events));
    tokio::spawn(record_results(
        Arc::clone(&store),
        Arc::clone(&lobby),
        endings,
    ));
    events.catch_up().await;
    tokio::spawn(Arc::clone(&events).watch());
    match membership {
        Some(membership) => tokio::spawn(membership.watch(Arc::clone(&games))),
        None => tokio::spawn(Arc::clone(&games).heartbeats()),
    };
    let enforcer = enforcement::Enforcer::new();
    tokio::spawn(Arc::clone(&enforcer).run(
        Arc::clone(&store),
        Arc::clone(&games),
        Arc::clone(&lobby),
    ));
    Ok(AppState(Arc::new(App {
        login_per_address: RateLimiter::new(config.login_per_address),
        login_throttle: LoginThrottle::new(config.login_backoff),
        register_per_address: RateLimiter::new(config.register_per_address),
        problem_moves_per_address: RateLimiter::new(config.problem_moves_per_address),
        store,
        config,
        games,
        lobby,
        computer,
        reviews,
        judgements,
        solver: solving::Solver::new(),
        problems: problems::Problems::new(),
        spectators,
        events,
        decoy_hash,
        hasher,
        export_per_user: RateLimiter::new(accounts::rate_limit::Limit::new(
            3,
            std::time::Duration::from_secs(600),
        )),
        reports_per_user: RateLimiter::new(accounts::rate_limit::Limit::new(
            10,
            std::time::Duration::from_secs(60),
        )),
        enforcer,
        storage: health::StorageProbe::default(),
        game_starts: tokio::sync::Mutex::new(()),
    })))
}
