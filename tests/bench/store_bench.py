"""Appends per second made directly through the event store (psycopg), many games at once.

    .venv/bin/python -m tests.bench.store_bench [--streams 32] [--seconds 10] [--url URL]

Without `--url` (or REFEREE_MIGRATION_DATABASE_URL, the owner's) it runs on a throw-away
embedded PostgreSQL, durable as `referee serve` runs it; with one, the owner migrates and the
appends log in as a login of their own (`referee_bench`), as the service does. Each stream
has one writer appending one event per command, as a
game's moves are, with the expected version it just got back. The HTTP benchmark calls
`measure_direct_appends` to put this rate beside its own.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
import uuid
from typing import Any

import psycopg

from eventstore import EventStore, NewEvent, SeedKeys, open_store, provision
from eventstore.groupcommit import WRITERS
from tests.bench import procstat

MOVE_BODY = b'{"type":"bench.move","seat":0,"card":17,"note":"' + b"x" * 150 + b'"}'
COMMAND_BODY = b'{"type":"bench.play","card":17}'


BENCH_KEYS = SeedKeys.generate("bench")


async def measure_direct_appends(
    url: str,
    streams: int = 32,
    seconds: float = 10.0,
    *,
    warmup: float = 1.0,
    pool_size: int | None = None,
    postmaster: int | None = None,
) -> dict[str, Any]:
    """Append for `seconds` (after `warmup`) to `streams` new games; the rate and latencies.

    `url` logs in as the service would, on a provisioned database (`bench_login`). One
    connection per stream unless `pool_size` says otherwise. Given the server's `postmaster`
    pid, the CPU an append costs PostgreSQL and this process over the same window, too.
    """
    size = pool_size or streams
    options: dict[str, Any] = {"min_size": size, "max_size": size, "name": "referee-bench"}
    # The server's setting, read the same way: a run with REFEREE_GROUP_COMMIT_WRITERS=0
    # measures appends each on its own, as before group commit.
    writers = int(os.environ.get("REFEREE_GROUP_COMMIT_WRITERS", WRITERS))
    async with open_store(url, BENCH_KEYS, group_commit_writers=writers, **options) as store:
        await store.ping(timeout=30)
        run = uuid.uuid4().hex[:8]
        game_ids = [f"bench-{run}-{n}" for n in range(streams)]
        for game_id in game_ids:
            await _create(store, game_id)
        latencies: list[float] = []
        started = time.perf_counter()
        measure_from = started + warmup
        stop_at = measure_from + seconds
        window = asyncio.create_task(_cpu_window(postmaster, measure_from, stop_at))
        await asyncio.gather(*(_play(store, g, measure_from, stop_at, latencies) for g in game_ids))
        postgres_cpu, client_cpu = await window
        batches = store.group_commits
    latencies.sort()
    per_append = 1e6 / max(len(latencies), 1)
    cpu = (
        {}
        if postmaster is None
        else {
            "postgres_cpu_us_per_append": round(postgres_cpu * per_append, 1),
            "client_cpu_us_per_append": round(client_cpu * per_append, 1),
        }
    )
    return {
        **cpu,
        "streams": streams,
        "connections": size,
        "seconds": seconds,
        "appends": len(latencies),
        "appends_per_batch": round(batches.appends / max(batches.batches, 1), 1),  # warm-up too
        "appends_per_second": round(len(latencies) / seconds, 1),
        "p50_ms": round(statistics.median(latencies) * 1000, 2),
        "p99_ms": round(latencies[int(len(latencies) * 0.99)] * 1000, 2),
    }


async def _cpu_window(postmaster: int | None, start: float, stop: float) -> tuple[float, float]:
    """PostgreSQL's CPU (the postmaster's tree) and this process's between two moments."""
    if postmaster is None:
        return 0.0, 0.0
    await asyncio.sleep(max(0.0, start - time.perf_counter()))
    postgres, client = procstat.tree_cpu_seconds([postmaster]), time.process_time()
    await asyncio.sleep(max(0.0, stop - time.perf_counter()))
    return procstat.tree_cpu_seconds([postmaster]) - postgres, time.process_time() - client


async def _create(store: EventStore, game_id: str) -> None:
    await store.create_stream(
        game_id,
        kind="bench",
        rules_version="0",
        seats=1,
        seed=os.urandom(32),
        seed_chosen_by_creator=False,
        seat_token_hashes=[os.urandom(32)],
        events=[NewEvent(type="game.created", body=b'{"type":"game.created"}')],
    )


async def _play(
    store: EventStore, game_id: str, measure_from: float, stop_at: float, latencies: list[float]
) -> None:
    version = 1
    while (now := time.perf_counter()) < stop_at:
        result = await store.append(
            game_id,
            expected_version=version,
            events=[NewEvent(type="bench.move", body=MOVE_BODY, chance_cursor=version)],
            seat=0,
            command_body=COMMAND_BODY,
        )
        version = result.version
        if now >= measure_from:
            latencies.append(time.perf_counter() - now)


async def bench_login(owner_url: str, app_url: str | None = None) -> str:
    """Provision the database as its owner; the URL of a login to measure with."""
    if app_url is None:
        password = uuid.uuid4().hex
        app_url = psycopg.conninfo.make_conninfo(owner_url, user="referee_bench", password=password)
    await provision(owner_url, app_url, BENCH_KEYS, set_password=True)
    return app_url


async def _main(arguments: argparse.Namespace) -> dict[str, Any]:
    url = arguments.url or os.environ.get("REFEREE_MIGRATION_DATABASE_URL")
    if url:
        login = await bench_login(url)
        return await measure_direct_appends(login, arguments.streams, arguments.seconds)
    from eventstore.embedded import CLUSTER_DIR
    from tests.bench.cluster import embedded_cluster

    with embedded_cluster() as (embedded, directory):
        login = await bench_login(embedded.owner_url, embedded.app_url)
        postmaster = procstat.postmaster_pid(directory / CLUSTER_DIR)
        return await measure_direct_appends(
            login, arguments.streams, arguments.seconds, postmaster=postmaster
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--streams", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--url", help="a database, as its owner (default: embedded)")
    figures = asyncio.run(_main(parser.parse_args()))
    print(
        f"direct appends through the store: {figures['appends_per_second']}/s on "
        f"{figures['streams']} streams ({figures['connections']} connections), "
        f"p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms, "
        f"{figures['appends_per_batch']} appends a batch"
    )
    if "postgres_cpu_us_per_append" in figures:
        print(
            f"CPU an append: PostgreSQL {figures['postgres_cpu_us_per_append']} µs, "
            f"this process {figures['client_cpu_us_per_append']} µs"
        )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
