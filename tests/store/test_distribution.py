"""The step that distributes the tables by game_id over Citus (eventstore.distribution): on a
database without Citus it changes nothing and says so; and what it would do fits the schema
the migrations make (every game-keyed table distributed, every other one named)."""

from __future__ import annotations

from collections.abc import Callable

import psycopg
import pytest

from eventstore.distribution import (
    DISTRIBUTED,
    DROPPED_FOR_CITUS,
    LOCAL,
    REFERENCE,
    distribute,
)
from eventstore.migrations import migrate


def schema(conninfo: str) -> dict[str, set[str]]:
    """Table -> its columns, in the public schema."""
    with psycopg.connect(conninfo) as conn:
        rows = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = 'public'"
        ).fetchall()
    tables: dict[str, set[str]] = {}
    for table, column in rows:
        tables.setdefault(table, set()).add(column)
    return tables


@pytest.fixture
async def migrated(empty_database: Callable[[], str]) -> str:
    """A fresh database with every migration applied, as its owner."""
    conninfo = empty_database()
    await migrate(conninfo)
    return conninfo


async def test_without_citus_nothing_is_distributed_and_it_says_so(migrated: str) -> None:
    conninfo = migrated
    before = schema(conninfo)
    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
        done = await distribute(conn)
    assert not done.distributed
    assert "no citus extension" in done.why
    assert schema(conninfo) == before


async def test_the_distribution_covers_every_table_of_the_schema(migrated: str) -> None:
    conninfo = migrated
    tables = schema(conninfo)
    keyed = {table for table, columns in tables.items() if "game_id" in columns}
    # The checkpoint log names games, but in its own order across them: it stays whole.
    across = {"log_leaves"}
    assert across <= set(LOCAL)
    assert set(DISTRIBUTED) == keyed - set(REFERENCE) - across, "a game's table goes with it"
    assert set(DISTRIBUTED) | set(REFERENCE) | set(LOCAL) == set(tables), "no table forgotten"
    assert DISTRIBUTED[0] == "games"  # the others are co-located with it
    table, constraint = DROPPED_FOR_CITUS
    with psycopg.connect(conninfo) as conn:
        found = conn.execute(
            "SELECT confrelid::regclass::text FROM pg_constraint"
            " WHERE conrelid = %s::regclass AND conname = %s",
            [table, constraint],
        ).fetchall()
    assert found == [("games",)], "the reference table's key to games, which Citus refuses"
