"""Past one database: the tables distributed by `game_id` over a Citus cluster.

A game's record (its row, seat tokens, commands and events, and its redeemed stream tickets)
is distributed by `game_id` and co-located, so that one game lives on one shard and every
statement of the store, which names its game (tests/store/test_statements.py), runs on that
shard alone. `game_creations`, looked up by the hash of an Idempotency-Key rather than by
game, becomes a reference table (a copy on every node); its foreign key to `games` goes, since
Citus allows none from a reference table to a distributed one. The log of checkpoints and the
signing keys stay on the coordinator: they are not a game's (eventstore/log.py never joins them
to a game's table).

The guards travel with the shards: Citus creates a distributed table's triggers on each of its
shards, where they fire on the rows (with `citus.enable_unsafe_triggers`, which the step sets
for its own transaction). The append-only triggers and the one that holds a game's version and
status to moving forward stay as they are. The in-line checks do not: Citus runs a statement
that writes several tables (every write of the store) as one statement a table, so a check at
the end of each would find the write half done. They are replaced here by their row-by-row
form, checked at commit on the worker that holds the rows (migration 0014 says how).

A kept audit report is checked against the row versions (`xmin`, `ctid`) of its game's rows,
read by a statement routed to the game's shard like any other; a shard moved writes new row
versions, so the reports kept for its games are verified once more (api/audit.py).

The step runs after the migrations, as the schema's owner, where the `citus` extension is
installed in the database (`CREATE EXTENSION citus`, by the cluster's administrator, with
citus in `shared_preload_libraries`); elsewhere it changes nothing and says so. Running it
again distributes nothing more, and puts the checks of a cluster in place if they are not
(a database distributed by an older release kept the statement-level ones).
"""

from __future__ import annotations

from dataclasses import dataclass

import psycopg
from psycopg import sql

# Referenced tables first: a distributed table's foreign keys point at co-located ones.
DISTRIBUTED = ("games", "seat_tokens", "commands", "events", "redeemed_tickets")
REFERENCE = ("game_creations",)
# The coordinator's own: its ledger, and the checkpoint log and signing keys (not a game's).
LOCAL = ("schema_migrations", "signing_keys", "log_leaves", "checkpoints")
DROPPED_FOR_CITUS = ("game_creations", "game_creations_game_id_fkey")  # reference -> distributed

# The in-line checks of one database (migrations 0011, 0013): table, trigger.
STATEMENT_CHECKS = (
    ("games", "games_created_with_their_events"),
    ("games", "games_moved_with_their_events"),
    ("events", "events_in_line"),
    ("commands", "commands_of_their_games"),
)
# Their form on a cluster (migration 0014): table, trigger, what fires it, its function.
ROW_CHECKS = (
    (
        "games",
        "games_version_has_its_event",
        "INSERT OR UPDATE OF version",
        "refuse_version_without_its_event_on_shard",
    ),
    ("events", "events_in_line_at_commit", "INSERT", "refuse_event_out_of_line_on_shard"),
    ("commands", "commands_of_games_at_commit", "INSERT", "refuse_command_of_no_game_on_shard"),
)

CHECK_FUNCTIONS = (
    "referee_beside(name, text)",
    *(f"{function}()" for _, _, _, function in ROW_CHECKS),
)

_HAS_CITUS = "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')"
_DISTRIBUTED_ALREADY = (
    "SELECT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'games'::regclass)"
)
# The table's triggers that refuse a TRUNCATE (pg_trigger.tgtype: 32 is TRUNCATE).
_TRUNCATE_GUARDS = (
    "SELECT tgname FROM pg_trigger"
    " WHERE tgrelid = %s::regclass AND NOT tgisinternal AND tgtype & 32 <> 0"
)
_HAS_TRIGGER = (
    "SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = %s::regclass AND tgname = %s)"
)


@dataclass(frozen=True)
class Distribution:
    distributed: bool  # whether this call distributed the tables
    why: str  # what was done, or why nothing was


async def distribute(conn: psycopg.AsyncConnection) -> Distribution:
    """Distribute the tables by game_id if the citus extension is installed and they are not
    yet, with the checks of a cluster; else do nothing. `conn`: the owner's, in autocommit."""
    if not await _true(conn, _HAS_CITUS):
        return Distribution(False, "no citus extension: the tables stay on this one database")
    already = await _true(conn, _DISTRIBUTED_ALREADY)
    async with conn.transaction():
        await conn.execute("SET LOCAL citus.enable_unsafe_triggers = on")
        # One connection a node for the whole step: Citus makes a function on every node only
        # in a transaction that has not written shards over several connections.
        await conn.execute("SET LOCAL citus.multi_shard_modify_mode = 'sequential'")
        for table, trigger in STATEMENT_CHECKS:  # before the rows are copied to the shards
            await conn.execute(
                sql.SQL("DROP TRIGGER IF EXISTS {} ON {}").format(
                    sql.Identifier(trigger), sql.Identifier(table)
                )
            )
        if not already:
            await _distribute_tables(conn)
        await _check_rows_at_commit(conn)
    if already:
        return Distribution(False, "citus: the tables are distributed by game_id already")
    return Distribution(True, f"citus: {', '.join(DISTRIBUTED)} distributed by game_id")


async def _distribute_tables(conn: psycopg.AsyncConnection) -> None:
    table, constraint = DROPPED_FOR_CITUS
    await conn.execute(
        sql.SQL("ALTER TABLE {} DROP CONSTRAINT IF EXISTS {}").format(
            sql.Identifier(table), sql.Identifier(constraint)
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
    for name in (*DISTRIBUTED, *REFERENCE):
        await _forget_local_rows(conn, name)


async def _forget_local_rows(conn: psycopg.AsyncConnection, table: str) -> None:
    """Empty the coordinator's own copy of a table that held rows when it was distributed:
    Citus copies them to the shards and leaves them behind, unread but on its disk (old row
    versions, sealed seeds). The append-only guards refuse the TRUNCATE: they are lifted for it
    on the coordinator's copy alone, within this transaction; the shards keep theirs."""
    cursor = await conn.execute(_TRUNCATE_GUARDS, [table])
    guards = [name for (name,) in await cursor.fetchall()]
    for guard in guards:
        await conn.execute(_alter_trigger(table, "DISABLE", guard))
    await conn.execute("SELECT truncate_local_data_after_distributing_table(%s)", [table])
    for guard in guards:
        await conn.execute(_alter_trigger(table, "ENABLE", guard))


def _alter_trigger(table: str, how: str, trigger: str) -> sql.Composed:
    return sql.SQL("ALTER TABLE {} " + how + " TRIGGER {}").format(
        sql.Identifier(table), sql.Identifier(trigger)
    )


async def _check_rows_at_commit(conn: psycopg.AsyncConnection) -> None:
    """The row-by-row checks, deferred to commit, on each shard (those missing). Their functions
    are made on every node first: Citus made those that were created after its extension, but
    a database that was one PostgreSQL when migration 0014 ran has them on the coordinator
    alone (and `referee_beside`, which the checks call by name, is no trigger's dependency)."""
    for function in CHECK_FUNCTIONS:
        await conn.execute("SELECT create_distributed_function(%s)", [function])
    for table, trigger, fired_by, function in ROW_CHECKS:
        if await _true(conn, _HAS_TRIGGER, [table, trigger]):
            continue
        await conn.execute(
            sql.SQL(
                "CREATE CONSTRAINT TRIGGER {} AFTER " + fired_by + " ON {}"
                " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION {}()"
            ).format(sql.Identifier(trigger), sql.Identifier(table), sql.Identifier(function))
        )


async def _true(conn: psycopg.AsyncConnection, query: str, params: list[str] | None = None) -> bool:
    cursor = await conn.execute(query, params)
    row = await cursor.fetchone()
    return bool(row and row[0])
