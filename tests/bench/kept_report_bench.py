"""What answering a kept audit report costs for a long game: the stamp of its stored record
(`EventStore.record_stamp`) beside the head read it replaced, a re-read of the whole record
with its hash chain recomputed (what checking the bodies byte for byte would cost), and a
verification from scratch.

    .venv/bin/python -m tests.bench.kept_report_bench [--events 10000] [--repeats 50]

Starts a throw-away embedded PostgreSQL and plays one game of Manitou island (match play to a
target never reached, random seats) through the service, one command per append as a server
records it, until it has `--events` events. Wall-clock times of this process, the database on
the same machine: not a test, the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from api.audit import Archive
from api.cache import ReportCache, TableCache
from api.service import GameService
from eventstore.chain import event_hash
from eventstore.pool import create_pool
from eventstore.store import EventStore
from eventstore.types import GENESIS_HASH
from referee.games import REGISTRY
from referee.kernel.bots import play
from tests.bench.cluster import embedded_cluster
from tests.bench.store_bench import BENCH_KEYS, bench_login

KIND = "manitou-island"
SEATS = 4


async def long_game(service: GameService, events: int) -> tuple[str, int]:
    """A running game of at least `events` events, one command per append: its id, commands."""
    game = REGISTRY[KIND]
    options = game.options_type(match_play=True, match_target=10**9)
    created = await service.create(
        KIND, seats=SEATS, options=options, seed=os.urandom(32), entropy=""
    )
    table, rng, commands = created.table, random.Random(7), 0
    while table.version < events:
        if table.outcome().finished:
            raise RuntimeError(f"the game ended after {table.version} events")
        seat = rng.choice(sorted(table.to_act()))
        command = play(game, "random", table.state, seat, rng)
        table = (await service.play(created.game_id, seat, command)).table
        commands += 1
    return created.game_id, commands


async def timed(call: Callable[[], Awaitable[Any]], repeats: int) -> dict[str, float]:
    """Milliseconds per call: median and best of `repeats` (after one call to warm up)."""
    await call()
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    return {"median_ms": round(statistics.median(times), 2), "best_ms": round(min(times), 2)}


async def measure(url: str, events: int, repeats: int) -> dict[str, Any]:
    async with create_pool(url, min_size=1, max_size=4) as pool:
        store = EventStore(pool, BENCH_KEYS)
        service = GameService(store, REGISTRY, TableCache(4))
        game_id, commands = await long_game(service, events)
        version = (await store.info(game_id)).version

        async def head() -> None:  # what a kept report was checked against before
            await store.read(game_id, after=version - 1, limit=2)

        async def stamp() -> None:
            await store.record_stamp(game_id)

        archive = Archive(store, REGISTRY)

        async def chain() -> None:  # the whole record read again, every body hashed
            bundle = await archive.bundle(game_id, reveal=True)
            previous = GENESIS_HASH
            for event in bundle.events:
                previous = event_hash(previous, event.body)
            assert previous.hex() == bundle.events[-1].hash

        async def verified() -> None:  # a verification from scratch (no report kept)
            await Archive(store, REGISTRY).audit(game_id)

        kept = Archive(store, REGISTRY, ReportCache(4))
        await kept.audit(game_id)

        async def kept_audit() -> None:
            await kept.audit(game_id)

        return {
            "events": version,
            "commands": commands,
            "head read (before)": await timed(head, repeats),
            "record stamp": await timed(stamp, repeats),
            "kept audit (stamp + lookup)": await timed(kept_audit, repeats),
            "record re-read + hash chain": await timed(chain, max(repeats // 5, 3)),
            "verification from scratch": await timed(verified, 3),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    with embedded_cluster("referee-kept-report-bench-", durable=False) as (embedded, _):
        url = asyncio.run(bench_login(embedded.owner_url, embedded.app_url))
        results = asyncio.run(measure(url, args.events, args.repeats))
    for name, value in results.items():
        print(f"{name:32} {value}")


if __name__ == "__main__":
    main()
