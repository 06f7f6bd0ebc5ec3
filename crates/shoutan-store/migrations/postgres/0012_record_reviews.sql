-- AI reviews of uploaded records (SGF): one per record and level, where a
-- record is known by the server's digest of its content, so that the same
-- game uploaded twice, by anyone, is reviewed once. `sgf` is the text as
-- first uploaded (the review is made again from it after a restart); a
-- row without `finished_at` is a review still to make; `body` is the
-- review (JSON, the server's) once made.

CREATE TABLE record_reviews (
    record       TEXT    NOT NULL,
    level        TEXT    NOT NULL,
    sgf          TEXT    NOT NULL,
    requested_by BIGINT  NOT NULL REFERENCES users (id),
    requested_at BIGINT  NOT NULL,
    finished_at  BIGINT,
    body         TEXT,
    PRIMARY KEY (record, level)
);
CREATE INDEX record_reviews_pending ON record_reviews (requested_at) WHERE finished_at IS NULL;
