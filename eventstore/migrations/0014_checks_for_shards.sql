-- The in-line checks of migrations 0011 and 0013 in the form they take on a Citus cluster
-- (issue 39). This migration only defines functions; eventstore/distribution.py puts them in
-- place of the statement-level checks when it distributes the tables, and on one database
-- nothing changes.
--
-- Why another form: Citus runs a statement that writes several tables (the store's append, its
-- creation: one statement of several CTEs on one database) as several statements on the
-- game's shards, one a table, and a statement-level check fires at the end of each: the games
-- row moved to version 7 is checked before event 7 is written, and refused. So on a cluster
-- each row is checked at commit (deferred constraint triggers, as migration 0006 did), when
-- every part of the write is there, on the worker that holds the rows. What is held is what
-- 0011 and 0013 hold, row by row: a game's version is the seq of one of its events; an event
-- belongs to a game and, when it names one, to a command, follows the one before it (numbered
-- on, chained by its prev_hash), does not lie past its game's version and, unless sealed,
-- hashes to its hash; a command belongs to a game.
--
-- A check fires on a shard (`events_102040`) and must read the shards beside it, not the
-- distributed tables: Citus refuses a distributed query from inside a shard's statement, and
-- another connection would not see the rows of this transaction. `referee_beside` names the
-- shard of another table that holds the same hash range of game ids (co-located: on the same
-- node), or the table itself where the trigger fired on a table, not a shard.

CREATE FUNCTION referee_beside(fired_on name, wanted text) RETURNS text
LANGUAGE plpgsql STABLE AS $$
DECLARE
    shard bigint := substring(fired_on FROM '_([0-9]+)$')::bigint;
    found text;
BEGIN
    IF shard IS NULL THEN
        RETURN quote_ident(wanted);
    END IF;
    SELECT shard_name(w.logicalrelid, w.shardid) INTO found
      FROM pg_dist_shard f
      JOIN pg_dist_shard w ON w.logicalrelid = wanted::regclass
                          AND w.shardminvalue = f.shardminvalue
     WHERE f.shardid = shard;
    IF found IS NULL THEN
        RAISE EXCEPTION 'no shard of % beside %', wanted, fired_on
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN found;
END
$$;

CREATE FUNCTION refuse_version_without_its_event_on_shard() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    found boolean;
BEGIN
    IF NEW.version = 0 THEN
        RETURN NULL;
    END IF;
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s WHERE game_id = $1 AND seq = $2)',
                   referee_beside(TG_TABLE_NAME, 'events'))
       INTO found USING NEW.game_id, NEW.version;
    IF NOT found THEN
        RAISE EXCEPTION 'game %: version % has no event %', NEW.game_id, NEW.version, NEW.version
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION refuse_event_out_of_line_on_shard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    version bigint;
    command bigint;
    before bytea;
BEGIN
    EXECUTE format(
        'SELECT (SELECT version FROM %s WHERE game_id = $1),'
        '       (SELECT command_id FROM %s WHERE game_id = $1 AND command_id = $2),'
        '       (SELECT hash FROM %s WHERE game_id = $1 AND seq = $3 - 1)',
        referee_beside(TG_TABLE_NAME, 'games'), referee_beside(TG_TABLE_NAME, 'commands'),
        referee_beside(TG_TABLE_NAME, 'events'))
       INTO version, command, before USING NEW.game_id, NEW.command_id, NEW.seq;
    IF version IS NULL THEN
        RAISE EXCEPTION 'game %: event % belongs to no game', NEW.game_id, NEW.seq
            USING ERRCODE = 'restrict_violation';
    ELSIF NEW.command_id IS NOT NULL AND command IS NULL THEN
        RAISE EXCEPTION 'game %: event % names no command %', NEW.game_id, NEW.seq,
            NEW.command_id USING ERRCODE = 'restrict_violation';
    ELSIF NEW.seq > version THEN
        RAISE EXCEPTION 'game %: event % lies past the game''s version', NEW.game_id, NEW.seq
            USING ERRCODE = 'restrict_violation';
    ELSIF NEW.prev_hash IS DISTINCT FROM coalesce(
            before, CASE WHEN NEW.seq = 1 THEN decode(repeat('00', 32), 'hex') END) THEN
        RAISE EXCEPTION 'game %: event % is not chained to event %', NEW.game_id, NEW.seq,
            NEW.seq - 1 USING ERRCODE = 'restrict_violation';
    ELSIF NOT NEW.sealed AND NEW.hash <> sha256(NEW.prev_hash || NEW.body) THEN
        RAISE EXCEPTION 'game %: event % does not hash to its hash', NEW.game_id, NEW.seq
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION refuse_command_of_no_game_on_shard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    found boolean;
BEGIN
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s WHERE game_id = $1)',
                   referee_beside(TG_TABLE_NAME, 'games'))
       INTO found USING NEW.game_id;
    IF NOT found THEN
        RAISE EXCEPTION 'game %: command % belongs to no game', NEW.game_id, NEW.command_id
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NULL;
END
$$;
