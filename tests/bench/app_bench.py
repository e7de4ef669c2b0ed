"""The app's own CPU a move, in one process: no HTTP server, no sockets, no load generator.

    .venv/bin/python -m tests.bench.app_bench [--kind coyote --seats 4] [--seconds 4]
        [--rounds 5] [--in-flight 32] [--profile FILE]

The real app (`create_app`, on a throw-away embedded PostgreSQL, no sweeper, no checkpoints),
each request handed to its ASGI callable as uvicorn would hand it, `in-flight` moves at once
(a move: a page of legal commands, then one of them sent, as tests/bench/loadgen.py plays).
The figure is this process's CPU (`time.process_time`) a move over each round: the API's own
code, Litestar, psycopg and the store, without uvicorn, the kernel's sockets or the other
processes that share the machine in `make bench`. It moves less from run to run than `make
bench`'s, so it is the one to compare two versions of the app by: run both, alternated, with
`PYTHONPATH` set to each version's tree (tests/bench/README.md, "Measuring on a noisy machine").
`--profile FILE` adds a round under cProfile, not counted, and writes its stats to FILE
(cProfile slows small functions most: a guide to where the time goes, not to how much).

Prints one JSON line: the median and the best of the rounds, in ms a move.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import random
import sys
import time
from typing import Any

import msgspec
import uvloop

from api.app import create_app
from api.config import Settings
from api.logging import configure_logging
from api.server import tune_garbage_collector
from api.signing import SigningKeys
from tests.bench.asgi import http_scope
from tests.bench.cluster import embedded_cluster
from tests.bench.loadgen import PAGE
from tests.bench.store_bench import BENCH_KEYS, bench_login
from tests.servers import TEST_SIGNING_KEYS

App = Any  # an ASGI callable
WARMUP_SECONDS = 0.5  # of each round, not counted


async def call(
    app: App, method: str, target: str, token: str | None = None, body: bytes = b""
) -> tuple[int, bytes]:
    """One request through the app as uvicorn would make it: (status, body)."""
    path, _, query = target.partition("?")
    headers = [(b"host", b"127.0.0.1:8000"), (b"user-agent", b"app-bench"), (b"accept", b"*/*")]
    if token is not None:
        headers.append((b"authorization", b"Bearer " + token.encode()))
    if body:
        headers += [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    scope = http_scope(method, path, query, headers)
    given = False

    async def receive() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # the client never hangs up
        raise AssertionError("unreachable")

    status = 0
    chunks: list[bytes] = []

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, b"".join(chunks)


class Player:
    """Plays games one move at a time, a new game when one ends, until told to stop."""

    def __init__(self, app: App, kind: str, seats: int, seed: int) -> None:
        self.app, self.rng = app, random.Random(seed)
        self.create_body = msgspec.json.encode({"kind": kind, "seats": seats})
        self.moves = 0

    async def new_game(self) -> tuple[str, list[str], list[int]]:
        status, body = await call(self.app, "POST", "/v1/games", body=self.create_body)
        if status != 201:
            raise RuntimeError(f"create {status}: {body[:300]!r}")
        created = msgspec.json.decode(body)
        tokens = [t["token"] for t in sorted(created["seat_tokens"], key=lambda t: t["seat"])]
        return created["game_id"], tokens, created["to_act"]

    async def play(self, stop: asyncio.Event) -> None:
        game_id, tokens, to_act = await self.new_game()
        while not stop.is_set():
            if not to_act:
                game_id, tokens, to_act = await self.new_game()
            seat = self.rng.choice(to_act)
            path = f"/v1/games/{game_id}"
            status, body = await call(
                self.app, "GET", f"{path}/legal-commands?limit={PAGE}", tokens[seat]
            )
            commands = msgspec.json.decode(body)["commands"] if status == 200 else []
            if commands:
                command = msgspec.json.encode({"command": self.rng.choice(commands)})
                status, body = await call(
                    self.app, "POST", f"{path}/commands", tokens[seat], command
                )
            if status != 200 or not commands:
                status, body = await call(self.app, "GET", path)  # read who is to act again
                to_act = msgspec.json.decode(body)["to_act"]
                continue
            to_act = msgspec.json.decode(body)["to_act"]
            self.moves += 1


async def round_cpu(
    app: App, args: argparse.Namespace, number: int, profile: cProfile.Profile | None
) -> float:
    """One round: `in_flight` players for `seconds`; this process's CPU a move, in ms."""
    players = [Player(app, args.kind, args.seats, number * 1000 + i) for i in range(args.in_flight)]
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(player.play(stop)) for player in players]
    await asyncio.sleep(WARMUP_SECONDS)
    moves, cpu = sum(p.moves for p in players), time.process_time()
    if profile is not None:
        profile.enable()
    await asyncio.sleep(args.seconds)
    if profile is not None:
        profile.disable()
    moves, cpu = sum(p.moves for p in players) - moves, time.process_time() - cpu
    stop.set()
    await asyncio.gather(*tasks)
    return cpu / max(moves, 1) * 1000


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    with embedded_cluster("referee-app-bench-") as (embedded, _):
        database_url = await bench_login(embedded.owner_url, embedded.app_url)
        settings = Settings(
            database_url=database_url,
            seed_keys=BENCH_KEYS,
            signing_keys=SigningKeys.parse(TEST_SIGNING_KEYS),
            sweep_interval_seconds=0,
            checkpoint_seconds=0,
            log_level="WARNING",
        )
        configure_logging(settings.log_level)
        app = create_app(settings)
        async with app.lifespan():
            tune_garbage_collector()
            await round_cpu(app, args, 0, None)  # warm: caches, prepared statements
            rounds = [await round_cpu(app, args, n, None) for n in range(1, args.rounds + 1)]
            if args.profile:
                profile = cProfile.Profile()
                await round_cpu(app, args, args.rounds + 1, profile)
                profile.dump_stats(args.profile)
    rounds.sort()
    return {
        "kind": args.kind,
        "seats": args.seats,
        "in_flight": args.in_flight,
        "cpu_per_move_ms_median": round(rounds[len(rounds) // 2], 3),
        "cpu_per_move_ms_best": round(rounds[0], 3),
        "rounds_ms": [round(r, 3) for r in rounds],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--kind", default="coyote")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=4.0, help="each round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--in-flight", type=int, default=32, help="moves at once")
    parser.add_argument("--profile", metavar="FILE", help="cProfile stats of the last round")
    args = parser.parse_args()
    figures = uvloop.run(main_async(args))
    print(json.dumps(figures))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
