"""Stream tickets expire, and survive a key rotation only while their key is configured."""

from __future__ import annotations

import uuid

import pytest

from api.tickets import TICKET_SECONDS, StreamTickets, TicketRefused
from eventstore import SeedKeys

GAME = uuid.UUID("00000000-0000-4000-8000-000000000001")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_ticket_expires() -> None:
    clock = Clock()
    tickets = StreamTickets(SeedKeys.generate("k1"), clock)
    fresh, stale = tickets.issue(GAME, 2), tickets.issue(GAME, 3)
    clock.now += TICKET_SECONDS - 1
    assert tickets.redeem(GAME, fresh) == 2
    clock.now += 1
    with pytest.raises(TicketRefused, match="expired"):
        tickets.redeem(GAME, stale)


def test_another_process_with_the_same_keys_accepts_it_and_a_stranger_does_not() -> None:
    old, new = SeedKeys.generate("old"), SeedKeys.generate("new")
    ticket = StreamTickets(old).issue(GAME, 0)
    rotated = SeedKeys.parse(new.entries() + old.entries())
    assert StreamTickets(rotated).redeem(GAME, ticket) == 0
    with pytest.raises(TicketRefused, match="no longer has"):
        StreamTickets(new).redeem(GAME, ticket)
    impostor = SeedKeys.parse("old:" + new.entries().split(":", 1)[1])  # same id, other key
    with pytest.raises(TicketRefused, match="not a stream ticket of this server"):
        StreamTickets(impostor).redeem(GAME, ticket)
