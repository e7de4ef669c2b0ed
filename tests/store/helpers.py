"""Small builders for store tests: streams with recognisable bodies and tokens."""

from __future__ import annotations

import hashlib

from eventstore import AppendResult, NewEvent
from eventstore.store import EventStore


def events(label: str, count: int, *, cursor: int = 0) -> list[NewEvent]:
    """`count` events whose bodies say where they come from (distinct bodies, distinct hashes)."""
    return [
        NewEvent(type=f"test.{label}", body=f'{{"{label}":{i}}}'.encode(), chance_cursor=cursor + i)
        for i in range(count)
    ]


def token_hash(game_id: str, seat: int) -> bytes:
    return hashlib.sha256(f"token:{game_id}:{seat}".encode()).digest()


def seed_of(game_id: str) -> bytes:
    return hashlib.sha256(f"seed:{game_id}".encode()).digest()


async def make_stream(
    store: EventStore,
    game_id: str,
    *,
    kind: str = "test-kind",
    seats: int = 3,
    opening: int = 2,
    status: str = "active",
) -> AppendResult:
    return await store.create_stream(
        game_id,
        kind=kind,
        rules_version="1",
        seats=seats,
        seed=seed_of(game_id),
        seed_chosen_by_creator=False,
        seat_token_hashes=[token_hash(game_id, seat) for seat in range(seats)],
        events=events("opening", opening),
        status=status,
    )
