"""Creating streams and appending to them: numbering, the hash chain, conflicts, notifications."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from eventstore import (
    NOTIFY_CHANNEL,
    NewEvent,
    StoreError,
    StreamCorrupted,
    StreamExists,
    StreamNotFound,
    VersionConflict,
)
from eventstore.pool import Pool
from eventstore.seeds import SeedKeys
from eventstore.store import EventStore
from tests.store.helpers import events, make_stream, seed_of
from tests.store.statements import recording_store
from tests.tamper import behind_the_back

Conn = AsyncConnection[TupleRow]


async def table_counts(conn: Conn, game_id: str) -> tuple[int, int, int]:
    """(games.version, number of events, number of commands), read behind the store's back."""
    cursor = await conn.execute(
        """SELECT version,
                  (SELECT count(*) FROM events WHERE game_id = %(g)s),
                  (SELECT count(*) FROM commands WHERE game_id = %(g)s)
             FROM games WHERE game_id = %(g)s""",
        {"g": game_id},
    )
    row = await cursor.fetchone()
    assert row is not None
    return row[0], row[1], row[2]


async def test_create_append_read_round_trip(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    created = await make_stream(event_store, game_id, opening=3)
    assert created.version == 3
    assert [e.seq for e in created.events] == [1, 2, 3]
    assert all(e.seat is None and e.command_id is None for e in created.events)

    first = await event_store.append(
        game_id, expected_version=3, events=events("a", 2, cursor=7), seat=1, command_body=b"A"
    )
    second = await event_store.append(
        game_id, expected_version=5, events=events("b", 1), seat=2, command_body=b"B"
    )
    assert (first.version, second.version) == (5, 6)
    assert first.command is not None and second.command is not None
    assert (first.command.id, first.command.first_seq, first.command.last_seq) == (1, 4, 5)
    assert (second.command.id, second.command.first_seq, second.command.last_seq) == (2, 6, 6)

    stored = await event_store.read(game_id)
    assert [e.seq for e in stored] == [1, 2, 3, 4, 5, 6]  # gapless from 1
    assert stored == created.events + first.events + second.events  # what append said it wrote
    sent = events("opening", 3) + events("a", 2, cursor=7) + events("b", 1)
    assert [(e.type, e.body, e.chance_cursor) for e in stored] == [
        (e.type, e.body, e.chance_cursor) for e in sent
    ]
    assert [(e.seat, e.command_id) for e in stored[3:]] == [(1, 1), (1, 1), (2, 2)]
    assert await event_store.commands(game_id) == [first.command, second.command]
    info = await event_store.info(game_id)
    assert (info.version, info.status, info.kind, info.seats) == (6, "active", "test-kind", 3)
    assert info.updated_at == second.command.recorded_at >= info.created_at


async def test_the_hash_chain_recomputed_from_the_rows(
    event_store: EventStore, superuser_conn: Conn, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await make_stream(event_store, game_id, opening=2)
    await event_store.append(
        game_id, expected_version=2, events=events("x", 3), seat=0, command_body=b"x"
    )
    cursor = await superuser_conn.execute(
        "SELECT seq, body, prev_hash, hash FROM events WHERE game_id = %s ORDER BY seq", [game_id]
    )
    rows = await cursor.fetchall()
    assert [seq for seq, *_ in rows] == [1, 2, 3, 4, 5]
    expected_prev = b"\x00" * 32
    for _seq, body, prev_hash, digest in rows:
        assert prev_hash == expected_prev
        assert digest == hashlib.sha256(prev_hash + body).digest()
        expected_prev = digest
    stored = await event_store.read(game_id)
    assert [(e.prev_hash, e.hash) for e in stored] == [(r[2], r[3]) for r in rows]


async def test_a_stale_expected_version_conflicts_and_changes_nothing(
    event_store: EventStore, superuser_conn: Conn, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await make_stream(event_store, game_id, opening=2)
    before = await table_counts(superuser_conn, game_id)
    for expected in (0, 1, 3, 99, -1):
        with pytest.raises(VersionConflict) as conflict:
            await event_store.append(
                game_id, expected_version=expected, events=events("z", 1), seat=0, command_body=b""
            )
        assert (conflict.value.expected, conflict.value.actual) == (expected, 2)
    assert await table_counts(superuser_conn, game_id) == before == (2, 2, 0)


async def test_an_event_past_the_version_is_a_corrupt_stream_and_changes_nothing(
    event_store: EventStore, superuser_conn: Conn, new_game_id: Callable[[], str]
) -> None:
    """An event already at seq 3 though the game says version 2 (written behind the store's
    back): no append can succeed, and retrying cannot help, so it is no version conflict."""
    game_id = new_game_id()
    await make_stream(event_store, game_id, opening=2)
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute(
            """INSERT INTO events (game_id, seq, type, body, chance_cursor, prev_hash, hash)
               VALUES (%s, 3, 'stray', '', 0, %s, %s)""",
            [game_id, bytes(32), bytes(32)],
        )
    with pytest.raises(StreamCorrupted, match="after its version 2"):
        await event_store.append(
            game_id, expected_version=2, events=events("z", 1), seat=0, command_body=b"z"
        )
    assert await table_counts(superuser_conn, game_id) == (2, 3, 0)  # version and commands kept


async def test_a_refused_write_is_a_store_error_and_changes_nothing(
    event_store: EventStore, superuser_conn: Conn, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await make_stream(event_store, game_id, opening=1)
    with pytest.raises(StoreError) as refused:  # seats are never negative: a CHECK refuses it
        await event_store.append(
            game_id, expected_version=1, events=events("z", 2), seat=-1, command_body=b"z"
        )
    assert type(refused.value) is StoreError
    assert await table_counts(superuser_conn, game_id) == (1, 1, 0)


async def test_status_moves_with_an_append(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await make_stream(event_store, game_id, opening=1)
    await event_store.append(
        game_id, expected_version=1, events=events("a", 1), seat=0, command_body=b"a"
    )
    assert (await event_store.info(game_id)).status == "active"  # None keeps it
    await event_store.append(
        game_id,
        expected_version=2,
        events=events("end", 1),
        seat=0,
        command_body=b"end",
        status="finished",
    )
    assert (await event_store.info(game_id)).status == "finished"
    with pytest.raises(ValueError):
        await event_store.append(
            game_id,
            expected_version=3,
            events=events("x", 1),
            seat=0,
            command_body=b"",
            status="paused",
        )


async def test_creating_an_existing_stream_fails_and_changes_nothing(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    created = await make_stream(event_store, game_id, opening=2, seats=3)
    with pytest.raises(StreamExists):
        await event_store.create_stream(
            game_id,
            kind="other",
            rules_version="9",
            seats=2,
            seed=b"another seed",
            seed_chosen_by_creator=True,
            seat_token_hashes=[b"t0", b"t1"],
            events=events("other", 1),
        )
    info = await event_store.info(game_id)
    assert (info.kind, info.seats, info.version, info.seed_chosen_by_creator) == (
        "test-kind",
        3,
        2,
        False,
    )
    assert await event_store.seed(game_id) == seed_of(game_id)
    assert await event_store.read(game_id) == created.events
    assert await event_store.seat_for_token(game_id, b"t0") is None


async def test_appending_needs_events(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await make_stream(event_store, game_id, opening=1)
    with pytest.raises(ValueError):
        await event_store.append(game_id, expected_version=1, events=[], seat=0, command_body=b"")
    assert (await event_store.info(game_id)).version == 1


async def test_a_long_batch_is_one_write_chained_whole(
    event_store: EventStore, superuser_conn: Conn, new_game_id: Callable[[], str]
) -> None:
    """A batch goes as one parameter whatever its length (no bound of PostgreSQL's 65,535
    parameters per statement): 10,000 events at creation and again in one append."""
    game_id = new_game_id()
    created = await make_stream(event_store, game_id, opening=10_000)
    appended = await event_store.append(
        game_id, expected_version=10_000, events=events("many", 10_000), seat=0, command_body=b"x"
    )
    assert appended.version == 20_000
    assert await event_store.read(game_id, verify=True) == created.events + appended.events
    assert await table_counts(superuser_conn, game_id) == (20_000, 20_000, 1)


async def test_a_stream_created_empty_chains_from_the_genesis_hash(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    created = await make_stream(event_store, game_id, opening=0)
    assert (created.version, created.events) == (0, [])
    assert await event_store.read(game_id) == []
    appended = await event_store.append(
        game_id, expected_version=0, events=[NewEvent("t", b"b")], seat=0, command_body=b""
    )
    assert appended.events[0].seq == 1
    assert appended.events[0].prev_hash == bytes(32)
    assert appended.events[0].hash == hashlib.sha256(bytes(32) + b"b").digest()


async def test_unknown_streams_are_not_found(event_store: EventStore) -> None:
    game_id = "no-such-game"
    with pytest.raises(StreamNotFound):
        await event_store.append(
            game_id, expected_version=0, events=events("a", 1), seat=0, command_body=b""
        )
    with pytest.raises(StreamNotFound):
        await event_store.read(game_id)
    with pytest.raises(StreamNotFound):
        await event_store.info(game_id)
    with pytest.raises(StreamNotFound):
        await event_store.seed(game_id)
    with pytest.raises(StreamNotFound):
        await event_store.commands(game_id)
    assert await event_store.seat_for_token(game_id, b"x") is None
    assert await event_store.find_command(game_id, 0, "key") is None


async def test_each_append_notifies_its_game_and_last_seq(
    event_store: EventStore, superuser_conn: Conn, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await superuser_conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
    await make_stream(event_store, game_id, opening=2)
    with pytest.raises(VersionConflict):  # refused: no notification
        await event_store.append(
            game_id, expected_version=1, events=events("a", 1), seat=0, command_body=b""
        )
    await event_store.append(
        game_id, expected_version=2, events=events("a", 3), seat=0, command_body=b""
    )
    payloads = []
    async for notification in superuser_conn.notifies(timeout=30):  # a guard against hanging
        if notification.payload.startswith(f"{game_id}:"):  # other tests may notify too
            assert notification.channel == NOTIFY_CHANNEL
            payloads.append(notification.payload)
        if payloads[-1:] == [f"{game_id}:5"]:
            break
    # The writes' notifications in order (two that pile up while one is sent go as the latest).
    assert payloads in ([f"{game_id}:2", f"{game_id}:5"], [f"{game_id}:5"])


async def test_an_append_after_the_stores_own_is_one_statement(
    database_url: str, seed_keys: SeedKeys, new_game_id: Callable[[], str]
) -> None:
    """The store remembers the head it wrote, or read to the end: the next append chains from it
    with no first look, in one statement. A store that knows no head (another process) looks
    first. The notification goes after the write, on its own (eventstore/notifications.py)."""
    game_id = new_game_id()
    async with (
        recording_store(database_url, seed_keys) as (store, recorder),
        recording_store(database_url, seed_keys) as (other, other_recorder),
    ):
        await make_stream(store, game_id, opening=2)
        assert len(recorder.take()) == 1
        await store.drain_notifications()
        (notified,) = recorder.take()
        assert notified.text.startswith("SELECT pg_notify(") and notified.params == [
            [f"{game_id}:2"]
        ]
        for version in (2, 3):
            await store.append(
                game_id, expected_version=version, events=events("z", 1), seat=0, command_body=b"z"
            )
            (statement,) = recorder.take()
            assert statement.text.startswith("WITH moved AS ( UPDATE games")
            await store.drain_notifications()
            assert recorder.take()[0].params == [[f"{game_id}:{version + 1}"]]
        await other.append(
            game_id, expected_version=4, events=events("y", 2), seat=1, command_body=b"y"
        )
        looked, written = other_recorder.take()
        assert "FROM games g LEFT JOIN events head" in looked.text
        assert written.text.startswith("WITH moved AS ( UPDATE games")
        with pytest.raises(VersionConflict):  # the first store's head is stale now
            await store.append(
                game_id, expected_version=4, events=events("x", 1), seat=0, command_body=b"x"
            )
        stored = await other.read(game_id, verify=True)  # chained and numbered without a gap
        await store.read(game_id, after=6, verify=True)  # a read that reaches the end: the head
        await store.drain_notifications()
        recorder.take()
        await store.append(
            game_id, expected_version=6, events=events("w", 1), seat=0, command_body=b"w"
        )
        (statement,) = recorder.take()
        assert statement.text.startswith("WITH moved AS ( UPDATE games")
        after = await other.read(game_id, after=5, verify=True)
    assert [e.seq for e in stored] == [1, 2, 3, 4, 5, 6]
    assert [e.seq for e in after] == [6, 7]


async def test_an_event_deleted_in_the_middle_is_found_by_a_first_look_and_a_whole_read(
    event_store: EventStore,
    store_pool: Pool,
    seed_keys: SeedKeys,
    superuser_conn: Conn,
    new_game_id: Callable[[], str],
) -> None:
    """An event deleted before the head: a process that looks first (it did not write or read
    the stream last) counts the events and writes nothing; every whole read finds the gap. The
    process that remembers the head does not count on every move (a count as long as the game):
    its append goes on from the head, and the gap stays there for every read to find."""
    game_id = new_game_id()
    await make_stream(event_store, game_id, opening=3)
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute("DELETE FROM events WHERE game_id = %s AND seq = 2", [game_id])
    other = EventStore(store_pool, seed_keys)
    with pytest.raises(StreamCorrupted, match="has 2 events"):
        await other.append(
            game_id, expected_version=3, events=events("z", 1), seat=0, command_body=b"z"
        )
    assert await table_counts(superuser_conn, game_id) == (3, 2, 0)
    with pytest.raises(StreamCorrupted, match="event 2 is missing"):
        await other.read(game_id, verify=True)
    await event_store.append(
        game_id, expected_version=3, events=events("y", 1), seat=0, command_body=b"y"
    )
    with pytest.raises(StreamCorrupted, match="event 2 is missing"):
        await other.read(game_id, verify=True)
