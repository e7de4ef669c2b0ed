"""Secret events, and the commands that made them, are stored sealed (eventstore/bodies.py)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from eventstore import IdempotencyKeyReused, NewEvent, SealedSeedError, SeedKeys, StreamCorrupted
from eventstore.bodies import BodySeal, command_place, event_place
from eventstore.pool import Pool
from eventstore.store import EventStore
from tests.store.helpers import make_stream, seed_of
from tests.tamper import behind_the_back

Conn = AsyncConnection[TupleRow]

HAND = b'{"hand":["coyote-15","coyote-20"]}'  # what a spectator may not see
BID = b'{"bid":3}'
COMMAND = b'{"type":"test.draw"}'


def test_a_body_opens_only_in_its_game_and_place() -> None:
    seal = BodySeal("game-a", b"seed")
    sealed = seal.seal(event_place(3), HAND)
    assert HAND not in sealed and seal.seal(event_place(3), HAND) != sealed  # fresh nonces
    assert BodySeal("game-a", b"seed").open(event_place(3), sealed) == HAND
    assert seal.open(event_place(4), sealed) is None  # moved within the game
    assert seal.open(command_place(3), sealed) is None
    assert BodySeal("game-b", b"seed").open(event_place(3), sealed) is None  # another game
    assert BodySeal("game-a", b"other").open(event_place(3), sealed) is None  # another seed
    assert seal.open(event_place(3), sealed[:-1] + bytes([sealed[-1] ^ 1])) is None
    assert seal.open(event_place(3), b"short") is None


async def play_a_secret_draw(store: EventStore, game_id: str) -> None:
    await make_stream(store, game_id)  # events 1, 2: public
    await store.append(
        game_id,
        expected_version=2,
        events=[NewEvent("test.bid", BID), NewEvent("test.drawn", HAND, 7, secret=True)],
        seat=1,
        command_body=COMMAND,
        idempotency_key="draw-1",
    )


async def stored_rows(conn: Conn, game_id: str) -> tuple[list[tuple[int, bytes, bool]], bytes]:
    cursor = await conn.execute(
        "SELECT seq, body, sealed FROM events WHERE game_id = %s ORDER BY seq", [game_id]
    )
    events = [(seq, bytes(body), sealed) for seq, body, sealed in await cursor.fetchall()]
    cursor = await conn.execute(
        "SELECT body, sealed FROM commands WHERE game_id = %s AND command_id = 1", [game_id]
    )
    row = await cursor.fetchone()
    assert row is not None and row[1] is True
    return events, bytes(row[0])


async def test_only_secret_events_and_their_command_are_sealed(
    event_store: EventStore, superuser_conn: Conn, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await play_a_secret_draw(event_store, game_id)

    events, command = await stored_rows(superuser_conn, game_id)
    assert [(seq, sealed) for seq, _, sealed in events] == [
        (1, False),
        (2, False),
        (3, False),
        (4, True),
    ]
    assert events[2][1] == BID
    assert b"coyote" not in events[3][1] and b"test.draw" not in command
    # Whoever learns the seed (every one, once the game is over) opens them.
    seal = BodySeal(game_id, seed_of(game_id))
    assert seal.open(event_place(4), events[3][1]) == HAND
    assert seal.open(command_place(3), command) == COMMAND

    read = await event_store.read(game_id, verify=True)
    assert [event.body for event in read[2:]] == [BID, HAND]
    assert read[3].hash == hashlib.sha256(read[3].prev_hash + HAND).digest()  # chained in clear
    assert [record.body for record in await event_store.commands(game_id)] == [COMMAND]


async def test_a_retried_sealed_command_answers_its_first_result(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await play_a_secret_draw(event_store, game_id)
    again = await event_store.append(
        game_id,
        expected_version=2,
        events=[NewEvent("test.drawn", b'{"hand":[]}', secret=True)],
        seat=1,
        command_body=COMMAND,
        idempotency_key="draw-1",
    )
    assert again.replayed and again.command is not None and again.command.body == COMMAND
    assert [event.body for event in again.events] == [BID, HAND]
    with pytest.raises(IdempotencyKeyReused):
        await event_store.append(
            game_id,
            expected_version=4,
            events=[NewEvent("test.bid", BID)],
            seat=1,
            command_body=b'{"type":"test.other"}',
            idempotency_key="draw-1",
        )


async def alter(conn: Conn, statement: str, params: list[object]) -> None:
    async with behind_the_back(conn):
        await conn.execute(statement, params)


async def test_a_sealed_body_altered_or_moved_is_a_corrupt_stream(
    event_store: EventStore, superuser_conn: Conn, new_game_id: Callable[[], str]
) -> None:
    altered, moved = new_game_id(), new_game_id()
    for game_id in (altered, moved):
        await play_a_secret_draw(event_store, game_id)
    flip = "UPDATE events SET body = set_byte(body, 20, get_byte(body, 20) # 1)"
    await alter(superuser_conn, flip + " WHERE game_id = %s AND seq = 4", [altered])
    # The sealed body of event 4 copied onto event 3, which is then marked sealed.
    await alter(
        superuser_conn,
        "UPDATE events e SET body = s.body, sealed = true FROM events s"
        " WHERE e.game_id = %s AND e.seq = 3 AND s.game_id = e.game_id AND s.seq = 4",
        [moved],
    )
    for game_id, bad_seq in ((altered, 4), (moved, 3)):
        with pytest.raises(StreamCorrupted):
            await event_store.read(game_id, verify=True)
        as_stored = await event_store.read(game_id)  # what an audit reads: the bad event's
        bad = as_stored[bad_seq - 1]  # bytes as stored, which do not hash to its hash
        assert hashlib.sha256(bad.prev_hash + bad.body).digest() != bad.hash


async def test_sealed_bodies_need_the_seed_key(
    store_pool: Pool, event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await play_a_secret_draw(event_store, game_id)
    stranger = EventStore(store_pool, SeedKeys.generate("other"))
    with pytest.raises(SealedSeedError, match="does not have"):
        await stranger.read(game_id)
    public = await stranger.read(game_id, limit=3)  # no sealed body: no key needed
    assert [event.seq for event in public] == [1, 2, 3]
