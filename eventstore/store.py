"""The event store: one stream of events per game, appended under an expected version.

An append is one statement that moves the game's version forward only if it still equals the
expected one and the stream's last event is the one the new events chain from, and inserts the
command and its events; once it has committed, listeners are notified
(eventstore/notifications.py). The statement runs alone in its transaction, so it is all or
nothing; of writers racing from the same version exactly one matches the version, the others
match no row and insert nothing. The primary key (game_id, seq) and the unique idempotency key
are the backstops: a violation of either is a lost race, never an error.

Appends from a remembered head that arrive together go together (group commit,
eventstore/groupcommit.py): one statement for a batch of appends to different games
(`_APPEND_MANY`), each game held to its own version and head as above, so that an append that
does not match writes nothing and the others are written; a batch the database refuses whole
(a backstop, a check at commit) is written again append by append. One round trip and one
commit for the batch; alone, an append is the one statement it always was.

The hash to chain from comes from the store's memory of the stream's head (its own last append
to the stream, or a verified read that reached its end: `_Heads`): then the append is that one
statement, which checks that the head is still the stream's last event (not that none is
missing before it: a count as long as the game, on every move; the first look and every read
from the start check that). Otherwise, or when the statement matches nothing, a first look
reads the stream's version, its head and an earlier command with the same idempotency key, and
says why (a conflict, a replay, a corrupt stream) or gives the head to write from.

Every method raises `DatabaseUnavailable` when the database cannot be reached and otherwise only
the store's own errors (`eventstore.types`, and `SealedSeedError` from `seed`): no psycopg error
leaves this module. A stream that contradicts its own record (an event missing, added or altered
behind the store's back) raises `StreamCorrupted` from an append and from a verified read, never
an error that says to try again.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

import msgspec
import psycopg
from psycopg import AsyncConnection, sql
from psycopg.rows import TupleRow, dict_row

from eventstore.bodies import BodySeal, command_place, event_place
from eventstore.chain import chain, event_hash
from eventstore.cursor import decode_cursor, encode_cursor
from eventstore.groupcommit import WRITERS, Counts, GroupCommit
from eventstore.notifications import Notifier
from eventstore.pool import Pool, app_connection, create_pool, database_errors
from eventstore.seeds import SealedSeedError, SeedKeys
from eventstore.types import (
    GENESIS_HASH,
    AppendResult,
    CommandRecord,
    CreationKey,
    CreationKeyTaken,
    GameCreation,
    IdempotencyKeyReused,
    NewEvent,
    OpenStream,
    RecordStamp,
    SittingToken,
    StoredEvent,
    StreamCorrupted,
    StreamExists,
    StreamHead,
    StreamInfo,
    StreamNotFound,
    VersionConflict,
)
from eventstore.writes import (
    INSERT_GAME,
    MOVE_GAME,
    NEW_EVENTS,
    append_on_cluster,
    create_on_cluster,
)

STATUSES = ("waiting", "active", "finished", "cancelled")
MAX_IDEMPOTENCY_KEY_LENGTH = 255
# Every statement of the store names one game by its id (`game_id = ...`), so that with the
# tables distributed by game_id (Citus, eventstore/distribution.py) it runs on that game's
# shard alone; but these, which by design are not about one game: the listing and the sweeper's
# catalogue queries (across games), the creation lookup by Idempotency-Key (game_creations, a
# reference table there), forgetting the stream tickets of every game once they are long expired,
# the health check, and what the store asks of the database itself (whether it is distributed).
# tests/store/test_statements.py holds them to it. An outer join names the game on its own side
# too (`head.game_id = %(game_id)s`): Citus prunes each table's shards by that table's own
# conditions, and an outer join does not carry the other side's across.
ACROSS_GAMES = (
    "learn_database",
    "list_streams",
    "due_games",
    "find_creation",
    "forget_redeemed_tickets",
    "ping",
)
HEADS_REMEMBERED = 10_000  # streams whose head a store keeps, to append to them in one round trip

_INFO_COLUMNS = sql.SQL(
    "game_id, kind, rules_version, seats, status, version, seed_chosen_by_creator,"
    " created_at, updated_at, seating, listed, names"
)
_EVENT_COLUMNS = (
    "e.game_id, e.seq, e.type, e.body, e.seat, e.command_id, e.chance_cursor, e.recorded_at,"
    " e.prev_hash, e.hash, e.sealed"
)
_EVENT_FIELDS = (*StoredEvent.__struct_fields__, "sealed")  # the names of _EVENT_COLUMNS
_COMMAND_COLUMNS = (
    "c.command_id AS id, c.game_id, c.seat, c.body, c.idempotency_key, c.first_seq, c.last_seq,"
    " c.recorded_at, c.sealed"
)
# What opens the game's sealed bodies (eventstore.bodies), from its games row `g`.
_SEED_COLUMNS = "g.seed_key_id AS seed_key_id_, g.sealed_seed AS sealed_seed_"

_CREATE = f"""
WITH game AS ({INSERT_GAME}), creation AS (
    INSERT INTO game_creations (key_hash, request_hash, game_id, version, token_key_id,
                                created_at)
    SELECT %(key_hash)s, %(request_hash)s, game.game_id, game.version, %(token_key_id)s,
           game.created_at
      FROM game
     WHERE %(key_hash)s::bytea IS NOT NULL
), tokens AS (
    INSERT INTO seat_tokens (game_id, seat, sitting, token_hash)
    SELECT game.game_id, t.seat, t.sitting, t.token_hash
      FROM game, unnest(%(token_seats)s::int[], %(token_sittings)s::bigint[],
                        %(token_hashes)s::bytea[]) AS t(seat, sitting, token_hash)
), appended AS (
    INSERT INTO events (game_id, seq, type, body, sealed, chance_cursor, recorded_at, prev_hash,
                        hash)
    SELECT game.game_id, e.seq, e.type, e.body, e.sealed, e.chance_cursor, game.created_at,
           e.prev_hash, e.hash
      FROM game, {NEW_EVENTS}
)
SELECT created_at FROM game
"""

_CREATION = """
SELECT game_id, request_hash, version, token_key_id, created_at
  FROM game_creations
 WHERE key_hash = %s
"""

# What an append needs to know first; one row if the game exists. The head (the event at the
# game's version) must exist, nothing may follow it and no event may be missing before it
# (a count of the game's events: as dear as the game is long, so only here, where a process
# first appends to a game or has lost a race, not on every move from a remembered head).
_BEFORE_APPEND = """
SELECT g.version, head.seq, head.hash, c.body, c.sealed, c.first_seq,
       EXISTS (SELECT 1 FROM events WHERE game_id = %(game_id)s AND seq > g.version),
       (SELECT count(*) FROM events WHERE game_id = %(game_id)s),
       g.seed_key_id, g.sealed_seed
  FROM games g
  LEFT JOIN events head ON head.game_id = %(game_id)s AND head.seq = g.version
  -- No key (or no seat) matches no command: said with values that match none (seats are not
  -- negative, keys not empty) rather than NULLs, which would make the join's whole condition
  -- false, its game with it, and send it to every shard under Citus.
  LEFT JOIN commands c
         ON c.game_id = %(game_id)s AND c.seat = coalesce(%(seat)s, -1)
        AND c.idempotency_key = coalesce(%(key)s, '')
 WHERE g.game_id = %(game_id)s
"""

_APPEND = f"""
WITH moved AS ({MOVE_GAME}), command AS (
    INSERT INTO commands (game_id, command_id, seat, body, sealed, idempotency_key, first_seq,
                          last_seq, recorded_at)
    SELECT game_id, command_id, %(seat)s, %(body)s, %(command_sealed)s, %(key)s,
           %(expected)s + 1, version, recorded_at
      FROM moved
), token AS (
    INSERT INTO seat_tokens (game_id, seat, sitting, token_hash)
    SELECT game_id, %(seat)s, %(token_sitting)s, %(token_hash)s
      FROM moved
     WHERE %(token_hash)s::bytea IS NOT NULL
), appended AS (
    INSERT INTO events (game_id, seq, type, body, sealed, seat, command_id, chance_cursor,
                        recorded_at, prev_hash, hash)
    SELECT moved.game_id, e.seq, e.type, e.body, e.sealed, %(seat)s, moved.command_id,
           e.chance_cursor, moved.recorded_at, e.prev_hash, e.hash
      FROM moved, {NEW_EVENTS}
)
SELECT command_id, recorded_at FROM moved
"""

# `_APPEND` for several games at once (eventstore/groupcommit.py): one JSON array of appends,
# each with its game's own conditions and its own events; an append whose game has moved (or
# whose head was stale) matches no row and writes nothing, the others are written. A game is
# named once a batch (an UPDATE ... FROM that met one row twice would pick either).
_APPEND_MANY = """
WITH a AS (
    SELECT *
      FROM json_to_recordset(%(appends)s::json)
           AS a(i int, game_id text, expected bigint, prev_hash text, count int, status text,
                at timestamptz, wake_at timestamptz, set_names boolean, names text[], seat int,
                key text, body text, command_sealed boolean, token_sitting bigint,
                token_hash text, events json)
), moved AS (
    UPDATE games g
       SET version = g.version + a.count,
           command_count = g.command_count + 1,
           status = coalesce(a.status, g.status),
           updated_at = coalesce(a.at, now()),
           idle_from = CASE WHEN coalesce(a.at, now()) >= g.idle_from + interval '1 minute'
                            THEN coalesce(a.at, now()) ELSE g.idle_from END,
           wake_at = a.wake_at,
           names = CASE WHEN a.set_names THEN a.names ELSE g.names END
      FROM a
     WHERE g.game_id = a.game_id AND g.version = a.expected
       -- As `_APPEND`. Scalar subqueries, so that each stays one index probe a row: written
       -- as EXISTS, the planner may hash a scan of the whole events table for the batch.
       AND (a.expected = 0
            OR (SELECT e.hash FROM events e WHERE e.game_id = a.game_id AND e.seq = a.expected)
               = decode(a.prev_hash, 'base64'))
       AND (SELECT e.seq FROM events e
             WHERE e.game_id = a.game_id AND e.seq > a.expected LIMIT 1) IS NULL
 RETURNING a.i, g.game_id, g.version, g.command_count AS command_id, g.updated_at AS recorded_at
), command AS (
    INSERT INTO commands (game_id, command_id, seat, body, sealed, idempotency_key, first_seq,
                          last_seq, recorded_at)
    SELECT m.game_id, m.command_id, a.seat, decode(a.body, 'base64'), a.command_sealed, a.key,
           a.expected + 1, m.version, m.recorded_at
      FROM moved m JOIN a ON a.i = m.i
), token AS (
    INSERT INTO seat_tokens (game_id, seat, sitting, token_hash)
    SELECT m.game_id, a.seat, a.token_sitting, decode(a.token_hash, 'base64')
      FROM moved m JOIN a ON a.i = m.i
     WHERE a.token_hash IS NOT NULL
), appended AS (
    INSERT INTO events (game_id, seq, type, body, sealed, seat, command_id, chance_cursor,
                        recorded_at, prev_hash, hash)
    SELECT m.game_id, e.seq, e.type, decode(e.body, 'base64'), e.sealed, a.seat, m.command_id,
           e.chance_cursor, m.recorded_at, decode(e.prev_hash, 'base64'),
           decode(e.hash, 'base64')
      FROM moved m JOIN a ON a.i = m.i,
           json_to_recordset(a.events)
           AS e(seq bigint, type text, body text, sealed boolean, chance_cursor bigint,
                prev_hash text, hash text)
)
SELECT i, command_id, recorded_at FROM moved
"""

# A command and its events, found by its idempotency key (the command's own columns prefixed).
_COMMAND_WITH_EVENTS = f"""
SELECT c.command_id AS command_id_, c.body AS command_body_, c.idempotency_key AS key_,
       c.first_seq AS first_seq_, c.last_seq AS last_seq_, c.recorded_at AS command_recorded_at_,
       c.sealed AS command_sealed_, {_EVENT_COLUMNS}, {_SEED_COLUMNS}
  FROM commands c
  JOIN games g ON g.game_id = c.game_id
  JOIN events e ON e.game_id = c.game_id AND e.command_id = c.command_id
 WHERE c.game_id = %(game_id)s AND c.seat = %(seat)s AND c.idempotency_key = %(key)s
 ORDER BY e.seq
"""
# The same, whichever seat the command took: a sitting retried with its key may not know it.
_SITTING_WITH_EVENTS = _COMMAND_WITH_EVENTS.replace("c.seat = %(seat)s", "c.seat IS NOT NULL")

# The game's row first (none: an unknown game), with its version and the hash of the event the
# page follows, for `verify`; then the page's events, without the game's columns: a long game's
# 10,000 rows do not each carry its id and sealed seed.
_READ = f"""
(SELECT 0 AS part, g.version, before.hash, g.seed_key_id, g.sealed_seed,
        NULL AS seq, NULL AS type, NULL AS body, NULL AS seat, NULL AS command_id,
        NULL AS chance_cursor, NULL AS recorded_at, NULL AS prev_hash, NULL AS hash,
        NULL AS sealed
   FROM games g
   LEFT JOIN events before ON before.game_id = %(game_id)s AND before.seq = %(after)s
  WHERE g.game_id = %(game_id)s)
UNION ALL
(SELECT 1, NULL, NULL, NULL, NULL, {_EVENT_COLUMNS.removeprefix("e.game_id, ")}
   FROM events e
  WHERE e.game_id = %(game_id)s AND e.seq > %(after)s
  ORDER BY e.seq
  LIMIT %(limit)s)
ORDER BY part, seq
"""

# What is newer than each of several games a process holds, for the reads that arrive together
# (`read` after a cached game's version): for each game, what `_READ` gives for it alone, in one
# statement. A game still at its version (nearly every one) has its head row and nothing else; one
# another process moved on has its new events too, with no second round trip. Every row is looked
# up by key, game by game (OFFSET 0 keeps each lateral lookup apart): joined whole, PostgreSQL
# chose to hash a scan of the events table.
_NEWER = f"""
WITH asked AS (
  SELECT * FROM unnest(%(game_ids)s::text[], %(afters)s::bigint[]) AS a(game_id, after)
)
(SELECT a.game_id AS asked, 0 AS part, g.version,
        (SELECT e.hash FROM events e WHERE e.game_id = a.game_id AND e.seq = a.after),
        g.seed_key_id, g.sealed_seed,
        NULL AS seq, NULL AS type, NULL AS body, NULL AS seat, NULL AS command_id,
        NULL AS chance_cursor, NULL AS recorded_at, NULL AS prev_hash, NULL AS hash,
        NULL AS sealed
   FROM asked a
  CROSS JOIN LATERAL (
     SELECT version, seed_key_id, sealed_seed FROM games WHERE game_id = a.game_id OFFSET 0
  ) g)
UNION ALL
(SELECT a.game_id, 1, NULL, NULL, NULL, NULL, e.*
   FROM asked a
  CROSS JOIN LATERAL (
     SELECT {_EVENT_COLUMNS.removeprefix("e.game_id, ")}
       FROM events e
      WHERE e.game_id = a.game_id AND e.seq > a.after
      ORDER BY e.seq
     OFFSET 0
  ) e)
ORDER BY asked, part, seq
"""

# Whether the tables are distributed over a Citus cluster: where the extension is, `referee
# migrate` distributes them (eventstore/distribution.py).
_DISTRIBUTED = "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')"

_COMMANDS = f"""
SELECT {_COMMAND_COLUMNS}, {_SEED_COLUMNS}
  FROM games g
  LEFT JOIN commands c ON c.game_id = %(game_id)s
 WHERE g.game_id = %(game_id)s
 ORDER BY c.command_id
"""

_HEAD = """
SELECT g.version, g.status, e.hash, e.recorded_at
  FROM games g JOIN events e ON e.game_id = g.game_id AND e.seq = g.version
 WHERE g.game_id = %(game_id)s AND e.game_id = %(game_id)s
"""

# Which rows hold the game's record now, hashed (migration 0015 says how; run as the owner).
_RECORD_STAMP = "SELECT version, stamp FROM referee_record_stamp(%(game_id)s)"

# A stream ticket's nonce, recorded once (migration 0008): nothing inserted, it was there already.
_REDEEM_TICKET = """
INSERT INTO redeemed_tickets (game_id, nonce, expires_at)
VALUES (%(game_id)s, %(nonce)s, %(expires_at)s)
ON CONFLICT DO NOTHING
"""
# The tickets whose rows the database lets the service delete (migration 0008's guard).
_FORGET_REDEEMED_TICKETS = """
DELETE FROM redeemed_tickets WHERE expires_at < now() - interval '10 minutes'
"""


@dataclass(frozen=True)
class _CommandKey:
    """Where an idempotency key is unique: one seat of one game."""

    game_id: str
    seat: int | None
    idempotency_key: str | None

    def params(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "seat": self.seat, "key": self.idempotency_key}


@dataclass(frozen=True)
class _Moment:
    """What an append sets on its game besides the version: status, time, next wake-up; at an
    open table, the names seated now and the token of the seat just taken."""

    status: str | None
    at: datetime | None
    wake_at: datetime | None
    names: Sequence[str | None] | None = None
    token: SittingToken | None = None

    def params(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "at": self.at,
            "wake_at": self.wake_at,
            "set_names": self.names is not None,
            "names": None if self.names is None else list(self.names),
            "token_sitting": None if self.token is None else self.token.sitting,
            "token_hash": None if self.token is None else self.token.token_hash,
        }


@dataclass(frozen=True)
class _Append:
    """One append on its way: what it writes, chained after the head it was decided on."""

    key: _CommandKey
    events: Sequence[NewEvent]
    body: bytes
    moment: _Moment
    head: _Head

    def prepared(self) -> tuple[_Batch, dict[str, Any]]:
        """Its events numbered and chained, and the parameters of `_APPEND`."""
        head = self.head
        batch = _Batch.after(head.version, head.hash, self.events)
        sealed = batch.secret
        body = head.seal.seal(command_place(batch.first_seq), self.body) if sealed else self.body
        return batch, {
            **self.key.params(),
            "expected": head.version,
            "prev_hash": head.hash,
            "count": len(batch.events),
            **self.moment.params(),
            "body": body,
            "command_sealed": sealed,
            **batch.params(head.seal),
        }


@dataclass(frozen=True)
class _Newer:
    """A read of what a game has after `after` (see `EventStore.read`)."""

    game_id: str
    after: int


@dataclass(frozen=True)
class _Written:
    command_id: int
    recorded_at: datetime
    batch: _Batch
    head: _Head  # the stream's head after it


@dataclass(frozen=True)
class _Batch:
    """New events numbered and chained after a stream's last event, ready to insert."""

    first_seq: int
    events: Sequence[NewEvent]
    links: list[tuple[bytes, bytes]]  # (prev_hash, hash) per event

    @classmethod
    def after(cls, version: int, prev_hash: bytes, events: Sequence[NewEvent]) -> _Batch:
        return cls(version + 1, events, chain(prev_hash, (e.body for e in events)))

    @property
    def last_seq(self) -> int:
        return self.first_seq + len(self.events) - 1

    def head(self, seal: _GameSeal) -> _Head:
        """The stream's head once this batch is written (an empty one: a stream created empty)."""
        return _Head(self.last_seq, self.links[-1][1] if self.links else GENESIS_HASH, seal)

    @property
    def secret(self) -> bool:
        """Whether an event of the batch is secret: then it, and its command, are sealed."""
        return any(e.secret for e in self.events)

    def params(self, seal: _GameSeal) -> dict[str, str]:
        """The `events` parameter of `_NEW_EVENTS`."""
        rows = [
            {
                "seq": seq,
                "type": event.type,
                "body": seal.seal(event_place(seq), event.body) if event.secret else event.body,
                "sealed": event.secret,
                "chance_cursor": event.chance_cursor,
                "prev_hash": prev_hash,
                "hash": digest,
            }
            for seq, event, (prev_hash, digest) in zip(
                range(self.first_seq, self.last_seq + 1), self.events, self.links, strict=True
            )
        ]
        return {"events": msgspec.json.encode(rows).decode()}

    def stored(
        self, game_id: str, seat: int | None, command_id: int | None, recorded_at: datetime
    ) -> list[StoredEvent]:
        return [
            StoredEvent(
                game_id=game_id,
                seq=self.first_seq + i,
                type=event.type,
                body=event.body,
                seat=seat,
                command_id=command_id,
                chance_cursor=event.chance_cursor,
                recorded_at=recorded_at,
                prev_hash=prev_hash,
                hash=digest,
            )
            for i, (event, (prev_hash, digest)) in enumerate(
                zip(self.events, self.links, strict=True)
            )
        ]


@dataclass
class _GameSeal:
    """One game's sealed bodies (eventstore.bodies): its seed is opened only when one is met."""

    keys: SeedKeys
    game_id: str
    key_id: str | None
    sealed_seed: bytes | None
    _opened: BodySeal | None = None

    @classmethod
    def of_seed(cls, keys: SeedKeys, game_id: str, seed: bytes) -> _GameSeal:
        return cls(keys, game_id, None, None, BodySeal(game_id, seed))

    def seed(self) -> bytes:
        """The game's seed. Raises SealedSeedError."""
        if self.key_id is None or self.sealed_seed is None:
            raise SealedSeedError(
                f"the seed of game {self.game_id} is not sealed yet: run `referee migrate`"
            )
        return self.keys.open(self.game_id, self.key_id, bytes(self.sealed_seed))

    def seal(self, place: str, body: bytes) -> bytes:
        return self._body_seal().seal(place, body)

    def open(self, place: str, body: bytes, sealed: bool) -> bytes | None:
        """The plain body stored at `place`; None if it is sealed and does not open."""
        return self._body_seal().open(place, body) if sealed else body

    def plain(self, place: str, body: bytes, sealed: bool) -> bytes:
        """The plain body, or the bytes as stored if they do not open: a read that verifies
        then finds their hash wrong, an audit names the event, a command does not decode."""
        opened = self.open(place, body, sealed)
        return body if opened is None else opened

    def _body_seal(self) -> BodySeal:
        if self._opened is None:
            self._opened = BodySeal(self.game_id, self.seed())
        return self._opened


@dataclass(frozen=True)
class _Head:
    """A stream's last event as this store last wrote or read it: where its next events chain."""

    version: int
    hash: bytes
    seal: _GameSeal


class _Heads:
    """The heads of the streams this store wrote or read last, least recently used first out. A
    head is a hint: the append's statement checks it against the stream, so a stale one costs a
    look."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._entries: OrderedDict[str, _Head] = OrderedDict()

    def recall(self, game_id: str, version: int) -> _Head | None:
        head = self._entries.get(game_id)
        if head is None or head.version != version:
            return None
        self._entries.move_to_end(game_id)
        return head

    def remember(self, game_id: str, head: _Head) -> None:
        self._entries[game_id] = head
        self._entries.move_to_end(game_id)
        while len(self._entries) > self._capacity:
            self._entries.popitem(last=False)

    def forget(self, game_id: str) -> None:
        self._entries.pop(game_id, None)


class EventStore:
    """Streams of events, one per game, over a pool made by `create_pool` (opened by the caller).

    A stream's version is the seq of its last event; events are numbered 1, 2, 3 ... with no
    gap, each chained to the one before by its hash (`eventstore.chain`). Every accepted command
    is kept with the seat that sent it and the range of events it produced. The seed is secret:
    it is stored sealed with `seed_keys` (`eventstore.seeds`), and only `seed()` returns it.
    An event appended as `secret`, and its command, are stored sealed under a key derived from
    the seed (`eventstore.bodies`) and read back plain. The store knows streams, versions and
    bytes, never a game's rules: its writer says which events are secret.
    """

    def __init__(
        self,
        pool: Pool,
        seed_keys: SeedKeys,
        *,
        heads_remembered: int = HEADS_REMEMBERED,
        group_commit_writers: int = WRITERS,
        distributed: bool | None = None,
    ) -> None:
        self._pool = pool
        self.seed_keys = seed_keys
        self._heads = _Heads(heads_remembered)
        self._notifier = Notifier(pool)
        self._group = GroupCommit(self._write_together, writers=group_commit_writers)
        self._newer = GroupCommit(self._read_together, writers=group_commit_writers)
        # Over a Citus cluster (eventstore/writes.py): None, asked of the database once.
        self._distributed = distributed

    # -- writing ------------------------------------------------------------------------------

    async def create_stream(
        self,
        game_id: str,
        *,
        kind: str,
        rules_version: str,
        seats: int,
        seed: bytes,
        seed_chosen_by_creator: bool,
        seat_token_hashes: list[bytes],
        events: list[NewEvent],
        status: str = "active",
        creation: CreationKey | None = None,
        at: datetime | None = None,
        wake_at: datetime | None = None,
        open_table: OpenStream | None = None,
    ) -> AppendResult:
        """Create a game's stream with its opening events (seq 1..n, caused by no seat).

        `at` is the time recorded (default: the database's); `wake_at` when the server must
        next look at the game (`due_games`), if ever.

        `seat_token_hashes[i]` authenticates seat i; the seed is stored sealed. With `creation`,
        its key is recorded with the game in the same statement. An `open_table` has no token
        but those of the seats taken at creation (`seat_token_hashes` is then empty). Raises
        StreamExists if the id is taken, CreationKeyTaken if the key is (then `find_creation`
        says by which game).
        """
        _check_status(status)
        if open_table is None:
            if len(seat_token_hashes) != seats:
                raise ValueError(f"{seats} seats need {seats} token hashes")
            tokens = [SittingToken(seat, 0, hash_) for seat, hash_ in enumerate(seat_token_hashes)]
        elif seat_token_hashes or len(open_table.names) != seats:
            raise ValueError("an open table's tokens are its sittings', and it names every seat")
        else:
            tokens = list(open_table.tokens)
        batch = _Batch.after(0, GENESIS_HASH, events)
        seed_key_id, sealed_seed = self.seed_keys.seal(game_id, seed)
        params = {
            "game_id": game_id,
            "kind": kind,
            "rules_version": rules_version,
            "seats": seats,
            "status": status,
            "version": batch.last_seq,
            "seed_key_id": seed_key_id,
            "sealed_seed": sealed_seed,
            "seed_chosen_by_creator": seed_chosen_by_creator,
            "token_seats": [token.seat for token in tokens],
            "token_sittings": [token.sitting for token in tokens],
            "token_hashes": [token.token_hash for token in tokens],
            "seating": "creator" if open_table is None else "open",
            "listed": True if open_table is None else open_table.listed,
            "names": None if open_table is None else list(open_table.names),
            "key_hash": None if creation is None else creation.key_hash,
            "request_hash": None if creation is None else creation.request_hash,
            "token_key_id": None if creation is None else creation.token_key_id,
            "at": at,
            "wake_at": wake_at,
            **batch.params(seal := _GameSeal.of_seed(self.seed_keys, game_id, seed)),
        }
        async with self._connection() as conn:
            try:
                created_at = await self._create(conn, params, creation is not None)
            except psycopg.Error as error:
                constraint = _taken(error)
                if constraint == "games_pkey":
                    raise StreamExists(f"game {game_id} exists already") from error
                if constraint == "game_creations_pkey":
                    raise CreationKeyTaken("another creation recorded this key") from error
                raise
        self._heads.remember(game_id, batch.head(seal))
        self._notifier.committed(game_id, batch.last_seq)
        stored = batch.stored(game_id, None, None, created_at)
        return AppendResult(version=batch.last_seq, events=stored)

    async def _create(
        self, conn: AsyncConnection[TupleRow], params: dict[str, Any], keyed: bool
    ) -> datetime:
        if await self._is_distributed(conn):
            return await create_on_cluster(conn, params, keyed)
        row = await _fetch_one(conn, _CREATE, params)
        assert row is not None  # an INSERT ... RETURNING that did not fail returns its row
        created_at: datetime = row[0]
        return created_at

    async def append(
        self,
        game_id: str,
        *,
        expected_version: int,
        events: list[NewEvent],
        seat: int | None,
        command_body: bytes,
        idempotency_key: str | None = None,
        status: str | None = None,
        at: datetime | None = None,
        wake_at: datetime | None = None,
        names: Sequence[str | None] | None = None,
        token: SittingToken | None = None,
    ) -> AppendResult:
        """Record a seat's (None: the referee's) accepted command and the events it produced, if
        the stream is still at `expected_version`; `status`, if given, becomes the game's status.
        `at` is the time recorded (default: the database's); `wake_at` replaces the game's. At an
        open table, `names` (if given) become the game's, and `token` is the new sitting's.

        Raises StreamNotFound; VersionConflict if another append came first (of writers racing
        from one version, exactly one wins). With an idempotency key this seat has used before:
        the same `command_body` returns that first result with `replayed=True` and appends
        nothing (whatever `expected_version` says); another body raises IdempotencyKeyReused.
        """
        _check_append(events, status, idempotency_key)
        key = _CommandKey(game_id, seat, idempotency_key)
        if token is not None and token.seat != seat:
            raise ValueError("a sitting's token is for the seat that sat")
        moment = _Moment(status, at, wake_at, names, token)
        append = partial(_Append, key, events, command_body, moment)
        head = self._heads.recall(game_id, expected_version)
        # From a remembered head: with the appends to other games that arrive meanwhile.
        together = None if head is None else await self._group.submit(append(head), game_id)
        # No head remembered, or it did not hold: look first, write alone.
        written = together or await self._append_alone(key, expected_version, command_body, append)
        if isinstance(written, AppendResult):
            return written
        self._remember(game_id, written)
        return self._result(key, command_body, written)

    async def _append_alone(
        self,
        key: _CommandKey,
        expected_version: int,
        command_body: bytes,
        append: Callable[[_Head], _Append],
    ) -> _Written | AppendResult:
        """The first look (why the head did not hold: a conflict, a replay), then the write."""
        async with self._connection() as conn:
            self._heads.forget(key.game_id)
            first_look = await self._before_append(conn, key, expected_version, command_body)
            if isinstance(first_look, AppendResult):
                return first_look
            written = await self._write(conn, append(first_look))
            if written is None:  # lost a race: the first look, taken again, says to whom
                earlier = await self._before_append(conn, key, expected_version, command_body)
                if isinstance(earlier, AppendResult):
                    return earlier
                # The version still reads as expected but the next seq or command id is taken:
                # something was written behind the store's back.
                raise StreamCorrupted(
                    f"game {key.game_id} is at version {expected_version}, but an event or "
                    "command after it exists already"
                )
        return written

    def _remember(self, game_id: str, written: _Written) -> None:
        self._heads.remember(game_id, written.head)
        self._notifier.committed(game_id, written.head.version)

    @staticmethod
    def _result(key: _CommandKey, command_body: bytes, written: _Written) -> AppendResult:
        batch = written.batch
        command = CommandRecord(
            id=written.command_id,
            game_id=key.game_id,
            seat=key.seat,
            body=command_body,
            idempotency_key=key.idempotency_key,
            first_seq=batch.first_seq,
            last_seq=batch.last_seq,
            recorded_at=written.recorded_at,
        )
        stored = batch.stored(key.game_id, key.seat, command.id, command.recorded_at)
        return AppendResult(version=batch.last_seq, events=stored, command=command)

    async def _before_append(
        self,
        conn: AsyncConnection[TupleRow],
        key: _CommandKey,
        expected_version: int,
        command_body: bytes,
    ) -> _Head | AppendResult:
        """The stream's head to chain from (with the game's seal), or the earlier result of the
        same idempotent command.

        Raises what makes the append impossible: StreamNotFound, IdempotencyKeyReused,
        VersionConflict, StreamCorrupted.
        """
        row = await _fetch_one(conn, _BEFORE_APPEND, key.params())
        if row is None:
            raise StreamNotFound(key.game_id)
        version, head_seq, prev_hash, earlier_body, earlier_sealed, earlier_first_seq = row[:6]
        events_beyond, stored, seed_key_id, sealed_seed = row[6:]
        seal = _GameSeal(self.seed_keys, key.game_id, seed_key_id, sealed_seed)
        if version > 0 and head_seq is None:
            raise StreamCorrupted(
                f"game {key.game_id} is at version {version} but has no event {version}"
            )
        if events_beyond:
            raise StreamCorrupted(f"game {key.game_id} has events after its version {version}")
        if stored != version:
            raise StreamCorrupted(
                f"game {key.game_id} is at version {version} but has {stored} events"
            )
        if earlier_body is not None:
            earlier = seal.open(command_place(earlier_first_seq), earlier_body, earlier_sealed)
            if earlier is None:
                raise StreamCorrupted(f"a sealed command of game {key.game_id} does not open")
            if earlier != command_body:
                raise IdempotencyKeyReused(
                    f"seat {key.seat} used key {key.idempotency_key!r} for another command"
                )
            result = await self._find_command(conn, key)
            assert result is not None  # the command was just seen, and commands stay
            return result
        if version != expected_version:
            raise VersionConflict(expected_version, version)
        return _Head(version, GENESIS_HASH if version == 0 else bytes(prev_hash), seal)

    async def _write(self, conn: AsyncConnection[TupleRow], append: _Append) -> _Written | None:
        """The append's one statement, its events chained after its head; None if the stream is
        not at that head (a lost race, a stale head) or the idempotency key is taken: then
        nothing was written."""
        batch, params = append.prepared()
        try:
            if await self._is_distributed(conn):
                (row,) = await append_on_cluster(conn, [params])
            else:
                row = await _fetch_one(conn, _APPEND, params)
        except psycopg.Error as error:  # a backstop caught a writer that got past us
            if _taken(error) is None:
                raise
            return None
        if row is None:
            return None
        return _Written(row[0], row[1], batch, batch.head(append.head.seal))

    async def _write_together(self, appends: list[_Append]) -> list[_Written | None]:
        """A batch of appends to different games (eventstore/groupcommit.py): one statement
        (`_APPEND` alone, `_APPEND_MANY` for more), what became of each. An append that did not
        match its game, or a batch the database refused whole (a backstop, a check at commit,
        a Citus worker out of reach), is None: its caller looks first and writes alone, as after
        any stale head, so that one game's trouble is that game's alone."""
        async with self._connection() as conn:
            if len(appends) == 1:
                return [await self._write(conn, appends[0])]
            prepared = [append.prepared() for append in appends]
            try:
                written = await self._write_many(conn, [params for _, params in prepared])
            except psycopg.Error as error:
                if not _refused_whole(error, conn):
                    raise
                return [None] * len(appends)
        return [
            None if i not in written else _Written(*written[i], batch, batch.head(append.head.seal))
            for i, (append, (batch, _)) in enumerate(zip(appends, prepared, strict=True))
        ]

    async def _write_many(
        self, conn: AsyncConnection[TupleRow], appends: list[dict[str, Any]]
    ) -> dict[int, tuple[int, datetime]]:
        """The appends written, by their place in the batch: their command's id and time."""
        if await self._is_distributed(conn):
            done = await append_on_cluster(conn, appends)
            return {i: row for i, row in enumerate(done) if row is not None}
        rows = [_many_row(i, params) for i, params in enumerate(appends)]
        cursor = await conn.execute(_APPEND_MANY, {"appends": _json(rows)})
        return {row[0]: (row[1], row[2]) for row in await cursor.fetchall()}

    @property
    def distributed(self) -> bool | None:
        """Whether the store writes as on a Citus cluster (None: it has not asked yet)."""
        return self._distributed

    async def learn_database(self) -> None:
        """Ask the database what the store must know of it: whether its tables are distributed
        over Citus (eventstore/writes.py). A store never told asks at its first write."""
        async with self._connection() as conn:
            row = await _fetch_one(conn, _DISTRIBUTED, None)
        self._distributed = bool(row and row[0])

    async def _is_distributed(self, conn: AsyncConnection[TupleRow]) -> bool:
        """Whether the tables are distributed over Citus (eventstore/writes.py): asked once."""
        if self._distributed is None:
            row = await _fetch_one(conn, _DISTRIBUTED, None)
            self._distributed = bool(row and row[0])
        return self._distributed

    # -- reading ------------------------------------------------------------------------------

    async def find_command(
        self, game_id: str, seat: int, idempotency_key: str
    ) -> AppendResult | None:
        """The result of the command this seat sent with this key (`replayed=True`), if any."""
        async with self._connection() as conn:
            return await self._find_command(conn, _CommandKey(game_id, seat, idempotency_key))

    async def find_sitting(self, game_id: str, idempotency_key: str) -> AppendResult | None:
        """The result of the command sent with this key by whichever seat (a sitting that was
        retried: the seat it took is what it asks)."""
        async with self._connection() as conn:
            key = _CommandKey(game_id, None, idempotency_key)
            return await self._find_command(conn, key, _SITTING_WITH_EVENTS)

    async def _find_command(
        self, conn: AsyncConnection[TupleRow], key: _CommandKey, query: str = _COMMAND_WITH_EVENTS
    ) -> AppendResult | None:
        async with conn.cursor(row_factory=dict_row) as cursor:
            await cursor.execute(query, key.params())
            rows = await cursor.fetchall()
        if not rows:
            return None
        first = rows[0]
        seal = _GameSeal(self.seed_keys, key.game_id, first["seed_key_id_"], first["sealed_seed_"])
        command_body = first["command_body_"]
        command = CommandRecord(
            id=first["command_id_"],
            game_id=first["game_id"],
            seat=first["seat"],
            body=seal.plain(
                command_place(first["first_seq_"]), command_body, first["command_sealed_"]
            ),
            idempotency_key=first["key_"],
            first_seq=first["first_seq_"],
            last_seq=first["last_seq_"],
            recorded_at=first["command_recorded_at_"],
        )
        events = [_stored_event(row, seal) for row in rows]
        return AppendResult(version=command.last_seq, events=events, command=command, replayed=True)

    async def read(
        self, game_id: str, *, after: int = 0, limit: int | None = None, verify: bool = False
    ) -> list[StoredEvent]:
        """The events with seq > `after`, in order, at most `limit` of them. StreamNotFound.

        As stored, whatever was done to them (what an audit needs). With `verify`, raises
        StreamCorrupted unless they are what the stream's record says: numbered on from
        `after` without a gap, each hash the sha256 of its `prev_hash` and body, each chained
        to the event before it, and, when the page reaches the end, ending at the version.
        """
        if after < 0 or (limit is not None and limit < 0):
            raise ValueError("after and limit are never negative")
        if verify and limit is None and after > 0:
            # What is newer than a game a process holds: nearly always nothing. Asked together
            # with the other games asked for at the moment, in one statement (`_NEWER`).
            newer = await self._newer.submit(_Newer(game_id, after), game_id)
            if newer is not None:
                return newer
        return await self._read(game_id, after=after, limit=limit, verify=verify)

    async def _read(
        self, game_id: str, *, after: int, limit: int | None, verify: bool
    ) -> list[StoredEvent]:
        params = {"game_id": game_id, "after": after, "limit": limit}
        # Plain tuples in binary: a long game's bodies and hashes come as bytes, not hex text,
        # and no dict is made per row (a cold load of 10,000 events reads here).
        async with self._connection() as conn, conn.cursor(binary=True) as cursor:
            await cursor.execute(_READ, params)
            rows = await cursor.fetchall()
        if not rows:
            raise StreamNotFound(game_id)
        return self._page(game_id, after, limit, verify, rows)

    def _page(
        self, game_id: str, after: int, limit: int | None, verify: bool, rows: list[Any]
    ) -> list[StoredEvent]:
        """The events of `_READ`'s rows (the game's row first), verified if asked; a verified
        read that reached the head remembers it."""
        _, version, before_hash, seed_key_id, sealed_seed = rows[0][:5]
        seal = _GameSeal(self.seed_keys, game_id, seed_key_id, sealed_seed)
        events = [_event_of(game_id, row[5:], seal) for row in rows[1:]]
        if verify:
            _verify(game_id, after, limit, version, before_hash, events)
            if (head := _head_read(after, version, before_hash, events, seal)) is not None:
                self._heads.remember(game_id, head)
        return events

    async def _read_together(self, asks: list[_Newer]) -> list[list[StoredEvent] | None]:
        """What is newer than each game asked for: for one, its page (`_read`); for several, one
        statement (`_NEWER`), each game's page verified on its own. None for a game not found
        or whose page does not verify: its caller reads it alone, for its own error."""
        if len(asks) == 1:
            ask = asks[0]
            return [await self._read(ask.game_id, after=ask.after, limit=None, verify=True)]
        params = {
            "game_ids": [ask.game_id for ask in asks],
            "afters": [ask.after for ask in asks],
        }
        async with self._connection() as conn:
            if await self._is_distributed(conn):  # a list of games would be asked of every shard
                rows = None
            else:
                async with conn.cursor(binary=True) as cursor:
                    await cursor.execute(_NEWER, params)
                    rows = await cursor.fetchall()
        if rows is None:
            return [await self._read_newer_alone(ask) for ask in asks]
        pages: dict[str, list[Any]] = {}
        for row in rows:
            pages.setdefault(row[0], []).append(row[1:])
        return [self._newer_page(ask, pages.get(ask.game_id)) for ask in asks]

    async def _read_newer_alone(self, ask: _Newer) -> list[StoredEvent] | None:
        """As `_read_together` says of one game, in a statement of its own."""
        try:
            return await self._read(ask.game_id, after=ask.after, limit=None, verify=True)
        except (StreamNotFound, StreamCorrupted):
            return None

    def _newer_page(self, ask: _Newer, rows: list[Any] | None) -> list[StoredEvent] | None:
        if rows is None:
            return None
        try:
            return self._page(ask.game_id, ask.after, None, True, rows)
        except StreamCorrupted:
            return None

    async def info(self, game_id: str) -> StreamInfo:
        """The game's summary (never its seed). StreamNotFound."""
        query = sql.SQL("SELECT {} FROM games WHERE game_id = %s").format(_INFO_COLUMNS)
        async with self._connection() as conn, conn.cursor(row_factory=dict_row) as cursor:
            await cursor.execute(query, [game_id])
            row = await cursor.fetchone()
        if row is None:
            raise StreamNotFound(game_id)
        return StreamInfo(**row)

    async def list_streams(
        self, *, kind: str | None, status: str | None, after: str | None, limit: int
    ) -> list[StreamInfo]:
        """Games newest first, optionally of one kind and status, `limit` at most.

        `after` is the cursor of the previous page (`cursor_for` its last game); a cursor this
        store did not make raises InvalidCursor.
        """
        if limit < 1:
            raise ValueError("a page holds at least one game")
        conditions = [sql.SQL("listed")]  # a private table is never listed
        params: dict[str, Any] = {"limit": limit}
        if kind is not None:
            conditions.append(sql.SQL("kind = %(kind)s"))
            params["kind"] = kind
        if status is not None:
            conditions.append(sql.SQL("status = %(status)s"))
            params["status"] = status
        if after is not None:
            params["after_created_at"], params["after_game_id"] = decode_cursor(after)
            conditions.append(
                sql.SQL("(created_at, game_id) < (%(after_created_at)s, %(after_game_id)s)")
            )
        query = sql.SQL(
            "SELECT {} FROM games WHERE {} ORDER BY created_at DESC, game_id DESC LIMIT %(limit)s"
        ).format(_INFO_COLUMNS, sql.SQL(" AND ").join(conditions))
        async with self._connection() as conn, conn.cursor(row_factory=dict_row) as cursor:
            await cursor.execute(query, params)
            return [StreamInfo(**row) for row in await cursor.fetchall()]

    async def due_games(
        self,
        *,
        now: datetime,
        idle_since: datetime | None,
        limit: int,
        skip: Sequence[str] = (),
    ) -> list[str]:
        """Active games the server must look at `now`: due (`wake_at` passed), or with no
        command since `idle_since` (None: idleness is not looked for); none of `skip`. A
        catalogue query, by design: it reads across games, through the partial indexes of
        migrations 0007 and 0012 (idleness by `idle_from`, then exactly by `updated_at`)."""
        query = """
        (SELECT game_id FROM games
          WHERE status IN ('waiting', 'active') AND wake_at IS NOT NULL AND wake_at <= %(now)s
            AND game_id <> ALL(%(skip)s::text[])
          ORDER BY wake_at LIMIT %(limit)s)
        UNION
        (SELECT game_id FROM games
          WHERE status = 'active' AND idle_from <= %(idle_since)s
            AND updated_at <= %(idle_since)s AND game_id <> ALL(%(skip)s::text[])
          ORDER BY idle_from LIMIT %(limit)s)
        """
        async with self._connection() as conn, conn.cursor() as cursor:
            params = {"limit": limit, "now": now, "idle_since": idle_since, "skip": list(skip)}
            await cursor.execute(query, params)
            return [str(row[0]) for row in await cursor.fetchall()]

    @staticmethod
    def cursor_for(last: StreamInfo) -> str:
        """The `after` cursor of the page that follows the game `last`."""
        return encode_cursor(last)

    async def seat_for_token(self, game_id: str, token_hash: bytes) -> int | None:
        """The seat of this game whose token hashes to `token_hash`, if any."""
        holder = await self.token_holder(game_id, token_hash)
        return None if holder is None else holder[0]

    async def token_holder(self, game_id: str, token_hash: bytes) -> tuple[int, int] | None:
        """The seat and sitting (0 at a table its creator seated) this token was issued for."""
        query = "SELECT seat, sitting FROM seat_tokens WHERE game_id = %s AND token_hash = %s"
        async with self._connection() as conn:
            row = await _fetch_one(conn, query, [game_id, token_hash])
        return None if row is None else (int(row[0]), int(row[1]))

    async def head(self, game_id: str) -> StreamHead:
        """The game's version, status and last event, read together. StreamNotFound."""
        async with self._connection() as conn:
            row = await _fetch_one(conn, _HEAD, {"game_id": game_id})
        if row is None:
            raise StreamNotFound(game_id)
        version, status, hash_, recorded_at = row
        return StreamHead(
            game_id=game_id,
            version=version,
            status=status,
            hash=bytes(hash_),
            recorded_at=recorded_at,
        )

    async def seed(self, game_id: str) -> bytes:
        """The game's secret seed: only for the kernel's chance and the reveal.

        Raises StreamNotFound; SealedSeedError if it does not open with this store's keys.
        """
        query = "SELECT seed_key_id, sealed_seed FROM games WHERE game_id = %s"
        async with self._connection() as conn:
            row = await _fetch_one(conn, query, [game_id])
        if row is None:
            raise StreamNotFound(game_id)
        return _GameSeal(self.seed_keys, game_id, *row).seed()

    async def find_creation(self, key_hash: bytes) -> GameCreation | None:
        """The game created with this idempotency key (by its sha256), if any."""
        async with self._connection() as conn, conn.cursor(row_factory=dict_row) as cursor:
            await cursor.execute(_CREATION, [key_hash])
            row = await cursor.fetchone()
        return None if row is None else GameCreation(**row)

    async def commands(self, game_id: str) -> list[CommandRecord]:
        """Every accepted command of the game, in the order they were recorded. StreamNotFound."""
        async with self._connection() as conn, conn.cursor(row_factory=dict_row) as cursor:
            await cursor.execute(_COMMANDS, {"game_id": game_id})
            rows = await cursor.fetchall()
        if not rows:
            raise StreamNotFound(game_id)
        seal = _GameSeal(self.seed_keys, game_id, rows[0]["seed_key_id_"], rows[0]["sealed_seed_"])
        fields = CommandRecord.__struct_fields__
        return [
            CommandRecord(
                **{name: row[name] for name in fields if name != "body"},
                body=seal.plain(command_place(row["first_seq"]), row["body"], row["sealed"]),
            )
            for row in rows
            if row["id"] is not None
        ]

    async def record_stamp(self, game_id: str) -> RecordStamp:
        """What tells the game's stored record from any other: equal stamps, the same rows,
        unchanged since (an UPDATE, DELETE or INSERT of any row of the game, its events or its
        commands, gives another stamp). Cheap: no body is read. StreamNotFound."""
        async with self._connection() as conn:
            row = await _fetch_one(conn, _RECORD_STAMP, {"game_id": game_id})
        if row is None:
            raise StreamNotFound(game_id)
        return RecordStamp(version=row[0], rows=bytes(row[1]))

    async def redeem_ticket(self, game_id: str, nonce: bytes, expires_at: datetime) -> bool:
        """Record a stream ticket of the game as used: True the first time, False ever after,
        whichever store asks (of concurrent redemptions, exactly one is True). The record is
        kept until ten minutes after `expires_at` (`forget_redeemed_tickets`)."""
        params = {"game_id": game_id, "nonce": nonce, "expires_at": expires_at}
        async with self._connection() as conn:
            cursor = await conn.execute(_REDEEM_TICKET, params)
            return cursor.rowcount == 1

    async def forget_redeemed_tickets(self) -> int:
        """Delete the redeemed tickets, of every game, that expired over ten minutes ago; how
        many. A catalogue statement, across games, through the index on their expiry."""
        async with self._connection() as conn:
            cursor = await conn.execute(_FORGET_REDEEMED_TICKETS)
            return max(cursor.rowcount, 0)

    async def ping(self, *, timeout: float | None = None) -> None:
        """Raise DatabaseUnavailable unless the database answers (within `timeout` seconds)."""
        with database_errors():
            async with self._pool.connection(timeout=timeout) as conn:
                await conn.execute("SELECT 1")

    async def drain_notifications(self) -> None:
        """Return once the notifications of the writes so far are sent: before the pool closes,
        and for whoever must see them go out (eventstore/notifications.py)."""
        await self._notifier.drain()

    @property
    def group_commits(self) -> Counts:
        """The batches its appends were written in (eventstore/groupcommit.py)."""
        return self._group.counts

    @property
    def newer_reads(self) -> Counts:
        """The batches its reads of what is newer than a held game were asked in."""
        return self._newer.counts

    # -- plumbing -----------------------------------------------------------------------------

    def _connection(self) -> AbstractAsyncContextManager[AsyncConnection[TupleRow]]:
        return app_connection(self._pool)


@asynccontextmanager
async def open_store(
    conninfo: str, seed_keys: SeedKeys, *, group_commit_writers: int = WRITERS, **pool_options: Any
) -> AsyncIterator[EventStore]:
    """An EventStore on its own open pool (`create_pool` options), closed on exit."""
    async with create_pool(conninfo, **pool_options) as pool:
        store = EventStore(pool, seed_keys, group_commit_writers=group_commit_writers)
        try:
            yield store
        finally:
            await store.drain_notifications()


# What a worker's refusal says, when Citus hands it on as an internal error (a statement it ran
# on several shards keeps the worker's message, not its SQLSTATE).
_WORKER_UNIQUE = re.compile(r'^duplicate key value violates unique constraint "([^"]+)"')


def _refused_whole(error: psycopg.Error, conn: AsyncConnection[TupleRow]) -> bool:
    """Whether a batch's error leaves each of its appends to be tried alone: a key taken or a
    check failed (one append's doing), or, on a Citus coordinator still answering, a worker that
    did not (its games' appends fail alone, the others go through). Not so when the connection
    itself is lost: whether the batch committed is then unknown."""
    if isinstance(error, psycopg.errors.IntegrityError) or _taken(error) is not None:
        return True
    return isinstance(error, psycopg.OperationalError) and not conn.broken


def _taken(error: psycopg.Error) -> str | None:
    """The unique constraint whose key `error` says is taken, as the schema names it; None if
    it says something else. Under Citus a worker raised it, on its shard's copy of the
    constraint (`games_pkey_102008`), and the name may be in its message alone."""
    said = _WORKER_UNIQUE.match(error.diag.message_primary or "")
    if isinstance(error, psycopg.errors.UniqueViolation):
        name = error.diag.constraint_name or (said.group(1) if said else "")
    elif isinstance(error, psycopg.errors.InternalError) and said:
        name = said.group(1)
    else:
        return None
    return re.sub(r"_\d+$", "", name)


async def _fetch_one(
    conn: AsyncConnection[TupleRow], query: Any, params: Any
) -> tuple[Any, ...] | None:
    cursor = await conn.execute(query, params)
    return await cursor.fetchone()


def _stored_event(row: dict[str, Any], seal: _GameSeal) -> StoredEvent:
    return _event_of(row["game_id"], [row[name] for name in _EVENT_FIELDS[1:]], seal)


def _event_of(game_id: str, columns: Sequence[Any], seal: _GameSeal) -> StoredEvent:
    """An event of the game from its `_EVENT_COLUMNS` but the first (the game's id), in their
    order, its body opened if sealed."""
    seq, type_, body, seat, command_id, cursor, recorded_at, prev, digest, sealed = columns
    return StoredEvent(
        game_id=game_id,
        seq=seq,
        type=type_,
        body=seal.plain(event_place(seq), body, True) if sealed else body,  # most are plain
        seat=seat,
        command_id=command_id,
        chance_cursor=cursor,
        recorded_at=recorded_at,
        prev_hash=prev,
        hash=digest,
    )


def _head_read(
    after: int,
    version: int,
    before_hash: bytes | None,
    events: list[StoredEvent],
    seal: _GameSeal,
) -> _Head | None:
    """The stream's head, if a verified read reached it: its next append can skip the look."""
    if events and events[-1].seq == version:
        return _Head(version, bytes(events[-1].hash), seal)
    if not events and after == version:
        if version == 0:
            return _Head(0, GENESIS_HASH, seal)
        assert before_hash is not None  # `_verify` refuses a read after a missing event
        return _Head(version, bytes(before_hash), seal)
    return None


def _verify(
    game_id: str,
    after: int,
    limit: int | None,
    version: int,
    before_hash: bytes | None,
    events: list[StoredEvent],
) -> None:
    """Raise StreamCorrupted unless `events`, read after `after`, agree with the stream's record
    (see `EventStore.read`)."""

    def corrupt(what: str) -> StreamCorrupted:
        return StreamCorrupted(f"game {game_id}: {what}")

    if after == 0:
        prev_hash: bytes | None = GENESIS_HASH
    elif after <= version:
        if before_hash is None:
            raise corrupt(f"event {after} is missing")
        prev_hash = bytes(before_hash)
    else:
        prev_hash = None  # past the end: there must be nothing to read
    expected = after + 1
    for event in events:  # a cold load's loop: 10,000 turns for a long game, kept lean
        seq = event.seq
        if seq > version:
            raise corrupt(f"event {seq} is past the game's version {version}")
        if seq != expected:
            raise corrupt(f"event {expected} is missing")
        if prev_hash is None or event.prev_hash != prev_hash:  # a memoryview compares too
            raise corrupt(f"event {seq} is not chained to event {seq - 1}")
        digest = bytes(event.hash)
        if event_hash(prev_hash, event.body) != digest:  # prev_hash: bytes, equal to the event's
            raise corrupt(f"event {seq} does not match its hash")
        prev_hash = digest
        expected += 1
    reached_the_end = limit is None or len(events) < limit
    if reached_the_end and after < version and expected - 1 != version:
        raise corrupt(f"event {expected} is missing (the game is at version {version})")


def _check_append(events: list[NewEvent], status: str | None, idempotency_key: str | None) -> None:
    if not events:
        raise ValueError("an accepted command produces at least one event")
    if status is not None:
        _check_status(status)
    if idempotency_key is not None and not 0 < len(idempotency_key) <= MAX_IDEMPOTENCY_KEY_LENGTH:
        raise ValueError(f"an idempotency key has 1 to {MAX_IDEMPOTENCY_KEY_LENGTH} characters")


def _check_status(status: str) -> None:
    if status not in STATUSES:
        raise ValueError(f"a game's status is one of {STATUSES}, not {status!r}")


_MANY_COLUMNS = (
    "game_id",
    "expected",
    "count",
    "status",
    "at",
    "wake_at",
    "set_names",
    "names",
    "seat",
    "key",
    "command_sealed",
    "token_sitting",
)


def _many_row(i: int, params: dict[str, Any]) -> dict[str, Any]:
    """One append of `_APPEND_MANY`: `_APPEND`'s parameters as JSON (bytes in base64)."""
    row = {name: params[name] for name in _MANY_COLUMNS}
    row["i"] = i
    row["prev_hash"] = params["prev_hash"]
    row["body"] = params["body"]
    row["token_hash"] = params["token_hash"]
    row["events"] = msgspec.Raw(params["events"].encode())
    return row


def _json(value: Any) -> str:
    return msgspec.json.encode(value).decode()
