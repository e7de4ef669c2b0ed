"""Commit and reveal, audits, exports and uploaded bundles, over HTTP."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from api.bundle import MAX_BUNDLE_BYTES
from api.verify import verify_file
from referee.games import REGISTRY
from tests.api.helpers import Client, Game, assert_problem, create_game, detail, play

SEED = "c0ffee" * 8


async def next_command(client: Client, game: Game, rng: random.Random) -> dict[str, Any] | None:
    """Send a legal command for the seat to act: its answer, or None once the game is over."""
    state = await detail(client, game)
    if state["status"] == "finished":
        return None
    (seat,) = state["to_act"]
    url = f"{game.url}/legal-commands"
    commands = (await client.get(url, params={"limit": 20}, headers=game.auth(seat))).json()
    command = rng.choice(commands["commands"])
    if rng.random() < 0.5 and commands["commands"][0]["type"] == "coyote.challenge":
        command = commands["commands"][0]
    response = await play(client, game, seat, command)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


async def finished_game(client: Client, **fields: Any) -> Game:
    game = await create_game(client, **fields)
    rng = random.Random(7)
    while await next_command(client, game, rng) is not None:
        pass
    return game


async def everything_readable(client: Client, game: Game) -> list[str]:
    """Every answer the API gives about a game, to every caller."""
    version = (await detail(client, game))["version"]
    callers = [{}, *(game.auth(seat) for seat in game.tokens)]
    urls = [game.url, f"{game.url}/events", f"{game.url}/audit", f"{game.url}/export"]
    urls += [f"{game.url}/states/1", f"{game.url}/states/{version}"]
    texts = [(await client.get("/v1/games", params={"limit": 100})).text]
    for headers in callers:
        for url in urls:
            texts.append((await client.get(url, headers=headers)).text)
    for seat in game.tokens:
        legal = await client.get(f"{game.url}/legal-commands", headers=game.auth(seat))
        texts.append(legal.text)
    return texts


async def test_the_seed_stays_secret_until_the_end_then_is_revealed(client: Client) -> None:
    game = await create_game(client, seats=3, options={"feathers": 1}, seed=SEED, entropy="ours")
    assert game.created["commitment"] == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    assert game.created["seed_chosen_by_creator"] is True
    rng = random.Random(1)
    answers = [json.dumps(game.created)]
    answer: dict[str, Any] | None = {"status": "active"}
    while answer is not None and answer["status"] != "finished":
        answers += [json.dumps(answer), *await everything_readable(client, game)]
        answer = await next_command(client, game, rng)
    assert all(SEED not in text and SEED.upper() not in text for text in answers)
    assert answer is not None, "the last command's answer"
    assert answer["events"][-1]["event"] == {"type": "game.seed-revealed", "seed": SEED}
    events = (await client.get(f"{game.url}/events")).json()["events"]
    created = events[0]["event"]
    assert created["type"] == "game.created"
    assert (created["commitment"], created["entropy"]) == (game.created["commitment"], "ours")
    assert created["seed_chosen_by_creator"] is True
    assert (await detail(client, game))["seed_chosen_by_creator"] is True


async def test_a_seed_the_referee_draws_is_revealed_and_matches(client: Client) -> None:
    game = await finished_game(client, seats=3, options={"feathers": 1})
    summary = await detail(client, game)
    assert summary["seed_chosen_by_creator"] is False
    events = (await client.get(f"{game.url}/events")).json()["events"]
    seed = bytes.fromhex(events[-1]["event"]["seed"])
    assert len(seed) == 32
    assert hashlib.sha256(seed).hexdigest() == game.created["commitment"]


async def test_a_finished_game_audits_exports_and_verifies(client: Client) -> None:
    game = await finished_game(client, seats=4, options={"shaman": True}, entropy="x")
    audit = await client.get(f"{game.url}/audit")
    assert audit.status_code == 200, audit.text
    assert audit.json()["verdict"] == "passed"
    assert {check["verdict"] for check in audit.json()["checks"]} == {"passed"}

    export = await client.get(f"{game.url}/export")
    assert export.status_code == 200
    assert export.headers["content-type"].startswith("application/json")
    assert f"coyote-{game.id}.json" in export.headers["content-disposition"]
    assert verify_file(export.content, REGISTRY).verdict == "passed"
    assert json.loads(export.content)["seed"] is not None

    uploaded = await client.post("/v1/audits", content=export.content)
    assert uploaded.status_code == 200, uploaded.text
    report = uploaded.json()
    assert report["verdict"] == "passed" and report["checks"][0]["id"] == "bundle"
    assert report["head_hash"] == audit.json()["head_hash"]

    position = len(export.content) // 2
    changed = bytearray(export.content)
    changed[position] ^= 0x04
    tampered = await client.post("/v1/audits", content=bytes(changed))
    if tampered.status_code == 200:
        assert tampered.json()["verdict"] == "failed"
    else:
        assert_problem(tampered, 400, "malformed-request")


async def test_a_running_game_is_audited_but_not_exported(client: Client) -> None:
    game = await create_game(client, seats=3, seed=SEED)
    await next_command(client, game, random.Random(2))
    audit = await client.get(f"{game.url}/audit")
    assert audit.status_code == 200
    assert audit.json()["verdict"] == "partial"
    skipped = {check["id"] for check in audit.json()["checks"] if check["verdict"] == "skipped"}
    assert skipped == {"seed", "chance"}
    assert SEED not in audit.text
    assert_problem(await client.get(f"{game.url}/export"), 409, "game-not-finished")


async def test_what_is_not_a_bundle_is_a_400_problem(client: Client) -> None:
    for body in (b"", b"not json", b"[]", b'{"format":"referee.game-bundle","format_version":9}'):
        assert_problem(await client.post("/v1/audits", content=body), 400, "malformed-request")


async def test_a_bundle_too_large_is_a_413_problem(client: Client) -> None:
    response = await client.post("/v1/audits", content=b" " * (MAX_BUNDLE_BYTES + 1))
    assert_problem(response, 413, "payload-too-large")


async def test_an_unknown_game_has_no_audit_and_no_export(client: Client) -> None:
    unknown = "/v1/games/00000000-0000-4000-8000-000000000000"
    assert_problem(await client.get(f"{unknown}/audit"), 404, "not-found")
    assert_problem(await client.get(f"{unknown}/export"), 404, "not-found")
