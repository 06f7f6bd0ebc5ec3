-- Accounts, sessions, challenges, games and their event logs.
-- Instants are milliseconds since the Unix epoch.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT    NOT NULL,
    name_key      TEXT    NOT NULL UNIQUE,
    password_hash TEXT    NOT NULL,
    declared_rank TEXT    NOT NULL,
    rating        REAL    NOT NULL,
    deviation     REAL    NOT NULL,
    volatility    REAL    NOT NULL,
    rated_games   INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL
);

CREATE TABLE sessions (
    token_hash BLOB    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    challenger_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    opponent_id   INTEGER REFERENCES users (id) ON DELETE CASCADE,
    settings      TEXT    NOT NULL,
    created_at    INTEGER NOT NULL
);

CREATE TABLE games (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    black_id   INTEGER NOT NULL REFERENCES users (id),
    white_id   INTEGER NOT NULL REFERENCES users (id),
    size       INTEGER NOT NULL,
    rated      INTEGER NOT NULL,
    settings   TEXT    NOT NULL,
    status     TEXT    NOT NULL,
    result     TEXT,
    winner     TEXT,
    ratings    TEXT,
    created_at INTEGER NOT NULL,
    ended_at   INTEGER
);
CREATE INDEX games_black ON games (black_id, id);
CREATE INDEX games_white ON games (white_id, id);
CREATE INDEX games_status ON games (status);

CREATE TABLE game_events (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    at      INTEGER NOT NULL,
    body    TEXT    NOT NULL,
    PRIMARY KEY (game_id, version)
) WITHOUT ROWID;

CREATE TABLE heartbeat (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at INTEGER NOT NULL
);
