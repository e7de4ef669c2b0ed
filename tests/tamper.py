"""Changing a game's record behind the service's back, as only the database's owner (or a
superuser) can: with every guard of the database lifted, for this transaction only."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from psycopg import AsyncConnection
from psycopg.rows import TupleRow


@asynccontextmanager
async def behind_the_back(conn: AsyncConnection[TupleRow]) -> AsyncIterator[None]:
    """A transaction on the owner's `conn` in which no trigger fires: not the append-only ones,
    not those that keep versions and events in line (eventstore/migrations/0002, 0006). On a
    Citus cluster the setting goes with the statements to the workers, where the triggers fire
    (on one database the citus setting is a placeholder that nothing reads)."""
    async with conn.transaction():
        await conn.execute("SET LOCAL citus.propagate_set_commands = 'local'")
        await conn.execute("SET LOCAL session_replication_role = replica")
        yield
