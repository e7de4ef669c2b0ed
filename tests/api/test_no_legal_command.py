"""A seat to act with no legal command, over the real stack: the kernel's contract forbids it
(`Game.to_act`), but a game recorded under an older rules version can hold such a position (Tribù
version 1 did: TR-13). Whoever would move for that seat refuses clearly and changes nothing: the
referee standing in for it (a resignation answered 422 `kernel.no-legal-command`), the server's
bots (the sweeper logs the game and rests it, then leaves it to abandonment), `referee bot`
(it stops with the reason).

The game here is Coyote with its legal commands taken away: a game that breaks the contract at
every step, registered in this test's app only, on the test run's PostgreSQL.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from structlog.testing import capture_logs

from api.app import create_app
from api.botclient import BotError, _Bot
from api.config import Settings
from api.sweeper import Sweeper
from referee.games import REGISTRY
from referee.kernel import Registry
from tests.api.conftest import running_app
from tests.api.helpers import assert_problem, create_game, detail, play

COYOTE = REGISTRY["coyote"]


def no_legal_command(state: Any, seat: int) -> list[Any]:
    return []


STUCK = dataclasses.replace(COYOTE, legal_commands=no_legal_command)
STUCK_REGISTRY = Registry(
    [STUCK, *(game for game in REGISTRY.all_versions() if game is not COYOTE)]
)


@pytest.fixture(scope="module")
async def stuck(settings: Settings) -> AsyncIterator[tuple[httpx.AsyncClient, Sweeper]]:
    """An app whose Coyote lists no legal command; its sweeper sweeps when the test says."""
    app = create_app(settings, STUCK_REGISTRY)
    async for running in running_app(app):
        transport = httpx.ASGITransport(app=running)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client, running.state.sweeper


async def test_the_referee_does_not_stand_in_for_a_seat_without_a_move(
    stuck: tuple[httpx.AsyncClient, Sweeper],
) -> None:
    client, _ = stuck
    game = await create_game(client, "coyote", seats=3)
    before = await detail(client, game)
    seat = before["to_act"][0]
    response = await play(client, game, seat, {"type": "game.resign"})
    assert_problem(response, 422, "rule-violation", "kernel.no-legal-command")
    assert f"Seat {seat}" in response.json()["detail"]
    after = await detail(client, game)
    assert after["version"] == before["version"] and after["left"] == []


async def test_the_sweeper_logs_and_rests_a_game_whose_bot_has_no_move(
    stuck: tuple[httpx.AsyncClient, Sweeper],
) -> None:
    client, sweeper = stuck
    bots = [{"seat": seat, "strategy": "random"} for seat in range(3)]
    with capture_logs() as logs:
        game = await create_game(client, "coyote", seats=3, bots=bots)
        version = (await detail(client, game))["version"]
        assert await sweeper.sweep() == 0
    stuck_lines = [line for line in logs if line["event"].startswith("game waits for a seat")]
    assert stuck_lines and all(line["log_level"] == "warning" for line in stuck_lines)
    assert stuck_lines[-1]["game_id"] == game.id
    assert stuck_lines[-1]["rule_id"] == "kernel.no-legal-command"
    assert not [line for line in logs if line["log_level"] in ("error", "critical")]
    assert game.id in sweeper.resting(sweeper._service.clock())
    assert (await detail(client, game))["version"] == version


async def test_referee_bot_stops_with_the_reason(stuck: tuple[httpx.AsyncClient, Sweeper]) -> None:
    client, _ = stuck
    game = await create_game(client, "coyote", seats=3)
    seat = (await detail(client, game))["to_act"][0]
    bot = _Bot(client, game.id, game.tokens[seat], "random", random.Random(1), patience=5)
    with pytest.raises(BotError, match=f"Seat {seat} is to act but its rules leave it no legal"):
        await bot.play()
