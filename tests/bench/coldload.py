"""Cold load of a long game, and fold speed: what a move costs when its game is not cached.

A game of `EVENTS` events is recorded through the store (not HTTP, for speed): Manitou island
in match play with an unreachable target, so that it goes on for as long as wanted, played by
the kernel's random bot (`referee.kernel.bots.play`) and appended a few hundred events at a
time (the store does not care how events are grouped into commands; reading and folding see
the same rows). Then `GameService.table(game_id)` on an empty cache, the API's own path (read
+ verify the chain + decode + fold), is timed a few times, and each step on its own, with the
garbage collector set as in a serving process (`api.server.GC_THRESHOLDS`): at Python's
defaults, the tens of thousands of objects a cold load makes start full collections over this
process's whole heap, which a server does not.

Alone (an embedded cluster of its own, a minute or two), with the best run beside the median
and what each type of event costs to fold:

    .venv/bin/python -m tests.bench.coldload [--repeats 15]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import json
import os
import random
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from api.cache import TableCache
from api.server import GC_THRESHOLDS
from api.service import GameService, _new_events
from eventstore import NewEvent, StoredEvent, open_store
from eventstore.store import EventStore
from referee.games import REGISTRY
from referee.kernel import Codec, Played, Table
from referee.kernel.bots import play
from referee.kernel.lifecycle import KERNEL_EVENTS
from tests.bench.cluster import embedded_cluster
from tests.bench.store_bench import BENCH_KEYS, bench_login

EVENTS = 10_000
KIND = "manitou-island"
SEATS = 4
BATCH = 250  # events per append
REPEATS = 5


async def long_game(store: EventStore, events: int = EVENTS) -> str:
    """A game of at least `events` events (a few more: a command's events stay together)."""
    game = REGISTRY[KIND]
    service = GameService(store, REGISTRY, TableCache(4))
    seed = os.urandom(32)
    options = game.options_type(match_play=True, match_target=10**9)
    created = await service.create(KIND, seats=SEATS, options=options, seed=seed, entropy="")
    game_id, table = created.game_id, created.table
    rng = random.Random(7)
    pending: list[NewEvent] = []
    appended = table.version
    while table.version < events and not table.outcome().finished:
        seat = rng.choice(sorted(table.to_act()))
        command = play(game, "random", table.state, seat, rng)
        pending += _new_events(game, table.play(seat, command, table.chance_for(seed, game_id)))
        if len(pending) >= BATCH or table.version >= events:
            await store.append(
                game_id,
                expected_version=appended,
                events=pending,
                seat=seat,
                command_body=Codec.encode(command),
            )
            appended, pending = table.version, []
    if table.version < events:
        raise RuntimeError(f"the long game ended after {table.version} events")
    return game_id


def played_of(codec: Codec, stored: list[StoredEvent]) -> list[Played]:
    """A read's events as the kernel folds them (the service's own step, without its errors)."""
    return [Played(codec.decode_event(e.body), e.chance_cursor) for e in stored]


@contextmanager
def collected_as_served() -> Iterator[None]:
    """The collector's thresholds as `referee serve` sets them, for the duration."""
    before = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


async def measure_cold_load(
    store: EventStore, game_id: str, repeats: int = REPEATS
) -> dict[str, Any]:
    with collected_as_served():
        return await _measure_cold_load(store, game_id, repeats)


async def _measure_cold_load(store: EventStore, game_id: str, repeats: int) -> dict[str, Any]:
    totals, reads, decodes, folds = [], [], [], []
    game = REGISTRY[KIND]
    codec = Codec(game)
    for _ in range(repeats):
        service = GameService(store, REGISTRY, TableCache(4))  # an empty cache
        started = time.perf_counter()
        table = await service.table(game_id)
        totals.append(time.perf_counter() - started)

        started = time.perf_counter()
        stored = await store.read(game_id, verify=True)
        read = time.perf_counter()
        played = played_of(codec, stored)
        decoded = time.perf_counter()
        Table.replay(game, played)
        folded = time.perf_counter()
        reads.append(read - started)
        decodes.append(decoded - read)
        folds.append(folded - decoded)
    events = table.version
    fold = statistics.median(folds)
    return {
        "cold_load_kind": KIND,
        "cold_load_events": events,
        "cold_load_ms": round(statistics.median(totals) * 1000, 1),
        "cold_load_best_ms": round(min(totals) * 1000, 1),
        "cold_read_ms": round(statistics.median(reads) * 1000, 1),
        "cold_decode_ms": round(statistics.median(decodes) * 1000, 1),
        "cold_fold_ms": round(fold * 1000, 1),
        "fold_events_per_second": round(events / fold),
    }


async def fold_speed_of(store: EventStore, kind: str, game_ids: list[str]) -> dict[str, Any]:
    """Fold speed over many short games of the bench's kind (each from game.created)."""
    codec = Codec(REGISTRY[kind])
    games: list[list[Played]] = []
    for game_id in game_ids:
        stored = await store.read(game_id)
        games.append(played_of(codec, stored))
    events = sum(len(game) for game in games)
    with collected_as_served():
        started = time.perf_counter()
        for game in games:
            Table.replay(REGISTRY[kind], game)
        elapsed = time.perf_counter() - started
    return {
        "kind_fold_games": len(games),
        "kind_fold_events": events,
        "kind_fold_events_per_second": round(events / elapsed) if elapsed else None,
    }


def fold_cost_by_event(played: list[Played], repeats: int = REPEATS) -> dict[str, float]:
    """Microseconds the game's `evolve` takes for an event of each type (best of `repeats`),
    each applied to the state it was recorded on."""
    game = REGISTRY[KIND]
    table = Table.replay(game, played[:1])
    before: dict[str, list[tuple[Any, Any]]] = collections.defaultdict(list)
    for item in played[1:]:
        if type(item.event) not in KERNEL_EVENTS:
            before[type(item.event).__name__].append((table.state, item.event))
        table.advance([item])
    costs = {}
    with collected_as_served():
        for name, pairs in before.items():
            best = min(_time_evolve(game.evolve, pairs) for _ in range(repeats))
            costs[name] = round(best / len(pairs) * 1e6, 2)
    return costs


def _time_evolve(evolve: Any, pairs: list[tuple[Any, Any]]) -> float:
    started = time.perf_counter()
    for state, event in pairs:
        evolve(state, event)
    return time.perf_counter() - started


async def _main(repeats: int) -> dict[str, Any]:
    with embedded_cluster() as (embedded, _):
        login = await bench_login(embedded.owner_url, embedded.app_url)
        async with open_store(login, BENCH_KEYS, min_size=1, max_size=2) as store:
            game_id = await long_game(store)
            figures = await measure_cold_load(store, game_id, repeats)
            codec = Codec(REGISTRY[KIND])
            stored = await store.read(game_id)
            played = played_of(codec, stored)
    figures["fold_us_by_event"] = fold_cost_by_event(played, repeats)
    counts = collections.Counter(type(item.event).__name__ for item in played)
    figures["events_by_type"] = dict(counts.most_common())
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeats", type=int, default=15)
    print(json.dumps(asyncio.run(_main(parser.parse_args().repeats))))


if __name__ == "__main__":
    main()
