"""Every statement a store sends, recorded on its way to PostgreSQL: a pool whose connections
write down each `execute` (text and parameters) before running it. Nothing is changed or
answered in the database's place."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from psycopg import AsyncConnection, AsyncCursor, sql
from psycopg.rows import TupleRow

from eventstore.pool import create_pool
from eventstore.seeds import SeedKeys
from eventstore.store import EventStore


@dataclass(frozen=True)
class Statement:
    text: str  # whitespace collapsed
    params: Any

    def values(self) -> list[Any]:
        if isinstance(self.params, dict):
            return list(self.params.values())
        return list(self.params or ())


@dataclass
class Recorder:
    statements: list[Statement] = field(default_factory=list)

    def take(self) -> list[Statement]:
        """What was sent since the last take."""
        taken = list(self.statements)
        self.statements.clear()  # the same list: the connections append to it
        return taken

    def connection_class(self) -> type[AsyncConnection[TupleRow]]:
        statements = self.statements

        class RecordingCursor(AsyncCursor[Any]):
            async def execute(self, query: Any, params: Any = None, **options: Any) -> Any:
                text = query.as_string(self) if isinstance(query, sql.Composable) else str(query)
                statements.append(Statement(" ".join(text.split()), params))
                return await super().execute(query, params, **options)

        class RecordingConnection(AsyncConnection[TupleRow]):
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                self.cursor_factory = RecordingCursor

        return RecordingConnection


@asynccontextmanager
async def recording_store(
    database_url: str, seed_keys: SeedKeys
) -> AsyncIterator[tuple[EventStore, Recorder]]:
    """A store on a pool of one connection whose statements are recorded; what the pool sent
    to set the connection up, and the store asked of the database first, is taken already."""
    recorder = Recorder()
    pool = create_pool(
        database_url,
        min_size=1,
        max_size=1,
        name="referee-recorded",
        connection_class=recorder.connection_class(),
    )
    async with pool:
        await pool.wait()
        store = EventStore(pool, seed_keys)
        await store.learn_database()
        recorder.take()
        yield store, recorder
