"""Open tables over HTTP: strangers sit, each holding only their own token; the deal waits for
the last seat, and nobody's token reaches another seat."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from api.cache import TableCache
from api.service import GameService, OpenSeats
from eventstore.seeds import SeedKeys
from referee.games import REGISTRY
from referee.kernel import RuleViolation
from referee.kernel.lifecycle import LeaveSeat, Resign, Sit
from tests.api.helpers import PROBLEM, Client, assert_problem
from tests.store.statements import recording_store


async def open_table(client: Client, **table: Any) -> dict[str, Any]:
    body = {"kind": "coyote", "seats": 3, "open_table": table}
    response = await client.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def sit(client: Client, game_id: str, name: str, **fields: Any) -> Any:
    return await client.post(f"/v1/games/{game_id}/seats", json={"name": name, **fields})


async def test_strangers_fill_a_public_table_and_it_is_dealt_then(client: Client) -> None:
    created = await open_table(client, creator={"name": "Ann", "entropy": "ann's dice"})
    game_id = created["game_id"]
    assert created["status"] == "waiting" and created["seating"] == "open"
    assert [token["seat"] for token in created["seat_tokens"]] == [0]
    assert created["names"] == ["Ann", None, None]
    listed = (await client.get("/v1/games", params={"status": "waiting", "kind": "coyote"})).json()
    assert game_id in [game["game_id"] for game in listed["games"]]
    waiting = (await client.get(f"/v1/games/{game_id}")).json()
    assert waiting["to_act"] == [] and waiting["open_seats"] == [1, 2]
    bob = await sit(client, game_id, "Bob", entropy="b")
    assert bob.status_code == 201, bob.text
    assert bob.json()["seat"] == 1 and bob.json()["status"] == "waiting"
    cy = await sit(client, game_id, "Cy")
    assert cy.status_code == 201, cy.text
    assert cy.json()["status"] == "active" and cy.json()["names"] == ["Ann", "Bob", "Cy"]
    game = (await client.get(f"/v1/games/{game_id}")).json()
    assert game["status"] == "active" and len(game["to_act"]) == 1
    late = await sit(client, game_id, "Dee")
    assert_problem(late, 409, "seat-taken")


async def test_a_taken_name_and_a_taken_seat_are_refused(client: Client) -> None:
    game_id = (await open_table(client, creator={"name": "Ann"}))["game_id"]
    assert_problem(await sit(client, game_id, "ann"), 422, "rule-violation", "kernel.name-taken")
    assert_problem(await sit(client, game_id, "Bob", seat=0), 409, "seat-taken")
    assert_problem(
        await sit(client, game_id, "x\u202eevil"), 422, "rule-violation", "kernel.name-bidi"
    )
    response = await sit(client, game_id, "A" * 41)
    assert_problem(response, 422, "rule-violation", "kernel.name-length")


async def test_a_private_table_needs_its_code_and_a_wrong_one_is_no_game(client: Client) -> None:
    created = await open_table(client, visibility="private")
    game_id, code = created["game_id"], created["invitation_code"]
    assert code and created["seat_tokens"] == []
    wrong = await sit(client, game_id, "Bob", invitation_code="nope")
    missing = await sit(client, "00000000-0000-4000-8000-000000000000", "Bob")
    assert wrong.status_code == missing.status_code == 404
    assert wrong.json()["type"] == missing.json()["type"] == PROBLEM + "not-found"
    assert wrong.json()["detail"] == missing.json()["detail"]
    right = await sit(client, game_id, "Bob", invitation_code=code)
    assert right.status_code == 201, right.text
    listed = (await client.get("/v1/games", params={"status": "waiting"})).json()
    assert game_id not in [game["game_id"] for game in listed["games"]]


async def test_a_player_who_leaves_holds_nothing_more(client: Client) -> None:
    game_id = (await open_table(client))["game_id"]
    bob = (await sit(client, game_id, "Bob")).json()
    auth = {"Authorization": f"Bearer {bob['token']}"}
    left = await client.delete(f"/v1/games/{game_id}/seats/{bob['seat']}", headers=auth)
    assert left.status_code == 200, left.text
    assert left.json()["names"] == [None, None, None]
    again = await client.get(f"/v1/games/{game_id}", headers=auth)
    assert_problem(again, 401, "unauthorized")
    for name in ("Cy", "Dee", "Eve"):
        assert (await sit(client, game_id, name)).status_code == 201
    assert_problem(await client.get(f"/v1/games/{game_id}", headers=auth), 401, "unauthorized")


async def test_a_seed_is_refused_for_an_open_table(client: Client) -> None:
    body = {"kind": "coyote", "seats": 3, "seed": "5e" * 32, "open_table": {}}
    response = await client.post("/v1/games", json=body)
    assert_problem(response, 422, "rule-violation", "kernel.open-table-seed")


async def test_a_token_leaves_its_own_seat_only(client: Client) -> None:
    game_id = (await open_table(client, creator={"name": "Ann"}))["game_id"]
    bob = (await sit(client, game_id, "Bob")).json()
    auth = {"Authorization": f"Bearer {bob['token']}"}
    response = await client.delete(f"/v1/games/{game_id}/seats/0", headers=auth)
    assert_problem(response, 422, "rule-violation", "kernel.not-your-seat")
    assert (await client.get(f"/v1/games/{game_id}")).json()["names"] == ["Ann", "Bob", None]


async def test_a_command_is_decided_for_the_sitting_that_holds_the_seat(
    database_url: str, seed_keys: SeedKeys
) -> None:
    """A token authenticated before its player left (a race of the player with itself) acts for
    nobody once someone else sits there: the sitting is checked where the command is decided."""
    async with recording_store(database_url, seed_keys) as (store, _):
        service = GameService(store, REGISTRY, TableCache(4))
        options = msgspec.convert({}, REGISTRY["coyote"].options_type)
        created = await service.create(
            "coyote",
            seats=3,
            options=options,
            seed=None,
            entropy="",
            open_seats=OpenSeats("public"),
        )
        game_id = created.game_id
        first = (await service.sit(game_id, Sit(name="Bob"), seat=0)).table.sitting(0)
        await service.play(game_id, 0, LeaveSeat(), sitting=first)
        for name in ("Cy", "Dee", "Eve"):
            await service.sit(game_id, Sit(name=name), seat=None)
        with pytest.raises(RuleViolation) as refused:
            await service.play(game_id, 0, Resign(), sitting=first)
        assert refused.value.rule_id == "kernel.seat-left"
        table = await service.table(game_id)
        assert table.departed() == frozenset() and table.names() == ("Cy", "Dee", "Eve")


async def test_a_past_state_says_the_status_the_game_had_then(client: Client) -> None:
    """An open table is waiting from its first event, game.created, which comes before the
    events that set it up (a time control, bots, the table opened) and seat its players, until
    the last seat is taken: every state up to then says so, and those after it `active`."""
    body = {
        "kind": "coyote",
        "seats": 3,
        "time_control": {"per_move_seconds": 600},
        "bots": [{"seat": 2}],
        "open_table": {"creator": {"name": "Ann"}},
    }
    response = await client.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    game_id = created["game_id"]
    assert (await sit(client, game_id, "Bob")).json()["status"] == "active"
    version = (await client.get(f"/v1/games/{game_id}")).json()["version"]
    states = []
    for seq in range(1, version + 1):
        state = await client.get(f"/v1/games/{game_id}/states/{seq}")
        assert state.status_code == 200, state.text
        states.append(state.json())
    waited = created["version"]
    assert [state["status"] for state in states[:waited]] == ["waiting"] * waited
    assert [state["to_act"] for state in states[:waited]] == [[]] * waited
    assert states[0]["names"] == [None, None, None]  # nobody sat yet
    assert states[-1]["status"] == "active"
