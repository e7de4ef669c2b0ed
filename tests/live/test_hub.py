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
    hub = EventHub(database_url, retry_seconds=0.05)
    await hub.start()
    await until(lambda: hub.listening)
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
        assert not await first.wait(0)
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
        await superuser_conn.execute("SELECT pg_terminate_backend(%s)", [hub.backend_pid])
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
