"""How a game's record is written: the statements that create a game and move it on, and how
they are sent to a Citus cluster.

On one database the store writes a creation or an append as one statement of several CTEs
(eventstore/store.py, `_CREATE`, `_APPEND`, `_APPEND_MANY`): one round trip, checked whole at
its end. On a Citus cluster (eventstore/distribution.py) such a statement is not run where the
game is: Citus runs each CTE on its own, hands the rows one returns to the next through the
coordinator, and copies them to every worker first, so that every move touched every worker and
committed on all of them in two phases (a move on one worker failed while another was down).
There the same write is a transaction of plain statements, each routed to the game's shard by
its `game_id`, committed on that one worker: the game's row moved (`MOVE_GAME`, the statement
`_APPEND` starts with), then its command, events and token inserted with what the move returned.
The checks of a cluster run at commit (migration 0014), when all of it is there.

Appends to several games that arrive together (eventstore/groupcommit.py) are one transaction
on a cluster too: one commit, in two phases when their games lie on several workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec
from psycopg import AsyncConnection, sql
from psycopg.rows import TupleRow

# The events of a batch, as one JSON array of rows (`_Batch.params`; bytes in base64), joined
# to the one row of the game they belong to. One parameter whatever the batch's size: psycopg
# adapts a list element by element in Python (about 150 us for one event as seven arrays) and
# re-parses a statement of over 50 parameters at every call; one text is a few microseconds.
NEW_EVENTS = """
(SELECT e.seq, e.type, decode(e.body, 'base64') AS body, e.sealed, e.chance_cursor,
        decode(e.prev_hash, 'base64') AS prev_hash, decode(e.hash, 'base64') AS hash
   FROM json_to_recordset(%(events)s::json)
        AS e(seq bigint, type text, body text, sealed boolean, chance_cursor bigint,
             prev_hash text, hash text)) e
"""

INSERT_GAME = """
    INSERT INTO games (game_id, kind, rules_version, seats, status, version, seed_key_id,
                       sealed_seed, seed_chosen_by_creator, created_at, updated_at, idle_from,
                       wake_at, seating, listed, names)
    VALUES (%(game_id)s, %(kind)s, %(rules_version)s, %(seats)s, %(status)s, %(version)s,
            %(seed_key_id)s, %(sealed_seed)s, %(seed_chosen_by_creator)s,
            coalesce(%(at)s, now()), coalesce(%(at)s, now()), coalesce(%(at)s, now()), %(wake_at)s,
            %(seating)s, %(listed)s, %(names)s::text[])
    RETURNING game_id, version, created_at
"""

# The time an append records: the one given, else the database's. Citus refuses a function that
# is not immutable (now(), or a time plus an interval) inside a CASE or COALESCE of an UPDATE it
# routes to a shard, but not a subquery's.
_AT = "coalesce(%(at)s, (SELECT now()))"

MOVE_GAME = f"""
    UPDATE games
       SET version = version + %(count)s,
           command_count = command_count + 1,
           status = coalesce(%(status)s::text, status),
           updated_at = {_AT},
           idle_from = CASE WHEN {_AT} - idle_from >= interval '1 minute'
                            THEN {_AT} ELSE idle_from END,
           wake_at = %(wake_at)s,
           names = CASE WHEN %(set_names)s THEN %(names)s::text[] ELSE names END
     WHERE game_id = %(game_id)s AND version = %(expected)s
       -- For an append from a remembered head, which skips the first look: the head is the
       -- event the batch chains from and nothing follows it (two index probes). That nothing is
       -- missing before it is what this process saw when it read or wrote the stream: an event
       -- deleted behind its back since is found by the next whole read (a cold load, another
       -- process, the audit), not by a count on every move, which grows with the game.
       AND (%(expected)s = 0 OR EXISTS (
               SELECT 1 FROM events
                WHERE game_id = %(game_id)s AND seq = %(expected)s AND hash = %(prev_hash)s))
       AND NOT EXISTS (SELECT 1 FROM events WHERE game_id = %(game_id)s AND seq > %(expected)s)
 RETURNING game_id, version, command_count AS command_id, updated_at AS recorded_at
"""

RECORD_CREATION = """
INSERT INTO game_creations (key_hash, request_hash, game_id, version, token_key_id, created_at)
VALUES (%(key_hash)s, %(request_hash)s, %(game_id)s, %(version)s, %(token_key_id)s, %(created_at)s)
"""

# -- on a cluster: each statement names its game, so that Citus sends it to its shard ---------
# Rows go as VALUES, never INSERT ... SELECT from a list: Citus would run that as a COPY, which
# it always commits in two phases, where a write to one worker needs one.

_COMMAND_OF_MOVE = """
INSERT INTO commands (game_id, command_id, seat, body, sealed, idempotency_key, first_seq,
                      last_seq, recorded_at)
VALUES (%(game_id)s, %(command_id)s, %(seat)s, %(body)s, %(command_sealed)s, %(key)s,
        %(expected)s + 1, %(version)s, %(recorded_at)s)
"""

_TOKEN_OF_MOVE = """
INSERT INTO seat_tokens (game_id, seat, sitting, token_hash)
VALUES (%(game_id)s, %(seat)s, %(token_sitting)s, %(token_hash)s)
"""

_EVENT_COLUMNS = (
    "game_id", "seq", "type", "body", "sealed", "seat", "command_id", "chance_cursor",
    "recorded_at", "prev_hash", "hash",
)  # fmt: skip
_TOKEN_COLUMNS = ("game_id", "seat", "sitting", "token_hash")


class _Event(msgspec.Struct, frozen=True):
    """An event of `NEW_EVENTS`' parameter (bytes in base64)."""

    seq: int
    type: str
    body: bytes
    sealed: bool
    chance_cursor: int
    prev_hash: bytes
    hash: bytes


def _events(params: dict[str, Any], seat: int | None, command_id: int | None, at: datetime) -> Any:
    rows = msgspec.json.decode(params["events"], type=list[_Event])
    return [
        (params["game_id"], e.seq, e.type, e.body, e.sealed, seat, command_id, e.chance_cursor,
         at, e.prev_hash, e.hash)
        for e in rows
    ]  # fmt: skip


async def _insert(
    conn: AsyncConnection[TupleRow], table: str, columns: Sequence[str], rows: list[Any]
) -> None:
    """One multi-row INSERT ... VALUES of `rows` (of one game: one shard)."""
    if not rows:
        return
    row = sql.SQL("({})").format(sql.SQL(", ").join([sql.Placeholder()] * len(columns)))
    statement = sql.SQL("INSERT INTO {} ({}) VALUES {}").format(
        sql.Identifier(table),
        sql.SQL(", ").join(map(sql.Identifier, columns)),
        sql.SQL(", ").join([row] * len(rows)),
    )
    await conn.execute(statement, [value for values in rows for value in values])


async def create_on_cluster(
    conn: AsyncConnection[TupleRow], params: dict[str, Any], keyed: bool
) -> datetime:
    """A game created on a cluster (the parameters of `_CREATE`): when it was created."""
    async with conn.transaction(), conn.pipeline():
        cursor = await conn.execute(INSERT_GAME, params)
        row = await cursor.fetchone()
        assert row is not None  # an INSERT ... RETURNING that did not fail returns its row
        created_at = row[2]
        tokens = zip(
            params["token_seats"], params["token_sittings"], params["token_hashes"], strict=True
        )
        await _insert(
            conn, "seat_tokens", _TOKEN_COLUMNS, [(params["game_id"], *t) for t in tokens]
        )
        await _insert(conn, "events", _EVENT_COLUMNS, _events(params, None, None, created_at))
        if keyed:  # a reference table: written on every node
            await conn.execute(RECORD_CREATION, {**params, "created_at": created_at})
    return created_at


async def append_on_cluster(
    conn: AsyncConnection[TupleRow], appends: Sequence[dict[str, Any]]
) -> list[tuple[int, datetime] | None]:
    """Appends to different games (each the parameters of `_APPEND`) in one transaction on a
    cluster: for each, its command's id and time, or None if its game was not where it was
    decided (nothing of it written)."""
    written: list[tuple[int, datetime] | None] = [None] * len(appends)
    # Games are locked in the order of their ids, in every batch of every process: two batches
    # that share games on two workers then wait for each other at most, never in a cycle (a
    # distributed deadlock, which Citus settles by cancelling one).
    order = sorted(range(len(appends)), key=lambda i: appends[i]["game_id"])
    async with conn.transaction():
        for i in order:
            written[i] = await _append(conn, appends[i])
    return written


async def _append(
    conn: AsyncConnection[TupleRow], params: dict[str, Any]
) -> tuple[int, datetime] | None:
    cursor = await conn.execute(MOVE_GAME, params)
    row = await cursor.fetchone()
    if row is None:
        return None
    _, version, command_id, recorded_at = row
    moved = {**params, "version": version, "command_id": command_id, "recorded_at": recorded_at}
    async with conn.pipeline():
        await conn.execute(_COMMAND_OF_MOVE, moved)
        if params["token_hash"] is not None:
            await conn.execute(_TOKEN_OF_MOVE, moved)
        events = _events(params, params["seat"], command_id, recorded_at)
        await _insert(conn, "events", _EVENT_COLUMNS, events)
    return command_id, recorded_at
