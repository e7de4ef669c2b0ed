"""What each caller sees: no seat ever sees its own card, a spectator sees no head card, the deck
order stays secret; once the game is over everything is public. Also paging of the views."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.helpers import SEED, Client, Game, create_game, detail, play, seat_to_act

SEATS = 4


@pytest.fixture
async def game(client: Client) -> Game:
    return await create_game(client, seats=SEATS, seed=SEED)


def head_cards(view: dict[str, Any]) -> dict[int, list[Any]]:
    return {item["seat"]: item["cards"] for item in view["seats"]}


def assert_sees_all_but_its_own(view: dict[str, Any], viewer: int | None) -> None:
    cards = head_cards(view)
    assert all(cards.values()), "every seat has a card on its head"
    for seat, hand in cards.items():
        if seat == viewer or viewer is None:
            assert all(card is None for card in hand), (viewer, seat, hand)
        else:
            assert all(card is not None for card in hand), (viewer, seat, hand)


async def events(client: Client, game: Game, seat: int | None, **params: int) -> list[Any]:
    headers = {} if seat is None else game.auth(seat)
    response = await client.get(f"{game.url}/events", params=params, headers=headers)
    assert response.status_code == 200, response.text
    records: list[Any] = response.json()["events"]
    return records


async def test_game_views_hide_each_seats_own_card(client: Client, game: Game) -> None:
    for viewer in [*range(SEATS), None]:
        body = await detail(client, game, viewer)
        assert_sees_all_but_its_own(body["view"], viewer)
        assert body["view"]["draw_pile"] is None


async def test_events_hide_each_seats_own_card_and_the_deck_order(
    client: Client, game: Game
) -> None:
    for viewer in [*range(SEATS), None]:
        records = await events(client, game, viewer)
        assert [record["seq"] for record in records] == list(range(1, len(records) + 1))
        dealt = [r["event"] for r in records if r["event"]["type"] == "coyote.card-dealt"]
        assert len(dealt) == SEATS
        for event in dealt:
            hidden = viewer is None or event["seat"] == viewer
            assert (event["card"] is None) == hidden, (viewer, event)
        shuffles = [r["event"] for r in records if r["event"]["type"] == "coyote.deck-shuffled"]
        assert shuffles and all(event["order"] is None for event in shuffles)
        assert records[0]["event"]["type"] == "game.created"


async def test_states_hide_each_seats_own_card(client: Client, game: Game) -> None:
    version = game.created["version"]
    for viewer in [*range(SEATS), None]:
        headers = {} if viewer is None else game.auth(viewer)
        response = await client.get(f"{game.url}/states/{version}", headers=headers)
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["seq"] == version
        assert body["seat"] == viewer
        assert_sees_all_but_its_own(body["view"], viewer)


async def test_states_show_the_past(client: Client, game: Game) -> None:
    seat = await seat_to_act(client, game)
    version = game.created["version"]
    assert (await play(client, game, seat, {"type": "coyote.bid", "number": 3})).is_success
    before = (await client.get(f"{game.url}/states/{version}")).json()
    after = (await client.get(f"{game.url}/states/{version + 1}")).json()
    assert (before["view"]["bid"], after["view"]["bid"]) == (None, 3)
    assert before["version"] == after["version"] == version + 1
    first = (await client.get(f"{game.url}/states/1")).json()
    assert first["seq"] == 1
    assert all(cards == [] for cards in head_cards(first["view"]).values()), "nothing dealt yet"
    missing = await client.get(f"{game.url}/states/{version + 2}")
    assert missing.status_code == 404
    assert (await client.get(f"{game.url}/states/0")).status_code == 400


async def test_events_page_with_after_and_limit(client: Client, game: Game) -> None:
    everything = await events(client, game, 0)
    pages: list[Any] = []
    after = 0
    while page := await events(client, game, 0, after=after, limit=2):
        assert len(page) <= 2
        pages += page
        after = page[-1]["seq"]
    assert pages == everything
    assert await events(client, game, 0, after=len(everything)) == []


async def test_legal_commands_page_for_the_seat_to_act_only(client: Client, game: Game) -> None:
    seat = await seat_to_act(client, game)
    url = f"{game.url}/legal-commands"
    big = (await client.get(url, params={"limit": 40}, headers=game.auth(seat))).json()
    assert big["seat"] == seat
    assert big["total"] >= 40 and len(big["commands"]) == 40
    first = (await client.get(url, params={"limit": 15}, headers=game.auth(seat))).json()
    second = await client.get(url, params={"limit": 25, "offset": 15}, headers=game.auth(seat))
    assert first["commands"] + second.json()["commands"] == big["commands"]
    assert all(command["type"].startswith("coyote.") for command in big["commands"])
    tail = await client.get(url, params={"offset": big["total"] - 1}, headers=game.auth(seat))
    assert len(tail.json()["commands"]) == 1
    idle = (seat + 1) % SEATS
    response = await client.get(url, headers=game.auth(idle))
    assert response.status_code == 200
    assert (response.json()["total"], response.json()["commands"]) == (0, [])


async def test_a_listed_legal_command_is_accepted(client: Client, game: Game) -> None:
    seat = await seat_to_act(client, game)
    page = await client.get(
        f"{game.url}/legal-commands", params={"offset": 7, "limit": 1}, headers=game.auth(seat)
    )
    command = page.json()["commands"][0]
    assert (await play(client, game, seat, command)).status_code == 200
