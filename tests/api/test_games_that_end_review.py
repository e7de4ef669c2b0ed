"""Review of "games that always end": cases the first tests of the feature missed.

Each test here first failed on the feature as it landed; the commit after it says the fix.
Time is the test's (the apps' clocks are set, never waited for), as in test_games_that_end.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from api.config import Settings
from referee.games import REGISTRY
from tests.api.helpers import Client, assert_problem, create_game, detail, play
from tests.api.test_games_that_end import SetClock, Timed, audited, timed_app

NO_GREEDY = [game.kind for game in REGISTRY if game.imagine is None or game.evaluate is None]


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


@pytest.mark.parametrize("kind", NO_GREEDY)
async def test_a_greedy_server_bot_is_refused_where_the_game_has_no_greedy_bot(
    behind: Timed, kind: str
) -> None:
    """Seating a greedy bot (the default strategy) in a kind with no `bots.py` made a game
    that never moved: its bot raised at every sweep. The creation must say so instead."""
    seats = REGISTRY[kind].min_seats
    for bots in ([{"seat": 0}], [{"seat": 0, "strategy": "greedy"}]):
        response = await behind.client.post(
            "/v1/games", json={"kind": kind, "seats": seats, "bots": bots}
        )
        assert_problem(response, 422, "rule-violation", "kernel.bot-strategy")
    fine = await behind.client.post(
        "/v1/games",
        json={"kind": kind, "seats": seats, "bots": [{"seat": 0, "strategy": "random"}]},
    )
    assert fine.status_code == 201, fine.text


async def test_one_game_the_sweeper_cannot_attend_does_not_stop_it_attending_the_others(
    behind: Timed,
) -> None:
    """A game whose visit raises (here a server bot that cannot choose) stays due: the sweep
    must still attend every other game due, not stop at the first that fails."""
    client, sweeper = behind.client, behind.sweeper
    game = await create_game(client, "manitou-island", seats=2, time_control={"total_seconds": 5})
    broken = await create_game(
        client, "manitou-island", seats=2, bots=[{"seat": 0, "strategy": "random"}]
    )
    silent = (await detail(client, game))["to_act"][0]

    def cannot_choose(*args: object, **kwargs: object) -> Any:
        raise RuntimeError("this bot cannot choose")

    import api.sweeper as module

    original = module.bot_play
    module.bot_play = cannot_choose  # type: ignore[assignment]
    try:
        BASE.advance(5)
        # Whatever order the due games come in, the claim in `game` is made this sweep.
        await sweeper.sweep()
    finally:
        module.bot_play = original
    now = await detail(client, game)
    assert now["left"] == [{"seat": silent, "how": "timeout"}], now["left"]
    assert (await detail(client, broken))["status"] == "active"
    await audited(client, game)


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
