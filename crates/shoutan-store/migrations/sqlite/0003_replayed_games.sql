-- A table may have more than one game: an arbiter's replay ruling (重下)
-- starts a new game for the same pairing. The newest game of a table is
-- the one with the highest id.
CREATE TABLE tournament_games_new (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    game_id       INTEGER NOT NULL PRIMARY KEY REFERENCES games (id)
);
INSERT INTO tournament_games_new (tournament_id, round, table_no, game_id)
    SELECT tournament_id, round, table_no, game_id FROM tournament_games;
DROP TABLE tournament_games;
ALTER TABLE tournament_games_new RENAME TO tournament_games;
CREATE INDEX tournament_games_by_table ON tournament_games (tournament_id, round, table_no);
