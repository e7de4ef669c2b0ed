"""Past one database: the tables distributed by `game_id` over a Citus cluster.

A game's record (its row, seat tokens, commands and events, and its redeemed stream tickets)
is distributed by `game_id` and co-located, so that one game lives on one shard and every
statement of the store, which names its game (tests/store/test_statements.py), runs on that
shard alone. `game_creations`, looked up by the hash of an Idempotency-Key rather than by
game, becomes a reference table (a copy on every node); its foreign key to `games` goes, since
Citus allows none from a reference table to a distributed one. The append-only and in-line
guards (migrations 0001, 0002, 0011 and 0013, and 0008's on redeemed tickets) are triggers; Citus
runs triggers on distributed tables only with `citus.enable_unsafe_triggers`, which the step
sets for its own transaction, so that the guards travel with the shards. A kept audit report
is checked against the row versions (`xmin`, `ctid`) of its game's rows, read by a statement
routed to the game's shard like any other; a shard moved writes new row versions, so the
reports kept for its games are verified once more (api/audit.py).

The step runs after the migrations, as the schema's owner, where the `citus` extension is
installed in the database (`CREATE EXTENSION citus`, by the cluster's administrator, with
citus in `shared_preload_libraries`); elsewhere it changes nothing and says so. Tables already
distributed are left as they are, so running it again does nothing.

Written from Citus's documentation and checked here only where Citus is absent: no Citus
cluster was at hand (README, "Scaling").
"""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

# Referenced tables first: a distributed table's foreign keys point at co-located ones.
DISTRIBUTED = ("games", "seat_tokens", "commands", "events", "redeemed_tickets")
REFERENCE = ("game_creations",)
# The coordinator's own: its ledger, and the checkpoint log and signing keys (not a game's).
LOCAL = ("schema_migrations", "signing_keys", "log_leaves", "checkpoints")
DROPPED_FOR_CITUS = ("game_creations", "game_creations_game_id_fkey")  # reference -> distributed

_HAS_CITUS = "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')"
_DISTRIBUTED_ALREADY = (
    "SELECT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'games'::regclass)"
)


@dataclass(frozen=True)
class Distribution:
    distributed: bool  # whether this call distributed the tables
    why: str  # what was done, or why nothing was


async def distribute(conn: psycopg.AsyncConnection) -> Distribution:
    """Distribute the tables by game_id if the citus extension is installed and they are not
    yet; else do nothing. `conn`: the owner's, in autocommit."""
    if not await _true(conn, _HAS_CITUS):
        return Distribution(False, "no citus extension: the tables stay on this one database")
    if await _true(conn, _DISTRIBUTED_ALREADY):
        return Distribution(False, "citus: the tables are distributed by game_id already")
    table, constraint = DROPPED_FOR_CITUS
    async with conn.transaction():
        await conn.execute("SET LOCAL citus.enable_unsafe_triggers = on")
        await conn.execute(
            psycopg.sql.SQL("ALTER TABLE {} DROP CONSTRAINT IF EXISTS {}").format(
                psycopg.sql.Identifier(table), psycopg.sql.Identifier(constraint)
            )
        )
        for name in DISTRIBUTED:
            colocate = "default" if name == DISTRIBUTED[0] else DISTRIBUTED[0]
            await conn.execute(
                "SELECT create_distributed_table(%s, 'game_id', colocate_with => %s)",
                [name, colocate],
            )
        for name in REFERENCE:
            await conn.execute("SELECT create_reference_table(%s)", [name])
    return Distribution(True, f"citus: {', '.join(DISTRIBUTED)} distributed by game_id")


async def _true(conn: psycopg.AsyncConnection, query: str) -> bool:
    cursor = await conn.execute(query)
    row = await cursor.fetchone()
    return bool(row and row[0])
