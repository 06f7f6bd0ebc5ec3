//! What can go wrong in the store.

/// A store operation that failed. Nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// An account with this name (ignoring case) exists.
    #[error("the name {0:?} is taken")]
    NameTaken(String),
    /// The name looks like an existing account's (the same confusable
    /// skeleton, [`crate::name_skeleton`]).
    #[error("the name {0:?} looks like an existing player's name")]
    NameConfusable(String),
    /// The challenge was accepted or cancelled by someone else first.
    #[error("challenge {0} is no longer open")]
    ChallengeGone(i64),
    /// The player has a seat in this challenge already.
    #[error("you have joined challenge {0} already")]
    AlreadyJoined(i64),
    /// An event with this version is already in the game's log: two writers
    /// for one game, which the server never allows.
    #[error("game {game} already has an event with version {version}")]
    VersionTaken {
        /// The game.
        game: i64,
        /// The version.
        version: u64,
    },
    /// This process no longer owns the game (another instance claimed it):
    /// nothing was written.
    #[error("game {0} is owned by another server instance now")]
    NotOwner(i64),
    /// Another process joined the cluster under this instance's id.
    #[error("another process joined as instance {0:?}")]
    Superseded(String),
    /// A stored value that cannot be read back (a rank, a colour, a status).
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// A value to store cannot be written as JSON: nothing was written.
    #[error("cannot be written: {0}")]
    Unencodable(String),
    /// A location that is no database this store knows.
    #[error(
        "{0:?} is not a database location (expected a SQLite file path, sqlite://PATH or postgres://…)"
    )]
    Location(String),
    /// The store's writer has stopped (the process is shutting down).
    #[error("the store is closed")]
    Closed,
    /// The transaction that carried the write could not be committed.
    #[error("commit failed: {0}")]
    Commit(String),
    /// SQLite said no.
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL said no.
    #[error("PostgreSQL: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    /// No PostgreSQL connection could be had from the pool.
    #[error("PostgreSQL pool: {0}")]
    Pool(String),
    /// The file system said no (creating the data directory).
    #[error("{0}")]
    Io(#[from] std::io::Error),
}
