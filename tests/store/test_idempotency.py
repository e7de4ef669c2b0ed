"""Idempotency keys: per game and seat; a retry gets the first answer, a reuse is refused."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from eventstore import IdempotencyKeyReused
from eventstore.store import MAX_IDEMPOTENCY_KEY_LENGTH, EventStore
from tests.store.helpers import events, make_stream


async def test_a_retry_returns_the_first_result_and_appends_nothing(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await make_stream(event_store, game_id, opening=1)
    first = await event_store.append(
        game_id,
        expected_version=1,
        events=events("bid", 2),
        seat=1,
        command_body=b'{"bid":17}',
        idempotency_key="k-1",
    )
    await event_store.append(  # the game moves on
        game_id, expected_version=3, events=events("next", 1), seat=2, command_body=b"next"
    )
    retry = await event_store.append(
        game_id,
        expected_version=1,  # stale, as a retry's is: the key decides, not the version
        events=events("something else", 5),
        seat=1,
        command_body=b'{"bid":17}',
        idempotency_key="k-1",
        status="finished",
    )
    assert not first.replayed
    assert retry.replayed
    assert (retry.version, retry.events, retry.command) == (3, first.events, first.command)
    info = await event_store.info(game_id)
    assert (info.version, info.status) == (4, "active")
    assert len(await event_store.commands(game_id)) == 2
    found = await event_store.find_command(game_id, 1, "k-1")
    assert found == retry


async def test_a_key_reused_for_another_command_is_refused_and_appends_nothing(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await make_stream(event_store, game_id, opening=1)
    await event_store.append(
        game_id,
        expected_version=1,
        events=events("a", 1),
        seat=0,
        command_body=b"first",
        idempotency_key="k",
    )
    with pytest.raises(IdempotencyKeyReused):
        await event_store.append(
            game_id,
            expected_version=2,  # current: would succeed without the key
            events=events("b", 1),
            seat=0,
            command_body=b"second",
            idempotency_key="k",
        )
    assert (await event_store.info(game_id)).version == 2
    assert [c.body for c in await event_store.commands(game_id)] == [b"first"]


async def test_keys_belong_to_one_seat_of_one_game(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id, other_game = new_game_id(), new_game_id()
    await make_stream(event_store, game_id, opening=1)
    await make_stream(event_store, other_game, opening=1)
    for seat, version in ((0, 1), (1, 2)):
        result = await event_store.append(
            game_id,
            expected_version=version,
            events=events(f"s{seat}", 1),
            seat=seat,
            command_body=b"same",
            idempotency_key="shared",
        )
        assert not result.replayed
    elsewhere = await event_store.append(
        other_game,
        expected_version=1,
        events=events("o", 1),
        seat=0,
        command_body=b"same",
        idempotency_key="shared",
    )
    assert not elsewhere.replayed
    assert (await event_store.info(game_id)).version == 3
    assert await event_store.find_command(game_id, 2, "shared") is None
    found = await event_store.find_command(game_id, 1, "shared")
    assert found is not None and found.command is not None
    assert (found.command.seat, found.version, found.replayed) == (1, 3, True)


async def test_commands_without_a_key_never_replay(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await make_stream(event_store, game_id, opening=1)
    for version in (1, 2):
        result = await event_store.append(
            game_id, expected_version=version, events=events("a", 1), seat=0, command_body=b"x"
        )
        assert not result.replayed
    commands = await event_store.commands(game_id)
    assert [(c.id, c.idempotency_key) for c in commands] == [(1, None), (2, None)]


async def test_key_length_is_bounded(
    event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await make_stream(event_store, game_id, opening=1)
    for bad_key in ("", "k" * (MAX_IDEMPOTENCY_KEY_LENGTH + 1)):
        with pytest.raises(ValueError):
            await event_store.append(
                game_id,
                expected_version=1,
                events=events("a", 1),
                seat=0,
                command_body=b"",
                idempotency_key=bad_key,
            )
    longest = "k" * MAX_IDEMPOTENCY_KEY_LENGTH
    result = await event_store.append(
        game_id,
        expected_version=1,
        events=events("a", 1),
        seat=0,
        command_body=b"",
        idempotency_key=longest,
    )
    assert result.command is not None and result.command.idempotency_key == longest
