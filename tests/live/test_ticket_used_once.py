"""A stream ticket opens one stream, once, whichever process it is sent to and however often:
two real `referee serve` processes on one database (tests/live/conftest.py), a ticket that
travels in a URL and is sent again, or many times at once (issue 24, item 3)."""

from __future__ import annotations

import asyncio
from collections import Counter

import httpx

from tests.api.helpers import Game, create_game
from tests.live.test_stream_tickets import PATIENCE, opening_deals, ticket_for

SENT_AT_ONCE = 8


async def opened(client: httpx.AsyncClient, game: Game, ticket: str) -> int:
    """The status the stream answers this ticket with; a stream that opens is closed at once."""
    async with asyncio.timeout(PATIENCE):
        url = f"{game.url}/events/stream"
        async with client.stream("GET", url, params={"ticket": ticket}) as response:
            if response.status_code != 200:
                await response.aread()
                assert "used already" in response.json()["detail"], response.text
            return response.status_code


async def test_a_used_ticket_is_refused_by_every_process(
    writer: httpx.AsyncClient, reader: httpx.AsyncClient
) -> None:
    """Used on one process, the ticket opens nothing on the other one, nor on the first."""
    game = await create_game(writer, seats=3)
    ticket = await ticket_for(writer, game, 1)
    await opening_deals(reader, game, ticket)
    for client in (writer, reader):
        assert await opened(client, game, ticket) == 401


async def test_one_ticket_sent_at_once_to_both_processes_opens_one_stream(
    writer: httpx.AsyncClient, reader: httpx.AsyncClient
) -> None:
    game = await create_game(writer, seats=3)
    ticket = await ticket_for(writer, game, 2)
    clients = [writer, reader] * (SENT_AT_ONCE // 2)
    statuses = await asyncio.gather(*(opened(client, game, ticket) for client in clients))
    assert Counter(statuses) == {200: 1, 401: SENT_AT_ONCE - 1}, statuses
