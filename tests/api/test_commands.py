"""Commands: accepted, refused, malformed, stale, retried. A refusal appends nothing."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from eventstore.store import EventStore
from referee.games import REGISTRY
from referee.kernel import Table
from referee.kernel.registry import AnyGame
from tests.api.helpers import (
    Client,
    Game,
    Ledger,
    assert_problem,
    create_game,
    detail,
    play,
    seat_to_act,
)

BID = {"type": "coyote.bid", "number": 1}


def a_legal_command(game: AnyGame) -> dict[str, Any]:
    """A command a fresh game of this kind would accept, as JSON."""
    table, _ = Table.open(
        game, game.options_type(), game.min_seats, game_id="other", seed=bytes(32)
    )
    seat = min(table.to_act())
    command: dict[str, Any] = msgspec.to_builtins(game.legal_commands(table.state, seat)[0])
    return command


@pytest.fixture
async def game(client: Client) -> Game:
    return await create_game(client, seed="ab" * 32)


async def test_an_accepted_command_answers_events_version_and_view(
    client: Client, game: Game, event_store: EventStore
) -> None:
    seat = await seat_to_act(client, game)
    before = game.created["version"]
    response = await play(client, game, seat, BID)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["replayed"] is False
    assert body["version"] == before + 1
    assert [event["seq"] for event in body["events"]] == [before + 1]
    assert body["events"][0]["seat"] == seat
    assert body["events"][0]["event"] == {
        "type": "coyote.bid-made",
        "seat": seat,
        "number": 1,
        "power": None,
        "target": None,
        "rebid": False,
    }
    assert body["view"]["viewer"] == seat
    assert body["view"]["bid"] == 1
    assert body["to_act"] != [seat]
    assert (await Ledger(event_store, game).snapshot()) == (before + 1, 1)


async def test_refusals_are_422_with_the_rule_and_append_nothing(
    client: Client, game: Game, event_store: EventStore
) -> None:
    ledger = Ledger(event_store, game)
    seat = await seat_to_act(client, game)
    idle = (seat + 1) % 3
    before = await ledger.snapshot()

    response = await play(client, game, idle, BID)
    assert_problem(response, 422, "rule-violation", rule_id="kernel.not-your-turn")
    response = await play(client, game, seat, {"type": "coyote.challenge"})
    assert_problem(response, 422, "rule-violation", rule_id="coyote.no-bid-to-challenge")
    assert await ledger.snapshot() == before


async def test_malformed_commands_are_400_and_append_nothing(
    client: Client, game: Game, event_store: EventStore
) -> None:
    ledger = Ledger(event_store, game)
    seat = await seat_to_act(client, game)
    before = await ledger.snapshot()
    url = f"{game.url}/commands"
    bodies: list[object] = [
        {},
        {"command": {"type": "coyote.bid"}},  # no number
        {"command": {"type": "coyote.bid", "number": "one"}},
        {"command": {"type": "coyote.shout"}},
        {"command": {"number": 1}},
        {"command": BID, "expected_version": 0},
        {"command": BID, "expected_verison": 3},  # misspelt: must not pass silently
        {"command": BID, "expected_version": "7"},
        [BID],
    ]
    for body in bodies:
        response = await client.post(url, json=body, headers=game.auth(seat))
        assert_problem(response, 400, "malformed-request")
    for raw in (b"{", b"", b"\xff\xfe", b"null"):
        response = await client.post(url, content=raw, headers=game.auth(seat))
        assert_problem(response, 400, "malformed-request")
    assert await ledger.snapshot() == before


async def test_a_command_of_another_kind_is_400(
    client: Client, game: Game, event_store: EventStore
) -> None:
    ledger = Ledger(event_store, game)
    seat = await seat_to_act(client, game)
    before = await ledger.snapshot()
    for other in (kind for kind in REGISTRY if kind.kind != "coyote"):
        response = await play(client, game, seat, a_legal_command(other))
        assert_problem(response, 400, "wrong-kind")
    assert await ledger.snapshot() == before


async def test_a_body_over_the_limit_is_413(
    client: Client, game: Game, event_store: EventStore
) -> None:
    ledger = Ledger(event_store, game)
    seat = await seat_to_act(client, game)
    before = await ledger.snapshot()
    padding = "x" * (128 * 1024)
    response = await client.post(
        f"{game.url}/commands",
        json={"command": BID, "padding": padding},
        headers=game.auth(seat),
    )
    assert_problem(response, 413, "payload-too-large")
    assert await ledger.snapshot() == before


async def test_expected_version_guards_against_stale_views(
    client: Client, game: Game, event_store: EventStore
) -> None:
    ledger = Ledger(event_store, game)
    version = game.created["version"]
    seat = await seat_to_act(client, game)
    response = await play(client, game, seat, BID, expected_version=version)
    assert response.status_code == 200, response.text

    next_seat = response.json()["to_act"][0]
    before = await ledger.snapshot()
    stale = await play(
        client, game, next_seat, {"type": "coyote.challenge"}, expected_version=version
    )
    assert_problem(stale, 409, "version-conflict")
    assert stale.json()["current_version"] == version + 1
    ahead = await play(client, game, next_seat, {"type": "coyote.challenge"}, expected_version=99)
    assert_problem(ahead, 409, "version-conflict")
    assert await ledger.snapshot() == before

    current = await play(
        client, game, next_seat, {"type": "coyote.challenge"}, expected_version=version + 1
    )
    assert current.status_code == 200, current.text


async def test_an_idempotent_retry_answers_the_first_result_and_appends_nothing(
    client: Client, game: Game, event_store: EventStore
) -> None:
    ledger = Ledger(event_store, game)
    seat = await seat_to_act(client, game)
    key = {"Idempotency-Key": "bid-once-42"}
    first = await play(client, game, seat, BID, headers=key)
    assert first.status_code == 200, first.text
    after_first = await ledger.snapshot()

    retry = await play(client, game, seat, BID, headers=key)
    assert retry.status_code == 200, retry.text
    assert retry.json()["replayed"] is True
    assert retry.json()["events"] == first.json()["events"]
    assert retry.json()["version"] == first.json()["version"]
    assert retry.json()["view"] == first.json()["view"]
    assert await ledger.snapshot() == after_first

    # The game moves on; the retry still answers what the key first did.
    next_seat = first.json()["to_act"][0]
    assert (await play(client, game, next_seat, {"type": "coyote.bid", "number": 5})).is_success
    late_retry = await play(client, game, seat, BID, headers=key)
    assert late_retry.status_code == 200
    assert late_retry.json()["events"] == first.json()["events"]
    assert late_retry.json()["replayed"] is True


async def test_an_idempotency_key_reused_for_another_command_is_422(
    client: Client, game: Game, event_store: EventStore
) -> None:
    ledger = Ledger(event_store, game)
    seat = await seat_to_act(client, game)
    key = {"Idempotency-Key": "one-key"}
    assert (await play(client, game, seat, BID, headers=key)).status_code == 200
    before = await ledger.snapshot()
    other = await play(client, game, seat, {"type": "coyote.bid", "number": 2}, headers=key)
    assert_problem(other, 422, "idempotency-key-reused")
    assert await ledger.snapshot() == before


async def test_idempotency_keys_belong_to_their_seat(client: Client, game: Game) -> None:
    seat = await seat_to_act(client, game)
    key = {"Idempotency-Key": "shared-key"}
    first = await play(client, game, seat, BID, headers=key)
    assert first.status_code == 200
    next_seat = first.json()["to_act"][0]
    response = await play(client, game, next_seat, {"type": "coyote.challenge"}, headers=key)
    assert response.status_code == 200, response.text
    assert response.json()["replayed"] is False


async def test_a_bad_idempotency_key_is_400(client: Client, game: Game) -> None:
    seat = await seat_to_act(client, game)
    response = await play(client, game, seat, BID, headers={"Idempotency-Key": "x" * 256})
    assert_problem(response, 400, "malformed-request")


async def test_a_finished_game_refuses_commands_with_409(
    client: Client, event_store: EventStore
) -> None:
    game = await create_game(client, options={"feathers": 1})
    for _ in range(2):  # with one feather each, two lost challenges end a 3-seat game
        seat = await seat_to_act(client, game)
        assert (await play(client, game, seat, {"type": "coyote.bid", "number": 999})).is_success
        challenger = await seat_to_act(client, game)
        assert (await play(client, game, challenger, {"type": "coyote.challenge"})).is_success
    body = await detail(client, game)
    assert body["status"] == "finished", body
    ledger = Ledger(event_store, game)
    before = await ledger.snapshot()
    for seat in range(3):
        response = await play(client, game, seat, BID)
        assert_problem(response, 409, "game-over")
    assert await ledger.snapshot() == before
