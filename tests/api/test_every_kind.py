"""Every kind of game, at every seat count it allows, played to the end over HTTP by a client
that knows nothing of any game: it reads the catalogue, asks for the legal commands and sends one
drawn uniformly among them, for whichever seat may act (several at once in simultaneous steps).
At the end the game hides nothing, the seed matches the commitment, and the audit passes."""

from __future__ import annotations

import asyncio
import hashlib
import random
from typing import Any

import pytest

from tests.api.helpers import PROBLEM, Client, Game, create_game, detail, play

MAX_COMMANDS = 20_000  # a guard: the longest games (Tribù) take a few thousand
PAGE = 200


async def catalogue(client: Client) -> list[dict[str, Any]]:
    response = await client.get("/v1/kinds")
    assert response.status_code == 200, response.text
    kinds: list[dict[str, Any]] = response.json()["kinds"]
    return kinds


async def any_legal_command(
    client: Client, game: Game, seat: int, rng: random.Random
) -> dict[str, Any]:
    """A legal command: when the whole list fits in one page, a kind of command (its `type`)
    first, then one of that kind, so that games do not drag on; else one drawn uniformly."""
    url = f"{game.url}/legal-commands"
    first = await client.get(url, params={"limit": PAGE}, headers=game.auth(seat))
    body = first.json()
    assert body["total"] > 0, f"seat {seat} is to act but has no legal command"
    commands: list[dict[str, Any]] = body["commands"]
    if body["total"] <= len(commands):
        kind = rng.choice(sorted({command["type"] for command in commands}))
        return rng.choice([command for command in commands if command["type"] == kind])
    offset = rng.randrange(body["total"])
    page = await client.get(url, params={"offset": offset, "limit": 1}, headers=game.auth(seat))
    (command,) = page.json()["commands"]
    return command  # type: ignore[no-any-return]


async def play_to_the_end(client: Client, game: Game, rng: random.Random) -> int:
    state = await detail(client, game)
    for count in range(MAX_COMMANDS):
        if state["status"] == "finished":
            return count
        seat = rng.choice(state["to_act"])
        command = await any_legal_command(client, game, seat, rng)
        response = await play(client, game, seat, command, expected_version=state["version"])
        assert response.status_code == 200, (command, response.text)
        state = response.json()  # the answer says where the game stands: version, to_act, status
    pytest.fail(f"not finished after {MAX_COMMANDS} commands")


async def seat_counts(client: Client) -> list[tuple[str, int]]:
    return [
        (kind["kind"], seats) for kind in await catalogue(client) for seats in kind["seat_counts"]
    ]


async def test_every_kind_at_every_seat_count_plays_to_the_end(client: Client) -> None:
    kinds = {kind["kind"] for kind in await catalogue(client)}
    assert {"coyote", "manitou-island", "big-manitou", "wind-river", "tribu"} <= kinds
    # The games at once: each waits on the database while another computes (a failure
    # cancels the rest).
    async with asyncio.TaskGroup() as games:
        played = [
            games.create_task(play_one(client, kind, seats))
            for kind, seats in await seat_counts(client)
        ]
    assert [task.result() for task in played] == [True] * len(played)
    assert len(played) == len(await seat_counts(client)) >= 10


async def play_one(client: Client, kind: str, seats: int) -> bool:
    """A game of `kind` at `seats`, played to the end and checked; True."""
    seed = hashlib.sha256(f"{kind}/{seats}".encode()).hexdigest()
    game = await create_game(client, kind=kind, seats=seats, seed=seed)
    commands = await play_to_the_end(client, game, random.Random(seed))
    assert commands > 0
    await check_finished(client, game, seed)
    return True


async def test_a_seat_count_the_game_does_not_allow_is_refused(client: Client) -> None:
    for kind in await catalogue(client):
        assert kind["seat_counts"] == sorted(kind["seat_counts"])
        assert (kind["seat_counts"][0], kind["seat_counts"][-1]) == (
            kind["min_seats"],
            kind["max_seats"],
        )
        before = await newest_game(client, kind["kind"])
        refused = [kind["min_seats"] - 1, kind["max_seats"] + 1] + [
            count
            for count in range(kind["min_seats"], kind["max_seats"] + 1)
            if count not in kind["seat_counts"]
        ]
        for seats in refused:
            response = await client.post("/v1/games", json={"kind": kind["kind"], "seats": seats})
            assert response.status_code in (400, 422), response.text
            assert response.json()["type"].startswith(PROBLEM), response.text
        assert await newest_game(client, kind["kind"]) == before, "nothing was created"


async def newest_game(client: Client, kind: str) -> str | None:
    games = (await client.get("/v1/games", params={"kind": kind, "limit": 1})).json()["games"]
    return games[0]["game_id"] if games else None


async def check_finished(client: Client, game: Game, seed: str) -> None:
    final = await detail(client, game)
    assert final["to_act"] == [] and final["outcome"]["finished"] is True
    assert final["outcome"]["winners"] or final["outcome"]["ranking"], final["outcome"]
    after = final["version"] - 1  # the last event: a long game has more than a page of them
    events = (await client.get(f"{game.url}/events", params={"after": after})).json()
    (record,) = events["events"]
    last = record["event"]
    assert last["type"] == "game.seed-revealed" and last["seed"] == seed
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == game.created["commitment"]
    audit = (await client.get(f"{game.url}/audit")).json()
    assert audit["verdict"] == "passed", audit
    exported = await client.get(f"{game.url}/export")
    verified = await client.post("/v1/audits", content=exported.content)
    assert verified.json()["verdict"] == "passed", verified.text
