"""Held apart: games that always end, checked as the issue says they will be, against real
`referee serve` processes over HTTP on the test run's PostgreSQL (nothing of ours mocked).

- A seat goes silent in a timed game: claims too early are refused, its late move is refused,
  another seat's claim is accepted; in another game the servers' own sweepers (two processes)
  claim every silent seat, each once.
- Resignations at awkward moments: during Big Manitou's simultaneous choice of cards, and during
  Tribù's answer window (the defender's, out of turn), in timed games.
- Bots of both strategies play every kind to the end: the server's own bots, and `referee bot`.
- Every finished game is exported and verified offline with `referee verify` (README, "Proving
  a game"); every refusal met on the way is a 4xx problem+json, never a 500.

Time is real here (real processes). The only waits are to a deadline the server itself
recorded and showed (`clocks[].deadline`), with limits of one or two seconds; claims are then
checked against the recorded times by the audit's re-execution.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from referee.games import REGISTRY
from tests.reliability.conftest import Serve
from tests.servers import Server

REFEREE = Path(sys.executable).parent / "referee"
PROBLEM = "urn:referee:problem:"
KINDS = [game.kind for game in REGISTRY]
PER_MOVE = 2.0  # seconds: the silent seat's limit; every other move is made well within it
GAME_PATIENCE = 600.0  # seconds for a game of bots to end; never a measured duration
MOVES = 5000  # a game played by the test ends well before this many commands


# -- servers and the HTTP helpers --------------------------------------------------------------


@pytest.fixture(scope="module")
def quiet(serve: Serve) -> Server:
    """A server whose sweeper never sweeps (its bots still move when nudged): claims are the
    seats' own."""
    return serve(sweep_interval_seconds=0, expensive_reads_per_minute=0)


@pytest.fixture(scope="module")
def http(quiet: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=quiet.url, timeout=60) as client:
        yield client


class Game:
    def __init__(self, http: httpx.Client, created: dict[str, Any]) -> None:
        self.http = http
        self.id: str = created["game_id"]
        self.url = f"/v1/games/{self.id}"
        self.tokens = {item["seat"]: item["token"] for item in created["seat_tokens"]}
        self.created = created

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def detail(self, seat: int | None = None) -> dict[str, Any]:
        response = self.http.get(self.url, headers={} if seat is None else self.auth(seat))
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def legal(self, seat: int) -> list[dict[str, Any]]:
        response = self.http.get(
            f"{self.url}/legal-commands", params={"limit": 1000}, headers=self.auth(seat)
        )
        assert response.status_code == 200, response.text
        commands: list[dict[str, Any]] = response.json()["commands"]
        return commands

    def send(self, seat: int, command: dict[str, Any], **fields: Any) -> httpx.Response:
        return self.http.post(
            f"{self.url}/commands", json={"command": command, **fields}, headers=self.auth(seat)
        )

    def play(self, seat: int, command: dict[str, Any]) -> dict[str, Any]:
        response = self.send(seat, command)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def events(self, seat: int | None = None) -> list[dict[str, Any]]:
        headers = {} if seat is None else self.auth(seat)
        response = self.http.get(f"{self.url}/events", params={"limit": 1000}, headers=headers)
        assert response.status_code == 200, response.text
        events: list[dict[str, Any]] = response.json()["events"]
        return events


def create(http: httpx.Client, kind: str, seats: int, **fields: Any) -> Game:
    response = http.post("/v1/games", json={"kind": kind, "seats": seats, **fields})
    assert response.status_code == 201, response.text
    return Game(http, response.json())


def is_problem(response: httpx.Response, status: int, slug: str, rule: str | None = None) -> None:
    """A refusal: the status, RFC 9457 problem+json of this type (and rule)."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json"), response
    body = response.json()
    assert body["type"] == PROBLEM + slug and body["status"] == status, body
    if rule is not None:
        assert body["rule_id"] == rule, body


def refused_4xx(response: httpx.Response) -> None:
    """Any refusal, as long as it is a client's problem, told as problem+json."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text)
    assert response.headers["content-type"].startswith("application/problem+json"), response
    assert response.json()["type"].startswith(PROBLEM)


def type_of(event: dict[str, Any]) -> str:
    kind: str = event["event"]["type"]
    return kind


def wait_until(moment: datetime) -> None:
    """Until a deadline the server recorded has passed (same machine, same clock)."""
    left = (moment - datetime.now(UTC)).total_seconds()
    if left > 0:
        time.sleep(left + 0.05)


def play_on(game: Game, rng: random.Random, *, avoid: int | None = None) -> dict[str, Any]:
    """Every seat to act plays one of its legal commands at random, to the game's end; the
    referee plays for seats that left (`avoid` is never to act)."""
    now = game.detail()
    for _ in range(MOVES):
        if now["status"] == "finished":
            return now
        seat = now["to_act"][0]
        assert seat != avoid, now
        legal = game.legal(seat)
        now = game.play(seat, legal[rng.randrange(len(legal))])
    raise AssertionError(f"{game.id} did not end in {MOVES} commands")


def verified_offline(game: Game, tmp_path: Path) -> dict[str, Any]:
    """The finished game's bundle, exported and verified with `referee verify` (exit 0: every
    check passed) and `python -m api.verify`; the bundle, as JSON."""
    exported = game.http.get(f"{game.url}/export")
    assert exported.status_code == 200, exported.text
    path = tmp_path / f"{game.id}.json"
    path.write_bytes(exported.content)
    done = subprocess.run(
        [str(REFEREE), "verify", str(path), "--json"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, (done.stdout, done.stderr)
    report = json.loads(done.stdout)
    assert report["verdict"] == "passed", report
    assert {check["verdict"] for check in report["checks"]} == {"passed"}, report["checks"]
    module = subprocess.run(
        [sys.executable, "-m", "api.verify", str(path)], capture_output=True, timeout=300
    )
    assert module.returncode == 0, module
    bundle: dict[str, Any] = json.loads(exported.content)
    return bundle


def times(bundle: dict[str, Any]) -> list[datetime]:
    return [datetime.fromisoformat(c["recorded_at"]) for c in bundle["commands"]]


# -- a seat goes silent --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_a_silent_seat_is_claimed_by_another_seat(
    http: httpx.Client, kind: str, tmp_path: Path
) -> None:
    seats = REGISTRY[kind].min_seats
    game = create(http, kind, seats, time_control={"per_move_seconds": PER_MOVE})
    rng = random.Random(kind)
    now = game.detail()
    for _ in range(4):  # a little into the game: the limit restarts with every move
        seat = now["to_act"][0]
        legal = game.legal(seat)
        now = game.play(seat, legal[rng.randrange(len(legal))])
    assert now["status"] == "active", now
    silent = now["to_act"][0]
    claimant = next(seat for seat in range(seats) if seat != silent)
    idle = [seat for seat in range(seats) if seat not in now["to_act"]]
    claim = {"type": "game.claim-timeout", "seat": silent}
    version = now["version"]

    # Too early, its own, a seat not on the clock, a seat that does not exist: refused.
    is_problem(game.send(claimant, claim), 422, "rule-violation", "kernel.time-remains")
    is_problem(game.send(silent, claim), 422, "rule-violation", "kernel.own-timeout")
    if idle:
        off_clock = {"type": "game.claim-timeout", "seat": idle[0]}
        is_problem(game.send(silent, off_clock), 422, "rule-violation", "kernel.not-on-the-clock")
    for seat in (seats, 2**40):
        outside = {"type": "game.claim-timeout", "seat": seat}
        is_problem(game.send(claimant, outside), 422, "rule-violation", "kernel.not-on-the-clock")
    for bad in (-1, "1", None, 1.5, True, 2**70):
        refused_4xx(game.send(claimant, {"type": "game.claim-timeout", "seat": bad}))
    refused_4xx(game.send(claimant, {"type": "game.abandon", "idle_seconds": 1e9}))

    shown = game.detail(claimant)
    assert shown["version"] == version  # nothing refused was recorded
    (clock,) = [c for c in shown["clocks"] if c["seat"] == silent]
    assert clock["running"] is True
    deadline = datetime.fromisoformat(clock["deadline"])
    wait_until(deadline)

    late = game.send(silent, game.legal(silent)[0])
    is_problem(late, 422, "rule-violation", "kernel.out-of-time")
    claimed = game.play(claimant, claim)
    types = [type_of(e) for e in claimed["events"]]
    assert types[:2] == ["game.clock", "game.timed-out"], types
    assert claimed["events"][1]["event"]["seat"] == silent
    assert {"seat": silent, "how": "timeout"} in claimed["left"]
    assert silent not in claimed["to_act"]

    # The seat that timed out can do nothing more; nor can its timeout be claimed again.
    again = game.send(claimant, claim)
    gone = game.send(silent, {"type": "game.resign"})
    if claimed["status"] == "finished":
        assert claimed["outcome"]["ending"] == "timeout"
        assert claimed["outcome"]["winners"] and silent not in claimed["outcome"]["winners"]
        is_problem(again, 409, "game-over")
        is_problem(gone, 409, "game-over")
    else:
        is_problem(again, 422, "rule-violation", "kernel.not-on-the-clock")
        is_problem(gone, 422, "rule-violation", "kernel.seat-left")
        final = play_on(game, rng, avoid=silent)
        assert silent not in final["outcome"]["winners"]
        assert final["outcome"]["ranking"][-1] == [silent]

    bundle = verified_offline(game, tmp_path)
    (command,) = [c for c in bundle["commands"] if c["first_seq"] == version + 1]
    assert command["seat"] == claimant
    assert datetime.fromisoformat(command["recorded_at"]) >= deadline
    assert times(bundle) == sorted(times(bundle))


def wake_at(database_url: str, game: Game) -> datetime | None:
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT wake_at FROM games WHERE game_id = %s", (game.id,)).fetchone()
    assert row is not None
    value: datetime | None = row[0]
    return value


def test_the_server_knows_when_to_look_at_a_game_again(
    http: httpx.Client, database_url: str
) -> None:
    """`wake_at`: the first deadline of a seat to act in a timed game; none untimed, and none
    once the game is over."""
    untimed = create(http, "coyote", 3)
    assert wake_at(database_url, untimed) is None
    timed = create(http, "coyote", 3, time_control={"total_seconds": 900})
    shown = timed.detail()
    deadlines = [datetime.fromisoformat(c["deadline"]) for c in shown["clocks"] if c["running"]]
    assert wake_at(database_url, timed) == min(deadlines)
    seat = shown["to_act"][0]
    moved = timed.play(seat, timed.legal(seat)[0])
    deadlines = [datetime.fromisoformat(c["deadline"]) for c in moved["clocks"] if c["running"]]
    assert wake_at(database_url, timed) == min(deadlines)
    for leaver in range(2):
        timed.play(leaver, {"type": "game.resign"})
    assert timed.detail()["status"] == "finished"
    is_problem(timed.send(2, {"type": "game.resign"}), 409, "game-over")


# -- resignations at awkward moments ---------------------------------------------------------------


def test_resignations_during_big_manitous_simultaneous_choice(
    http: httpx.Client, tmp_path: Path
) -> None:
    game = create(
        http, "big-manitou", 3, time_control={"total_seconds": 900, "increment_seconds": 1}
    )
    start = game.detail()
    assert start["to_act"] == [0, 1, 2], start  # every seat chooses its cards at once
    chooser, leaver, last = 0, 1, 2
    chosen = game.play(chooser, game.legal(chooser)[0])
    assert sorted(chosen["to_act"]) == [leaver, last]

    resigned = game.play(leaver, {"type": "game.resign"})
    types = [type_of(e) for e in resigned["events"]]
    assert types[:4] == [
        "game.clock",
        "game.resigned",
        "game.stand-in",
        "big-manitou.cards-chosen",
    ], types
    assert resigned["to_act"] == [last] and resigned["status"] == "active"
    stood_in = resigned["events"][3]
    assert stood_in["event"]["seat"] == leaver and stood_in["event"]["cards"] is not None
    # What the referee chose for the seat that left is as hidden as any seat's choice.
    for viewer in (chooser, last, None):
        (seen,) = [e for e in game.events(viewer) if e["seq"] == stood_in["seq"]]
        assert seen["event"]["cards"] is None, (viewer, seen)
    # The seat that left acts no more, in any way.
    is_problem(game.send(leaver, game.legal(last)[0]), 422, "rule-violation", "kernel.seat-left")
    is_problem(
        game.send(leaver, {"type": "game.resign"}), 422, "rule-violation", "kernel.seat-left"
    )
    claim = {"type": "game.claim-timeout", "seat": last}
    is_problem(game.send(leaver, claim), 422, "rule-violation", "kernel.seat-left")
    assert (
        game.http.get(f"{game.url}/legal-commands", headers=game.auth(leaver)).json()["commands"]
        == []
    )

    # A seat that has chosen, and is not to act, resigns too: one seat is left, and wins.
    final = game.play(chooser, {"type": "game.resign"})
    assert final["status"] == "finished"
    assert final["outcome"]["ending"] == "resignation"
    assert final["outcome"]["winners"] == [last]
    assert final["outcome"]["ranking"] == [[last], [chooser], [leaver]]
    assert type_of(final["events"][-1]) == "game.seed-revealed"
    verified_offline(game, tmp_path)


def test_a_resignation_during_the_choice_ends_a_two_player_game(
    http: httpx.Client, tmp_path: Path
) -> None:
    game = create(http, "big-manitou", 2, time_control={"per_move_seconds": 600})
    assert game.detail()["to_act"] == [0, 1]
    game.play(1, game.legal(1)[0])  # seat 1 has chosen; seat 0 has not
    ended = game.play(0, {"type": "game.resign"})
    assert ended["status"] == "finished" and ended["outcome"]["winners"] == [1]
    assert ended["outcome"]["ending"] == "resignation"
    # Once over, everything is public, seat 1's chosen cards included.
    chosen = [e for e in game.events() if type_of(e) == "big-manitou.cards-chosen"]
    assert chosen and all(e["event"]["cards"] is not None for e in chosen)
    verified_offline(game, tmp_path)


def to_answer_window(game: Game, rng: random.Random) -> dict[str, Any]:
    """Play Tribù until an attack or a Steal waits for the defender's answer (out of turn)."""
    now = game.detail()
    for _ in range(MOVES):
        assert now["status"] == "active", "the game ended before any attack"
        seat = now["to_act"][0]
        legal = game.legal(seat)
        if any(command["type"] == "tribu.pass" for command in legal):
            return now
        attacks = [c for c in legal if c["type"] in ("tribu.attack", "tribu.steal")]
        now = game.play(seat, attacks[0] if attacks else legal[rng.randrange(len(legal))])
    raise AssertionError("no attack in the game")


def test_resignations_during_tribus_answer_window(http: httpx.Client, tmp_path: Path) -> None:
    """The defender resigns while the window waits for it (the referee answers for it), then,
    at the next window, the attacker resigns while the defender is still to answer."""
    game = create(http, "tribu", 3, time_control={"total_seconds": 3600, "increment_seconds": 2})
    rng = random.Random(3)
    window = to_answer_window(game, rng)
    (defender,) = window["to_act"]
    resigned = game.play(defender, {"type": "game.resign"})
    types = [type_of(e) for e in resigned["events"]]
    assert types[:3] == ["game.clock", "game.resigned", "game.stand-in"], types
    assert resigned["events"][2]["event"]["seat"] == defender
    assert resigned["status"] == "active" and defender not in resigned["to_act"]
    is_problem(
        game.send(defender, {"type": "tribu.pass"}), 422, "rule-violation", "kernel.seat-left"
    )

    window = to_answer_window(game, rng)
    (answering,) = window["to_act"]
    assert answering != defender
    (attacker,) = [seat for seat in range(3) if seat not in (defender, answering)]
    ended = game.play(attacker, {"type": "game.resign"})
    assert ended["status"] == "finished"
    assert ended["outcome"]["ending"] == "resignation"
    assert ended["outcome"]["winners"] == [answering]
    assert ended["outcome"]["ranking"] == [[answering], [attacker], [defender]]
    verified_offline(game, tmp_path)


def test_the_defender_resigns_a_two_player_tribu_during_the_window(
    http: httpx.Client, tmp_path: Path
) -> None:
    game = create(http, "tribu", 2)
    window = to_answer_window(game, random.Random(5))
    (defender,) = window["to_act"]
    ended = game.play(defender, {"type": "game.resign"})
    assert ended["status"] == "finished" and ended["outcome"]["winners"] == [1 - defender]
    verified_offline(game, tmp_path)


# -- hostile table settings ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"time_control": {"per_move_seconds": 0}},
        {"time_control": {"per_move_seconds": -5}},
        {"time_control": {"total_seconds": 10**30}},
        {"time_control": {"total_seconds": 60, "increment_seconds": -1}},
        {"time_control": {"total_seconds": 60, "increment_seconds": 1e9}},
        {"time_control": {"total_seconds": "60"}},
        {"time_control": {"per_move_seconds": None, "total_seconds": None}},
        {"time_control": {}},
        {"time_control": []},
        {"time_control": {"per_move_seconds": 5, "extra": 1}},
        {"bots": [{"seat": 3, "strategy": "random"}]},
        {"bots": [{"seat": -1, "strategy": "random"}]},
        {"bots": [{"seat": 2**70, "strategy": "random"}]},
        {"bots": [{"seat": 0, "strategy": "random"}, {"seat": 0, "strategy": "random"}]},
        {"bots": [{"seat": 0, "strategy": "minimax"}]},
        {"bots": [{"seat": 0, "strategy": ""}]},
        {"bots": [{"seat": 0, "strategy": None}]},
        {"bots": [{"seat": 0, "strategy": "random", "depth": 3}]},
        {"bots": {"seat": 0}},
        {"bots": [0, 1]},
    ],
)
def test_hostile_table_settings_are_4xx_problems(http: httpx.Client, fields: Any) -> None:
    refused_4xx(http.post("/v1/games", json={"kind": "coyote", "seats": 3, **fields}))


@pytest.mark.parametrize(
    "text",
    [
        '{"kind": "coyote", "seats": 3, "time_control": {"per_move_seconds": NaN}}',
        '{"kind": "coyote", "seats": 3, "time_control": {"per_move_seconds": Infinity}}',
        '{"kind": "coyote", "seats": 3, "time_control": {"total_seconds": -Infinity}}',
        '{"kind": "coyote", "seats": 3, "time_control": {"total_seconds": 1e999}}',
        '{"kind": "coyote", "seats": 3, "time_control": {"per_move_seconds": -1e-999}}',
    ],
)
def test_seconds_that_are_not_numbers_are_4xx_problems(http: httpx.Client, text: str) -> None:
    refused_4xx(http.post("/v1/games", content=text, headers={"Content-Type": "application/json"}))


def test_the_smallest_limits_are_taken_and_run_out_at_once(http: httpx.Client) -> None:
    """A limit far under a request's duration is not an error: the seat is out of time."""
    game = create(http, "manitou-island", 2, time_control={"per_move_seconds": 1e-6})
    seat = game.detail()["to_act"][0]
    is_problem(game.send(seat, game.legal(seat)[0]), 422, "rule-violation", "kernel.out-of-time")
    ended = game.play(1 - seat, {"type": "game.claim-timeout", "seat": seat})
    assert ended["outcome"]["ending"] == "timeout" and ended["outcome"]["winners"] == [1 - seat]


# -- the servers' own sweepers -------------------------------------------------------------


def wait_for_end(game: Game, patience: float = GAME_PATIENCE) -> dict[str, Any]:
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        now = game.detail()
        if now["status"] == "finished":
            return now
        time.sleep(0.1)
    raise AssertionError(f"{game.id} did not end: {game.detail()}")


@pytest.fixture(scope="module")
def sweepers(serve: Serve, quiet: Server) -> list[Server]:
    """Two processes sweeping every fifth of a second (after the quiet server's tests: they
    sweep every game of the database), whose bots move unpaced: pacing slows a game of bots
    and changes nothing of how it ends (tests/reliability/test_bot_games.py plays a game of
    paced bots to its end)."""
    return [
        serve(sweep_interval_seconds=0.2, expensive_reads_per_minute=0, bot_cpu_share=1.0)
        for _ in range(2)
    ]


@pytest.mark.parametrize("kind", ["big-manitou", "coyote", "wind-river"])
def test_silent_seats_are_claimed_by_the_sweepers_each_once(
    sweepers: list[Server], kind: str, tmp_path: Path
) -> None:
    """Nobody plays after the first move: two processes' sweepers claim each seat whose time
    runs out, once, until one side is left."""
    with httpx.Client(base_url=sweepers[0].url, timeout=60) as first:
        seats = 3
        game = create(first, kind, seats, time_control={"per_move_seconds": 1.0})
        seat = game.detail()["to_act"][0]
        game.play(seat, game.legal(seat)[0])
        with httpx.Client(base_url=sweepers[1].url, timeout=60) as second:
            final = wait_for_end(Game(second, game.created))
        assert final["outcome"]["ending"] == "timeout"
        assert [gone["how"] for gone in final["left"]] == ["timeout"] * (seats - 1)
        assert len({gone["seat"] for gone in final["left"]}) == seats - 1
        bundle = verified_offline(game, tmp_path)
    referee_commands = [c for c in bundle["commands"] if c["seat"] is None]
    assert len(referee_commands) == seats - 1  # each claim once, by the referee
    assert times(bundle) == sorted(times(bundle))


# -- bots of both strategies, every kind ----------------------------------------------------------


@pytest.mark.parametrize("strategy", ["random", "greedy"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_servers_bots_play_every_kind_to_the_end(
    sweepers: list[Server], kind: str, strategy: str, tmp_path: Path
) -> None:
    game_type = REGISTRY[kind]
    seats = game_type.min_seats
    bots = [{"seat": seat, "strategy": strategy} for seat in range(seats)]
    with httpx.Client(base_url=sweepers[1].url, timeout=60) as client:
        game = create(client, kind, seats, bots=bots)
        final = wait_for_end(game)
        assert final["outcome"]["ending"] == "rules", final["outcome"]
        bundle = verified_offline(game, tmp_path)
    assert {c["seat"] for c in bundle["commands"]} == set(range(seats))


@pytest.mark.parametrize("strategy", ["random", "greedy"])
@pytest.mark.parametrize("kind", KINDS)
def test_referee_bot_plays_a_seat_to_the_end(
    sweepers: list[Server], kind: str, strategy: str, tmp_path: Path
) -> None:
    """`referee bot` on seat 0, with nothing but the public API, against the server's bots of
    the other strategy on the other seats (a game with a greedy seat ends sooner: two random
    players make Tribù's longest games, which the server's bots play above)."""
    game_type = REGISTRY[kind]
    seats = game_type.min_seats
    other = "greedy" if strategy == "random" else "random"
    bots = [{"seat": seat, "strategy": other} for seat in range(1, seats)]
    url = sweepers[0].url
    with httpx.Client(base_url=url, timeout=60) as client:
        game = create(client, kind, seats, bots=bots)
        done = subprocess.run(
            [str(REFEREE), "bot", "--game", game.id, "--url", url, "--strategy", strategy],
            env={**os.environ, "REFEREE_BOT_TOKEN": game.tokens[0]},
            cwd=tempfile.gettempdir(),  # where it keeps its seat's receipts
            capture_output=True,
            text=True,
            timeout=GAME_PATIENCE,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"{kind} game {game.id}: seat 0 "), done.stdout
        final = game.detail()
        assert final["status"] == "finished"
        bundle = verified_offline(game, tmp_path)
    assert any(c["seat"] == 0 for c in bundle["commands"])
