"""Redeemed stream tickets (migration 0008): recorded once whichever store asks, forgotten only
well after they expired, and the service's login may do nothing else with them."""

from __future__ import annotations

import os
import uuid
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from eventstore.store import EventStore

Conn = AsyncConnection[TupleRow]
KEPT_AFTER_EXPIRY = timedelta(minutes=10)  # the guard of migration 0008


def nonce() -> bytes:
    return os.urandom(8)


async def test_a_ticket_is_redeemed_once(event_store: EventStore) -> None:
    game, used = str(uuid.uuid4()), nonce()
    expires_at = datetime.now(UTC) + timedelta(seconds=60)
    assert await event_store.redeem_ticket(game, used, expires_at) is True
    assert await event_store.redeem_ticket(game, used, expires_at) is False
    assert await event_store.redeem_ticket(game, nonce(), expires_at) is True


async def test_only_long_expired_tickets_are_forgotten(event_store: EventStore) -> None:
    game, now = str(uuid.uuid4()), datetime.now(UTC)
    long_gone, just_expired = nonce(), nonce()
    ago = KEPT_AFTER_EXPIRY + timedelta(minutes=1)
    assert await event_store.redeem_ticket(game, long_gone, now - ago)
    assert await event_store.redeem_ticket(game, just_expired, now - timedelta(seconds=1))
    assert await event_store.forget_redeemed_tickets() >= 1
    assert await event_store.redeem_ticket(game, long_gone, now - ago)  # forgotten
    assert not await event_store.redeem_ticket(game, just_expired, now)  # still kept


GUARDED = psycopg.errors.RestrictViolation  # the guard: forgotten only ten minutes after expiry
NOT_GRANTED = psycopg.errors.InsufficientPrivilege
REFUSED = {
    "DELETE FROM redeemed_tickets WHERE expires_at < now() + interval '1 day'": GUARDED,
    "DELETE FROM redeemed_tickets WHERE game_id = %(g)s": NOT_GRANTED,
    "UPDATE redeemed_tickets SET expires_at = now()": NOT_GRANTED,
    "TRUNCATE redeemed_tickets": NOT_GRANTED,
    "SELECT nonce FROM redeemed_tickets": NOT_GRANTED,
}


@pytest.mark.parametrize(("statement", "refusal"), REFUSED.items())
async def test_the_login_cannot_make_a_used_ticket_usable_again(
    event_store: EventStore, app_role_conn: Conn, statement: str, refusal: type[Exception]
) -> None:
    game, used = str(uuid.uuid4()), nonce()
    assert await event_store.redeem_ticket(game, used, datetime.now(UTC) + timedelta(seconds=60))
    with pytest.raises(refusal):
        await app_role_conn.execute(statement, {"g": game})
    assert not await event_store.redeem_ticket(game, used, datetime.now(UTC))
