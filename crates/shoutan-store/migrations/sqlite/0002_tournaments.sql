-- Tournaments (issue 9): each event and its append-only log of organiser
-- and arbiter actions, from which the event is rebuilt; and the games
-- created for its pairings.
CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    name         TEXT    NOT NULL,
    organiser_id INTEGER NOT NULL REFERENCES users (id),
    created_at   INTEGER NOT NULL
);

CREATE TABLE tournament_actions (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    seq           INTEGER NOT NULL,
    at            INTEGER NOT NULL,
    actor_id      INTEGER REFERENCES users (id),
    body          TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);

CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    game_id       INTEGER NOT NULL UNIQUE REFERENCES games (id),
    PRIMARY KEY (tournament_id, round, table_no)
);
