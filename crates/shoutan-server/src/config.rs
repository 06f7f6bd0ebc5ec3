//! The server's settings, with the defaults a public server wants.

use std::time::Duration;

use crate::accounts::password::PasswordCost;
use crate::accounts::rate_limit::Limit;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// This instance's id among several on one PostgreSQL database (lower
    /// case letters, digits, `_`); unused on SQLite.
    pub instance: String,
    /// Mark the session cookie `Secure` (set when the server is reached
    /// over https, directly or behind a proxy).
    pub secure_cookies: bool,
    /// Origins besides the server's own (its `Host`) that may send
    /// state-changing requests and open WebSockets, e.g.
    /// `https://play.example.org` behind a proxy.
    pub allowed_origins: Vec<String>,
    /// Take the client's address from `X-Forwarded-For` (only behind a
    /// proxy that sets it), for the login rate limit.
    pub trust_forwarded_for: bool,
    /// The argon2id cost of password hashes.
    pub password_cost: PasswordCost,
    /// Login attempts per client address.
    pub login_per_address: Limit,
    /// Login attempts per account.
    pub login_per_account: Limit,
    /// Registrations per client address.
    pub register_per_address: Limit,
    /// How long a session lasts.
    pub session_lifetime: Duration,
    /// How long a player must have been gone before the opponent may claim
    /// the game (at most the absent player's remaining time).
    pub abandonment: Duration,
    /// How long a finished game stays in memory for the post-game chat.
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
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            instance: "shoutan".to_owned(),
            secure_cookies: false,
            allowed_origins: Vec::new(),
            trust_forwarded_for: false,
            password_cost: PasswordCost::default(),
            login_per_address: Limit::new(20, Duration::from_secs(3)),
            login_per_account: Limit::new(5, Duration::from_secs(60)),
            register_per_address: Limit::new(5, Duration::from_secs(60)),
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
        }
    }
}
