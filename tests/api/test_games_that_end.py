"""Games that always end, over HTTP: resignations, time controls and timeout claims, the
sweeper's claims and abandonment, bots seated by the server. Time is the test's: the app's clock
is set, never waited for, and every such game is audited (its re-execution reads the recorded
times)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from litestar import Litestar
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from api.app import create_app
from api.config import Settings
from api.sweeper import FIRST_REST_SECONDS, Sweeper
from tests.api.conftest import running_app
from tests.api.helpers import Client, Game, assert_problem, create_game, detail, play
from tests.tamper import behind_the_back

ABANDON_AFTER = 3600.0


class SetClock:
    """The app's clock, moved on by the test. It starts a month back, so that the games of the
    other tests, recorded at the real time, are neither idle nor due for these apps' sweepers."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC) - timedelta(days=30)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@dataclasses.dataclass
class Timed:
    client: Client
    clock: SetClock
    app: Litestar

    @property
    def sweeper(self) -> Sweeper:
        sweeper: Sweeper = self.app.state.sweeper
        return sweeper


async def timed_app(settings: Settings, clock: SetClock) -> AsyncIterator[Timed]:
    """An app of its own, on the test's clock, whose sweeper runs only when the test says."""
    own = dataclasses.replace(
        settings, sweep_interval_seconds=0, abandon_after_seconds=ABANDON_AFTER
    )
    async for app in running_app(create_app(own, clock=clock)):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield Timed(client, clock, app)


CLOCK = SetClock()  # one time for the two apps below: two processes on synchronised clocks


@pytest.fixture(scope="module")
async def timed(settings: Settings) -> AsyncIterator[Timed]:
    async for app in timed_app(settings, CLOCK):
        yield app


@pytest.fixture(scope="module")
async def other_timed(settings: Settings) -> AsyncIterator[Timed]:
    """A second process on the same database and clock, with its own caches and sweeper."""
    async for app in timed_app(settings, CLOCK):
        yield app


async def audited(client: Client, game: Game) -> dict[str, Any]:
    """Every check passes (a running game's: every check that can run without its seed)."""
    audit: dict[str, Any] = (await client.get(f"{game.url}/audit")).json()
    if audit["status"] == "active":
        assert audit["verdict"] == "partial", audit
        assert all(check["verdict"] != "failed" for check in audit["checks"]), audit
        return audit
    assert audit["verdict"] == "passed", audit
    exported = await client.get(f"{game.url}/export")
    verified = await client.post("/v1/audits", content=exported.content)
    assert verified.json()["verdict"] == "passed", verified.text
    return audit


async def test_a_resignation_ends_a_two_player_game(timed: Timed) -> None:
    client = timed.client
    game = await create_game(client, "tribu", seats=2)
    not_to_act = 1 - (await detail(client, game))["to_act"][0]
    response = await play(client, game, not_to_act, {"type": "game.resign"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "finished" and body["to_act"] == []
    assert body["outcome"]["ending"] == "resignation"
    assert body["outcome"]["winners"] == [1 - not_to_act]
    assert [event["event"]["type"] for event in body["events"]] == [
        "game.resigned",
        "game.seed-revealed",
    ]
    assert (await detail(client, game))["left"] == [{"seat": not_to_act, "how": "resignation"}]
    await audited(client, game)


async def test_in_a_larger_game_the_referee_plays_for_the_seat_that_left(timed: Timed) -> None:
    client = timed.client
    game = await create_game(client, "wind-river", seats=3)
    to_act = (await detail(client, game))["to_act"][0]
    leaver = (to_act + 1) % 3
    assert (await play(client, game, leaver, {"type": "game.resign"})).status_code == 200
    refused = await play(client, game, leaver, {"type": "game.resign"})
    assert_problem(refused, 422, "rule-violation", "kernel.seat-left")
    stood_in = False
    for _ in range(400):  # the others play; whenever it is the leaver's turn the referee moves
        now = await detail(client, game)
        if now["status"] == "finished":
            break
        seat = now["to_act"][0]
        assert seat != leaver
        legal = await client.get(f"{game.url}/legal-commands", headers=game.auth(seat))
        command = legal.json()["commands"][0]
        result = (await play(client, game, seat, command)).json()
        stood_in |= any(e["event"]["type"] == "game.stand-in" for e in result["events"])
    final = await detail(client, game)
    assert final["status"] == "finished" and stood_in
    assert leaver not in final["outcome"]["winners"]
    assert final["outcome"]["ranking"][-1] == [leaver]
    await audited(client, game)


async def test_a_timeout_is_claimed_only_once_the_time_has_run_out(timed: Timed) -> None:
    client, clock = timed.client, timed.clock
    game = await create_game(client, "big-manitou", seats=2, time_control={"per_move_seconds": 30})
    start = await detail(client, game)
    assert start["time_control"]["per_move_seconds"] == 30
    silent = start["to_act"][0]
    other = 1 - silent
    (clock_of_silent,) = [c for c in start["clocks"] if c["seat"] == silent]
    assert clock_of_silent["running"] is True
    deadline = datetime.fromisoformat(clock_of_silent["deadline"])
    assert deadline == clock.now + timedelta(seconds=30)
    clock.advance(29.5)
    claim = {"type": "game.claim-timeout", "seat": silent}
    assert_problem(
        await play(client, game, other, claim), 422, "rule-violation", "kernel.time-remains"
    )
    clock.advance(0.5)
    legal = await client.get(f"{game.url}/legal-commands", headers=game.auth(silent))
    late = await play(client, game, silent, legal.json()["commands"][0])
    assert_problem(late, 422, "rule-violation", "kernel.out-of-time")
    response = await play(client, game, other, claim)
    assert response.status_code == 200, response.text
    outcome = response.json()["outcome"]
    assert outcome["ending"] == "timeout" and outcome["winners"] == [other]
    await audited(client, game)


async def test_the_sweeper_claims_for_the_referee(timed: Timed) -> None:
    client, clock = timed.client, timed.clock
    game = await create_game(
        client, "coyote", seats=3, time_control={"total_seconds": 60, "increment_seconds": 2}
    )
    assert await timed.sweeper.sweep() == 0 or (await detail(client, game))["status"] == "active"
    clock.advance(60)
    await timed.sweeper.sweep()
    now = await detail(client, game)
    assert [gone["how"] for gone in now["left"]] == ["timeout"]
    events = (await client.get(f"{game.url}/events")).json()["events"]
    claimed = [e for e in events if e["event"]["type"] == "game.timed-out"]
    assert len(claimed) == 1 and claimed[0]["seat"] is None  # the referee's own command
    await audited(client, game)


async def test_two_processes_sweeping_at_once_claim_once(timed: Timed, other_timed: Timed) -> None:
    client = timed.client
    game = await create_game(client, "big-manitou", seats=3, time_control={"per_move_seconds": 5})
    await other_timed.client.get(game.url)  # the other process has the game in its cache too
    timed.clock.advance(5)
    await asyncio.gather(timed.sweeper.sweep(), other_timed.sweeper.sweep())
    events = (await client.get(f"{game.url}/events", params={"limit": 1000})).json()["events"]
    timed_out = [e["event"]["seat"] for e in events if e["event"]["type"] == "game.timed-out"]
    assert len(timed_out) == len(set(timed_out)) >= 1, timed_out  # each seat claimed once
    await audited(client, game)


async def test_a_sweep_goes_on_past_a_game_it_cannot_attend(
    timed: Timed, other_timed: Timed, superuser_conn: AsyncConnection[TupleRow]
) -> None:
    client = timed.client
    timing = {"per_move_seconds": 5}
    damaged = await create_game(client, "coyote", seats=3, time_control=timing)
    sound = await create_game(client, "coyote", seats=3, time_control=timing)
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute(
            "UPDATE events SET body = %s WHERE game_id = %s AND seq = 3", [b"{oops", damaged.id]
        )
    timed.clock.advance(5)
    sweeper = other_timed.sweeper  # a process that has neither game in its cache
    await sweeper.sweep()
    assert [gone["how"] for gone in (await detail(client, sound))["left"]] == ["timeout"]
    assert_problem(await other_timed.client.get(damaged.url), 409, "corrupt-stream")
    # The damaged game rests, longer each time it fails, so that such games cannot fill sweeps.
    assert sweeper.resting(timed.clock.now) == [damaged.id]
    rested = timed.clock.now + timedelta(seconds=FIRST_REST_SECONDS)
    assert sweeper.resting(rested) == []
    timed.clock.now = rested
    await sweeper.sweep()  # due again, fails again: twice as long
    assert sweeper.resting(rested + timedelta(seconds=2 * FIRST_REST_SECONDS - 0.001)) == [
        damaged.id
    ]
    timed.clock.now = rested + timedelta(seconds=2 * FIRST_REST_SECONDS)
    assert sweeper.resting(timed.clock.now) == []


async def test_an_idle_game_is_closed_as_abandoned(timed: Timed) -> None:
    client, clock = timed.client, timed.clock
    game = await create_game(client, "manitou-island", seats=2)
    clock.advance(ABANDON_AFTER - 1)
    await timed.sweeper.sweep()
    assert (await detail(client, game))["status"] == "active"
    clock.advance(1)
    await timed.sweeper.sweep()
    final = await detail(client, game)
    assert final["status"] == "finished"
    assert final["outcome"]["ending"] == "abandoned" and final["outcome"]["winners"] == []
    events = (await client.get(f"{game.url}/events")).json()["events"]
    assert [e["event"]["type"] for e in events[-2:]] == ["game.abandoned", "game.seed-revealed"]
    await audited(client, game)


async def test_a_person_plays_alone_against_the_servers_bots(timed: Timed) -> None:
    client = timed.client
    bots = [{"seat": 1, "strategy": "random"}, {"seat": 2, "strategy": "random"}]
    game = await create_game(client, "coyote", seats=3, bots=bots)
    assert (await detail(client, game))["bots"] == bots
    for _ in range(2000):
        await timed.sweeper.sweep()  # the bots move now, if the creation's nudge has not
        now = await detail(client, game)
        if now["status"] == "finished":
            break
        if 0 in now["to_act"]:
            legal = await client.get(f"{game.url}/legal-commands", headers=game.auth(0))
            command = legal.json()["commands"][-1]
            await play(client, game, 0, command, expected_version=now["version"])
    final = await detail(client, game)
    assert final["status"] == "finished"
    events = (await client.get(f"{game.url}/events", params={"limit": 1000})).json()["events"]
    assert {e["seat"] for e in events if e["seat"] is not None} == {0, 1, 2}
    await audited(client, game)


async def test_a_bot_only_game_plays_itself_to_the_end(timed: Timed) -> None:
    client = timed.client
    bots = [{"seat": seat, "strategy": "random"} for seat in range(2)]
    game = await create_game(client, "manitou-island", seats=2, bots=bots)
    for _ in range(600):  # the creation's nudge plays it in the background
        if (await detail(client, game))["status"] == "finished":
            break
        await asyncio.sleep(0.05)
    final = await detail(client, game)
    assert final["status"] == "finished", final["version"]
    await audited(client, game)


@pytest.mark.parametrize(
    ("fields", "status", "slug", "rule"),
    [
        ({"time_control": {}}, 422, "rule-violation", "kernel.time-control"),
        ({"time_control": {"per_move_seconds": -1}}, 400, "malformed-request", None),
        ({"time_control": {"per_move_seconds": 5, "hours": 1}}, 400, "malformed-request", None),
        ({"bots": [{"seat": 3}]}, 422, "rule-violation", "kernel.bot-seats"),
        ({"bots": [{"seat": 0}, {"seat": 0}]}, 422, "rule-violation", "kernel.bot-seats"),
        ({"bots": [{"seat": 0, "strategy": "clever"}]}, 400, "malformed-request", None),
    ],
)
async def test_bad_table_settings_are_refused(
    timed: Timed, fields: dict[str, Any], status: int, slug: str, rule: str | None
) -> None:
    response = await timed.client.post("/v1/games", json={"kind": "coyote", "seats": 3, **fields})
    assert_problem(response, status, slug, rule)


async def test_kernel_commands_refused_where_they_do_not_apply(timed: Timed) -> None:
    client = timed.client
    game = await create_game(client, "coyote", seats=3)
    claim = {"type": "game.claim-timeout", "seat": 0}
    assert_problem(
        await play(client, game, 1, claim), 422, "rule-violation", "kernel.no-time-control"
    )
    abandon = {"type": "game.abandon", "idle_seconds": 1}
    assert_problem(await play(client, game, 1, abandon), 400, "malformed-request")
    assert (await detail(client, game))["version"] == game.created["version"]
