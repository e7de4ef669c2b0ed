"""A second rules version of a kind: new games use it, games recorded under the first still
replay, play on, audit and verify offline under the first (`Game.version` in
referee/kernel/contract.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from api.app import create_app
from api.audit import Archive
from api.cache import TableCache
from api.service import GameService
from api.verify import verify_file
from eventstore.store import EventStore
from referee.games import REGISTRY
from referee.kernel import Chance, Registry
from referee.kernel.registry import UnknownKind, UnknownRulesVersion
from tests.audit.helpers import play_game, verdicts
from tests.corpus.recorder import Player
from tests.servers import app_settings

COYOTE = REGISTRY["coyote"]


def reshuffled_opening(options: Any, seats: int, chance: Chance) -> list[Any]:
    """Coyote's opening with one extra draw first: every recorded game would deal otherwise."""
    chance.uniform(2)
    return COYOTE.opening(options, seats, chance)


COYOTE_2 = dataclasses.replace(COYOTE, version="2", opening=reshuffled_opening)
OTHERS = [game for game in REGISTRY.all_versions() if game.kind != "coyote"]
BOTH = Registry([COYOTE, COYOTE_2, *OTHERS])  # oldest first
ONLY_2 = Registry([COYOTE_2, *OTHERS])  # the first version dropped: what the registry did before


def test_the_registry_holds_every_version_and_serves_the_newest_to_new_games() -> None:
    assert BOTH["coyote"] is COYOTE_2
    assert BOTH.versions("coyote") == [COYOTE, COYOTE_2]
    assert BOTH.rules("coyote", "1") is COYOTE and BOTH.rules("coyote", "2") is COYOTE_2
    assert [game.kind for game in BOTH] == [game.kind for game in REGISTRY]  # one per kind
    assert len(list(BOTH.all_versions())) == len(list(REGISTRY.all_versions())) + 1
    with pytest.raises(UnknownRulesVersion):
        BOTH.rules("coyote", "3")
    with pytest.raises(UnknownKind):
        BOTH.rules("chess", "1")
    with pytest.raises(ValueError, match="twice"):
        Registry([COYOTE, COYOTE])


@pytest.fixture
def services(event_store: EventStore) -> tuple[GameService, GameService]:
    """The service as it was when the game was recorded (version 1 only), and after the new
    version was registered beside it."""
    return (
        GameService(event_store, REGISTRY, TableCache(8)),
        GameService(event_store, BOTH, TableCache(8)),
    )


async def test_a_game_recorded_under_the_first_version_plays_on_and_audits(
    services: tuple[GameService, GameService], event_store: EventStore
) -> None:
    before, after = services
    game_id = await play_game(before, commands=6)  # recorded under rules 1, still running
    table = await after.table(game_id)
    assert table.game is COYOTE and table.created.rules_version == "1"

    player = Player("on under rules 1")
    while not table.outcome().finished:  # played to the end by the new server
        seat, command = player.choose(table)
        table = (await after.play(game_id, seat, command)).table
        assert table.game is COYOTE

    report = await Archive(event_store, BOTH).audit(game_id)
    assert report.rules_version == "1"
    assert report.verdict == "passed", report
    assert set(verdicts(report).values()) == {"passed"}

    bundle, data = await Archive(event_store, BOTH).export(game_id)
    assert bundle.rules_version == "1"
    assert verify_file(data, BOTH).verdict == "passed"  # offline, no database
    dropped = verify_file(data, ONLY_2)
    assert dropped.verdict == "failed"
    assert verdicts(dropped)["rules-version"] == "failed"


async def test_new_games_are_played_under_the_newest_version(
    services: tuple[GameService, GameService], event_store: EventStore
) -> None:
    _, after = services
    game_id = await play_game(after)
    table = await after.table(game_id)
    assert table.game is COYOTE_2 and table.created.rules_version == "2"
    assert (await event_store.info(game_id)).rules_version == "2"
    report = await Archive(event_store, BOTH).audit(game_id)
    assert report.verdict == "passed" and report.rules_version == "2"


@asynccontextmanager
async def app_with(registry: Registry, database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    """The real app, with `registry`, on the test database."""
    settings = app_settings(database_url, pool_min_size=1, pool_max_size=2)
    app = create_app(settings, registry)
    async with app.lifespan():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client


async def test_the_api_lists_the_versions_and_serves_old_games_under_their_own(
    database_url: str, services: tuple[GameService, GameService]
) -> None:
    async with app_with(BOTH, database_url) as client:
        await old_and_new_over_http(client, services[0])


async def old_and_new_over_http(client: httpx.AsyncClient, before: GameService) -> None:
    kinds = {item["kind"]: item for item in (await client.get("/v1/kinds")).json()["kinds"]}
    assert kinds["coyote"]["rules_version"] == "2"
    assert kinds["coyote"]["rules_versions"] == ["1", "2"]
    assert kinds["tribu"]["rules_version"] == "2"  # Tribù's own second version (TR-13, TR-15)
    assert kinds["tribu"]["rules_versions"] == ["1", "2"]
    assert kinds["wind-river"]["rules_versions"] == [kinds["wind-river"]["rules_version"]]

    old = await play_game(before, commands=4)
    detail = (await client.get(f"/v1/games/{old}")).json()
    assert detail["rules_version"] == "1"
    audit = (await client.get(f"/v1/games/{old}/audit")).json()
    assert audit["rules_version"] == "1" and audit["verdict"] == "partial", audit
    assert {check["id"]: check["verdict"] for check in audit["checks"]}["rules-version"] == (
        "passed"
    )

    created = await client.post("/v1/games", json={"kind": "coyote", "seats": 3})
    assert created.status_code == 201 and created.json()["rules_version"] == "2"
