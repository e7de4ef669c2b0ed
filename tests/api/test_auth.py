"""Seat tokens: none, malformed, wrong, of another game. Nothing is appended on a refusal."""

from __future__ import annotations

import pytest

from eventstore.store import EventStore
from tests.api.helpers import Client, Game, Ledger, assert_problem, create_game, seat_to_act

BID = {"command": {"type": "coyote.bid", "number": 1}}


@pytest.fixture
async def game(client: Client) -> Game:
    return await create_game(client)


async def test_commands_and_legal_commands_need_a_token(client: Client, game: Game) -> None:
    response = await client.post(f"{game.url}/commands", json=BID)
    assert_problem(response, 401, "unauthorized")
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert_problem(await client.get(f"{game.url}/legal-commands"), 401, "unauthorized")


async def test_bad_tokens_are_401_everywhere(
    client: Client, game: Game, event_store: EventStore
) -> None:
    ledger = Ledger(event_store, game)
    before = await ledger.snapshot()
    seat = await seat_to_act(client, game)
    real = game.tokens[seat]
    forged = real[: real.rindex(".") + 1] + "A" * 43  # right game and seat, wrong secret
    other_seat = real.replace(f".{seat}.", f".{(seat + 1) % 3}.", 1)  # a secret of another seat
    headers = [
        {"Authorization": f"Bearer {forged}"},
        {"Authorization": f"Bearer {other_seat}"},
        {"Authorization": "Bearer not-a-token"},
        {"Authorization": f"Basic {real}"},
        {"Authorization": "Bearer "},
    ]
    for header in headers:
        response = await client.post(f"{game.url}/commands", json=BID, headers=header)
        assert_problem(response, 401, "unauthorized")
        for path in ("", "/events", "/states/1", "/legal-commands"):
            assert_problem(await client.get(game.url + path, headers=header), 401, "unauthorized")
    assert await ledger.snapshot() == before


async def test_a_token_of_another_game_is_403(
    client: Client, game: Game, event_store: EventStore
) -> None:
    other = await create_game(client)
    ledger = Ledger(event_store, game)
    before = await ledger.snapshot()
    seat = await seat_to_act(client, game)
    response = await client.post(f"{game.url}/commands", json=BID, headers=other.auth(seat))
    assert_problem(response, 403, "forbidden")
    for path in ("", "/events", "/states/1", "/legal-commands"):
        assert_problem(await client.get(game.url + path, headers=other.auth(0)), 403, "forbidden")
    assert await ledger.snapshot() == before


async def test_a_token_names_its_seat(client: Client, game: Game) -> None:
    for seat in range(3):
        response = await client.get(game.url, headers=game.auth(seat))
        assert response.status_code == 200
        assert response.json()["seat"] == seat
        assert response.json()["view"]["viewer"] == seat
