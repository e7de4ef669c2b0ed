"""`referee bot` (api/botclient.py) against a real `referee serve` on the test run's PostgreSQL.

Every seat of a game is a bot: the bot client run per seat, concurrently, or the `referee bot`
command itself, one process per seat. Each game is played to its end over HTTP and audited by
the server with every check passing; each bot's summary line must agree with the outcome the
audit finds. A bot is refused clearly, and keeps playing through a server that restarts.

At open tables (`referee bot --join`), a person over plain HTTP creates the table and sits; bots
take the other seats, wait for the deal and play to the end beside them, at a public table or a
private one with its invitation code. A sitting the API refuses (no such table, a full table, a
seat taken) is said in one line; a bot interrupted while its table waits gets up again.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from api.botclient import FIRST_PAGE, GREEDY_READ, Summary, _Bot, _game, play_seat
from api.verify import cli as verify_cli
from referee.games import REGISTRY
from referee.kernel.bots import CANDIDATES, Strategy
from tests.servers import Server, free_port, start_server, stop_server

KINDS = [game.kind for game in REGISTRY]
# The bots' working directory: each keeps its seat's receipts there (`--receipts` default .).
BOTS_DIR = Path(tempfile.mkdtemp(prefix="referee-bots-"))
BOT_PATIENCE = 900  # seconds for a whole game of bots; never a measured duration
REFEREE = Path(sys.executable).parent / "referee"
SEATINGS = frozenset({"game.sit", "game.leave-seat"})  # a player's commands that are no move
# "coyote game <id>: seat 1 won (winners: 1, place 1 of 3); 12 commands sent, 80 events"
SUMMARY = re.compile(
    r"^(?P<kind>[\w-]+) game (?P<game>[0-9a-f-]+): seat (?P<seat>\d+) (?P<result>won|lost) "
    r"\(winners: (?P<winners>[\d, ]+|none)(, place \d+ of \d+)?\); (?P<sent>\d+) commands sent, "
    r"(?P<version>\d+) events(; receipts kept in (?P<receipts>\S+))?$"
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
    tokens: list[str]  # by seat (at an open table: "" for a seat whose token the test lacks)


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
    its exported bundle (taking a seat at an open table is no move in the game)."""
    bundle = httpx.get(f"{url}/v1/games/{game.game_id}/export", timeout=120)
    assert bundle.status_code == 200, bundle.text
    body = bundle.json()
    sent = [0] * len(game.tokens)
    for command in body["commands"]:
        if command["seat"] is None:  # the referee's own (a timeout claimed)
            continue
        if json.loads(base64.b64decode(command["body"]))["type"] not in SEATINGS:
            sent[command["seat"]] += 1
    return body["version"], sent


async def play_in_process(url: str, game: Game, *strategies: Strategy) -> list[Summary]:
    """One bot client per seat, concurrently in this event loop, over HTTP: seat k plays the
    k-th strategy given, the last one given every seat after."""
    bots = [
        play_seat(
            url,
            game.game_id,
            token,
            strategies[min(seat, len(strategies) - 1)],
            random.Random(f"{game.game_id}-{seat}"),
        )
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
    """Random bots on every seat but the last, a greedy one there: random players alone make
    Tribù's longest games (thousands of commands), a greedy seat ends them in hundreds. Games
    of random bots alone are played below (Coyote, Big Manitou) and by the server's own bots
    (tests/reliability/test_games_that_end_held_out.py)."""
    game = create(server.url, kind)
    randoms: list[Strategy] = ["random"] * (len(game.tokens) - 1)
    check_played(server.url, game, await play_in_process(server.url, game, *randoms, "greedy"))


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
            cwd=BOTS_DIR,
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


def test_the_receipts_a_bot_keeps_prove_its_game(server: Server, tmp_path: Path) -> None:
    """Each bot names the file of its seat's receipts; each file, held against the exported
    game with the published keys, verifies (README, "Disputes")."""
    game = create(server.url, "coyote", seats=3)
    bots = start_bots(server.url, game, "--receipts", str(tmp_path))
    lines = [bot.communicate(timeout=BOT_PATIENCE)[0].strip() for bot in bots]
    bundle, keys = tmp_path / "game.json", tmp_path / "keys.json"
    bundle.write_bytes(httpx.get(f"{server.url}/v1/games/{game.game_id}/export").content)
    keys.write_bytes(httpx.get(f"{server.url}/v1/keys").content)
    for seat, line in enumerate(lines):
        parsed = SUMMARY.match(line)
        assert parsed and parsed["receipts"], line
        kept = Path(parsed["receipts"])
        assert kept == tmp_path / f"receipts-{game.game_id}-seat{seat}.json"
        receipts = json.loads(kept.read_bytes())["receipts"]
        assert len(receipts) == int(parsed["sent"]) + 1  # each command's, and the end's
        argv = [str(bundle), "--keys", str(keys), "--receipts", str(kept)]
        assert verify_cli.main(argv) == 0


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
        [str(REFEREE), "bot", *argv],
        capture_output=True,
        text=True,
        timeout=BOT_PATIENCE,
        cwd=BOTS_DIR,
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
        seen = await bot.read()
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


# -- open tables: `referee bot --join` ---------------------------------------------------------

SITTING_PATIENCE = 60  # seconds for a bot to start and sit; never a measured duration
GAME_ID = "00000000-0000-4000-8000-000000000000"  # no game has it


def open_table(url: str, kind: str, seats: int, **table: object) -> dict[str, Any]:
    """An open table created over HTTP, waiting for players."""
    request = {"kind": kind, "seats": seats, "open_table": table}
    created = httpx.post(f"{url}/v1/games", json=request, timeout=30)
    assert created.status_code == 201, created.text
    body: dict[str, Any] = created.json()
    assert body["status"] == "waiting" and body["seating"] == "open", body
    return body


def sit(url: str, game_id: str, name: str, **fields: object) -> dict[str, Any]:
    """A person sits over plain HTTP: their seat and token."""
    sitting = httpx.post(
        f"{url}/v1/games/{game_id}/seats", json={"name": name, **fields}, timeout=30
    )
    assert sitting.status_code == 201, sitting.text
    granted: dict[str, Any] = sitting.json()
    return granted


def read_game(url: str, game_id: str) -> dict[str, Any]:
    shown = httpx.get(f"{url}/v1/games/{game_id}", timeout=30)
    assert shown.status_code == 200, shown.text
    game: dict[str, Any] = shown.json()
    return game


def start_joining(url: str, table: str, name: str, *extra: str) -> subprocess.Popen[str]:
    """`referee bot --join TABLE --name NAME`, its choices seeded by its name."""
    options = ("--name", name, "--url", url, "--seed", name, *extra)
    return subprocess.Popen(
        [str(REFEREE), "bot", "--join", table, *options],
        cwd=BOTS_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def seated(url: str, game_id: str, name: str, bot: subprocess.Popen[str]) -> int:
    """The seat the bot took under `name`, once it sits; it must not have stopped."""
    deadline = time.monotonic() + SITTING_PATIENCE
    while time.monotonic() < deadline:
        names = read_game(url, game_id)["names"]
        if name in names:
            return int(names.index(name))
        assert bot.poll() is None, bot.communicate()
        time.sleep(0.1)
    pytest.fail(f"{name} did not sit at {game_id} within {SITTING_PATIENCE} s")


def play_by_hand(url: str, game_id: str, token: str, seat: int) -> int:
    """A person at their seat over plain HTTP, until the game is over: they look at the game
    now and then, and when their seat is to act send the first of its legal commands. The
    commands they sent."""
    auth = {"Authorization": f"Bearer {token}"}
    path = f"{url}/v1/games/{game_id}"
    sent = 0
    deadline = time.monotonic() + BOT_PATIENCE
    while time.monotonic() < deadline:
        game = httpx.get(path, headers=auth, timeout=30).json()
        assert game["seat"] == seat and game["status"] != "cancelled", game
        if game["status"] == "finished":
            return sent
        if seat not in game["to_act"]:
            time.sleep(0.05)
            continue
        page = httpx.get(
            f"{path}/legal-commands", params={"limit": 1}, headers=auth, timeout=30
        ).json()
        if page["version"] != game["version"]:
            continue
        request = {"command": page["commands"][0], "expected_version": game["version"]}
        played = httpx.post(f"{path}/commands", json=request, headers=auth, timeout=30)
        assert played.status_code in (200, 409), played.text  # 409: the game moved first
        sent += played.status_code == 200
    pytest.fail(f"game {game_id} did not end within {BOT_PATIENCE} s")


def finish_joined(
    url: str, game: Game, bots: dict[int, subprocess.Popen[str]], by_hand: dict[int, int]
) -> None:
    """Every bot exits 0 with its one summary line, which agrees with the audit; the people's
    commands are theirs."""
    results = {seat: bot.communicate(timeout=BOT_PATIENCE) for seat, bot in bots.items()}
    outcome = audited(url, game)
    version, sent = commands_by_seat(url, game)
    for seat, (out, err) in results.items():
        assert bots[seat].returncode == 0, err
        assert len(out.splitlines()) == 1, out
        assert check_summary(out.strip(), game, seat, outcome, version) == sent[seat]
    for seat, commands in by_hand.items():
        assert sent[seat] == commands
    assert sorted([*bots, *by_hand]) == list(range(len(game.tokens)))


def test_bots_join_a_public_table_wait_for_the_deal_and_play_it_out(server: Server) -> None:
    """Ann creates a public Coyote table for three and sits. A bot joins and waits: nothing is
    dealt, nobody is to act. A second one joins, which deals the game; Ann plays her seat by
    hand and the bots theirs, to the end."""
    created = open_table(server.url, "coyote", 3, creator={"name": "Ann", "entropy": "ann's"})
    game_id = created["game_id"]
    (ann,) = created["seat_tokens"]
    bo = start_joining(server.url, game_id, "Bo", "--entropy", "bo's dice")
    cy = None
    try:
        assert seated(server.url, game_id, "Bo", bo) == 1
        time.sleep(1)  # long enough for a bot that does not wait to have stopped
        waiting = read_game(server.url, game_id)
        assert (waiting["status"], waiting["to_act"], waiting["open_seats"]) == ("waiting", [], [2])
        assert bo.poll() is None, bo.communicate()
        cy = start_joining(server.url, game_id, "Cy", "--strategy", "greedy")
        assert seated(server.url, game_id, "Cy", cy) == 2
        by_hand = play_by_hand(server.url, game_id, ann["token"], ann["seat"])
        game = Game(game_id, "coyote", [ann["token"], "", ""])
        finish_joined(server.url, game, {1: bo, 2: cy}, {0: by_hand})
    finally:
        for bot in (bo, cy):
            if bot is not None and bot.poll() is None:
                bot.kill()
    final = read_game(server.url, game_id)
    assert final["names"] == ["Ann", "Bo", "Cy"] and final["seating"] == "open"


def test_a_bot_joins_the_newest_public_table_of_its_kind(server: Server) -> None:
    """`--join any --kind big-manitou`: the table Ann has just opened, the newest of its kind."""
    created = open_table(server.url, "big-manitou", 2, creator={"name": "Ann"})
    game_id = created["game_id"]
    (ann,) = created["seat_tokens"]
    bot = start_joining(server.url, "any", "Bo", "--kind", "big-manitou")
    try:
        assert seated(server.url, game_id, "Bo", bot) == 1
        by_hand = play_by_hand(server.url, game_id, ann["token"], ann["seat"])
        finish_joined(
            server.url, Game(game_id, "big-manitou", [ann["token"], ""]), {1: bot}, {0: by_hand}
        )
    finally:
        if bot.poll() is None:
            bot.kill()


def test_bots_join_a_private_table_with_its_invitation_code(server: Server) -> None:
    """Its creator does not play: two bots take its seats with the code. Without the code, or
    with another, the table is not found, as a table that does not exist."""
    created = open_table(server.url, "big-manitou", 2, visibility="private")
    game_id, code = created["game_id"], created["invitation_code"]
    url = ("--url", server.url)
    refused_in_one_line(run_bot("--join", game_id, *url), "404", "--invitation-code")
    refused_in_one_line(
        run_bot("--join", game_id, "--invitation-code", "not-its-code", *url),
        "404",
        "not a private table this invitation code opens",
    )
    assert read_game(server.url, game_id)["names"] == [None, None]  # nobody sat
    bots = {
        seat: start_joining(
            server.url, game_id, name, "--invitation-code", code, "--seat", str(seat), *extra
        )
        for seat, name, extra in [(0, "Bo", ()), (1, "Cy", ("--strategy", "greedy"))]
    }
    try:
        finish_joined(server.url, Game(game_id, "big-manitou", ["", ""]), bots, {})
    finally:
        for bot in bots.values():
            if bot.poll() is None:
                bot.kill()
    assert read_game(server.url, game_id)["names"] == ["Bo", "Cy"]


def test_a_sitting_refused_is_said_in_one_line(server: Server) -> None:
    """A seat taken or a full table (409), a name taken (422), no such table (404), a table
    its creator seated, and no public table waiting of a kind: one line each, exit 1."""
    created = open_table(server.url, "coyote", 3, creator={"name": "Ann"})
    game_id = created["game_id"]
    url = ("--url", server.url)
    refused_in_one_line(
        run_bot("--join", game_id, "--seat", "0", *url), "409 seat-taken", "Seat 0 is taken"
    )
    refused_in_one_line(
        run_bot("--join", game_id, "--name", "ann", *url), "422 rule-violation", "called 'Ann'"
    )
    sit(server.url, game_id, "Bo")
    sit(server.url, game_id, "Cy")
    full = run_bot("--join", game_id, "--name", "Dee", *url)
    refused_in_one_line(full, "could not take a seat: 409 seat-taken", "Every seat")
    refused_in_one_line(run_bot("--join", GAME_ID, *url), "404", "no such game")
    seated_by_creator = create(server.url, "coyote")
    refused_in_one_line(
        run_bot("--join", seated_by_creator.game_id, *url), "422", "Its creator seated"
    )
    refused_in_one_line(
        run_bot("--join", "any", "--kind", "no-such-kind", *url),
        "no public no-such-kind table is waiting for players",
    )
    assert read_game(server.url, game_id)["names"] == ["Ann", "Bo", "Cy"]


def test_a_bot_interrupted_while_its_table_waits_gets_up_again(server: Server) -> None:
    """Ctrl-C before the deal: the bot leaves its seat (open again for someone else), says it
    was interrupted and exits 130."""
    created = open_table(server.url, "coyote", 3, creator={"name": "Ann"})
    game_id = created["game_id"]
    bot = start_joining(server.url, game_id, "Bo")
    try:
        assert seated(server.url, game_id, "Bo", bot) == 1
        bot.send_signal(signal.SIGINT)
        out, err = bot.communicate(timeout=SITTING_PATIENCE)
    finally:
        if bot.poll() is None:
            bot.kill()
    assert (bot.returncode, out, err) == (130, "", "referee bot: interrupted\n")
    waiting = read_game(server.url, game_id)
    assert (waiting["status"], waiting["names"]) == ("waiting", ["Ann", None, None])


def test_a_bot_whose_table_is_cancelled_says_so(
    database_url: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A table not filled in time is cancelled (by the server's sweeper): the bot that waited
    at it says so in one line, exit 1, rather than a game lost; and names the file of the
    receipts it was given (its sitting's)."""
    log = tmp_path_factory.mktemp("cancelled") / "server.log"
    quick = start_server(database_url, log, sweep_interval_seconds=1, open_table_seconds=2)
    try:
        created = open_table(quick.url, "coyote", 3)
        bot = start_joining(quick.url, created["game_id"], "Bo")
        try:
            out, err = bot.communicate(timeout=SITTING_PATIENCE)
            done = subprocess.CompletedProcess(bot.args, bot.returncode, out, err)
        finally:
            if bot.poll() is None:
                bot.kill()
        refused_in_one_line(done, "was cancelled", "not all taken", "its receipts so far: ")
        assert read_game(quick.url, created["game_id"])["status"] == "cancelled"
        kept = Path(done.stderr.rsplit("its receipts so far: ", 1)[1].strip().rstrip(")"))
        receipts = json.loads((BOTS_DIR / kept).read_bytes())["receipts"]
        assert receipts, "its sitting's receipt at least"  # and the file it named holds them
    finally:
        stop_server(quick)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("--join", "any", "--token", "t"), "--join takes a seat of its own: it needs no --token"),
        (("--game", GAME_ID, "--token", "t", "--name", "Bo", "--seat", "1"), "--name, --seat:"),
        (("--join", GAME_ID, "--kind", "coyote"), "--kind: only with --join any"),
        (("--game", GAME_ID, "--join", GAME_ID), "not allowed with argument"),
        (("--join", GAME_ID, "--seat", "-1"), "not a seat"),
        (("--game", GAME_ID), "--game needs the seat's --token (or REFEREE_BOT_TOKEN)"),
        (("--token", "t"), "one of the arguments --game --join is required"),
    ],
)
def test_options_that_do_not_go_together_are_a_usage_error(
    argv: tuple[str, ...], said: str
) -> None:
    env = {name: value for name, value in os.environ.items() if name != "REFEREE_BOT_TOKEN"}
    done = subprocess.run(
        [str(REFEREE), "bot", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=BOTS_DIR,
    )
    assert done.returncode == 2, done
    assert done.stdout == "" and said in done.stderr, done.stderr


def test_receipts_that_cannot_be_kept_are_said_in_one_line(server: Server, tmp_path: Path) -> None:
    """`--receipts` naming a file, not a directory: each bot plays its game out and then says,
    in one line, that its receipts could not be kept there (exit 1), rather than a traceback."""
    game = create(server.url, "coyote", seats=3)
    taken = tmp_path / "not-a-directory"
    taken.write_text("")
    bots = start_bots(server.url, game, "--receipts", str(taken))
    for bot in bots:
        out, err = bot.communicate(timeout=BOT_PATIENCE)
        done = subprocess.CompletedProcess(bot.args, bot.returncode, out, err)
        refused_in_one_line(done, f"its receipts could not be kept in {taken}")
