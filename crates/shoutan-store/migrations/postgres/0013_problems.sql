-- Problems (死活题): each player's first try of each problem (the one that
-- counts, as on Fox and 101weiqi), and the ratings that first tries move —
-- the player's problem rating and each problem's own — on one scale with
-- the game ratings (the rank a rating reads as is the same).

CREATE TABLE problem_tries (
    user_id BIGINT  NOT NULL REFERENCES users (id),
    problem TEXT    NOT NULL,
    solved  BOOLEAN NOT NULL,
    at      BIGINT  NOT NULL,
    PRIMARY KEY (user_id, problem)
);

CREATE TABLE problem_solvers (
    user_id    BIGINT           PRIMARY KEY REFERENCES users (id),
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    tries      BIGINT           NOT NULL
);

CREATE TABLE problem_ratings (
    problem    TEXT             PRIMARY KEY,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    tries      BIGINT           NOT NULL,
    solved     BIGINT           NOT NULL
);
