"""Whole games over HTTP, played by a client that knows only the API: it asks for the legal
commands and picks one. At the end everything is public and the seed matches the commitment."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from tests.api.helpers import Client, Game, create_game, detail, play

MAX_COMMANDS = 3000


async def choose(client: Client, game: Game, seat: int, rng: random.Random) -> dict[str, Any]:
    """A legal command: the answers (challenge, powers) come first, then bids upwards."""
    url = f"{game.url}/legal-commands"
    page = (await client.get(url, params={"limit": 30}, headers=game.auth(seat))).json()
    commands: list[dict[str, Any]] = page["commands"]
    assert page["total"] >= len(commands) > 0, page
    challenges = [command for command in commands if command["type"] == "coyote.challenge"]
    if challenges and rng.random() < 0.4:
        return challenges[0]
    return rng.choice(commands)


async def play_to_the_end(client: Client, game: Game, rng: random.Random) -> int:
    for count in range(MAX_COMMANDS):
        state = await detail(client, game)
        if state["status"] == "finished":
            return count
        (seat,) = state["to_act"]
        command = await choose(client, game, seat, rng)
        response = await play(client, game, seat, command, expected_version=state["version"])
        assert response.status_code == 200, (command, response.text)
        assert response.json()["version"] > state["version"]
    pytest.fail(f"no winner after {MAX_COMMANDS} commands")


@pytest.mark.parametrize(
    ("seats", "options", "seed"),
    [(3, {}, "01" * 32), (5, {"shaman": True, "feathers": 2}, "02" * 32)],
)
async def test_a_whole_game_over_http(
    client: Client, seats: int, options: dict[str, Any], seed: str
) -> None:
    game = await create_game(client, seats=seats, options=options, seed=seed)
    played = await play_to_the_end(client, game, random.Random(seed))
    assert played > 0

    final = await detail(client, game, 0)
    assert final["status"] == "finished"
    assert final["to_act"] == []
    assert final["outcome"]["finished"] is True
    assert len(final["outcome"]["winners"]) == 1
    assert final["view"]["draw_pile"] is not None, "a finished game shows everything"
    assert all(None not in item["cards"] for item in final["view"]["seats"])

    response = await client.get(f"{game.url}/events", params={"limit": 1000})
    records = response.json()["events"]
    assert records[-1]["event"]["type"] == "game.seed-revealed"
    revealed = bytes.fromhex(records[-1]["event"]["seed"])
    assert revealed == bytes.fromhex(seed)
    assert hashlib.sha256(revealed).hexdigest() == game.created["commitment"]
    dealt = [r["event"] for r in records if r["event"]["type"] == "coyote.card-dealt"]
    assert all(event["card"] is not None for event in dealt), "a finished game hides nothing"

    listed = await client.get("/v1/games", params={"status": "finished", "kind": "coyote"})
    assert game.id in {item["game_id"] for item in listed.json()["games"]}
