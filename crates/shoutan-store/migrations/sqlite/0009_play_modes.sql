-- Play modes (issue 18). Automatch seeks: one open seek per player, paired
-- in the transaction that makes the game; `seen_at` is renewed while the
-- seeker's connection lives, so a seek left by a crashed process goes
-- stale instead of pairing someone with nobody. Challenges with several
-- seats (rengo: three to join; a simul: one per board) and who joined them
-- (each with his seat as the server shows it: name and rank then).
-- A simul's games carry the challenge they came from.
CREATE TABLE seeks (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    size         INTEGER NOT NULL,
    time_control TEXT    NOT NULL,
    rated        INTEGER NOT NULL,
    rank_level   INTEGER NOT NULL,
    min_level    INTEGER NOT NULL,
    max_level    INTEGER NOT NULL,
    settings     TEXT    NOT NULL,
    created_at   INTEGER NOT NULL,
    seen_at      INTEGER NOT NULL
);
CREATE INDEX seeks_pool ON seeks (size, time_control, rated);

ALTER TABLE challenges ADD COLUMN seats INTEGER NOT NULL DEFAULT 1;

CREATE TABLE challenge_seats (
    challenge_id INTEGER NOT NULL REFERENCES challenges (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    seat         TEXT    NOT NULL,
    joined_at    INTEGER NOT NULL,
    PRIMARY KEY (challenge_id, user_id)
);

ALTER TABLE games ADD COLUMN simul_id INTEGER;
CREATE INDEX games_simul ON games (simul_id) WHERE simul_id IS NOT NULL;
