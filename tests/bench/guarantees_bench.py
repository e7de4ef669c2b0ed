"""What each guarantee of an append costs PostgreSQL: direct appends with one switched off.

    .venv/bin/python -m tests.bench.guarantees_bench [--streams 32] [--seconds 3] [--rounds 3]
        [--explain]

One throw-away embedded PostgreSQL (durable, as `referee serve` runs it), provisioned as the
service's is; `store_bench`'s direct appends (`streams` games, one event a command) once with
every guarantee and once without each, each round in its own order. A variant
switches one guarantee off as the database's owner (a trigger disabled, a key dropped) or in
this process (a check left out of the append's statement, the notification not sent), and puts
it back before the next. For each: PostgreSQL's CPU an append (the postmaster's tree, /proc),
this process's, appends a second and the batch's size, the median of the rounds. The cost of
a guarantee is the baseline's CPU less the variant's.

With 32 streams the store writes batches of 32 (the streams move in step); `--streams 5` puts
the batches near what `make bench` sees (about five appends a batch), where what a statement
costs once weighs more than what a row costs.

`--explain` first runs one real batch under `EXPLAIN ANALYZE` (rolled back) and prints each
trigger's time: steadier than the CPU figures, which move by a few µs from run to run here.

Prints a table, then one JSON line. Not a test: nothing here is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import sql

from eventstore import store as store_module
from eventstore.embedded import CLUSTER_DIR
from eventstore.notifications import Notifier
from eventstore.store import EventStore
from tests.bench import procstat
from tests.bench.cluster import embedded_cluster
from tests.bench.store_bench import bench_login, measure_direct_appends


@dataclass(frozen=True)
class Variant:
    """A guarantee switched off: the owner's SQL to switch it off and back on, or a context
    that does it in this process."""

    name: str
    off: str = ""
    on: str = ""
    in_process: Callable[[], AbstractContextManager[None]] | None = None


@contextmanager
def _without_head_guards() -> Iterator[None]:
    kept = store_module._APPEND_MANY
    comment_and_guards = kept[kept.index("       -- As `_APPEND`.") : kept.index(" RETURNING a.i")]
    if "e.seq > a.expected LIMIT 1) IS NULL" not in comment_and_guards:
        raise RuntimeError("the append's statement changed: update _without_head_guards")
    store_module._APPEND_MANY = kept.replace(comment_and_guards, "")
    try:
        yield
    finally:
        store_module._APPEND_MANY = kept


@contextmanager
def _without_notifications() -> Iterator[None]:
    kept = Notifier.committed
    Notifier.committed = lambda self, game_id, version: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        Notifier.committed = kept  # type: ignore[method-assign]


VARIANTS = [
    Variant("every guarantee"),
    Variant(
        "games only move forward (row trigger)",
        "ALTER TABLE games DISABLE TRIGGER games_only_move_forward",
        "ALTER TABLE games ENABLE TRIGGER games_only_move_forward",
    ),
    Variant(
        "a game's version has its event (statement trigger)",
        "ALTER TABLE games DISABLE TRIGGER games_moved_with_their_events",
        "ALTER TABLE games ENABLE TRIGGER games_moved_with_their_events",
    ),
    Variant(
        "events in line: game, command, numbered, chained, hashed (statement trigger)",
        "ALTER TABLE events DISABLE TRIGGER events_in_line",
        "ALTER TABLE events ENABLE TRIGGER events_in_line",
    ),
    Variant(
        "a command belongs to its game (statement trigger)",
        "ALTER TABLE commands DISABLE TRIGGER commands_of_their_games",
        "ALTER TABLE commands ENABLE TRIGGER commands_of_their_games",
    ),
    Variant(
        "an idempotency key once a seat (unique index)",
        "ALTER TABLE commands DROP CONSTRAINT commands_game_id_seat_idempotency_key_key",
        "ALTER TABLE commands ADD CONSTRAINT commands_game_id_seat_idempotency_key_key"
        " UNIQUE (game_id, seat, idempotency_key)",
    ),
    Variant(
        "the head is the stream's last event (the append's guards)", in_process=_without_head_guards
    ),
    Variant("listeners told (the notification)", in_process=_without_notifications),
    Variant(
        "durable before acknowledged (synchronous commit)",
        "ALTER ROLE {login} SET synchronous_commit = off",
        "ALTER ROLE {login} RESET synchronous_commit",
    ),
]


@dataclass
class Figures:
    postgres_us: list[float] = field(default_factory=list)
    client_us: list[float] = field(default_factory=list)
    per_second: list[float] = field(default_factory=list)
    batch: list[float] = field(default_factory=list)

    def add(self, run: dict[str, Any]) -> None:
        self.postgres_us.append(run["postgres_cpu_us_per_append"])
        self.client_us.append(run["client_cpu_us_per_append"])
        self.per_second.append(run["appends_per_second"])
        self.batch.append(run["appends_per_batch"])

    def medians(self) -> dict[str, float]:
        return {
            "postgres_cpu_us_per_append": statistics.median(self.postgres_us),
            "client_cpu_us_per_append": statistics.median(self.client_us),
            "appends_per_second": statistics.median(self.per_second),
            "appends_per_batch": statistics.median(self.batch),
        }


def _as_owner(owner_url: str, statement: str, login: str) -> None:
    """Run `statement` as the owner, `{login}` standing for the role the appends log in as."""
    if statement:
        role = psycopg.conninfo.conninfo_to_dict(login)["user"]
        with psycopg.connect(owner_url, autocommit=True) as conn:
            conn.execute(sql.SQL(statement).format(login=sql.Identifier(str(role))))


async def _measure(
    variant: Variant, owner_url: str, login: str, postmaster: int, args: argparse.Namespace
) -> dict[str, Any]:
    _as_owner(owner_url, variant.off, login)
    try:
        with variant.in_process() if variant.in_process else nullcontext():
            return await measure_direct_appends(
                login, args.streams, args.seconds, postmaster=postmaster
            )
    finally:
        _as_owner(owner_url, variant.on, login)


_EXPLAINED = ("Planning Time", "Trigger", "Execution Time")


async def explain_a_batch(owner_url: str, login: str, streams: int) -> str:
    """A real batch of `streams` appends run once more under `EXPLAIN ANALYZE` before it is
    written, as the owner, in a transaction rolled back: the time of each trigger, the
    statement's planning and execution. The last of the first three such batches, so that the
    owner's connection has its plans and functions ready."""
    explained: list[str] = []
    write_together = EventStore._write_together

    async def explaining(self: EventStore, appends: list[Any]) -> list[Any]:
        if len(appends) == streams and len(explained) < 3:
            rows = [store_module._many_row(i, a.prepared()[1]) for i, a in enumerate(appends)]
            async with conn.transaction(force_rollback=True):
                cursor = await conn.execute(
                    "EXPLAIN (ANALYZE, BUFFERS) " + store_module._APPEND_MANY,
                    {"appends": store_module._json(rows)},
                )
                plan = [str(row[0]) for row in await cursor.fetchall()]
            explained.append("\n".join(line for line in plan if line.startswith(_EXPLAINED)))
        return await write_together(self, appends)

    async with await psycopg.AsyncConnection.connect(owner_url, autocommit=True) as conn:
        EventStore._write_together = explaining  # type: ignore[method-assign]
        try:
            await measure_direct_appends(login, streams, 1.0, warmup=0.5)
        finally:
            EventStore._write_together = write_together  # type: ignore[method-assign]
    return explained[-1] if explained else "no batch of that size was written"


async def run(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    figures = {variant.name: Figures() for variant in VARIANTS}
    with embedded_cluster() as (embedded, directory):
        login = await bench_login(embedded.owner_url, embedded.app_url)
        if args.explain:
            print(await explain_a_batch(embedded.owner_url, login, args.streams))
        if args.rounds < 1:
            return {}
        postmaster = procstat.postmaster_pid(directory / CLUSTER_DIR)
        await _measure(VARIANTS[0], embedded.owner_url, login, postmaster, args)  # warm-up
        order = random.Random(args.seed)
        for _ in range(args.rounds):
            # Each round in its own order, and every run on freshly vacuumed and analysed
            # tables: the tables grow by every run, and neither growth nor a plan made on
            # stale statistics may fall on one variant more than on another.
            for variant in order.sample(VARIANTS, len(VARIANTS)):
                _as_owner(embedded.owner_url, "VACUUM (ANALYZE) games, commands, events", login)
                run = await _measure(variant, embedded.owner_url, login, postmaster, args)
                figures[variant.name].add(run)
    return {name: each.medians() for name, each in figures.items()}


def printed(results: dict[str, dict[str, float]]) -> str:
    base = results[VARIANTS[0].name]["postgres_cpu_us_per_append"]
    lines = ["  PG µs  costs  client µs  appends/s  batch  switched off"]
    for name, row in results.items():
        pg = row["postgres_cpu_us_per_append"]
        lines.append(
            f"  {pg:5.1f}  {base - pg:5.1f}  {row['client_cpu_us_per_append']:9.1f}"
            f"  {row['appends_per_second']:9.0f}  {row['appends_per_batch']:5.1f}  {name}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--streams", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3, help="0: only --explain")
    parser.add_argument("--seed", type=int, default=29, help="of the rounds' orders")
    parser.add_argument(
        "--explain", action="store_true", help="first, EXPLAIN ANALYZE a batch (rolled back)"
    )
    args = parser.parse_args()
    results = asyncio.run(run(args))
    if results:
        print(printed(results))
    print(json.dumps({"streams": args.streams, "seconds": args.seconds, "results": results}))


if __name__ == "__main__":
    main()
