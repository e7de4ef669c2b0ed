"""Once a game is over everything about it is public: each past state then carries every seat's
view of that moment (`seat_views`), which together show every hand and hidden card, so that a
dispute can be read move by move. While the game runs, no caller gets them."""

from __future__ import annotations

from typing import Any

from tests.api.helpers import Client, Game, create_game, play_on

NO_SECRETS = {"wind-river"}  # its views say so: every seat and spectator sees the same board


async def kinds(client: Client) -> list[dict[str, Any]]:
    response = await client.get("/v1/kinds")
    assert response.status_code == 200, response.text
    listed: list[dict[str, Any]] = response.json()["kinds"]
    return listed


async def state(client: Client, game: Game, seq: int, seat: int | None) -> dict[str, Any]:
    headers = {} if seat is None else game.auth(seat)
    response = await client.get(f"{game.url}/states/{seq}", headers=headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def revealed(spectator: Any, seat_view: Any, path: str = "") -> set[str]:
    """The paths hidden (null) from the spectator that a seat's view shows."""
    if spectator is None and seat_view is not None:
        return {path}
    if isinstance(spectator, dict) and isinstance(seat_view, dict):
        return set().union(
            *(revealed(spectator[key], seat_view.get(key), f"{path}.{key}") for key in spectator)
        )
    if isinstance(spectator, list) and isinstance(seat_view, list):
        pairs = zip(spectator, seat_view, strict=False)
        return set().union(*(revealed(a, b, f"{path}[{i}]") for i, (a, b) in enumerate(pairs)))
    return set()


async def test_a_finished_games_past_states_show_every_seats_view(client: Client) -> None:
    for kind in await kinds(client):
        seats = kind["seat_counts"][0]
        game = await create_game(client, kind=kind["kind"], seats=seats, seed="7a" * 32)
        running = await play_on(client, game, commands=4)
        moments = sorted({game.created["version"], running["version"]})
        seen: dict[tuple[int, int | None], dict[str, Any]] = {}
        for seq in moments:
            for seat in [None, *range(seats)]:
                body = await state(client, game, seq, seat)
                assert body["seat_views"] is None, (kind["kind"], seq, seat)
                seen[seq, seat] = body["view"]
        assert (await play_on(client, game))["status"] == "finished"
        for seq in moments:
            body = await state(client, game, seq, None)
            assert body["view"] == seen[seq, None]
            assert body["seat_views"] == [seen[seq, seat] for seat in range(seats)]
            shown = set().union(*(revealed(body["view"], view) for view in body["seat_views"]))
            shown.discard(".viewer")
            assert bool(shown) == (kind["kind"] not in NO_SECRETS), (kind["kind"], seq, shown)


async def test_the_seat_views_of_a_coyote_deal_show_every_head_card(client: Client) -> None:
    seats = 4
    game = await create_game(client, kind="coyote", seats=seats, seed="3c" * 32)
    dealt = game.created["version"]
    assert (await play_on(client, game))["status"] == "finished"
    body = await state(client, game, dealt, 1)
    assert body["view"]["seats"][1]["cards"] == [None], "seat 1 still never sees its own card"
    for holder in range(seats):
        for viewer, view in enumerate(body["seat_views"]):
            (card,) = view["seats"][holder]["cards"]
            assert (card is None) == (viewer == holder), (holder, viewer, card)
