"""Unknown fields in a request body, at any depth, are refused with a 400 and change nothing: a
misspelt or invented field never passes silently (nor is it stored without a word)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from api.bundle import Bundle
from api.openapi import structs_of
from api.schemas import AnyNewGame, CommandRequest
from eventstore.store import EventStore
from referee.games import REGISTRY
from referee.kernel.registry import AnyGame
from tests.api.helpers import Client, Ledger, assert_problem, create_game, detail, play

UNKNOWN = "evil"


def with_an_unknown_field(value: Any) -> Iterator[Any]:
    """`value` once per object in it, that object with one field more."""
    if isinstance(value, dict):
        yield {**value, UNKNOWN: 1}
        for key, item in value.items():
            for changed in with_an_unknown_field(item):
                yield {**value, key: changed}
    elif isinstance(value, list):
        for index, item in enumerate(value):
            for changed in with_an_unknown_field(item):
                yield [*value[:index], changed, *value[index + 1 :]]


def objects_in(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + sum(objects_in(item) for item in value.values())
    if isinstance(value, list):
        return sum(objects_in(item) for item in value)
    return 0


async def a_legal_command(client: Client, game: Any) -> tuple[int, dict[str, Any]]:
    """A seat to act and the command it may send with the most objects in it."""
    seat = (await detail(client, game))["to_act"][0]
    response = await client.get(f"{game.url}/legal-commands?limit=200", headers=game.auth(seat))
    assert response.status_code == 200, response.text
    commands: list[dict[str, Any]] = response.json()["commands"]
    return seat, max(commands, key=objects_in)


@pytest.mark.parametrize("kind", list(REGISTRY), ids=lambda game: game.kind)
async def test_unknown_fields_in_a_command_are_400_at_any_depth(
    client: Client, event_store: EventStore, kind: AnyGame
) -> None:
    game = await create_game(client, kind=kind.kind, seats=kind.min_seats, seed="ef" * 32)
    ledger = Ledger(event_store, game)
    before = await ledger.snapshot()
    seat, command = await a_legal_command(client, game)
    variants = list(with_an_unknown_field({"command": command}))
    assert len(variants) == objects_in({"command": command})
    for body in variants:
        response = await client.post(f"{game.url}/commands", json=body, headers=game.auth(seat))
        assert_problem(response, 400, "malformed-request")
        assert UNKNOWN in response.json()["detail"], (body, response.text)
    assert await ledger.snapshot() == before
    accepted = await play(client, game, seat, copy.deepcopy(command))
    assert accepted.status_code == 200, accepted.text


async def test_unknown_fields_in_a_new_game_are_400_at_any_depth(client: Client) -> None:
    kinds = (await client.get("/v1/kinds")).json()["kinds"]
    for kind in kinds:
        body = {"kind": kind["kind"], "seats": kind["min_seats"], "options": {}}
        for changed in with_an_unknown_field(body):
            response = await client.post("/v1/games", json=changed)
            assert_problem(response, 400, "malformed-request")
            assert UNKNOWN in response.json()["detail"], (changed, response.text)


def test_every_struct_of_every_request_body_forbids_unknown_fields() -> None:
    """Commands and options of every kind, what they nest (a space, a hex), and bundles."""
    lenient = [
        f"{cls.__module__}.{cls.__qualname__}"
        for cls in structs_of([AnyNewGame, CommandRequest, Bundle])
        if not cls.__struct_config__.forbid_unknown_fields
    ]
    assert lenient == []
