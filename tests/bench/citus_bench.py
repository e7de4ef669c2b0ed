"""Phase 9 of `make bench` (`--citus`): what a move costs on a Citus cluster, beside one
PostgreSQL.

A coordinator and two workers on this machine (Citus built by tests/citus/cluster.py, durable
as a server runs), migrated and distributed as `referee migrate` does, a real `referee serve`
on the coordinator, and the load of phases 1 and 2 (closed loop over `--games` games, then
`--rate` moves a second offered): moves/s, p50/p99, and the CPU per move of the API, the
coordinator and each worker, read from /proc around the timed window. On one machine the nodes
share its cores with the API and the load: the figures say what a move costs each node, from
which the README's Scaling section models machines of their own.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

import psycopg

from api.cache import TableCache
from api.service import GameService
from eventstore import open_store
from referee.games import REGISTRY
from tests.bench import loadgen
from tests.bench.http_bench import Server, _replace, create_games, load_figures, run_phase
from tests.bench.store_bench import BENCH_KEYS, bench_login
from tests.citus.cluster import Cluster, build


async def on_a_cluster(args: argparse.Namespace) -> dict[str, Any]:
    say = (lambda *a: None) if args.json_only else (lambda *a: print(*a, file=sys.stderr))
    say("9. citus: building (or finding) Citus, starting a coordinator and two workers ...")
    cluster = Cluster.start(build(), durable=True)
    work = Path(tempfile.mkdtemp(prefix="referee-citus-bench-"))
    try:
        login = psycopg.conninfo.make_conninfo(cluster.owner_url, user="referee_bench")
        database_url = await bench_login(cluster.owner_url, login)
        async with open_store(database_url, BENCH_KEYS, min_size=8, max_size=8) as store:
            service = GameService(store, REGISTRY, TableCache(8))
            population = await create_games(service, args.kind, args.seats, 2 * args.games)
        server = Server(database_url, args.workers, args.cache_size, work / "serve.log").start()
        postmasters = [cluster.postmaster_pid(node) for node in cluster.nodes]
        job = loadgen.Job("127.0.0.1", server.port, args.kind, args.seats, [], 0.0, 0.0)
        figures: dict[str, Any] = {}
        try:
            say(f"9. citus: closed loop, {args.games} games, {args.seconds} s ...")
            games = population[: args.games]
            closed = run_phase(
                server, postmasters, _replace(job, slots=args.games), games, args.generators,
                args.seconds,
            )  # fmt: skip
            closed.check("citus closed loop")
            figures.update(load_figures("citus", closed))
            for node, cpu in zip(cluster.nodes, closed.pg_cpus, strict=True):
                figures[f"citus_{node.name}_cpu_per_move_ms"] = closed.per_move_ms(cpu)
            say(f"9. citus: open loop, {args.rate} moves/s offered ...")
            games = population[args.games :]
            offered = _replace(job, rate=args.rate, slots=1)
            opened = run_phase(server, postmasters, offered, games, args.generators, args.seconds)
            opened.check("citus open loop")
            figures.update(
                {k: v for k, v in load_figures("citus_open", opened).items() if "_p" in k}
            )
        finally:
            server.stop()
        return figures
    finally:
        cluster.stop()
