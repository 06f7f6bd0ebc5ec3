-- A public server (issue 31): roles, reports, moderators' actions (the
-- audit log: rows are added and lifted, never changed otherwise or
-- removed), blocks and mutes between players, one-time password reset
-- codes (only their hash), deleted accounts, and the client a session was
-- opened from (for the player's list of his sessions).

-- A bit set: 1 administrator, 2 moderator, 4 arbiter.
ALTER TABLE users ADD COLUMN roles BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN deleted_at BIGINT;
ALTER TABLE sessions ADD COLUMN client TEXT NOT NULL DEFAULT '';

CREATE TABLE reports (
    id           BIGSERIAL PRIMARY KEY,
    reporter_id  BIGINT NOT NULL REFERENCES users (id),
    target_id    BIGINT NOT NULL REFERENCES users (id),
    game_id      BIGINT REFERENCES games (id),
    chat_version BIGINT,
    reason       TEXT    NOT NULL,
    text         TEXT    NOT NULL,
    created_at   BIGINT NOT NULL,
    closed_at    BIGINT,
    closed_by    BIGINT REFERENCES users (id),
    resolution   TEXT
);
CREATE INDEX reports_open ON reports (id) WHERE closed_at IS NULL;

CREATE TABLE moderation_actions (
    id        BIGSERIAL PRIMARY KEY,
    user_id   BIGINT NOT NULL REFERENCES users (id),
    kind      TEXT    NOT NULL,
    reason    TEXT    NOT NULL,
    until     BIGINT,
    game_id   BIGINT REFERENCES games (id),
    report_id BIGINT REFERENCES reports (id),
    by_id     BIGINT REFERENCES users (id),
    at        BIGINT NOT NULL,
    lifted_at BIGINT,
    lifted_by BIGINT REFERENCES users (id)
);
CREATE INDEX moderation_actions_user ON moderation_actions (user_id, id);

CREATE TABLE relations (
    user_id  BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    other_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL,
    at       BIGINT NOT NULL,
    PRIMARY KEY (user_id, other_id)
);
CREATE INDEX relations_other ON relations (other_id);

CREATE TABLE reset_codes (
    code_hash  BYTEA   PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL
);
