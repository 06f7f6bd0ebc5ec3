-- Several server instances on one database: each instance's heartbeat, and
-- the instance that owns each game (see the store's `cluster` module).
-- Instants: `heartbeat_at` by the database's clock (leases), `seen_at` by
-- the instance's own (downtime excused on the game clocks).

CREATE TABLE instances (
    id           TEXT   PRIMARY KEY,
    token        TEXT   NOT NULL,
    started_at   BIGINT NOT NULL,
    heartbeat_at BIGINT NOT NULL,
    seen_at      BIGINT NOT NULL
);

CREATE TABLE game_owners (
    game_id  BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    instance TEXT   NOT NULL,
    since    BIGINT NOT NULL
);
CREATE INDEX game_owners_instance ON game_owners (instance);
