"""A game's record damaged behind the service's back (an event deleted, added or rewritten, or
the version moved back, by a superuser with the guards off) is answered `corrupt-stream` (409)
on every endpoint, reads and commands, never 503 `database-unavailable`: retrying cannot help.
The audit still reads the damaged record and names the first bad event.

Games are played on one server (`writer`); a second (`reader`) has never seen them, so it
reads them from the store, as any process that restarts would.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
import pytest
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from tests.reliability.conftest import Serve
from tests.servers import Server
from tests.tamper import behind_the_back

Conn = AsyncConnection[TupleRow]
Tamper = Callable[[Conn, str, int], Awaitable[None]]
PROBLEM = "urn:referee:problem:"


@pytest.fixture(scope="module")
def servers(serve: Serve) -> tuple[Server, Server]:
    return serve(), serve()


@pytest.fixture
async def writer(servers: tuple[Server, Server]) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as client:
        yield client


@pytest.fixture
async def reader(servers: tuple[Server, Server]) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=servers[1].url, timeout=30) as client:
        yield client


class Played:
    def __init__(self, game_id: str, tokens: dict[int, str], version: int) -> None:
        self.game_id = game_id
        self.tokens = tokens
        self.version = version
        self.url = f"/v1/games/{game_id}"


async def a_game_with_bids(http: httpx.AsyncClient, bids: int = 3) -> Played:
    created = await http.post("/v1/games", json={"kind": "coyote", "seats": 3})
    assert created.status_code == 201, created.text
    body = created.json()
    game = Played(body["game_id"], {t["seat"]: t["token"] for t in body["seat_tokens"]}, 0)
    for number in range(1, bids + 1):
        response = await bid(http, game, number)
        assert response.status_code == 200, response.text
    game.version = (await http.get(game.url)).json()["version"]
    return game


async def bid(http: httpx.AsyncClient, game: Played, number: int) -> httpx.Response:
    shown = await http.get(game.url)
    seat = shown.json()["to_act"][0] if shown.status_code == 200 else 0
    return await http.post(
        f"{game.url}/commands",
        json={"command": {"type": "coyote.bid", "number": number}},
        headers={"Authorization": f"Bearer {game.tokens[seat]}"},
    )


async def tamper(conn: Conn, statement: str, params: list[Any]) -> None:
    async with behind_the_back(conn):
        await conn.execute(statement, params)


async def delete_the_last_event(conn: Conn, game_id: str, version: int) -> None:
    await tamper(conn, "DELETE FROM events WHERE game_id = %s AND seq = %s", [game_id, version])


async def delete_an_event_in_the_middle(conn: Conn, game_id: str, version: int) -> None:
    await tamper(conn, "DELETE FROM events WHERE game_id = %s AND seq = %s", [game_id, version - 2])


async def add_an_event_past_the_version(conn: Conn, game_id: str, version: int) -> None:
    await tamper(
        conn,
        """INSERT INTO events (game_id, seq, type, body, chance_cursor, prev_hash, hash)
           SELECT game_id, seq + 1, type, body, chance_cursor, hash, hash
             FROM events WHERE game_id = %s AND seq = %s""",
        [game_id, version],
    )


async def move_the_version_back(conn: Conn, game_id: str, version: int) -> None:
    await tamper(conn, "UPDATE games SET version = version - 1 WHERE game_id = %s", [game_id])


async def alter_a_body(conn: Conn, game_id: str, version: int) -> None:
    await tamper(
        conn,
        "UPDATE events SET body = body || ' '::bytea WHERE game_id = %s AND seq = %s",
        [game_id, version - 1],
    )


DAMAGES = [
    delete_the_last_event,
    delete_an_event_in_the_middle,
    add_an_event_past_the_version,
    move_the_version_back,
    alter_a_body,
]


def assert_corrupt(response: httpx.Response) -> None:
    assert response.status_code == 409, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["type"] == PROBLEM + "corrupt-stream", response.text
    assert "retry-after" not in response.headers


@pytest.mark.parametrize("damage", DAMAGES, ids=lambda damage: damage.__name__)
async def test_every_endpoint_says_corrupt_stream_never_database_unavailable(
    writer: httpx.AsyncClient, reader: httpx.AsyncClient, superuser_conn: Conn, damage: Tamper
) -> None:
    game = await a_game_with_bids(writer)
    await damage(superuser_conn, game.game_id, game.version)
    seat0 = {"Authorization": f"Bearer {game.tokens[0]}"}
    reads = [
        reader.get(game.url),
        reader.get(f"{game.url}/events"),
        reader.get(f"{game.url}/states/1"),
        reader.get(f"{game.url}/legal-commands", headers=seat0),
        reader.get(f"{game.url}/events/stream"),
    ]
    for read in reads:  # a process that reads the game from the store
        assert_corrupt(await read)
    for _ in range(2):  # retried: the same answer, no 503 and nothing appended
        assert_corrupt(await bid(reader, game, 50))
    if damage not in (alter_a_body, delete_an_event_in_the_middle):
        # A process that has the game cached before the damage sees it at its next command
        # (a body altered or an event deleted in the middle is found by any read of the game
        # from the store, as above, and by the audit: the append from a head it remembers does
        # not read the whole game on every move).
        assert_corrupt(await bid(writer, game, 50))
    audit = await reader.get(f"{game.url}/audit")
    assert audit.status_code == 200, audit.text
    assert audit.json()["verdict"] == "failed"


async def test_an_event_that_does_not_decode_is_named_though_its_chain_holds(
    reader: httpx.AsyncClient, writer: httpx.AsyncClient, superuser_conn: Conn
) -> None:
    # Rewritten with its hash made to match, the last event passes the chain check (as a
    # forger's would) and is caught when decoded, which names it.
    game = await a_game_with_bids(writer)
    nonsense = b'{"type":"coyote.no-such-event"}'
    await tamper(
        superuser_conn,
        """UPDATE events SET body = %s, sealed = false, hash = sha256(prev_hash || %s)
            WHERE game_id = %s AND seq = %s""",
        [nonsense, nonsense, game.game_id, game.version],
    )
    response = await reader.get(game.url)
    assert_corrupt(response)
    assert response.json()["detail"] == f"Event {game.version} of this game cannot be read."
