-- A public server (issue 31): roles, reports, moderators' actions (the
-- audit log: rows are added and lifted, never changed otherwise or
-- removed), blocks and mutes between players, one-time password reset
-- codes (only their hash), deleted accounts, and the client a session was
-- opened from (for the player's list of his sessions).

-- A bit set: 1 administrator, 2 moderator, 4 arbiter.
ALTER TABLE users ADD COLUMN roles INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN deleted_at INTEGER;
ALTER TABLE sessions ADD COLUMN client TEXT NOT NULL DEFAULT '';

CREATE TABLE reports (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    reporter_id  INTEGER NOT NULL REFERENCES users (id),
    target_id    INTEGER NOT NULL REFERENCES users (id),
    game_id      INTEGER REFERENCES games (id),
    chat_version INTEGER,
    reason       TEXT    NOT NULL,
    text         TEXT    NOT NULL,
    created_at   INTEGER NOT NULL,
    closed_at    INTEGER,
    closed_by    INTEGER REFERENCES users (id),
    resolution   TEXT
);
CREATE INDEX reports_open ON reports (id) WHERE closed_at IS NULL;

CREATE TABLE moderation_actions (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id   INTEGER NOT NULL REFERENCES users (id),
    kind      TEXT    NOT NULL,
    reason    TEXT    NOT NULL,
    until     INTEGER,
    game_id   INTEGER REFERENCES games (id),
    report_id INTEGER REFERENCES reports (id),
    by_id     INTEGER REFERENCES users (id),
    at        INTEGER NOT NULL,
    lifted_at INTEGER,
    lifted_by INTEGER REFERENCES users (id)
);
CREATE INDEX moderation_actions_user ON moderation_actions (user_id, id);

CREATE TABLE relations (
    user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    other_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL,
    at       INTEGER NOT NULL,
    PRIMARY KEY (user_id, other_id)
);
CREATE INDEX relations_other ON relations (other_id);

CREATE TABLE reset_codes (
    code_hash  BLOB    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at INTEGER NOT NULL
);
