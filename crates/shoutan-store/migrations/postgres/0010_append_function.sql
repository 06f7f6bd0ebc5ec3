-- The append of a batch of game events in one statement, so that the
-- appender pays one round trip to the database per batch instead of eight
-- (begin, the fence, the insert, the notifications, commit; the
-- statements' preparation). Called on its own, the statement is its own
-- transaction.
--
-- With an instance and token (the fence, see the store's `cluster`
-- module) the batch goes in only if that instance still owns every game in
-- it; the owners' rows are locked for share until the commit, so that a
-- takeover waits for the append or the append sees the takeover. Returns
-- the first game it does not own (nothing is written then), or NULL once
-- the events are in and, when `payloads` is not NULL, announced on
-- `channel`. A version already in the log raises the unique violation.

CREATE FUNCTION append_game_events(
    games    BIGINT[],
    versions BIGINT[],
    ats      BIGINT[],
    bodies   TEXT[],
    fence_instance TEXT,
    fence_token    TEXT,
    channel  TEXT,
    payloads TEXT[]
) RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
    owned BIGINT[];
    lost  BIGINT;
BEGIN
    IF fence_instance IS NOT NULL THEN
        SELECT array_agg(mine.game_id) INTO owned FROM (
            SELECT o.game_id FROM game_owners o JOIN instances i ON i.id = o.instance
            WHERE o.game_id = ANY (games) AND o.instance = fence_instance
              AND i.token = fence_token
            FOR SHARE OF o) AS mine;
        SELECT g INTO lost FROM unnest(games) AS g
            WHERE NOT (g = ANY (coalesce(owned, '{}')))
            ORDER BY g LIMIT 1;
        IF lost IS NOT NULL THEN
            RETURN lost;
        END IF;
    END IF;
    INSERT INTO game_events (game_id, version, at, body)
        SELECT * FROM unnest(games, versions, ats, bodies);
    IF payloads IS NOT NULL THEN
        PERFORM pg_notify(channel, p) FROM unnest(payloads) AS p;
    END IF;
    RETURN NULL;
END
$$;
