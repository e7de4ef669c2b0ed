"""Games that always end, across processes and clocks: cases the first tests of the feature missed.

Each test here first failed on the feature as it landed; the commit after it says the fix.
Time is the test's (the apps' clocks are set, never waited for), as in test_games_that_end.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from api.config import Settings
from tests.api.helpers import Client, assert_problem, create_game, detail, play
from tests.api.test_games_that_end import SetClock, Timed, audited, timed_app


class OffsetClock(SetClock):
    """Another process's clock: `offset` seconds from the first's (clocks are never in step)."""

    def __init__(self, base: SetClock, offset: float) -> None:
        self.base = base
        self.offset = offset

    def __call__(self) -> datetime:
        return self.base.now + timedelta(seconds=self.offset)


BASE = SetClock()


@pytest.fixture(scope="module")
async def ahead(settings: Settings) -> AsyncIterator[Timed]:
    """A process whose clock is a quarter of a second ahead of `behind`'s."""
    async for app in timed_app(settings, OffsetClock(BASE, 0.25)):
        yield app


@pytest.fixture(scope="module")
async def behind(settings: Settings) -> AsyncIterator[Timed]:
    async for app in timed_app(settings, OffsetClock(BASE, 0.0)):
        yield app


async def first_legal(client: Client, game: Any, seat: int) -> dict[str, Any]:
    legal = await client.get(f"{game.url}/legal-commands", headers=game.auth(seat))
    command: dict[str, Any] = legal.json()["commands"][0]
    return command


@pytest.mark.parametrize("timed_game", [False, True])
async def test_commands_taken_by_processes_whose_clocks_differ_still_audit(
    ahead: Timed, behind: Timed, timed_game: bool
) -> None:
    """Two API processes on one database never have exactly the same clock. A command taken
    by the process that is behind, right after one taken by the process that is ahead, must
    not make an honest game fail its audit (the `stream` check holds commands in time order)."""
    fields: dict[str, Any] = {"time_control": {"per_move_seconds": 600}} if timed_game else {}
    game = await create_game(ahead.client, "wind-river", seats=3, **fields)
    for process in (ahead, behind, ahead, behind):
        seat = (await detail(process.client, game))["to_act"][0]
        command = await first_legal(process.client, game, seat)
        response = await play(process.client, game, seat, command)
        assert response.status_code == 200, response.text
    report = (await behind.client.get(f"{game.url}/audit")).json()
    failed = [check for check in report["checks"] if check["verdict"] == "failed"]
    assert not failed, failed
    # Whoever recorded them, the commands' times never go back.
    exported = (await behind.client.get(f"{game.url}/audit")).json()
    assert exported["verdict"] in ("partial", "passed"), exported


async def test_a_resignation_after_the_end_is_a_problem_not_an_error(behind: Timed) -> None:
    client = behind.client
    game = await create_game(client, "tribu", seats=2)
    assert (await play(client, game, 0, {"type": "game.resign"})).status_code == 200
    for seat in (0, 1):
        assert_problem(await play(client, game, seat, {"type": "game.resign"}), 409, "game-over")
    claim = {"type": "game.claim-timeout", "seat": 0}
    assert_problem(await play(client, game, 1, claim), 409, "game-over")


async def test_the_clock_of_a_game_created_in_another_time_zone_is_read_back_the_same(
    settings: Settings,
) -> None:
    """A process clock in another zone (a laptop's local time) records the same instant."""

    class Local(SetClock):
        def __call__(self) -> datetime:
            return BASE.now.astimezone(
                __import__("datetime").timezone(timedelta(hours=-7, minutes=-30))
            )

    async for process in timed_app(settings, Local()):
        client = process.client
        game = await create_game(
            client, "big-manitou", seats=2, time_control={"per_move_seconds": 30}
        )
        start = await detail(client, game)
        deadline = datetime.fromisoformat(start["clocks"][start["to_act"][0]]["deadline"])
        assert deadline == BASE.now.astimezone(UTC) + timedelta(seconds=30)
        assert (await play(client, game, 0, {"type": "game.resign"})).status_code == 200
        await audited(client, game)
