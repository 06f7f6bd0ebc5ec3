-- Problems (死活题): each player's first try of each problem (the one that
-- counts, as on Fox and 101weiqi), and the ratings that first tries move —
-- the player's problem rating and each problem's own — on one scale with
-- the game ratings (the rank a rating reads as is the same).

CREATE TABLE problem_tries (
    user_id INTEGER NOT NULL REFERENCES users (id),
    problem TEXT    NOT NULL,
    solved  INTEGER NOT NULL,
    at      INTEGER NOT NULL,
    PRIMARY KEY (user_id, problem)
);

CREATE TABLE problem_solvers (
    user_id    INTEGER PRIMARY KEY REFERENCES users (id),
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,
    tries      INTEGER NOT NULL
);

CREATE TABLE problem_ratings (
    problem    TEXT    PRIMARY KEY,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,
    tries      INTEGER NOT NULL,
    solved     INTEGER NOT NULL
);
