"""Stream tickets expire, and survive a key rotation only while their key is configured."""

from __future__ import annotations

import uuid

import pytest

from api.tickets import TICKET_SECONDS, StreamTickets, TicketRefused
from eventstore import SeedKeys
from eventstore.store import EventStore

GAME = uuid.UUID("00000000-0000-4000-8000-000000000001")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_a_ticket_expires(event_store: EventStore) -> None:
    clock = Clock()
    tickets = StreamTickets(SeedKeys.generate("k1"), event_store, clock)
    fresh, stale = tickets.issue(GAME, 2), tickets.issue(GAME, 3)
    clock.now += TICKET_SECONDS - 1
    assert await tickets.redeem(GAME, fresh) == 2
    clock.now += 1
    with pytest.raises(TicketRefused, match="expired"):
        await tickets.redeem(GAME, stale)


async def test_another_process_with_the_same_keys_accepts_it_and_a_stranger_does_not(
    event_store: EventStore,
) -> None:
    old, new = SeedKeys.generate("old"), SeedKeys.generate("new")
    ticket = StreamTickets(old, event_store).issue(GAME, 0)
    rotated = SeedKeys.parse(new.entries() + old.entries())
    assert await StreamTickets(rotated, event_store).redeem(GAME, ticket) == 0
    with pytest.raises(TicketRefused, match="no longer has"):
        await StreamTickets(new, event_store).redeem(GAME, ticket)
    impostor = SeedKeys.parse("old:" + new.entries().split(":", 1)[1])  # same id, other key
    with pytest.raises(TicketRefused, match="not a stream ticket of this server"):
        await StreamTickets(impostor, event_store).redeem(GAME, ticket)
