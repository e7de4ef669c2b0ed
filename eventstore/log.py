"""The checkpoint log and the signing keys' public halves (migration 0010): what the referee
publishes across games, beside the games' own streams.

The log is an append-only list of leaves, numbered 0, 1, 2 ... with no gap; each leaf is a
game's head statement as hashed into the log's Merkle tree (api/checkpoints.py says what it
holds; the store keeps bytes). A checkpoint is the signed head of the tree at one size. One
process at a time extends the log (`LogStore.extending`, under a transaction-scoped advisory
lock), so leaves are numbered without a race; the others find the lock taken and skip.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec
import psycopg
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from eventstore.pool import Pool, app_connection
from eventstore.seeds import SealedSeedError, SeedKeys
from eventstore.types import StoreError, StreamHead

LOG_LOCK = 0x7265_6665_7265_6501  # pg advisory lock key: "referee" + 1, the log's writer

# In three steps, each a query Citus runs (eventstore/distribution.py: the log's tables stay on
# the coordinator, the games are distributed, and no query may join the two): every game's
# version; those the log does not hold (on the coordinator); their heads (where the games are).
# A head that moved on between the steps is logged as it is then: as new to the log as the first.
_CHANGED_HEADS = """
WITH versions AS MATERIALIZED (
    SELECT game_id, version FROM games
), changed AS MATERIALIZED (
    SELECT v.game_id FROM versions v
     WHERE NOT EXISTS (
           SELECT 1 FROM log_leaves l WHERE l.game_id = v.game_id AND l.version = v.version)
)
SELECT g.game_id, g.version, g.status, e.hash, e.recorded_at, g.seed_key_id, g.sealed_seed
  FROM games g
  JOIN events e ON e.game_id = g.game_id AND e.seq = g.version
 WHERE g.game_id IN (SELECT game_id FROM changed)
 ORDER BY g.updated_at, g.game_id
"""


async def check_signing_key(conn: AsyncConnection[Any], key_id: str, public_key: bytes) -> None:
    """Raise SigningKeyConflict if `key_id` was published with another public key (a database
    not migrated yet has published nothing)."""
    try:
        cursor = await conn.execute(
            "SELECT public_key FROM signing_keys WHERE key_id = %s", [key_id]
        )
    except psycopg.errors.UndefinedTable:
        return
    row = await cursor.fetchone()
    if row is not None and bytes(row[0]) != public_key:
        raise SigningKeyConflict(_conflict(key_id))


def _conflict(key_id: str) -> str:
    return (
        f"signing key {key_id!r} was published with another public key: give the new key another id"
    )


class SigningKeyConflict(StoreError):
    """A signing key id already published with another public key: the settings name two
    different keys alike, and receipts signed with either would contradict the listing."""


class LoggedHead(msgspec.Struct, frozen=True, kw_only=True):
    """A game's head the log does not hold yet, and the seed that opens its pins."""

    head: StreamHead
    seed: bytes


class Leaf(msgspec.Struct, frozen=True, kw_only=True):
    index: int
    game_id: str
    version: int
    leaf: bytes  # exactly the bytes hashed into the tree


class StoredCheckpoint(msgspec.Struct, frozen=True, kw_only=True):
    size: int
    root: bytes
    signed_at: datetime
    envelope: bytes  # the signed checkpoint, as served


class LogStore:
    """The log's tables over the service's pool."""

    def __init__(self, pool: Pool, seed_keys: SeedKeys) -> None:
        self._pool = pool
        self._seed_keys = seed_keys

    # -- signing keys ---------------------------------------------------------------------------

    async def publish_key(self, key_id: str, public_key: bytes) -> None:
        """Record that `key_id` (with this public key) signs, from now if it is new. Raises
        SigningKeyConflict when the id was published with another key."""
        async with self._connection() as conn:
            await conn.execute(
                "INSERT INTO signing_keys (key_id, public_key) VALUES (%s, %s)"
                " ON CONFLICT (key_id) DO NOTHING",
                [key_id, public_key],
            )
            cursor = await conn.execute(
                "SELECT public_key FROM signing_keys WHERE key_id = %s", [key_id]
            )
            row = await cursor.fetchone()
        if row is None or bytes(row[0]) != public_key:
            raise SigningKeyConflict(_conflict(key_id))

    async def published_keys(self) -> list[tuple[str, bytes, datetime]]:
        """Every key that signed: id, raw public key, first use."""
        async with self._connection() as conn:
            cursor = await conn.execute(
                "SELECT key_id, public_key, first_used FROM signing_keys ORDER BY first_used"
            )
            rows = await cursor.fetchall()
        return [(key_id, bytes(public), first_used) for key_id, public, first_used in rows]

    # -- reading the log --------------------------------------------------------------------------

    async def leaves(self, *, start: int, stop: int | None = None) -> list[bytes]:
        """The leaves numbered start .. stop - 1 (to the end without `stop`), in order."""
        query = "SELECT leaf FROM log_leaves WHERE idx >= %s AND (%s::bigint IS NULL OR idx < %s)"
        async with self._connection() as conn:
            cursor = await conn.execute(query + " ORDER BY idx", [start, stop, stop])
            rows = await cursor.fetchall()
        return [bytes(leaf) for (leaf,) in rows]

    async def leaves_of(self, game_id: str, *, below: int) -> list[Leaf]:
        """The game's leaves among the first `below` of the log, oldest first."""
        async with self._connection() as conn:
            cursor = await conn.execute(
                "SELECT idx, version, leaf FROM log_leaves WHERE game_id = %s AND idx < %s"
                " ORDER BY idx",
                [game_id, below],
            )
            rows = await cursor.fetchall()
        return [
            Leaf(index=index, game_id=game_id, version=version, leaf=bytes(leaf))
            for index, version, leaf in rows
        ]

    async def checkpoint(
        self, size: int | None = None, *, at_most: int | None = None
    ) -> StoredCheckpoint | None:
        """The checkpoint of the tree at `size` (default: the latest; with `at_most`, the
        latest of a tree no larger), if one was signed."""
        query = "SELECT size, root, signed_at, envelope FROM checkpoints"
        params: list[int | None]
        if size is not None:
            query, params = query + " WHERE size = %s", [size]
        else:
            query += " WHERE %s::bigint IS NULL OR size <= %s ORDER BY size DESC LIMIT 1"
            params = [at_most, at_most]
        async with self._connection() as conn:
            cursor = await conn.execute(query, params)
            row = await cursor.fetchone()
        if row is None:
            return None
        size_, root, signed_at, envelope = row
        return StoredCheckpoint(
            size=size_, root=bytes(root), signed_at=signed_at, envelope=bytes(envelope)
        )

    # -- extending the log ------------------------------------------------------------------------

    @asynccontextmanager
    async def extending(self) -> AsyncIterator[LogWriter | None]:
        """A transaction that alone may extend the log (None: another process holds it now).
        What the writer adds is committed together when the block ends, or not at all."""
        async with self._connection() as conn, conn.transaction():
            cursor = await conn.execute("SELECT pg_try_advisory_xact_lock(%s)", [LOG_LOCK])
            row = await cursor.fetchone()
            yield LogWriter(conn, self._seed_keys) if row and row[0] else None

    def _connection(self) -> AbstractAsyncContextManager[AsyncConnection[TupleRow]]:
        return app_connection(self._pool)


@dataclass
class LogWriter:
    """The log's one writer, inside its transaction."""

    conn: AsyncConnection[TupleRow]
    seed_keys: SeedKeys

    async def size(self) -> int:
        cursor = await self.conn.execute("SELECT coalesce(max(idx) + 1, 0) FROM log_leaves")
        row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def changed_heads(self) -> tuple[list[LoggedHead], list[str]]:
        """The heads of every game the log does not hold yet (the least recently changed
        first), and the ids of those skipped because their seed does not open with this
        server's keys. All of them: so a head recorded before a checkpoint began is in it."""
        cursor = await self.conn.execute(_CHANGED_HEADS)
        heads, skipped = [], []
        for row in await cursor.fetchall():
            game_id, version, status, hash_, recorded_at, key_id, sealed = row
            try:
                seed = self.seed_keys.open(game_id, key_id, bytes(sealed))
            except SealedSeedError:
                skipped.append(game_id)
                continue
            head = StreamHead(
                game_id=game_id,
                version=version,
                status=status,
                hash=bytes(hash_),
                recorded_at=recorded_at,
            )
            heads.append(LoggedHead(head=head, seed=seed))
        return heads, skipped

    async def add_leaves(self, first: int, leaves: list[tuple[str, int, bytes]]) -> None:
        """Append (game id, version, leaf) as leaves first, first + 1, ..."""
        if not leaves:
            return
        await self.conn.execute(
            "INSERT INTO log_leaves (idx, game_id, version, leaf)"
            " SELECT * FROM unnest(%s::bigint[], %s::text[], %s::int[], %s::bytea[])",
            [
                list(range(first, first + len(leaves))),
                [game_id for game_id, _, _ in leaves],
                [version for _, version, _ in leaves],
                [leaf for _, _, leaf in leaves],
            ],
        )

    async def add_checkpoint(self, checkpoint: StoredCheckpoint) -> None:
        await self.conn.execute(
            "INSERT INTO checkpoints (size, root, signed_at, envelope) VALUES (%s, %s, %s, %s)",
            [checkpoint.size, checkpoint.root, checkpoint.signed_at, checkpoint.envelope],
        )
