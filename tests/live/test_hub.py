"""One LISTEN connection per process wakes the streams of a game, whoever appended."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from api.live import EventHub
from eventstore.store import EventStore
from tests.store.helpers import events, make_stream

Conn = AsyncConnection[TupleRow]
PATIENCE = 30.0  # seconds before a test gives up waiting; never a measured duration


@pytest.fixture
async def hub(database_url: str) -> AsyncIterator[EventHub]:
    hub = EventHub(database_url, retry_seconds=0.05, linger_seconds=0.05)
    await hub.start()
    yield hub
    await hub.stop()


async def until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(PATIENCE):
        while not condition():
            await asyncio.sleep(0.01)


async def append(store: EventStore, game_id: str, version: int) -> None:
    await store.append(
        game_id, expected_version=version, events=events("x", 1), seat=0, command_body=b"{}"
    )


async def test_an_append_wakes_the_streams_of_its_game_only(
    hub: EventHub, event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game, other = new_game_id(), new_game_id()
    await make_stream(event_store, game, opening=1)
    with (
        hub.subscribe(game) as first,
        hub.subscribe(game) as second,
        hub.subscribe(other) as bystander,
    ):
        await until(lambda: hub.listening)
        for subscription in (first, second, bystander):  # rung once, on listening: read now
            assert await subscription.wait(PATIENCE) and not await subscription.wait(0)
        await append(event_store, game, 1)
        assert await first.wait(PATIENCE) and await second.wait(PATIENCE)
        assert not await bystander.wait(0)
    assert hub.subscribers(game) == 0


async def test_streams_are_woken_when_the_connection_comes_back(
    hub: EventHub,
    event_store: EventStore,
    superuser_conn: Conn,
    new_game_id: Callable[[], str],
) -> None:
    """Notifications sent while the connection was down are lost: every stream re-reads."""
    game = new_game_id()
    await make_stream(event_store, game, opening=1)
    with hub.subscribe(game) as subscription:
        await until(lambda: hub.listening)
        await superuser_conn.execute("SELECT pg_terminate_backend(%s::int)", [hub.backend_pid])
        await until(lambda: not hub.listening)
        await until(lambda: hub.listening)
        assert await subscription.wait(PATIENCE)
        await append(event_store, game, 1)
        assert await subscription.wait(PATIENCE)


async def test_notifications_that_are_not_the_stores_are_ignored() -> None:
    hub = EventHub("postgresql://unused")
    with hub.subscribe("g") as subscription:
        hub.notified("no seq here")
        hub.notified("g:x")
        assert not await subscription.wait(0)
        hub.notified("g:12")
        assert await subscription.wait(0)


async def listeners(superuser_conn: Conn) -> int:
    cursor = await superuser_conn.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'referee-listen'"
    )
    ((count,),) = await cursor.fetchall()
    return int(count)


async def test_a_process_listens_only_while_it_has_streams(
    database_url: str,
    event_store: EventStore,
    superuser_conn: Conn,
    new_game_id: Callable[[], str],
) -> None:
    """No stream, no connection: the notifications of every write, whoever made it, would wake
    it and a database process for nothing. The first stream opens it, and is rung once it
    listens (what was written before, it reads); it closes after the last stream ends and a
    linger, and opens again with the next stream."""
    base = await listeners(superuser_conn)  # other tests' servers may listen
    hub = EventHub(database_url, retry_seconds=0.05, linger_seconds=0.2)
    await hub.start()
    game = new_game_id()
    await make_stream(event_store, game, opening=1)
    try:
        await append(event_store, game, 1)
        await asyncio.sleep(0.1)
        assert not hub.listening and hub.backend_pid is None
        assert await listeners(superuser_conn) == base
        with hub.subscribe(game) as subscription:
            await until(lambda: hub.listening)
            assert await listeners(superuser_conn) == base + 1
            assert await subscription.wait(PATIENCE)  # the ring of listening
            await append(event_store, game, 2)
            assert await subscription.wait(PATIENCE)
        with hub.subscribe(game):  # within the linger: the same connection
            pid = hub.backend_pid
            await asyncio.sleep(0.3)
            assert hub.listening and hub.backend_pid == pid
        await until(lambda: not hub.listening)
        async with asyncio.timeout(PATIENCE):
            while await listeners(superuser_conn) != base:
                await asyncio.sleep(0.02)
        with hub.subscribe(game) as subscription:
            await until(lambda: hub.listening)
            assert hub.backend_pid != pid
            assert await subscription.wait(PATIENCE)
            await append(event_store, game, 3)
            assert await subscription.wait(PATIENCE)
    finally:
        await hub.stop()
    assert not hub.listening
