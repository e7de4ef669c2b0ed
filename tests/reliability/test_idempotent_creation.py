"""`POST /v1/games` retried with its `Idempotency-Key` answers the first creation: the same
game and the same seat tokens (which work), from another process and after a restart, and
never makes a second game; the same key with another request is refused."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from tests.reliability.conftest import Serve
from tests.servers import Server

Conn = AsyncConnection[TupleRow]
BODY = {"kind": "coyote", "seats": 3, "options": {"shaman": True}}


@pytest.fixture(scope="module")
def servers(serve: Serve) -> tuple[Server, Server]:
    return serve(), serve()


@pytest.fixture
async def clients(
    servers: tuple[Server, Server],
) -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient]]:
    async with (
        httpx.AsyncClient(base_url=servers[0].url, timeout=30) as first,
        httpx.AsyncClient(base_url=servers[1].url, timeout=30) as second,
    ):
        yield first, second


def new_key() -> str:
    return f"create-{uuid.uuid4()}"


async def create(http: httpx.AsyncClient, key: str | None, body: Any = BODY) -> httpx.Response:
    headers = {} if key is None else {"Idempotency-Key": key}
    return await http.post("/v1/games", json=body, headers=headers)


async def games_made(conn: Conn, game_ids: set[str]) -> int:
    cursor = await conn.execute(
        "SELECT count(*) FROM games WHERE game_id = ANY(%s)", [sorted(game_ids)]
    )
    row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def test_a_retry_on_another_process_answers_the_first_creation(
    clients: tuple[httpx.AsyncClient, httpx.AsyncClient],
) -> None:
    first, second = clients
    key = new_key()
    created = await create(first, key)
    assert created.status_code == 201, created.text
    again = await create(second, key, {**BODY, "entropy": ""})  # the same request, written out
    assert again.status_code == 201, again.text
    original, replayed = created.json(), again.json()
    assert original["replayed"] is False and replayed["replayed"] is True
    assert {**replayed, "replayed": False} == original  # same game, same tokens, same answer
    assert again.headers["location"] == created.headers["location"]

    seat = original["to_act"][0]
    token = replayed["seat_tokens"][seat]["token"]
    moved = await second.post(
        f"/v1/games/{original['game_id']}/commands",
        json={"command": {"type": "coyote.bid", "number": 4}},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert moved.status_code == 200, moved.text
    # Later retries still answer the creation as it was, not the game as it is now.
    assert (await create(first, key)).json() == replayed


async def test_the_same_key_with_another_request_is_refused(
    clients: tuple[httpx.AsyncClient, httpx.AsyncClient],
) -> None:
    first, second = clients
    key = new_key()
    assert (await create(first, key)).status_code == 201
    for other in ({**BODY, "seats": 4}, {**BODY, "options": {}}, {**BODY, "entropy": "x"}):
        refused = await create(second, key, other)
        assert refused.status_code == 422, refused.text
        assert refused.json()["type"] == "urn:referee:problem:idempotency-key-reused"


async def test_concurrent_retries_on_two_processes_make_one_game(
    clients: tuple[httpx.AsyncClient, httpx.AsyncClient], superuser_conn: Conn
) -> None:
    key = new_key()
    answers = await asyncio.gather(*(create(clients[n % 2], key) for n in range(10)))
    assert all(answer.status_code == 201 for answer in answers), [a.text for a in answers]
    bodies = [answer.json() for answer in answers]
    assert len({body["game_id"] for body in bodies}) == 1
    assert sorted(body["replayed"] for body in bodies) == [False] + [True] * 9
    assert len({str(body["seat_tokens"]) for body in bodies}) == 1
    assert await games_made(superuser_conn, {bodies[0]["game_id"]}) == 1


async def test_the_key_survives_a_restart(
    clients: tuple[httpx.AsyncClient, httpx.AsyncClient], serve: Serve
) -> None:
    key = new_key()
    created = (await create(clients[0], key)).json()
    restarted = serve()  # a process started after the creation: nothing of it in memory
    async with httpx.AsyncClient(base_url=restarted.url, timeout=30) as http:
        again = await create(http, key)
    assert again.status_code == 201
    assert {**again.json(), "replayed": False} == created


async def test_without_a_key_every_request_makes_a_game_and_bad_keys_are_refused(
    clients: tuple[httpx.AsyncClient, httpx.AsyncClient], superuser_conn: Conn
) -> None:
    first, _ = clients
    made = [(await create(first, None)).json()["game_id"] for _ in range(2)]
    assert await games_made(superuser_conn, set(made)) == 2
    for bad in ("x" * 256, "with a space"):
        response = await first.post("/v1/games", json=BODY, headers={"Idempotency-Key": bad})
        assert response.status_code == 400, response.text


async def test_keys_and_tokens_are_not_stored(
    clients: tuple[httpx.AsyncClient, httpx.AsyncClient], superuser_conn: Conn
) -> None:
    key = new_key()
    created = (await create(clients[0], key)).json()
    cursor = await superuser_conn.execute(
        "SELECT k::text FROM game_creations k WHERE game_id = %(g)s"
        " UNION ALL SELECT t::text FROM seat_tokens t WHERE game_id = %(g)s",
        {"g": created["game_id"]},
    )
    stored = " ".join(row[0] for row in await cursor.fetchall())
    assert stored
    assert key not in stored and key.encode().hex() not in stored
    for token in created["seat_tokens"]:
        assert token["token"].rsplit(".", 1)[1] not in stored
