"""A seed (or a hidden event) that does not open is a clear problem, never a 500: 503
`seed-key-missing` when the server was not given its key (its operator must add it), 409
`corrupt-stream` when the sealed seed was altered."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import httpx
import pytest
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from api.config import Settings
from eventstore import SeedKeys
from tests.api.conftest import serve
from tests.api.helpers import PROBLEM, Client, Game, create_game, seat_to_act

Conn = AsyncConnection[TupleRow]
BID = {"command": {"type": "coyote.bid", "number": 1}}


@pytest.fixture(scope="module")
async def keyless_client(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    """Another API process on the same database, given none of the keys its games need."""
    async for client in serve(dataclasses.replace(settings, seed_keys=SeedKeys.generate("new"))):
        yield client


async def test_a_server_without_the_games_key_says_so(
    client: Client, keyless_client: Client
) -> None:
    coyote, tribu = await create_game(client), await create_game(client, kind="tribu", seats=2)
    seat = await seat_to_act(client, coyote)
    moved = await keyless_client.post(f"{coyote.url}/commands", json=BID, headers=coyote.auth(seat))
    assert moved.status_code == 503, moved.text
    assert moved.json()["type"] == PROBLEM + "seed-key-missing"
    assert "Retry-After" not in moved.headers  # retrying cannot help until the keys change
    # Tribù's deal is sealed: even a spectator's read needs the key.
    shown = await keyless_client.get(tribu.url)
    assert shown.status_code == 503 and shown.json()["type"] == PROBLEM + "seed-key-missing"
    assert (await client.get(f"{coyote.url}")).json()["version"] == coyote.created["version"]


async def test_an_altered_sealed_seed_is_a_corrupt_stream(
    client: Client, other_client: Client, superuser_conn: Conn
) -> None:
    game: Game = await create_game(client)
    seat = await seat_to_act(client, game)
    await superuser_conn.execute(
        "UPDATE games SET sealed_seed = set_byte(sealed_seed, 20, get_byte(sealed_seed, 20) # 1)"
        " WHERE game_id = %s",
        [game.id],
    )
    # Another process, which must open the seed (and the sealed deal) to read or play it.
    moved = await other_client.post(f"{game.url}/commands", json=BID, headers=game.auth(seat))
    shown = await other_client.get(game.url)
    for response in (moved, shown):
        assert response.status_code == 409, response.text
        assert response.json()["type"] == PROBLEM + "corrupt-stream"
