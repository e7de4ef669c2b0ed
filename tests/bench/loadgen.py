"""A lean load generator: a few OS processes, each an asyncio loop (uvloop) with raw keep-alive
HTTP/1.1 connections, playing moves of many games at once.

A move is what a player's client does: read a page of the seat's legal commands (`limit=20`),
pick one (the kernel's random bot: uniformly; a Coyote challenge more often, so that rounds
stay short), send it. A game that ends is replaced by a new one, created over HTTP.

Closed loop (`rate=None`): `slots` moves in flight per process, each taking the game that has
waited longest; with as many games as slots every game always has a move in flight (the old
bench: one client per game), with more games each move lands on a game last touched
`games / slots` moves ago, which is what a server with that many games in play sees.

Open loop (`rate`): moves are scheduled at a fixed rate whatever the answers; a move's latency
runs from its scheduled time, so that a slow answer counts for every move it delays
(no coordinated omission). A scheduled move waits for a free game and a free connection.

Only moves that start inside the measured window count. The parent reads each process's CPU
from /proc (tests/bench/procstat.py); each process hands back its latencies and counts.
"""

from __future__ import annotations

import asyncio
import collections
import random
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import msgspec

from referee.kernel.bots import random_choice

CHALLENGE_ODDS = 0.3  # keeps Coyote rounds short, as real players do
PAGE = 20
MAX_CONNECTIONS_OPEN_LOOP = 256  # per process


class HttpError(Exception):
    pass


class Answer(msgspec.Struct):
    to_act: list[int]


class Created(msgspec.Struct):
    game_id: str
    seat_tokens: list[dict[str, Any]]
    to_act: list[int]


@dataclass
class Game:
    game_id: str
    tokens: list[str]  # by seat
    to_act: list[int]
    auth: dict[int, bytes] = field(default_factory=dict)  # seat: its Authorization header line

    @classmethod
    def of(cls, game_id: str, tokens: list[str], to_act: list[int]) -> Game:
        lines = {seat: f"Authorization: Bearer {t}\r\n".encode() for seat, t in enumerate(tokens)}
        return cls(game_id, tokens, to_act, lines)

    def row(self) -> tuple[str, list[str], list[int]]:
        return self.game_id, self.tokens, self.to_act


class Http:
    """One keep-alive HTTP/1.1 connection; requests one at a time; Content-Length or chunked."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, headers: bytes = b"", body: bytes | None = None
    ) -> tuple[int, bytes]:
        reused = self.writer is not None and not self.writer.is_closing()
        try:
            return await self._request(method, path, headers, body)
        except (asyncio.IncompleteReadError, ConnectionError):
            if not reused:
                raise
            # A kept-alive connection the server closed while it was idle: once more, anew.
            self.writer = None
            return await self._request(method, path, headers, body)

    async def _request(
        self, method: str, path: str, headers: bytes, body: bytes | None
    ) -> tuple[int, bytes]:
        if self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n".encode() + headers
        if body is not None:
            head += b"Content-Type: application/json\r\nContent-Length: %d\r\n" % len(body)
        self.writer.write(head + b"\r\n" + (body or b""))
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.split(b"\r\n")
        status = int(lines[0].split(b" ", 2)[1])
        length, chunked, close = None, False, False
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding" and b"chunked" in value.lower():
                chunked = True
            elif name == b"connection" and b"close" in value.lower():
                close = True
        if chunked:
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                parts.append(await self.reader.readexactly(size + 2))
                if size == 0:
                    break
            payload = b"".join(part[:-2] for part in parts)
        else:
            payload = await self.reader.readexactly(length or 0)
        if close:
            self.writer.close()
            self.writer = None
        return status, payload


@dataclass
class Job:
    """What one generator process does; sent to it once it is ready."""

    host: str
    port: int
    kind: str
    seats: int
    games: list[tuple[str, list[str], list[int]]]  # id, tokens by seat, seats to act
    measure_from: float  # time.monotonic(), the same clock in every process (Linux)
    stop_at: float
    slots: int = 1  # closed loop: moves in flight
    rate: float | None = None  # open loop: moves per second from this process
    prime: bool = False  # read each game once (GET /v1/games/{id}) instead of playing
    seed: int = 0


@dataclass
class Tally:
    moves: int = 0
    move_latencies: list[float] = field(default_factory=list)  # legal read + command
    command_latencies: list[float] = field(default_factory=list)  # the command alone
    created: int = 0
    errors: int = 0
    first_error: str = ""
    unserved: int = 0  # open loop: scheduled in the window, not finished by its end
    reads: int = 0  # prime: games read
    refreshed: int = 0  # games whose seats to act were stale (a move cut off by a window's end)
    games: list[tuple[str, list[str], list[int]]] = field(default_factory=list)  # as they end

    def error(self, what: str) -> None:
        self.errors += 1
        self.first_error = self.first_error or what


class Player:
    def __init__(self, job: Job, tally: Tally) -> None:
        self.job, self.tally = job, tally
        self.rng = random.Random(job.seed)
        self.create_body = msgspec.json.encode({"kind": job.kind, "seats": job.seats})

    async def move(self, http: Http, game: Game, scheduled: float | None = None) -> Game:
        """One move of `game` (a new game if it has ended); counted if it began in the window."""
        job, tally = self.job, self.tally
        if not game.to_act:
            moment = time.monotonic() if scheduled is None else scheduled
            game = await self.create(http, job.measure_from <= moment < job.stop_at)
        started = time.monotonic() if scheduled is None else scheduled
        counted = job.measure_from <= started < job.stop_at
        seat = self.rng.choice(game.to_act)
        auth = game.auth[seat]
        path = f"/v1/games/{game.game_id}"
        status, body = await http.request("GET", f"{path}/legal-commands?limit={PAGE}", auth)
        if status != 200:
            tally.error(f"legal-commands {status}: {body[:300]!r}")
            return game
        commands = msgspec.json.decode(body)["commands"]
        if not commands:  # not this seat's turn after all: a move cut off by the last window
            return await self.refresh(http, game)
        challenges = [c for c in commands if c["type"].endswith(".challenge")]
        if challenges and self.rng.random() < CHALLENGE_ODDS:
            command = challenges[0]
        else:
            command = random_choice(commands, self.rng)
        sent = time.monotonic()
        status, body = await http.request(
            "POST", f"{path}/commands", auth, msgspec.json.encode({"command": command})
        )
        done = time.monotonic()
        if status in (409, 422):  # the same: the game had moved on without us
            return await self.refresh(http, game)
        if status != 200:
            tally.error(f"command {status}: {body[:300]!r}")
            return game
        game.to_act = msgspec.json.decode(body, type=Answer).to_act
        if counted:
            tally.moves += 1
            tally.move_latencies.append(done - started)
            tally.command_latencies.append(done - sent)
        return game

    async def refresh(self, http: Http, game: Game) -> Game:
        """The game's seats to act, read again."""
        self.tally.refreshed += 1
        status, body = await http.request("GET", f"/v1/games/{game.game_id}")
        if status != 200:
            self.tally.error(f"read {status}: {body[:300]!r}")
        else:
            game.to_act = msgspec.json.decode(body, type=Answer).to_act
        return game

    async def create(self, http: Http, counted: bool) -> Game:
        status, body = await http.request("POST", "/v1/games", b"", self.create_body)
        if status != 201:
            raise HttpError(f"create {status}: {body[:300]!r}")
        created = msgspec.json.decode(body, type=Created)
        if counted:
            self.tally.created += 1
        tokens = [t["token"] for t in sorted(created.seat_tokens, key=lambda t: t["seat"])]
        return Game.of(created.game_id, tokens, created.to_act)


async def closed_loop(job: Job, tally: Tally, games: collections.deque[Game]) -> None:
    player = Player(job, tally)

    async def slot() -> None:
        http = Http(job.host, job.port)
        while time.monotonic() < job.stop_at:
            game = games.popleft()
            try:
                game = await player.move(http, game)
            finally:
                games.append(game)

    await asyncio.gather(*(slot() for _ in range(min(job.slots, len(games)))))


async def open_loop(job: Job, tally: Tally, games: collections.deque[Game]) -> None:
    assert job.rate is not None
    player = Player(job, tally)
    free_games: asyncio.Queue[Game] = asyncio.Queue()
    for game in games:
        free_games.put_nowait(game)
    idle: list[Http] = []
    opened = 0
    limit = asyncio.Semaphore(MAX_CONNECTIONS_OPEN_LOOP)
    tasks: set[asyncio.Task[None]] = set()

    async def one(scheduled: float) -> None:
        nonlocal opened
        async with limit:
            if idle:
                http = idle.pop()
            else:
                http, opened = Http(job.host, job.port), opened + 1
            game = await free_games.get()
            try:
                game = await player.move(http, game, scheduled)
            except (OSError, asyncio.IncompleteReadError, HttpError) as error:
                tally.error(f"{type(error).__name__}: {error}")
                http = Http(job.host, job.port)
            finally:
                free_games.put_nowait(game)
                idle.append(http)

    interval = 1 / job.rate
    # Each process starts at its own phase, so that P processes do not send in step.
    scheduled = time.monotonic() + random.Random(job.seed).random() * interval
    while scheduled < job.stop_at:
        delay = scheduled - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        task = asyncio.ensure_future(one(scheduled))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        scheduled += interval
    # Moves still running at the end of the window: wait a little, then count what is left.
    if tasks:
        _, pending = await asyncio.wait(tasks, timeout=5)
        tally.unserved = len(pending)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    games.clear()
    while not free_games.empty():
        games.append(free_games.get_nowait())


async def prime(job: Job, tally: Tally, games: collections.deque[Game]) -> None:
    """Read every game once, `slots` at a time (fills the server's table cache)."""

    async def slot() -> None:
        http = Http(job.host, job.port)
        while games:
            game = games.popleft()
            status, body = await http.request("GET", f"/v1/games/{game.game_id}")
            if status != 200:
                tally.error(f"read {status}: {body[:300]!r}")
            tally.reads += 1

    await asyncio.gather(*(slot() for _ in range(job.slots)))


async def run_job(job: Job) -> Tally:
    tally = Tally()
    games = collections.deque(Game.of(*game) for game in job.games)
    if job.prime:
        await prime(job, tally, collections.deque(games))
    elif job.rate is None:
        await closed_loop(job, tally, games)
    else:
        await open_loop(job, tally, games)
    tally.games = [game.row() for game in games]
    return tally


def worker(pipe: Connection) -> None:
    """A generator process: says it is ready, takes one Job, answers its Tally."""
    import uvloop

    pipe.send("ready")
    job: Job = pipe.recv()
    try:
        tally = uvloop.run(run_job(job))
    except Exception as error:  # reported to the parent, which stops the run
        tally = Tally()
        tally.error(f"{type(error).__name__}: {error}")
    pipe.send(tally)
