"""Reading: ranges of a stream, the list of games page by page, tokens, and the secret seed."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import msgspec
import pytest

from eventstore import InvalidCursor, StreamInfo
from eventstore.store import EventStore
from tests.store.helpers import events, make_stream, seed_of, token_hash


async def test_read_ranges_and_limits(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await make_stream(event_store, game_id, opening=4)
    await event_store.append(
        game_id, expected_version=4, events=events("a", 6), seat=0, command_body=b""
    )
    everything = await event_store.read(game_id)
    assert [e.seq for e in everything] == list(range(1, 11))
    cases = {
        (0, None): range(1, 11),
        (0, 3): range(1, 4),
        (3, None): range(4, 11),
        (3, 4): range(4, 8),
        (9, 5): range(10, 11),
        (10, None): range(0),
        (25, 5): range(0),
        (2, 0): range(0),
    }
    for (after, limit), seqs in cases.items():
        page = await event_store.read(game_id, after=after, limit=limit)
        assert [e.seq for e in page] == list(seqs), (after, limit)
        assert page == everything[after : after + len(page)]
    with pytest.raises(ValueError):
        await event_store.read(game_id, after=-1)
    with pytest.raises(ValueError):
        await event_store.read(game_id, limit=-1)


async def pages(
    store: EventStore, *, kind: str | None, status: str | None, limit: int
) -> list[list[StreamInfo]]:
    result: list[list[StreamInfo]] = []
    cursor = None
    while True:
        page = await store.list_streams(kind=kind, status=status, after=cursor, limit=limit)
        if not page:
            return result
        assert len(page) <= limit
        result.append(page)
        cursor = store.cursor_for(page[-1])


async def test_listing_by_kind_and_status_page_by_page(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    kind = f"kind-{uuid.uuid4().hex[:8]}"  # no other test makes games of this kind
    created = []
    for n in range(7):
        game_id = new_game_id()
        status = "finished" if n % 3 == 0 else "active"
        await make_stream(event_store, game_id, kind=kind, status=status)
        created.append((game_id, status))
    newest_first = [game_id for game_id, _ in reversed(created)]

    listed = await pages(event_store, kind=kind, status=None, limit=3)
    assert [len(page) for page in listed] == [3, 3, 1]
    assert [info.game_id for page in listed for info in page] == newest_first
    infos = [info for page in listed for info in page]
    keys = [(info.created_at, info.game_id) for info in infos]
    assert keys == sorted(keys, reverse=True)

    finished = await pages(event_store, kind=kind, status="finished", limit=2)
    expected_finished = [g for g in newest_first if dict(created)[g] == "finished"]
    assert [info.game_id for page in finished for info in page] == expected_finished
    assert all(info.status == "finished" for page in finished for info in page)

    one_each = await pages(event_store, kind=kind, status="active", limit=1)
    assert [info.game_id for page in one_each for info in page] == [
        g for g in newest_first if dict(created)[g] == "active"
    ]
    assert await event_store.list_streams(kind=kind, status="paused", after=None, limit=5) == []


async def test_listing_everything_includes_new_games_first(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await make_stream(event_store, game_id)
    newest = await event_store.list_streams(kind=None, status=None, after=None, limit=50)
    assert game_id in [info.game_id for info in newest]
    keys = [(info.created_at, info.game_id) for info in newest]
    assert keys == sorted(keys, reverse=True)


@pytest.mark.parametrize(
    "cursor",
    ["", "not a cursor", "bm90LWEtY3Vyc29y", "///", "é", "MTIzOgB4"],  # the last: NUL
)
async def test_a_cursor_the_store_did_not_make_is_refused(
    event_store: EventStore, cursor: str
) -> None:
    with pytest.raises(InvalidCursor):
        await event_store.list_streams(kind=None, status=None, after=cursor, limit=5)


async def test_list_limit_is_positive(event_store: EventStore) -> None:
    with pytest.raises(ValueError):
        await event_store.list_streams(kind=None, status=None, after=None, limit=0)


async def test_seat_tokens_name_their_seat_in_their_game_only(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id, other = new_game_id(), new_game_id()
    await make_stream(event_store, game_id, seats=4)
    await make_stream(event_store, other, seats=2)
    for seat in range(4):
        assert await event_store.seat_for_token(game_id, token_hash(game_id, seat)) == seat
    assert await event_store.seat_for_token(game_id, token_hash(other, 0)) is None
    assert await event_store.seat_for_token(other, token_hash(game_id, 0)) is None
    assert await event_store.seat_for_token(game_id, b"") is None


async def test_the_seed_comes_out_only_through_seed(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    kind = f"kind-{uuid.uuid4().hex[:8]}"
    created = await make_stream(event_store, game_id, kind=kind)
    appended = await event_store.append(
        game_id, expected_version=2, events=events("a", 1), seat=0, command_body=b"a", status=None
    )
    assert await event_store.seed(game_id) == seed_of(game_id)
    assert "seed" not in StreamInfo.__struct_fields__
    everything_else = [
        created,
        appended,
        await event_store.info(game_id),
        await event_store.read(game_id),
        await event_store.commands(game_id),
        await event_store.list_streams(kind=kind, status=None, after=None, limit=5),
        await event_store.find_command(game_id, 0, "none"),
    ]
    secret = seed_of(game_id)
    for answer in everything_else:
        encoded = msgspec.msgpack.encode(answer)  # bytes stay raw bytes in msgpack
        assert secret not in encoded
        assert secret.hex().encode() not in encoded
