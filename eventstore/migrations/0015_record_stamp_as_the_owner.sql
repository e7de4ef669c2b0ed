-- The stamp of a game's record (`EventStore.record_stamp`, for kept audit reports: api/audit.py)
-- is computed by a function that runs as the schema's owner, rather than by a statement of the
-- service that reads the games row's version columns itself (issue 39).
--
-- The stamp hashes which rows hold the game's record now: its games row, events and commands,
-- each by its version (`xmin`, the transaction that wrote it, and `ctid`, where it lies), in
-- order. Any UPDATE, DELETE or INSERT of one of them, by whoever and whatever it writes, makes a
-- row version of another transaction, which SQL cannot choose: the stamp changes. (Short of
-- editing the data files, only a new row version put in the old one's very place by a
-- transaction whose id came round to the old one's, 2^32 transactions on, would leave it
-- standing.) No body is read.
--
-- Migration 0008 let the service read the games row's `xmin` and `ctid` by a column grant. Citus
-- copies the grants of a distributed table to its shards, but not those of system columns, on
-- distribution or on a shard moved: the service's read of the stamp was refused there. The
-- function needs no such grant, and gives the service the stamp and nothing more.

CREATE FUNCTION referee_record_stamp(wanted text) RETURNS TABLE (version bigint, stamp bytea)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
SELECT g.version, sha256(convert_to(format('%s %s;%s;%s', g.xmin, g.ctid,
    (SELECT string_agg(e.xmin || ' ' || e.ctid, ',' ORDER BY e.seq)
       FROM events e WHERE e.game_id = wanted),
    (SELECT string_agg(c.xmin || ' ' || c.ctid, ',' ORDER BY c.command_id)
       FROM commands c WHERE c.game_id = wanted)), 'UTF8'))
  FROM games g
 WHERE g.game_id = wanted
$$;

REVOKE ALL ON FUNCTION referee_record_stamp(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION referee_record_stamp(text) TO referee_app;
REVOKE SELECT (xmin, ctid) ON games FROM referee_app;
