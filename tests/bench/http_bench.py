"""Moves per second and latency over real HTTP, beside direct store appends and fold speed.

    .venv/bin/python -m tests.bench.http_bench [--games 32] [--seconds 20] [--kind coyote]

Starts a throw-away embedded PostgreSQL (durable, as `referee serve` runs it) and one real
`referee serve` process, then plays `--games` games at once, each driven by its own client task:
read a page of legal commands, send one (timed). Afterwards, in the same run: direct appends
through the store on as many streams (tests/bench/store_bench.py), and the fold speed of the
recorded games (events per second through `Table.replay`). Prints the figures, then one JSON
line. Not a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec

from eventstore import open_store
from eventstore.embedded import start_embedded, stop_embedded
from referee.games import REGISTRY
from referee.kernel import Codec, Played, Table
from referee.kernel.bots import choose
from tests.bench.store_bench import BENCH_KEYS, bench_login, measure_direct_appends

CHALLENGE_ODDS = 0.3  # keeps Coyote rounds short, as real players do


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(database_url: str, port: int) -> subprocess.Popen[bytes]:
    referee = Path(sys.executable).with_name("referee")
    env = {
        **os.environ,
        "REFEREE_DATABASE_URL": database_url,
        "REFEREE_SEED_KEYS": BENCH_KEYS.entries(),
    }
    return subprocess.Popen(
        [str(referee), "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def wait_ready(client: httpx.AsyncClient, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if (await client.get("/health/ready")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.2)
    raise RuntimeError("the server did not become ready")


def pick(kind: str, commands: list[dict[str, Any]], seat: int, rng: random.Random) -> Any:
    """The kernel's random bot (referee/kernel/bots.py) on the page of legal commands; a
    Coyote challenge more often than at random, so that games end and new ones start."""
    challenges = [c for c in commands if c["type"].endswith(".challenge")]
    if challenges and rng.random() < CHALLENGE_ODDS:
        return challenges[0]
    game = REGISTRY[kind]
    legal = [msgspec.convert(command, game.command_type) for command in commands]
    return msgspec.to_builtins(choose(game, "random", None, legal, seat, rng))


async def play_games(
    client: httpx.AsyncClient, kind: str, seats: int, deadline: float, seed: int
) -> tuple[list[float], list[str]]:
    """One client task: plays games of `kind` back to back until the deadline."""
    rng = random.Random(seed)
    latencies: list[float] = []
    game_ids: list[str] = []
    while time.monotonic() < deadline:
        created = (await client.post("/v1/games", json={"kind": kind, "seats": seats})).json()
        game_ids.append(created["game_id"])
        tokens = {t["seat"]: t["token"] for t in created["seat_tokens"]}
        to_act: list[int] = created["to_act"]
        while to_act and time.monotonic() < deadline:
            seat = rng.choice(to_act)
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            page = await client.get(
                f"/v1/games/{created['game_id']}/legal-commands", params={"limit": 20}, headers=auth
            )
            command = pick(kind, page.json()["commands"], seat, rng)
            started = time.perf_counter()
            answer = await client.post(
                f"/v1/games/{created['game_id']}/commands", json={"command": command}, headers=auth
            )
            latencies.append(time.perf_counter() - started)
            if answer.status_code != 200:
                raise RuntimeError(f"{answer.status_code}: {answer.text}")
            to_act = answer.json()["to_act"]
    return latencies, game_ids


async def fold_speed(database_url: str, kind: str, game_ids: list[str]) -> dict[str, float]:
    codec = Codec(REGISTRY[kind])
    games: list[list[Played]] = []
    async with open_store(database_url, BENCH_KEYS) as store:
        for game_id in game_ids:
            stored = await store.read(game_id)
            games.append([Played(codec.decode_event(e.body), e.chance_cursor) for e in stored])
    events = sum(len(game) for game in games)
    started = time.perf_counter()
    for game in games:
        Table.replay(REGISTRY[kind], game)
    elapsed = time.perf_counter() - started
    return {"fold_events": events, "fold_events_per_second": round(events / elapsed)}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def run(
    arguments: argparse.Namespace, owner_url: str, app_url: str | None = None
) -> dict[str, Any]:
    database_url = await bench_login(owner_url, app_url)
    port = free_port()
    server = start_server(database_url, port)
    try:
        limits = httpx.Limits(max_connections=arguments.games)
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as client:
            await wait_ready(client)
            deadline = time.monotonic() + arguments.seconds
            started = time.monotonic()
            results = await asyncio.gather(
                *(
                    play_games(client, arguments.kind, arguments.seats, deadline, n)
                    for n in range(arguments.games)
                )
            )
            elapsed = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(10)
    latencies = [latency for task, _ in results for latency in task]
    game_ids = [game_id for _, ids in results for game_id in ids]
    figures: dict[str, Any] = {
        "kind": arguments.kind,
        "concurrent_games": arguments.games,
        "http_moves": len(latencies),
        "http_moves_per_second": round(len(latencies) / elapsed, 1),
        "http_p50_ms": round(statistics.median(latencies) * 1000, 2),
        "http_p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "games_started": len(game_ids),
    }
    direct = await measure_direct_appends(database_url, arguments.games, arguments.seconds / 2)
    figures.update({f"direct_{key}": value for key, value in direct.items()})
    figures.update(await fold_speed(database_url, arguments.kind, game_ids))
    return figures


async def main_async(arguments: argparse.Namespace) -> dict[str, Any]:
    url = os.environ.get("REFEREE_MIGRATION_DATABASE_URL")  # the owner's
    if url:
        return await run(arguments, url)
    data_dir = Path(tempfile.mkdtemp(prefix="referee-http-bench-"))
    try:
        embedded = start_embedded(data_dir)
        return await run(arguments, embedded.owner_url, embedded.app_url)
    finally:
        stop_embedded(data_dir)
        shutil.rmtree(data_dir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description="HTTP moves per second with concurrent games")
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--kind", default="coyote")
    parser.add_argument("--seats", type=int, default=4)
    figures = asyncio.run(main_async(parser.parse_args()))
    print(
        f"HTTP: {figures['http_moves_per_second']} moves/s over {figures['concurrent_games']} "
        f"concurrent {figures['kind']} games, p50 {figures['http_p50_ms']} ms, "
        f"p99 {figures['http_p99_ms']} ms"
    )
    print(
        f"direct store appends in the same run: {figures['direct_appends_per_second']}/s; "
        f"fold: {figures['fold_events_per_second']} events/s over {figures['fold_events']} events"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
