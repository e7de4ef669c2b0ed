"""Writers racing on one game, each on its own connection, all at the same moment.

Each writer is a store of its own, as the writers of different processes are: within one
process a game's appends go to the database one batch at a time (eventstore/groupcommit.py),
so they race only there. Each store has read the stream first, so that it appends from the
head it remembers, the path of nearly every move.

To make the race real rather than likely, a superuser first locks the game's row; the writers
each read the stream and then queue up on that lock inside their append. Once the database
shows all of them waiting, the lock is released and they are let go together.
"""

from __future__ import annotations

import asyncio
import itertools
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import TypeVar

import pytest
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from eventstore import AppendResult, VersionConflict
from eventstore.pool import Pool, create_pool
from eventstore.seeds import SeedKeys
from eventstore.store import EventStore
from tests.store.helpers import events, make_stream

WRITERS = 20
T = TypeVar("T")


@pytest.fixture
async def writers_pool(database_url: str) -> AsyncIterator[Pool]:
    """A pool of exactly WRITERS connections, all open, with a name to find them by."""
    name = f"race-{uuid.uuid4().hex[:8]}"
    async with create_pool(database_url, min_size=WRITERS, max_size=WRITERS, name=name) as pool:
        await pool.wait()
        yield pool


@asynccontextmanager
async def game_row_locked(superuser_url: str, game_id: str) -> AsyncIterator[None]:
    async with (
        await AsyncConnection.connect(superuser_url) as conn,
        conn.transaction(),
    ):
        await conn.execute("SELECT 1 FROM games WHERE game_id = %s FOR UPDATE", [game_id])
        yield


async def wait_until_waiting_on_locks(conn: AsyncConnection[TupleRow], pool: Pool) -> None:
    query = """SELECT count(*) FROM pg_stat_activity
                WHERE application_name = %s AND wait_event_type = 'Lock'"""
    async with asyncio.timeout(60):  # only a guard against hanging, never reached when correct
        while True:
            row = await (await conn.execute(query, [pool.name])).fetchone()
            if row is not None and row[0] == WRITERS:
                return
            await asyncio.sleep(0.01)


async def stores_at_head(pool: Pool, seed_keys: SeedKeys, game_id: str) -> list[EventStore]:
    """WRITERS stores, each remembering the game's head from a verified read."""
    stores = [EventStore(pool, seed_keys) for _ in range(WRITERS)]
    for store in stores:
        await store.read(game_id, verify=True)
    return stores


async def race(
    superuser_url: str,
    superuser_conn: AsyncConnection[TupleRow],
    pool: Pool,
    game_id: str,
    writers: list[Callable[[], Coroutine[object, object, T]]],
) -> list[T | BaseException]:
    async with game_row_locked(superuser_url, game_id):
        tasks = [asyncio.create_task(writer()) for writer in writers]
        await wait_until_waiting_on_locks(superuser_conn, pool)
    return await asyncio.gather(*tasks, return_exceptions=True)


async def test_twenty_writers_from_one_version_one_wins_the_rest_conflict(
    owner_database_url: str,
    superuser_conn: AsyncConnection[TupleRow],
    writers_pool: Pool,
    seed_keys: SeedKeys,
    new_game_id: Callable[[], str],
) -> None:
    store = EventStore(writers_pool, seed_keys)
    game_id = new_game_id()
    await make_stream(store, game_id, opening=3)
    writing = await stores_at_head(writers_pool, seed_keys, game_id)

    def writer(n: int) -> Callable[[], Coroutine[object, object, AppendResult]]:
        return lambda: writing[n].append(
            game_id,
            expected_version=3,
            events=events(f"writer{n}", 2),
            seat=n % 3,
            command_body=f"command {n}".encode(),
        )

    results = await race(
        owner_database_url,
        superuser_conn,
        writers_pool,
        game_id,
        [writer(n) for n in range(WRITERS)],
    )

    winners = [r for r in results if isinstance(r, AppendResult)]
    conflicts = [r for r in results if isinstance(r, VersionConflict)]
    assert len(winners) == 1
    assert len(conflicts) == WRITERS - 1
    assert all((c.expected, c.actual) == (3, 5) for c in conflicts)
    stored = await store.read(game_id)
    assert [e.seq for e in stored] == [1, 2, 3, 4, 5]
    assert stored[3:] == winners[0].events
    assert [c.id for c in await store.commands(game_id)] == [1]
    assert stored[4].hash == winners[0].events[-1].hash
    assert (await store.info(game_id)).version == 5


async def test_twenty_retries_of_one_idempotent_command_append_it_once(
    owner_database_url: str,
    superuser_conn: AsyncConnection[TupleRow],
    writers_pool: Pool,
    seed_keys: SeedKeys,
    new_game_id: Callable[[], str],
) -> None:
    store = EventStore(writers_pool, seed_keys)
    game_id = new_game_id()
    await make_stream(store, game_id, opening=1)
    writing = iter(await stores_at_head(writers_pool, seed_keys, game_id))

    def retry() -> Coroutine[object, object, AppendResult]:
        return next(writing).append(
            game_id,
            expected_version=1,
            events=events("same", 2),
            seat=2,
            command_body=b"the command",
            idempotency_key="retry-me",
        )

    results = await race(
        owner_database_url, superuser_conn, writers_pool, game_id, [retry] * WRITERS
    )

    assert all(isinstance(r, AppendResult) for r in results), results
    answers = [r for r in results if isinstance(r, AppendResult)]
    assert sorted(r.replayed for r in answers) == [False] + [True] * (WRITERS - 1)
    first = next(r for r in answers if not r.replayed)
    assert all(
        (r.version, r.events, r.command) == (3, first.events, first.command) for r in answers
    )
    assert [e.seq for e in await store.read(game_id)] == [1, 2, 3]
    assert len(await store.commands(game_id)) == 1


async def test_free_for_all_writers_keep_the_stream_gapless(
    writers_pool: Pool, seed_keys: SeedKeys, new_game_id: Callable[[], str]
) -> None:
    """Writers that each retry on conflict until they get in: every command lands exactly once."""
    store = EventStore(writers_pool, seed_keys)
    game_id = new_game_id()
    await make_stream(store, game_id, opening=1)

    async def keep_trying(n: int) -> AppendResult:
        while True:
            version = (await store.info(game_id)).version
            try:
                return await store.append(
                    game_id,
                    expected_version=version,
                    events=events(f"w{n}", 1 + n % 3),
                    seat=n % 3,
                    command_body=f"{n}".encode(),
                )
            except VersionConflict:
                continue

    results = await asyncio.gather(*(keep_trying(n) for n in range(WRITERS)))
    stored = await store.read(game_id)
    total = 1 + sum(1 + n % 3 for n in range(WRITERS))
    assert [e.seq for e in stored] == list(range(1, total + 1))
    assert sorted(e.seq for r in results for e in r.events) == list(range(2, total + 1))
    for previous, event in itertools.pairwise(stored):
        assert event.prev_hash == previous.hash
    commands = await store.commands(game_id)
    assert sorted(c.body for c in commands) == sorted(f"{n}".encode() for n in range(WRITERS))
