"""`referee bot` (api/botclient.py) against a real `referee serve` on the test run's PostgreSQL.

Every seat of a game is a bot: the bot client run per seat, concurrently, or the `referee bot`
command itself, one process per seat. Each game is played to its end over HTTP and audited by
the server with every check passing; each bot's summary line must agree with the outcome the
audit finds. A bot is refused clearly, and keeps playing through a server that restarts.
"""

from __future__ import annotations

import asyncio
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from api.botclient import FIRST_PAGE, GREEDY_READ, Summary, _Bot, _game, play_seat
from referee.games import REGISTRY
from referee.kernel.bots import CANDIDATES, Strategy
from tests.servers import Server, free_port, start_server, stop_server

KINDS = [game.kind for game in REGISTRY]
BOT_PATIENCE = 900  # seconds for a whole game of bots; never a measured duration
REFEREE = Path(sys.executable).parent / "referee"
# "coyote game <id>: seat 1 won (winners: 1, place 1 of 3); 12 commands sent, 80 events"
SUMMARY = re.compile(
    r"^(?P<kind>[\w-]+) game (?P<game>[0-9a-f-]+): seat (?P<seat>\d+) (?P<result>won|lost) "
    r"\(winners: (?P<winners>[\d, ]+|none)(, place \d+ of \d+)?\); (?P<sent>\d+) commands sent, "
    r"(?P<version>\d+) events$"
)


def serve(database_url: str, log: Path, port: int) -> Server:
    """`referee serve` on `port`: the restart test starts a second one where the first was.
    Heartbeats each second and a one-second grace make the streams quick to drop; no limit on
    audits (one after each game); its sweeper claims the timeouts the bots wait for."""
    return start_server(
        database_url,
        log,
        port,
        sweep_interval_seconds=1,
        sse_heartbeat_seconds=1,
        shutdown_grace_seconds=1,
        expensive_reads_per_minute=0,
    )


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    started = serve(database_url, tmp_path_factory.mktemp("bots") / "server.log", free_port())
    try:
        yield started
    finally:
        stop_server(started)


@dataclass(frozen=True)
class Game:
    game_id: str
    kind: str
    tokens: list[str]  # by seat


def create(url: str, kind: str, seats: int | None = None, **options: object) -> Game:
    seats = seats or REGISTRY[kind].min_seats
    request = {"kind": kind, "seats": seats, "options": options}
    created = httpx.post(f"{url}/v1/games", json=request, timeout=30)
    assert created.status_code == 201, created.text
    body = created.json()
    tokens = [item["token"] for item in sorted(body["seat_tokens"], key=lambda t: t["seat"])]
    return Game(body["game_id"], kind, tokens)


def audited(url: str, game: Game) -> dict[str, Any]:
    """The server's audit of the finished game, every check passed; its outcome."""
    report = httpx.get(f"{url}/v1/games/{game.game_id}/audit", timeout=120).json()
    assert report["status"] == "finished", report
    assert report["verdict"] == "passed", report
    assert {check["verdict"] for check in report["checks"]} == {"passed"}, report["checks"]
    outcome: dict[str, Any] = report["outcome"]
    assert outcome["finished"], outcome
    # A draw has no winner (Manitou island's islands all equal, MI-6): every seat shares a place.
    assert outcome["winners"] or outcome["ranking"] == [list(range(len(game.tokens)))], outcome
    return outcome


def check_summary(line: str, game: Game, seat: int, outcome: dict[str, Any], version: int) -> int:
    """The bot's one line agrees with the audit; the commands it says it sent."""
    parsed = SUMMARY.match(line)
    assert parsed, line
    assert (parsed["kind"], parsed["game"], int(parsed["seat"])) == (game.kind, game.game_id, seat)
    assert (parsed["result"] == "won") == (seat in outcome["winners"]), (line, outcome)
    assert parsed["winners"] == (", ".join(map(str, outcome["winners"])) or "none"), (line, outcome)
    assert int(parsed["version"]) == version
    return int(parsed["sent"])


def commands_by_seat(url: str, game: Game) -> tuple[int, list[int]]:
    """The game's version, and how many commands each seat's accepted commands count, from
    its exported bundle."""
    bundle = httpx.get(f"{url}/v1/games/{game.game_id}/export", timeout=120)
    assert bundle.status_code == 200, bundle.text
    body = bundle.json()
    sent = [0] * len(game.tokens)
    for command in body["commands"]:
        if command["seat"] is not None:  # None: the referee's own (a timeout claimed)
            sent[command["seat"]] += 1
    return body["version"], sent


async def play_in_process(url: str, game: Game, strategy: Strategy) -> list[Summary]:
    """One bot client per seat, concurrently in this event loop, over HTTP."""
    bots = [
        play_seat(url, game.game_id, token, strategy, random.Random(f"{game.game_id}-{seat}"))
        for seat, token in enumerate(game.tokens)
    ]
    return await asyncio.wait_for(asyncio.gather(*bots), BOT_PATIENCE)


def check_played(url: str, game: Game, summaries: list[Summary]) -> None:
    outcome = audited(url, game)
    version, sent = commands_by_seat(url, game)
    for seat, summary in enumerate(summaries):
        assert check_summary(summary.line(), game, seat, outcome, version) == sent[seat]
    assert sum(sent) > 0


@pytest.mark.parametrize("kind", KINDS)
async def test_random_bots_play_every_kind_to_the_end(server: Server, kind: str) -> None:
    game = create(server.url, kind)
    check_played(server.url, game, await play_in_process(server.url, game, "random"))


@pytest.mark.parametrize("kind", KINDS)
async def test_greedy_bots_play_every_kind_to_the_end(server: Server, kind: str) -> None:
    game = create(server.url, kind)
    check_played(server.url, game, await play_in_process(server.url, game, "greedy"))


def bot_command(url: str, game: Game, seat: int, *extra: str) -> list[str]:
    return [
        str(REFEREE),
        "bot",
        *("--game", game.game_id, "--token", game.tokens[seat], "--url", url),
        *("--seed", f"{game.game_id}-{seat}", *extra),
    ]


def start_bots(url: str, game: Game, *extra: str) -> list[subprocess.Popen[str]]:
    return [
        subprocess.Popen(
            bot_command(url, game, seat, *extra),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seat in range(len(game.tokens))
    ]


def finish_bots(url: str, game: Game, bots: list[subprocess.Popen[str]]) -> None:
    """Each process exits 0 with its one summary line, which agrees with the audit."""
    results = [bot.communicate(timeout=BOT_PATIENCE) for bot in bots]
    outcome = audited(url, game)
    version, sent = commands_by_seat(url, game)
    for seat, (bot, (out, err)) in enumerate(zip(bots, results, strict=True)):
        assert bot.returncode == 0, err
        assert len(out.splitlines()) == 1, out
        assert check_summary(out.strip(), game, seat, outcome, version) == sent[seat]


def test_the_referee_bot_command_plays_a_seat_each(server: Server) -> None:
    """Coyote with the Shaman variant: lists of thousands of commands, read one at random."""
    game = create(server.url, "coyote", seats=4, shaman=True)
    finish_bots(server.url, game, start_bots(server.url, game))


def test_a_bot_whose_time_ran_out_follows_the_game_to_its_end(server: Server) -> None:
    """Its late move is refused (`kernel.out-of-time`): it waits for the claim (the server's
    sweeper makes it), and follows the game without its seat to the end: exit 0, one line."""
    request = {"kind": "coyote", "seats": 3, "time_control": {"per_move_seconds": 1}}
    created = httpx.post(f"{server.url}/v1/games", json=request, timeout=30).json()
    tokens = [item["token"] for item in sorted(created["seat_tokens"], key=lambda t: t["seat"])]
    game = Game(created["game_id"], "coyote", tokens)
    late = created["to_act"][0]
    time.sleep(1.2)  # a real server's clock: the first seat's move is too late from now on
    finish_bots(server.url, game, start_bots(server.url, game))
    final = httpx.get(f"{server.url}/v1/games/{game.game_id}", timeout=30).json()
    assert {"seat": late, "how": "timeout"} in final["left"], final["left"]


def run_bot(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(REFEREE), "bot", *argv], capture_output=True, text=True, timeout=BOT_PATIENCE
    )


def refused_in_one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 1, done
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("referee bot: "), done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


def test_a_wrong_token_or_game_is_refused_in_one_line(server: Server) -> None:
    game, other = create(server.url, "coyote"), create(server.url, "coyote")
    url = ("--url", server.url)
    refused_in_one_line(
        run_bot("--game", game.game_id, "--token", "not-a-token", *url), "401", "token"
    )
    refused_in_one_line(
        run_bot("--game", game.game_id, "--token", other.tokens[0], *url), "403", "another game"
    )
    refused_in_one_line(run_bot("--game", "nope", "--token", game.tokens[0], *url), "404")


def test_an_unreachable_server_is_said_in_one_line() -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    game = "00000000-0000-4000-8000-000000000000"
    refused_in_one_line(run_bot("--game", game, "--token", "t", "--url", url), "cannot reach", url)


def events_recorded(url: str, game: Game) -> int:
    version: int = httpx.get(f"{url}/v1/games/{game.game_id}", timeout=30).json()["version"]
    return version


def test_bots_play_on_through_a_server_restart(
    database_url: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The server stops mid-game (its streams are cut, its port refuses connections) and a new
    one starts on the same port: every bot waits, resumes and finishes the game."""
    port = free_port()
    log = tmp_path_factory.mktemp("restart") / "server.log"
    first = serve(database_url, log, port)
    url = first.url
    try:
        game = create(url, "big-manitou", seats=3)
        bots = start_bots(url, game, "--patience", "120")
        deadline = time.monotonic() + BOT_PATIENCE
        while events_recorded(url, game) < 60:  # well into the game, far from its end
            assert time.monotonic() < deadline and all(bot.poll() is None for bot in bots)
            time.sleep(0.2)
    finally:
        stop_server(first)
    stopped_at = None
    second = None
    try:
        time.sleep(2)  # the bots find the server gone
        assert all(bot.poll() is None for bot in bots), [bot.communicate() for bot in bots]
        second = serve(database_url, log, port)
        stopped_at = events_recorded(url, game)
        finish_bots(url, game, bots)
        assert events_recorded(url, game) > stopped_at  # the game went on after the restart
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
        if second is not None:
            stop_server(second)


def every_legal_command(url: str, game: Game, seat: int) -> tuple[int, list[Any]]:
    """The seat's whole list of legal commands now (JSON), read page by page; its version."""
    auth = {"Authorization": f"Bearer {game.tokens[seat]}"}
    listed: list[Any] = []
    while True:
        page = httpx.get(
            f"{url}/v1/games/{game.game_id}/legal-commands",
            params={"offset": len(listed), "limit": 1000},
            headers=auth,
            timeout=30,
        ).json()
        listed += page["commands"]
        if len(listed) >= page["total"]:
            return page["version"], listed


@pytest.mark.parametrize("shaman", [False, True])
async def test_a_greedy_bot_reads_what_it_weighs(server: Server, shaman: bool) -> None:
    """What a greedy bot chooses from: the whole list up to GREEDY_READ, else CANDIDATES of
    its commands, the first ones and some at random, in the list's order (greedy weighs no
    more). Coyote's first bid
    has hundreds of commands, or thousands with the Shaman variant."""
    game = create(server.url, "coyote", shaman=shaman)
    seat = httpx.get(f"{server.url}/v1/games/{game.game_id}").json()["to_act"][0]
    version, listed = every_legal_command(server.url, game, seat)
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        bot = _Bot(client, game.game_id, game.tokens[seat], "greedy", random.Random(7), 30)
        seen = await bot._read()
        assert seen.version == version
        read = await bot._legal(_game(seen), seen)
    assert read is not None
    encoded = [msgspec.json.decode(msgspec.json.encode(command)) for command in read]
    if len(listed) <= GREEDY_READ:
        assert encoded == listed
    else:
        assert len(encoded) == CANDIDATES
        positions = [listed.index(command) for command in encoded]
        assert positions == sorted(set(positions))  # distinct, in the list's order
        # The first ones always (Coyote's "Coyote!" and lowest bids), as greedy weighs them.
        assert positions[: CANDIDATES // 2] == list(range(CANDIDATES // 2))
    # Each way was taken: more than a first page read, and more than greedy reads whole.
    assert len(listed) > FIRST_PAGE and (len(listed) > GREEDY_READ) == shaman, len(listed)
