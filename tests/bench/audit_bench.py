"""Server CPU of a finished game's audit: the first, the repeated ones, and an ordinary read.

    .venv/bin/python -m tests.bench.audit_bench [--kind tribu] [--seats 4] [--repeats 200]
                                                [--audit-cache-size N]

Starts a throw-away embedded PostgreSQL, plays one game of `--kind` to the end through the
service (the corpus's player), then starts a real `referee serve` on it with no rate limit and
reads the server process's CPU time (/proc/<pid>/stat) around one audit, `--repeats` audits
and `--repeats` ordinary reads (`GET /v1/games/{id}`). `--audit-cache-size 0` shows the cost
without kept reports. Not a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from api.cache import TableCache
from api.service import GameService
from eventstore.pool import create_pool
from eventstore.store import EventStore
from referee.games import REGISTRY
from tests.bench.cluster import embedded_cluster
from tests.bench.store_bench import BENCH_KEYS, bench_login
from tests.corpus.recorder import Player
from tests.servers import TEST_SIGNING_KEYS

TICK = 1 / os.sysconf("SC_CLK_TCK")
MAX_COMMANDS = 20_000
STARTUP_PATIENCE = 60.0


async def finished_game(url: str, kind: str, seats: int) -> tuple[str, int, int]:
    """A game played to the end: its id, commands and events."""
    async with create_pool(url, min_size=1, max_size=2) as pool:
        service = GameService(EventStore(pool, BENCH_KEYS), REGISTRY, TableCache(4))
        game = REGISTRY[kind]
        created = await service.create(
            kind, seats=seats, options=game.options_type(), seed=None, entropy=""
        )
        player = Player(f"{kind}-{seats}", by_kind=kind == "tribu")
        table = created.table
        for played in range(MAX_COMMANDS + 1):
            if table.outcome().finished:
                return created.game_id, played, table.version
            seat, command = player.choose(table)
            table = (await service.play(created.game_id, seat, command)).table
        raise RuntimeError(f"the game is not over after {MAX_COMMANDS} commands")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * TICK


def cpu_per_request(pid: int, request: Callable[[], httpx.Response], count: int) -> float:
    before = cpu_seconds(pid)
    for _ in range(count):
        response = request()
        response.raise_for_status()
    return (cpu_seconds(pid) - before) / count


def serve(url: str, log: Path, cache_size: int | None) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **os.environ,
        "REFEREE_DATABASE_URL": url,
        "REFEREE_SEED_KEYS": BENCH_KEYS.entries(),
        "REFEREE_SIGNING_KEYS": TEST_SIGNING_KEYS,
        "REFEREE_EXPENSIVE_READS_PER_MINUTE": "0",
    }
    if cache_size is not None:
        env["REFEREE_AUDIT_CACHE_SIZE"] = str(cache_size)
    referee = Path(sys.executable).with_name("referee")
    with log.open("wb") as output:
        process = subprocess.Popen(
            [str(referee), "serve", "--port", str(port), "--workers", "1"],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_PATIENCE
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/health/ready").status_code == 200:
                return process, base
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"the server did not start:\n{log.read_text()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", default="tribu")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--audit-cache-size", type=int, default=None)
    args = parser.parse_args()

    with embedded_cluster("referee-audit-bench-", durable=False) as (embedded, directory):
        url = asyncio.run(bench_login(embedded.owner_url, embedded.app_url))
        game_id, commands, events = asyncio.run(finished_game(url, args.kind, args.seats))
        process, base = serve(url, directory / "serve.log", args.audit_cache_size)
        try:
            with httpx.Client(base_url=base, timeout=120) as http:
                audit = f"/v1/games/{game_id}/audit"
                read = f"/v1/games/{game_id}"
                http.get(read).raise_for_status()  # the game folded once, as for any read
                first = cpu_per_request(process.pid, lambda: http.get(audit), 1)
                repeated = cpu_per_request(process.pid, lambda: http.get(audit), args.repeats)
                ordinary = cpu_per_request(process.pid, lambda: http.get(read), args.repeats)
                verdict = http.get(audit).json()["verdict"]
        finally:
            process.terminate()
            process.wait(30)
    print(f"{args.kind}, {args.seats} seats: {commands} commands, {events} events; {verdict}")
    print(f"server CPU, first audit:    {first * 1000:8.2f} ms")
    print(f"repeated audit (avg of {args.repeats}): {repeated * 1000:8.2f} ms")
    print(f"ordinary read (avg of {args.repeats}):  {ordinary * 1000:8.2f} ms")
    print(f"repeated audit / ordinary read: {repeated / ordinary:.2f}")


if __name__ == "__main__":
    main()
