"""A stream ticket is redeemed once across processes: two services on two pools of one database,
as two API processes are (the same over HTTP: tests/live/test_ticket_used_once.py)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest

from api.tickets import StreamTickets, TicketRefused
from eventstore import SeedKeys
from eventstore.store import open_store

AT_ONCE = 8


@pytest.fixture
async def two_processes(
    database_url: str, seed_keys: SeedKeys
) -> AsyncIterator[tuple[StreamTickets, StreamTickets]]:
    """The tickets of two processes: each on a store with a pool of its own."""
    async with (
        open_store(database_url, seed_keys, min_size=1, max_size=AT_ONCE) as one,
        open_store(database_url, seed_keys, min_size=1, max_size=AT_ONCE) as other,
    ):
        yield StreamTickets(seed_keys, one), StreamTickets(seed_keys, other)


async def test_a_ticket_redeemed_on_one_process_is_refused_on_the_other(
    two_processes: tuple[StreamTickets, StreamTickets],
) -> None:
    one, other = two_processes
    game = uuid.uuid4()
    ticket = one.issue(game, 1)
    assert await other.redeem(game, ticket) == 1
    for tickets in (one, other):
        with pytest.raises(TicketRefused, match="used already"):
            await tickets.redeem(game, ticket)
    assert await one.redeem(game, one.issue(game, 1)) == 1  # another ticket: another stream


async def test_one_ticket_redeemed_at_once_on_both_processes_opens_one_stream(
    two_processes: tuple[StreamTickets, StreamTickets],
) -> None:
    game = uuid.uuid4()
    ticket = two_processes[0].issue(game, 2)
    redeemers = [two_processes[i % 2] for i in range(AT_ONCE)]
    results = await asyncio.gather(
        *(tickets.redeem(game, ticket) for tickets in redeemers), return_exceptions=True
    )
    assert results.count(2) == 1, results
    refused = [result for result in results if isinstance(result, TicketRefused)]
    assert len(refused) == AT_ONCE - 1, results
    assert all("used already" in str(reason) for reason in refused)
