-- AI reviews of finished games: one per game and level, requested once and
-- stored once. A row without `finished_at` is a review still to make (the
-- server picks it up again after a restart); `body` is the review (JSON,
-- the server's) once made.

CREATE TABLE reviews (
    game_id      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    level        TEXT   NOT NULL,
    requested_by BIGINT NOT NULL REFERENCES users (id),
    requested_at BIGINT NOT NULL,
    finished_at  BIGINT,
    body         TEXT,
    PRIMARY KEY (game_id, level)
);
CREATE INDEX reviews_pending ON reviews (requested_at) WHERE finished_at IS NULL;
