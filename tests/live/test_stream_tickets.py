"""A seat's stream opened the way a browser's EventSource can: with a short-lived, single-use
ticket in the URL instead of the seat token in a header, on any process."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.api.helpers import Game, create_game
from tests.live.conftest import messages
from tests.servers import Server, start_server, stop_server

PATIENCE = 30.0  # seconds before a test gives up; never a measured duration


async def ticket_for(client: httpx.AsyncClient, game: Game, seat: int) -> str:
    answer = await client.post(f"{game.url}/stream-tickets", headers=game.auth(seat))
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["expires_in"] == 60 and game.tokens[seat] not in body["ticket"]
    ticket: str = body["ticket"]
    return ticket


async def opening_deals(client: httpx.AsyncClient, game: Game, ticket: str) -> list[dict[str, Any]]:
    """The `coyote.card-dealt` events of the opening, as the stream shows them."""
    deals = []
    async with asyncio.timeout(PATIENCE):
        url = f"{game.url}/events/stream"
        async with client.stream("GET", url, params={"ticket": ticket}) as response:
            assert response.status_code == 200
            async for message in messages(response):
                if message.id is None:
                    continue
                event = json.loads(message.data or "")["event"]
                if event["type"] == "coyote.card-dealt":
                    deals.append(event)
                if int(message.id) == game.created["version"]:
                    return deals
    raise AssertionError("the stream ended early")


async def test_a_ticket_from_one_process_opens_the_seats_stream_on_another(
    writer: httpx.AsyncClient, reader: httpx.AsyncClient
) -> None:
    game = await create_game(writer, seats=3)
    deals = await opening_deals(reader, game, await ticket_for(writer, game, 1))
    assert {deal["seat"] for deal in deals} == {0, 1, 2}
    for deal in deals:  # seat 1's view: every head card but its own
        assert (deal["card"] is None) == (deal["seat"] == 1), deal


async def test_a_ticket_opens_one_stream_of_one_game(
    writer: httpx.AsyncClient, reader: httpx.AsyncClient
) -> None:
    game, other = await create_game(writer, seats=3), await create_game(writer, seats=3)
    ticket = await ticket_for(writer, game, 0)
    elsewhere = await reader.get(f"{other.url}/events/stream", params={"ticket": ticket})
    assert elsewhere.status_code == 401 and "another game" in elsewhere.json()["detail"]
    await opening_deals(reader, game, ticket)
    again = await reader.get(f"{game.url}/events/stream", params={"ticket": ticket})
    assert again.status_code == 401 and "used already" in again.json()["detail"]


async def test_what_is_not_a_ticket_is_refused(writer: httpx.AsyncClient) -> None:
    game = await create_game(writer, seats=3)
    url = f"{game.url}/events/stream"
    forged = (await ticket_for(writer, game, 0))[:-4] + "AAAA"
    for ticket in ("", "garbage", "k.AAAA", forged):
        answer = await writer.get(url, params={"ticket": ticket})
        assert answer.status_code == 401, (ticket, answer.text)
        assert answer.json()["type"] == "urn:referee:problem:unauthorized"
    both = await writer.get(
        url, params={"ticket": await ticket_for(writer, game, 0)}, headers=game.auth(0)
    )
    assert both.status_code == 400 and "not both" in both.json()["detail"]
    spectator = await writer.post(f"{game.url}/stream-tickets")
    assert spectator.status_code == 401


PAGE = "https://tables.example.org"


@pytest.fixture(scope="module")
def cors_server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    log = tmp_path_factory.mktemp("cors") / "server.log"
    server = start_server(database_url, log, cors_origins=PAGE)
    try:
        yield server
    finally:
        stop_server(server)


async def test_a_page_of_a_listed_origin_follows_a_seats_stream(cors_server: Server) -> None:
    """What an EventSource on another origin needs: the CORS header on the stream itself."""
    async with httpx.AsyncClient(base_url=cors_server.url, timeout=PATIENCE) as client:
        game = await create_game(client, seats=3)
        ticket = await ticket_for(client, game, 2)
        async with asyncio.timeout(PATIENCE):
            url = f"{game.url}/events/stream"
            headers = {"Origin": PAGE}
            async with client.stream("GET", url, params={"ticket": ticket}, headers=headers) as got:
                assert got.status_code == 200
                assert got.headers["access-control-allow-origin"] == PAGE
                first = await anext(messages(got))
                assert first.retry is not None  # the stream has begun
