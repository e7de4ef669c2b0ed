"""Racing commands, made to race for sure: the test holds the game's row lock until both
commands have been decided and wait at their append, then lets them go. Also two API processes
(two apps, two caches) on one game."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from httpx import Response
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from eventstore.store import EventStore
from tests.api.helpers import (
    Client,
    Game,
    Ledger,
    assert_problem,
    create_game,
    detail,
    play,
    seat_to_act,
)

Conn = AsyncConnection[TupleRow]


@pytest.fixture
async def game(client: Client) -> Game:
    return await create_game(client)


async def race(
    conn: Conn, game: Game, requests: list[Callable[[], Awaitable[Response]]]
) -> list[Response]:
    """Send `requests` together; they append only after all of them wait at the append."""
    async with conn.transaction():
        await conn.execute("SELECT 1 FROM games WHERE game_id = %s FOR UPDATE", [game.id])
        tasks = [asyncio.ensure_future(request()) for request in requests]
        while await _waiting_for_locks(conn) < len(tasks):
            done, _ = await asyncio.wait(tasks, timeout=0.01)
            if done:  # a request answered before reaching its append: show what it said
                pytest.fail(f"answered before the race: {[t.result().text for t in done]}")
    return list(await asyncio.gather(*tasks))


async def _waiting_for_locks(conn: Conn) -> int:
    """Sessions waiting for a lock: the test's, or one held by another waiting append.

    pg_locks is read live (pg_stat_activity would be a snapshot frozen for the transaction).
    On a Citus cluster (tests/citus runs this suite there) the appends wait on the worker that
    holds the game: `citus_locks` shows the locks of every node, by the coordinator's session.
    """
    cursor = await conn.execute("SELECT to_regclass('citus_locks') IS NOT NULL")
    row = await cursor.fetchone()
    if row and row[0]:
        query = "SELECT count(DISTINCT global_pid) FROM citus_locks WHERE NOT granted"
    else:
        query = (
            "SELECT count(DISTINCT pid) FROM pg_locks WHERE NOT granted AND pid <> pg_backend_pid()"
        )
    cursor = await conn.execute(query)
    row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


def bid(
    client: Client, game: Game, seat: int, number: int, **options: Any
) -> Callable[[], Awaitable[Response]]:
    return lambda: play(client, game, seat, {"type": "coyote.bid", "number": number}, **options)


async def test_the_loser_of_a_race_is_decided_again_on_the_new_state(
    client: Client, game: Game, event_store: EventStore, superuser_conn: Conn
) -> None:
    seat = await seat_to_act(client, game)
    version = game.created["version"]
    responses = await race(
        superuser_conn, game, [bid(client, game, seat, 4), bid(client, game, seat, 5)]
    )
    statuses = sorted(response.status_code for response in responses)
    assert statuses == [200, 422], [response.text for response in responses]
    # Not a 409: the loser was decided again, and by then it was no longer this seat's turn.
    loser = next(response for response in responses if response.status_code == 422)
    assert_problem(loser, 422, "rule-violation", rule_id="kernel.not-your-turn")
    assert await Ledger(event_store, game).snapshot() == (version + 1, 1)


async def test_with_expected_version_the_loser_of_a_race_gets_409(
    client: Client, game: Game, event_store: EventStore, superuser_conn: Conn
) -> None:
    seat = await seat_to_act(client, game)
    version = game.created["version"]
    racers = [bid(client, game, seat, n, expected_version=version) for n in (4, 5)]
    responses = await race(superuser_conn, game, racers)
    assert sorted(response.status_code for response in responses) == [200, 409]
    loser = next(response for response in responses if response.status_code == 409)
    assert_problem(loser, 409, "version-conflict")
    assert await Ledger(event_store, game).snapshot() == (version + 1, 1)


async def test_a_retry_racing_its_original_gets_the_first_result(
    client: Client, game: Game, event_store: EventStore, superuser_conn: Conn
) -> None:
    seat = await seat_to_act(client, game)
    version = game.created["version"]
    key = {"Idempotency-Key": "raced"}
    responses = await race(
        superuser_conn,
        game,
        [bid(client, game, seat, 4, headers=key), bid(client, game, seat, 4, headers=key)],
    )
    assert [response.status_code for response in responses] == [200, 200]
    bodies = [response.json() for response in responses]
    assert sorted(body["replayed"] for body in bodies) == [False, True]
    assert bodies[0]["events"] == bodies[1]["events"]
    assert await Ledger(event_store, game).snapshot() == (version + 1, 1)


async def test_many_concurrent_commands_leave_a_gapless_stream(
    client: Client, game: Game, event_store: EventStore
) -> None:
    seat = await seat_to_act(client, game)
    version = game.created["version"]
    responses = await asyncio.gather(*(bid(client, game, seat, n)() for n in range(1, 11)))
    statuses = sorted(response.status_code for response in responses)
    assert statuses == [200] + [422] * 9, [response.text for response in responses]
    stored = await event_store.read(game.id)
    assert [event.seq for event in stored] == list(range(1, version + 2))


async def test_two_api_processes_share_a_game(
    client: Client, other_client: Client, game: Game
) -> None:
    for api in (client, other_client):  # both cache the game at its first version
        await detail(api, game)
    first = await seat_to_act(client, game)
    assert (await play(client, game, first, {"type": "coyote.bid", "number": 2})).is_success

    # The other process's cache is behind: it catches up from the store before deciding.
    second = (await detail(other_client, game))["to_act"][0]
    assert second != first
    response = await play(other_client, game, second, {"type": "coyote.bid", "number": 3})
    assert response.status_code == 200, response.text

    here, there = await detail(client, game, second), await detail(other_client, game, second)
    assert here == there
    assert here["view"]["bids"] == [2, 3]
