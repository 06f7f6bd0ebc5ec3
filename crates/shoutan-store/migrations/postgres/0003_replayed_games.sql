-- A table may have more than one game: an arbiter's replay ruling (重下)
-- starts a new game for the same pairing. The newest game of a table is
-- the one with the highest id.
ALTER TABLE tournament_games DROP CONSTRAINT tournament_games_pkey;
ALTER TABLE tournament_games DROP CONSTRAINT tournament_games_game_id_key;
ALTER TABLE tournament_games ADD PRIMARY KEY (game_id);
CREATE INDEX tournament_games_by_table ON tournament_games (tournament_id, round, table_no);
