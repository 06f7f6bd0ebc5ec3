//! 存储: Shoutan's persistence behind one trait, [`Store`], with two
//! backends — embedded SQLite (the default: one file, nothing to install)
//! and PostgreSQL (for several server instances). The same test suite runs
//! against both.
//!
//! What is kept: accounts (with an argon2id hash, never a password), login
//! sessions (a SHA-256 of the token, never the token), challenges, games
//! with their players, settings, status and result, and each game's
//! **append-only event log**, from which the server rebuilds every live
//! game after a restart.
//!
//! # Durability at speed: group commit
//! Every write returns only once it is durable. Writes are queued to a
//! single writer that takes everything waiting — events of many games,
//! accounts, challenges — into one transaction, commits it (one `fsync`),
//! and then acknowledges each. Under load, one commit carries many games'
//! moves; when idle, a write commits alone at once. SQLite runs in WAL mode
//! with `synchronous = FULL`: a committed event survives `kill -9` and a
//! power cut.
//!
//! # Open a store
//! ```no_run
//! # async fn demo() -> Result<(), shoutan_store::StoreError> {
//! use shoutan_store::{Database, open};
//! let store = open(&Database::sqlite_in("./shoutan-data")).await?; // migrations applied
//! let pg = open(&"postgres://postgres@127.0.0.1:5432/shoutan".parse()?).await?;
//! # Ok(()) }
//! ```
//! The library contains no query that needs a live database at compile time.

pub mod account;
mod challenge;
pub mod cluster;
mod error;
mod event;
mod game;
pub mod migrate;
pub mod moderation;
mod postgres;
mod problem;
mod review;
mod seek;
mod session;
mod sqlite;
pub mod sqlite_backup;
mod tournament;
mod user;

use shoutan_rules::Rank;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

pub use account::{AccountStore, SessionRow};
pub use challenge::{Challenge, ChallengeId, Joined, Joiner, NewChallenge, PlayerRef, Starting};
pub use error::StoreError;
pub use event::StoredEvent;
pub use game::{
    ArchiveQuery, GameEnd, GameId, GameRow, GameStatus, NewGame, Outcome, RatingUpdate,
};
pub use moderation::{
    ActionKind, ActionRow, ModerationStore, NewAction, NewReport, Relation, ReportRow, Role, Roles,
    Standing,
};
pub use postgres::PostgresStore;
pub use problem::{NewProblemTry, ProblemRating, ProblemStore, Rate};
pub use review::{NewRecordReview, NewReview, RecordReviewRow, ReviewRow, ReviewStore};
pub use seek::{NewSeek, Pairing, Seek, SeekId, SeekOutcome};
pub use session::Session;
pub use sqlite::SqliteStore;
pub use tournament::{
    NewTournament, NewTournamentGame, TournamentAction, TournamentGame, TournamentId,
    TournamentRow, TournamentStore,
};
pub use user::{NewUser, RankStanding, Rating, User, UserId, name_key, name_skeleton};

/// Everything the server keeps. Each method either does all it says or
/// returns an error and writes nothing.
#[async_trait::async_trait]
pub trait Store:
    TournamentStore + ReviewStore + ProblemStore + ModerationStore + AccountStore + Send + Sync
{
    /// Creates an account; [`StoreError::NameTaken`] if the name (ignoring
    /// case) exists.
    async fn create_user(&self, user: NewUser) -> Result<User, StoreError>;
    /// The account with this id.
    async fn user(&self, id: UserId) -> Result<Option<User>, StoreError>;
    /// The accounts with these ids, by id (ids of no account left out):
    /// one query where a loop of [`Store::user`] would make one each.
    async fn users(&self, ids: &[UserId]) -> Result<Vec<User>, StoreError>;
    /// The account with this name, ignoring case.
    async fn user_by_name(&self, name: &str) -> Result<Option<User>, StoreError>;
    /// Accounts whose name starts with `prefix` (ignoring case), by name.
    async fn search_users(&self, prefix: &str, limit: u32) -> Result<Vec<User>, StoreError>;
    /// Sets an account's declared rank (an arbiter confirming a rank
    /// certification); false if there is no such account.
    async fn set_declared_rank(&self, id: UserId, rank: Rank) -> Result<bool, StoreError>;

    /// Stores a login session.
    async fn create_session(&self, session: Session) -> Result<(), StoreError>;
    /// The user of the session with this token hash, if it has not expired
    /// by `now`.
    async fn session_user(
        &self,
        token_hash: [u8; 32],
        now: i64,
    ) -> Result<Option<User>, StoreError>;
    /// Ends a session (logout). Ending an unknown session is no error.
    async fn delete_session(&self, token_hash: [u8; 32]) -> Result<(), StoreError>;

    /// Stores a challenge.
    async fn create_challenge(&self, challenge: NewChallenge) -> Result<Challenge, StoreError>;
    /// The challenge with this id.
    async fn challenge(&self, id: ChallengeId) -> Result<Option<Challenge>, StoreError>;
    /// Every challenge still open, oldest first.
    async fn open_challenges(&self) -> Result<Vec<Challenge>, StoreError>;
    /// Withdraws a challenge; false if it was not open.
    async fn delete_challenge(&self, id: ChallengeId) -> Result<bool, StoreError>;
    /// Takes the challenge off the lobby and creates its game, in one
    /// transaction: [`StoreError::ChallengeGone`] if someone was first.
    async fn accept_challenge(&self, id: ChallengeId, game: NewGame)
    -> Result<GameRow, StoreError>;
    /// Takes a seat of a challenge of several seats for a user with his
    /// seat (the server's JSON), in one transaction;
    /// the last seat starts the games `start` makes (and removes the
    /// challenge). [`StoreError::ChallengeGone`] if it is no longer open,
    /// [`StoreError::AlreadyJoined`] if `user` has a seat.
    async fn join_challenge(
        &self,
        id: ChallengeId,
        joiner: (UserId, String),
        at: i64,
        start: Starting,
    ) -> Result<Joined, StoreError>;
    /// Gives up a seat; false if `user` had none there.
    async fn leave_challenge(&self, id: ChallengeId, user: UserId) -> Result<bool, StoreError>;

    /// Offers to play anyone compatible: in one transaction (serialised
    /// with every other seek, across processes), removes stale seeks and
    /// the player's older seek, then pairs with the oldest compatible seek
    /// into the game `pair` makes, or stores the seek to wait.
    async fn seek(&self, seek: NewSeek, pair: Pairing) -> Result<SeekOutcome, StoreError>;
    /// Withdraws a seek; false if it was not open (paired or withdrawn).
    async fn cancel_seek(&self, id: SeekId) -> Result<bool, StoreError>;
    /// Marks a seek as still wanted at `at`; false if it is no longer open.
    async fn renew_seek(&self, id: SeekId, at: i64) -> Result<bool, StoreError>;
    /// The seeks renewed at or after `fresh_after`, oldest first.
    async fn open_seeks(&self, fresh_after: i64) -> Result<Vec<Seek>, StoreError>;

    /// The boards of the simul opened as challenge `simul`, by id.
    async fn simul_games(&self, simul: ChallengeId) -> Result<Vec<GameRow>, StoreError>;

    /// Appends events to game logs, durably, before returning. Versions
    /// must follow on: [`StoreError::VersionTaken`] if one exists.
    async fn append_events(&self, events: Vec<StoredEvent>) -> Result<(), StoreError>;
    /// A game's events with a version above `after`, in order.
    async fn events(&self, game: GameId, after: u64) -> Result<Vec<StoredEvent>, StoreError>;

    /// The game with this id.
    async fn game(&self, id: GameId) -> Result<Option<GameRow>, StoreError>;
    /// Every game still live (to rebuild after a restart), by id.
    async fn live_games(&self) -> Result<Vec<GameRow>, StoreError>;
    /// Writes a game's end and, for a rated game, both new ratings, once:
    /// false (and nothing written) if the game was not live.
    async fn finish_game(&self, end: GameEnd) -> Result<bool, StoreError>;
    /// A player's finished games matching the query, newest first.
    async fn games_of(
        &self,
        user: UserId,
        query: &ArchiveQuery,
    ) -> Result<Vec<GameRow>, StoreError>;

    /// Records that the server was alive at `at` (for excusing downtime).
    async fn heartbeat(&self, at: i64) -> Result<(), StoreError>;
    /// The last heartbeat recorded.
    async fn last_heartbeat(&self) -> Result<Option<i64>, StoreError>;

    /// Instances, game ownership and the bus, when several server
    /// instances can share this store (PostgreSQL); `None` for SQLite.
    fn cluster(&self) -> Option<&dyn cluster::Cluster> {
        None
    }
}

/// Where the data lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file (created with its directory if missing).
    Sqlite(PathBuf),
    /// A PostgreSQL server: a `postgres://` URL, optionally with a schema to
    /// use (created if missing) instead of `public`.
    Postgres {
        /// The connection URL.
        url: String,
        /// The schema.
        schema: Option<String>,
    },
}

impl Database {
    /// The SQLite file `shoutan.db` in `dir`.
    pub fn sqlite_in(dir: impl Into<PathBuf>) -> Database {
        Database::Sqlite(dir.into().join("shoutan.db"))
    }
}

impl FromStr for Database {
    type Err = StoreError;
    /// `postgres://…` or `postgresql://…`, `sqlite://PATH`, `sqlite:PATH`, or
    /// a plain path to a SQLite file.
    fn from_str(s: &str) -> Result<Database, StoreError> {
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            return Ok(Database::Postgres {
                url: s.to_owned(),
                schema: None,
            });
        }
        let path = s
            .strip_prefix("sqlite://")
            .or_else(|| s.strip_prefix("sqlite:"))
            .unwrap_or(s);
        if path.is_empty() || path.contains("://") {
            return Err(StoreError::Location(s.to_owned()));
        }
        Ok(Database::Sqlite(PathBuf::from(path)))
    }
}

/// Opens the store at `database`, applying any migration not yet applied.
pub async fn open(database: &Database) -> Result<Arc<dyn Store>, StoreError> {
    Ok(match database {
        Database::Sqlite(path) => Arc::new(SqliteStore::open(path).await?),
        Database::Postgres { url, schema } => {
            Arc::new(PostgresStore::connect(url, schema.as_deref()).await?)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_parse() {
        let pg: Database = "postgres://u@h:5432/db".parse().unwrap();
        assert!(
            matches!(pg, Database::Postgres { ref url, schema: None } if url == "postgres://u@h:5432/db")
        );
        assert_eq!(
            "sqlite://data/x.db".parse::<Database>().unwrap(),
            Database::Sqlite("data/x.db".into())
        );
        assert_eq!(
            "sqlite:x.db".parse::<Database>().unwrap(),
            Database::Sqlite("x.db".into())
        );
        assert_eq!(
            "/tmp/s.db".parse::<Database>().unwrap(),
            Database::Sqlite("/tmp/s.db".into())
        );
        assert!(matches!(
            "mysql://h/db".parse::<Database>(),
            Err(StoreError::Location(_))
        ));
        assert!(matches!(
            "".parse::<Database>(),
            Err(StoreError::Location(_))
        ));
    }
}
