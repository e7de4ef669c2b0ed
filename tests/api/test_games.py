"""Kinds, creating games, listing them, reading one."""

from __future__ import annotations

import base64
import hashlib
import uuid

from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from api.config import Settings
from referee.games import REGISTRY
from tests.api.conftest import serve
from tests.api.helpers import SEED, Client, assert_problem, create_game, detail
from tests.tamper import behind_the_back


async def test_kinds_lists_every_registered_game_with_its_options(client: Client) -> None:
    response = await client.get("/v1/kinds")
    assert response.status_code == 200
    kinds = {item["kind"]: item for item in response.json()["kinds"]}
    assert set(kinds) == set(REGISTRY.kinds())
    coyote = kinds["coyote"]
    assert (coyote["min_seats"], coyote["max_seats"]) == (3, 6)
    assert coyote["rules_version"] == REGISTRY["coyote"].version
    assert coyote["default_options"] == {"feathers": 3, "shaman": False}
    assert "feathers" in str(coyote["options_schema"])


async def test_create_answers_tokens_once_and_the_commitment(client: Client) -> None:
    response = await client.post(
        "/v1/games", json={"kind": "coyote", "seats": 4, "seed": SEED, "entropy": "dice"}
    )
    assert response.status_code == 201, response.text
    body = response.json()
    game_id = body["game_id"]
    assert uuid.UUID(game_id)
    assert response.headers["location"] == f"/v1/games/{game_id}"
    assert body["commitment"] == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    assert body["seed_chosen_by_creator"] is True
    assert [token["seat"] for token in body["seat_tokens"]] == [0, 1, 2, 3]
    tokens = [token["token"] for token in body["seat_tokens"]]
    assert len(set(tokens)) == 4
    assert all(token.startswith(f"{game_id}.{seat}.") for seat, token in enumerate(tokens))
    assert SEED not in response.text


async def test_tokens_are_stored_only_as_hashes(
    client: Client, superuser_conn: AsyncConnection[TupleRow]
) -> None:
    game = await create_game(client)
    cursor = await superuser_conn.execute(
        "SELECT seat, token_hash FROM seat_tokens WHERE game_id = %s ORDER BY seat", [game.id]
    )
    rows = await cursor.fetchall()
    assert rows == [
        (seat, hashlib.sha256(game.tokens[seat].encode()).digest()) for seat in range(3)
    ]


async def test_a_drawn_seed_is_not_chosen_by_the_creator(client: Client) -> None:
    game = await create_game(client)
    assert game.created["seed_chosen_by_creator"] is False
    assert (await detail(client, game))["seed_chosen_by_creator"] is False


async def test_every_kind_can_be_created(client: Client) -> None:
    for game in REGISTRY:
        created = await create_game(client, game.kind, seats=game.min_seats)
        body = await detail(client, created)
        assert body["kind"] == game.kind
        assert body["view"]["type"].startswith(f"{game.kind}.")


async def test_malformed_creations_are_400(client: Client) -> None:
    bodies = [
        {"kind": "chess", "seats": 2},
        {"kind": "coyote", "seats": 2},  # below the kind's minimum
        {"kind": "coyote", "seats": "three"},
        {"kind": "coyote"},
        {"kind": "coyote", "seats": 3, "options": {"feathres": 2}},  # misspelt option
        {"kind": "manitou-island", "seats": 3},  # inside 2..4 but not a count it allows
        # misspelt inside a nested option: must not quietly become the default board
        {"kind": "manitou-island", "seats": 2, "options": {"borders": {"colums": 9}}},
        {"kind": "coyote", "seats": 3, "seed": "not hex"},
        {"kind": "coyote", "seats": 3, "seed": "00"},  # too short to keep a secret
        {"kind": "coyote", "seats": 3, "colour": "red"},
        [],
    ]
    for body in bodies:
        response = await client.post("/v1/games", json=body)
        assert_problem(response, 400, "malformed-request")
        assert response.json()["errors"] or response.json()["detail"]
    response = await client.post("/v1/games", content=b"{not json")
    assert_problem(response, 400, "malformed-request")


async def test_options_the_rules_refuse_are_422_with_the_rule(client: Client) -> None:
    response = await client.post(
        "/v1/games", json={"kind": "coyote", "seats": 3, "options": {"feathers": 9}}
    )
    assert_problem(response, 422, "rule-violation", rule_id="coyote.feathers")


async def test_list_pages_through_games_newest_first(client: Client) -> None:
    mine = [(await create_game(client, seats=3)).id for _ in range(5)]
    seen: list[dict[str, object]] = []
    cursor: str | None = None
    while True:
        params: dict[str, str | int] = {"kind": "coyote", "limit": 2}
        if cursor is not None:
            params["cursor"] = cursor
        response = await client.get("/v1/games", params=params)
        assert response.status_code == 200, response.text
        page = response.json()
        assert len(page["games"]) <= 2
        seen += page["games"]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    ids = [game["game_id"] for game in seen]
    assert len(ids) == len(set(ids)), "no game on two pages"
    assert all(game["kind"] == "coyote" for game in seen)
    created = [game["created_at"] for game in seen]
    assert created == sorted(created, reverse=True)
    assert [game_id for game_id in ids if game_id in mine] == list(reversed(mine))


async def test_list_filters_by_status(client: Client) -> None:
    response = await client.get("/v1/games", params={"status": "finished", "limit": 100})
    assert response.status_code == 200
    assert all(game["status"] == "finished" for game in response.json()["games"])


async def test_list_refuses_bad_parameters(client: Client) -> None:
    for params in ({"limit": 0}, {"limit": 101}, {"status": "paused"}):
        response = await client.get("/v1/games", params=params)
        assert_problem(response, 400, "malformed-request")
    for cursor in ("garbage!", "x" * 200):
        response = await client.get("/v1/games", params={"cursor": cursor})
        assert_problem(response, 400, "invalid-cursor")
    nul_in_cursor = base64.urlsafe_b64encode(b"1:\x00").decode()  # PostgreSQL text has no NUL
    for params in ({"cursor": nul_in_cursor}, {"kind": "no-such-kind", "cursor": "garbage!"}):
        response = await client.get("/v1/games", params=params)
        assert_problem(response, 400, "invalid-cursor")


async def test_list_of_a_kind_nobody_plays_is_empty(client: Client) -> None:
    """Any string is a kind by the published schema: one no game has gets an empty page."""
    for kind in ("no-such-kind", "\x00", "coyote\x00"):
        response = await client.get("/v1/games", params={"kind": kind})
        assert response.status_code == 200, response.text
        assert response.json() == {"games": [], "next_cursor": None}


async def test_get_shows_summary_turn_and_spectator_view(client: Client) -> None:
    game = await create_game(client, seed=SEED)
    body = await detail(client, game)
    assert body["game_id"] == game.id
    assert body["status"] == "active"
    assert body["version"] == game.created["version"]
    assert body["commitment"] == game.created["commitment"]
    assert body["to_act"] == game.created["to_act"]
    assert body["outcome"]["finished"] is False
    assert body["seat"] is None
    assert body["view"]["viewer"] is None


async def test_unknown_games_are_404(client: Client) -> None:
    missing = f"/v1/games/{uuid.uuid4()}"
    for path in (missing, f"{missing}/events", f"{missing}/states/1", "/v1/games/not-a-uuid"):
        assert_problem(await client.get(path), 404, "not-found")


async def test_unknown_routes_and_methods_are_problems(client: Client) -> None:
    assert_problem(await client.get("/v2/kinds"), 404, "not-found")
    response = await client.delete("/v1/kinds")
    assert_problem(response, 405, "method-not-allowed")
    assert "GET" in response.headers["allow"]


async def test_a_damaged_record_is_a_problem_not_a_crash(
    client: Client, settings: Settings, superuser_conn: AsyncConnection[TupleRow]
) -> None:
    game = await create_game(client)
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute(
            "UPDATE events SET body = %s WHERE game_id = %s AND seq = 2", [b"{oops", game.id]
        )
    async for fresh in serve(settings):  # another process: nothing of this game in its cache
        for path in ("", "/events", "/states/3"):
            assert_problem(await fresh.get(game.url + path), 409, "corrupt-stream")
        response = await fresh.post(
            f"{game.url}/commands",
            json={"command": {"type": "coyote.challenge"}},
            headers=game.auth(0),
        )
        assert_problem(response, 409, "corrupt-stream")
