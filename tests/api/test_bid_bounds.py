"""A Coyote bid is a number from 1 to 999 (CY-2): the published schema says so (`minimum`,
`maximum`), so a number outside it is a malformed request (400), refused before the rules are
asked; a number inside it that the rules refuse (not higher than the bid standing) is their 422."""

from __future__ import annotations

from typing import Any

import pytest

from api.app import create_app
from api.config import Settings
from api.openapi import openapi_document
from eventstore.store import EventStore
from referee.games.coyote.data import MAX_BID, MIN_BID
from tests.api.helpers import Client, Game, Ledger, assert_problem, create_game, play, seat_to_act


def bid_schema() -> dict[str, Any]:
    components = openapi_document(create_app(Settings()))["components"]["schemas"]
    number: dict[str, Any] = components["CoyoteBid"]["properties"]["number"]
    return number


def test_the_schema_states_the_bounds_of_a_bid() -> None:
    number = bid_schema()
    assert number["type"] == "integer"
    assert (number["minimum"], number["maximum"]) == (MIN_BID, MAX_BID) == (1, 999)


@pytest.fixture
async def game(client: Client) -> Game:
    return await create_game(client, seed="b1" * 32)


@pytest.mark.parametrize("number", [0, -1, 1000, 10**6, -(2**63), 2**64])
async def test_a_bid_outside_the_schema_is_a_malformed_request(
    client: Client, game: Game, event_store: EventStore, number: int
) -> None:
    ledger = Ledger(event_store, game)
    before = await ledger.snapshot()
    seat = await seat_to_act(client, game)
    response = await play(client, game, seat, {"type": "coyote.bid", "number": number})
    assert_problem(response, 400, "malformed-request")
    assert "number" in response.text
    assert await ledger.snapshot() == before


async def test_a_bid_inside_the_schema_that_the_rules_refuse_is_still_their_422(
    client: Client, game: Game, event_store: EventStore
) -> None:
    seat = await seat_to_act(client, game)
    assert (await play(client, game, seat, {"type": "coyote.bid", "number": 500})).is_success
    ledger = Ledger(event_store, game)
    before = await ledger.snapshot()
    following = await seat_to_act(client, game)
    for number in (MIN_BID, 499, 500):
        response = await play(client, game, following, {"type": "coyote.bid", "number": number})
        assert_problem(response, 422, "rule-violation", rule_id="coyote.bid-not-higher")
    assert await ledger.snapshot() == before
    assert (
        await play(client, game, following, {"type": "coyote.bid", "number": MAX_BID})
    ).is_success
