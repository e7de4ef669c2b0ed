-- The checks of migration 0006, made once a statement rather than once a row (issue 29).
--
-- Every write of the service is one statement (an append moves the game's version and inserts
-- its command and events together; a batch of appends to several games is one statement too),
-- so the checks run when that statement ends, over all the rows it wrote, in one query each,
-- rather than two lookups for each event at commit. They see everything the statement did,
-- whatever the order of its parts. What they hold is unchanged: a game's version is the seq of
-- an event it has; an event belongs to a game, follows the one before it (numbered on, chained
-- by its prev_hash), does not lie past its game's version and, unless sealed, hashes to its hash.
-- A statement that breaks one is refused whole, with the first row that breaks it named.
--
-- That an event's game and command exist was also held by two foreign keys, each a locking
-- lookup per event; the statement's check holds it now (no event can be inserted without its
-- game and command; neither can be deleted: the service may not, and the append-only triggers
-- refuse it to everyone), so the keys are dropped.
-- (A write split over several statements of one transaction is now checked at each statement's
-- end, not at commit: stricter; the service never splits one.)

DROP TRIGGER games_version_has_its_event ON games;
DROP TRIGGER events_in_line ON events;
DROP FUNCTION refuse_version_without_its_event();
DROP FUNCTION refuse_event_out_of_line();
ALTER TABLE events DROP CONSTRAINT events_game_id_fkey;
ALTER TABLE events DROP CONSTRAINT events_game_id_command_id_fkey;

-- The checks look each row's neighbours up by key, one index probe each (scalar subqueries,
-- which the planner keeps as such): a transition table has no statistics, and a join planned
-- over it could scan a whole table.
CREATE FUNCTION refuse_versions_without_their_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    bad record;
BEGIN
    SELECT m.game_id, m.version INTO bad
      FROM moved_games m
     WHERE m.version > 0
       AND (SELECT e.seq FROM events e WHERE e.game_id = m.game_id AND e.seq = m.version)
           IS NULL
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'game %: version % has no event %', bad.game_id, bad.version, bad.version
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER games_created_with_their_events
    AFTER INSERT ON games REFERENCING NEW TABLE AS moved_games
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_versions_without_their_events();
CREATE TRIGGER games_moved_with_their_events
    AFTER UPDATE ON games REFERENCING NEW TABLE AS moved_games
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_versions_without_their_events();

CREATE FUNCTION refuse_events_out_of_line() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    bad record;
BEGIN
    SELECT *
      INTO bad
      FROM (SELECT n.game_id, n.seq, n.command_id,
                   version IS NULL AS no_game,
                   n.command_id IS NOT NULL AND command IS NULL AS no_command,
                   n.seq > version AS past,
                   n.prev_hash IS DISTINCT FROM coalesce(
                       before, CASE WHEN n.seq = 1 THEN decode(repeat('00', 32), 'hex') END
                   ) AS unchained, -- the genesis hash before event 1
                   NOT n.sealed AND n.hash <> sha256(n.prev_hash || n.body) AS false_hash
              FROM new_events n,
                   LATERAL (SELECT
                       (SELECT g.version FROM games g WHERE g.game_id = n.game_id) AS version,
                       (SELECT c.command_id FROM commands c
                         WHERE c.game_id = n.game_id AND c.command_id = n.command_id) AS command,
                       (SELECT e.hash FROM events e
                         WHERE e.game_id = n.game_id AND e.seq = n.seq - 1) AS before) found
           ) checked
     WHERE no_game OR no_command OR past OR unchained OR false_hash
     ORDER BY game_id, seq
     LIMIT 1;
    IF NOT FOUND THEN
        RETURN NULL;
    ELSIF bad.no_game THEN
        RAISE EXCEPTION 'game %: event % belongs to no game', bad.game_id, bad.seq
            USING ERRCODE = 'restrict_violation';
    ELSIF bad.no_command THEN
        RAISE EXCEPTION 'game %: event % names no command %', bad.game_id, bad.seq,
            bad.command_id USING ERRCODE = 'restrict_violation';
    ELSIF bad.past THEN
        RAISE EXCEPTION 'game %: event % lies past the game''s version', bad.game_id, bad.seq
            USING ERRCODE = 'restrict_violation';
    ELSIF bad.unchained THEN
        RAISE EXCEPTION 'game %: event % is not chained to event %', bad.game_id, bad.seq,
            bad.seq - 1 USING ERRCODE = 'restrict_violation';
    END IF;
    RAISE EXCEPTION 'game %: event % does not hash to its hash', bad.game_id, bad.seq
        USING ERRCODE = 'restrict_violation';
END
$$;

CREATE TRIGGER events_in_line
    AFTER INSERT ON events REFERENCING NEW TABLE AS new_events
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_events_out_of_line();
