"""What the server's own bots cost the players: a player's moves while games of bots run.

    .venv/bin/python -m tests.bench.bot_load [--bot-games 6] [--kind wind-river]
        [--strategy greedy] [--moves 400] [--share 0.25] [--workers 1]

One throw-away embedded PostgreSQL and a real `referee serve` on it. A player (one client, one
move at a time: a `legal-commands` read, then a command) plays Coyote games of three seats:
1. alone: p50/p99 of a move;
2. while `--bot-games` games with a bot on every seat (`--kind`, `--strategy`) are created at
   once and played by the server: p50/p99 of a move, the bots' moves made meanwhile, and the
   server's CPU per second of the phase.
`--share` is REFEREE_BOT_CPU_SHARE (1: unpaced, as before the bots were paced). Not a test:
the figures depend on the machine and its load. See tests/bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from tests.bench import procstat
from tests.bench.cluster import embedded_cluster
from tests.bench.http_bench import Server, percentile
from tests.bench.store_bench import bench_login


async def player_moves(client: httpx.AsyncClient, moves: int, rng: random.Random) -> list[float]:
    """`moves` moves of Coyote games (every seat played by this one player); each move's time."""
    times: list[float] = []
    game: dict[str, Any] | None = None
    while len(times) < moves:
        if game is None or game["status"] == "finished":
            created = (await client.post("/v1/games", json={"kind": "coyote", "seats": 3})).json()
            tokens = {item["seat"]: item["token"] for item in created["seat_tokens"]}
            game = (await client.get(f"/v1/games/{created['game_id']}")).json()
        url, seat = f"/v1/games/{game['game_id']}", game["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        started = time.perf_counter()
        legal = await client.get(f"{url}/legal-commands", params={"limit": 20}, headers=auth)
        commands = legal.json()["commands"]
        body = {"command": rng.choice(commands), "expected_version": game["version"]}
        answer = await client.post(f"{url}/commands", json=body, headers=auth)
        times.append(time.perf_counter() - started)
        if answer.status_code != 200:
            raise RuntimeError(f"a move was refused: {answer.text}")
        played = answer.json()
        game = {**game, **{key: played[key] for key in ("version", "to_act", "status")}}
    return times


def latency(times: list[float]) -> dict[str, float | None]:
    ordered = sorted(times)
    return {"p50_ms": percentile(ordered, 0.5), "p99_ms": percentile(ordered, 0.99)}


async def bot_moves(client: httpx.AsyncClient, games: list[str]) -> int:
    """The events of the bots' games so far (their moves and the referee's steps)."""
    details = [(await client.get(f"/v1/games/{game}")).json() for game in games]
    return sum(int(detail["version"]) for detail in details)


async def run(args: argparse.Namespace, database_url: str) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="referee-bot-load-"))
    os.environ["REFEREE_BOT_CPU_SHARE"] = str(args.share)
    os.environ["REFEREE_BOT_GAMES_PER_MINUTE"] = "0"  # the bench creates its games at once
    server = Server(database_url, args.workers, None, work / "serve.log").start()
    rng = random.Random(1)
    figures: dict[str, Any] = {key: getattr(args, key) for key in vars(args)}
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.port}") as client:
            await player_moves(client, 30, rng)  # warm up
            figures["alone"] = latency(await player_moves(client, args.moves, rng))
            seats = {"wind-river": 4, "big-manitou": 5, "tribu": 4, "coyote": 6}.get(args.kind, 2)
            bots = [{"seat": seat, "strategy": args.strategy} for seat in range(seats)]
            games = []
            for _ in range(args.bot_games):
                created = await client.post(
                    "/v1/games", json={"kind": args.kind, "seats": seats, "bots": bots}
                )
                games.append(created.json()["game_id"])
            cpu_before, started = procstat.cpu_seconds(server.pids()), time.monotonic()
            events_before = await bot_moves(client, games)
            during = await player_moves(client, args.moves, rng)
            elapsed = time.monotonic() - started
            cpu = procstat.cpu_seconds(server.pids()) - cpu_before
            figures["with_bots"] = {
                **latency(during),
                "bot_events_per_second": round(
                    (await bot_moves(client, games) - events_before) / elapsed, 1
                ),
                "server_cpu_per_second": round(cpu / elapsed, 2),
            }
    finally:
        server.stop()
    return figures


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    with embedded_cluster("referee-bot-load-") as (embedded, _):
        return await run(args, await bench_login(embedded.owner_url, embedded.app_url))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot-games", type=int, default=6)
    parser.add_argument("--kind", default="wind-river")
    parser.add_argument("--strategy", default="greedy", choices=["random", "greedy"])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--share", type=float, default=0.25)
    parser.add_argument("--workers", type=int, default=1)
    figures = asyncio.run(main_async(parser.parse_args()))
    print(json.dumps(figures), file=sys.stdout)


if __name__ == "__main__":
    main()
