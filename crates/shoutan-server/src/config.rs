//! The server's settings, with the defaults a public server wants.

use std::sync::Arc;
use std::time::Duration;

use shoutan_nn::Network;

use crate::accounts::login_throttle::Backoff;
use crate::accounts::password::{HashBudget, PasswordCost};
use crate::accounts::rate_limit::Limit;
use crate::net::client::AddressRanges;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// This instance's id among several on one PostgreSQL database (lower
    /// case letters, digits, `_`); unused on SQLite.
    pub instance: String,
    /// Mark the session cookie `Secure` (set when the server is reached
    /// over https, directly or behind a proxy).
    pub secure_cookies: bool,
    /// The public origins the server's pages are served from (e.g.
    /// `https://play.example.org` behind a proxy): only their pages may
    /// send state-changing requests and open WebSockets. Empty: the
    /// listening address's (see [`crate::net::origins`]).
    pub origins: Vec<String>,
    /// Proxies whose `X-Forwarded-For` entries are believed (see
    /// [`crate::net::client`]).
    pub trusted_proxies: AddressRanges,
    /// The client addresses that may read `/metrics` (others get 404).
    pub metrics_from: AddressRanges,
    /// Connections one client address may hold at once (HTTP and
    /// WebSocket together); trusted proxies are not capped.
    pub max_connections_per_address: usize,
    /// How long a client has to send a request's headers (and, between
    /// requests, the next request) before the connection is closed.
    pub header_timeout: Duration,
    /// The argon2id cost of password hashes.
    pub password_cost: PasswordCost,
    /// Hashes at once and waiting.
    pub hash_budget: HashBudget,
    /// Login attempts per client address (against trying many accounts).
    pub login_per_address: Limit,
    /// The growing wait between login attempts on one account from one
    /// address.
    pub login_backoff: Backoff,
    /// Registrations per client address.
    pub register_per_address: Limit,
    /// Moves of problems judged per client address (a player practising
    /// plays a few a minute; each may cost the judge seconds).
    pub problem_moves_per_address: Limit,
    /// Live games a player may have at once, counting those being started
    /// by challenges and against the computer (event games are the
    /// organiser's and always start).
    pub max_live_games: usize,
    /// How long a session lasts.
    pub session_lifetime: Duration,
    /// How long a player must have been gone before the opponent may claim
    /// the game (at most the absent player's remaining time).
    pub abandonment: Duration,
    /// How long a finished game stays in memory for the post-game chat
    /// while someone is in it (it leaves once everyone has).
    pub linger: Duration,
    /// How long counting may stand idle (no mark, acceptance or dispute)
    /// before the marking stands as it is; so a game left in counting by
    /// both players still ends.
    pub counting_limit: Duration,
    /// Dead-stone estimates (when counting opens) run at most this many at
    /// once.
    pub estimate_workers: usize,
    /// Live games a lobby snapshot lists (the newest, besides the viewer's
    /// own); the rest are paged over `GET /api/games`.
    pub lobby_games: usize,
    /// How often the server records that it is alive (downtime is measured
    /// from the last record).
    pub heartbeat: Duration,
    /// The largest WebSocket message a client may send; larger ones get a
    /// `too_large` error frame (the connection stays open).
    pub max_message: usize,
    /// The KataGo network behind the computer, the reviews, position
    /// judgements and dead-stone proposals (the built-in one by default).
    pub network: Arc<Network>,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            instance: "shoutan".to_owned(),
            secure_cookies: false,
            origins: Vec::new(),
            trusted_proxies: AddressRanges::default(),
            metrics_from: ["127.0.0.0/8", "::1"]
                .into_iter()
                .filter_map(|range| range.parse().ok())
                .collect(),
            max_connections_per_address: 256,
            header_timeout: Duration::from_secs(10),
            password_cost: PasswordCost::default(),
            hash_budget: HashBudget::default(),
            login_per_address: Limit::new(20, Duration::from_secs(3)),
            login_backoff: Backoff::default(),
            register_per_address: Limit::new(5, Duration::from_secs(60)),
            problem_moves_per_address: Limit::new(120, Duration::from_secs(60)),
            max_live_games: 10,
            session_lifetime: Duration::from_secs(30 * 24 * 3600),
            abandonment: Duration::from_secs(120),
            linger: Duration::from_secs(600),
            counting_limit: Duration::from_secs(600),
            lobby_games: 100,
            // Half the cores: counting must not starve live play.
            estimate_workers: std::thread::available_parallelism()
                .map_or(1, |n| (n.get() / 2).max(1)),
            heartbeat: Duration::from_secs(1),
            max_message: 4096,
            network: shoutan_engine::builtin_network(),
        }
    }
}
