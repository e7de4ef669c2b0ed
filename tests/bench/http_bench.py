"""The service's benchmark (`make bench`): what a move costs, in one run, as ratios.

    .venv/bin/python -m tests.bench.http_bench [--kind coyote] [--seats 4] [--games 32]
        [--seconds 20] [--workers 1] [--rate 300] [--scale 2048,10000] [--memory-games 10000]
        [--generators 2] [--profile DIR] [--record] [--json-only]

One throw-away embedded PostgreSQL (durable, as `referee serve` runs it) and a real
`referee serve --workers N` on it; the load comes from a lean generator in other processes
(tests/bench/loadgen.py). Phases, in order:

1. full load, closed loop: `--games` games, one move of each always in flight; moves/s,
   p50/p99, and the CPU per move of the API's processes, of PostgreSQL's (the postmaster and
   its children) and of the load generator, all read from /proc around the timed window;
2. open loop: moves offered at `--rate` per second whatever the answers; p50/p99 from each
   move's scheduled time;
3. legal commands: the API's CPU per `legal-commands?limit=20` read, in states where few
   commands are legal and where many are;
4. `--scale`: the same closed loop over N games in play (each read once first, as a server
   that has run a while has), 32 moves in flight: the CPU per move beside phase 1's;
5. `--profile DIR`: py-spy samples one API process under phase 1's load (not timed);
6. memory: a fresh server with a table cache of 2 x `--memory-games`, RSS before and after
   reading that many games once;
7. direct appends through the store on `--games` streams, and pgbench's one-row INSERT per
   transaction with as many clients, on the same cluster;
8. cold load of a 10,000-event game (read + verify + decode + fold), and fold speed;
9. `--citus`: phases 1 and 2 again on a Citus cluster (a coordinator and two workers on this
   machine, tests/bench/citus_bench.py), with the CPU per move of each node.

Prints the figures readably, then ONE JSON line; `--record` also appends a row to
tests/bench/RESULTS.md (date, commit, machine, load average, figures, targets met). Not a
test: the figures depend on the machine and its load. See tests/bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import multiprocessing
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import msgspec

from api.cache import TableCache
from api.cli import available_cores
from api.service import GameService
from eventstore import open_store
from eventstore.embedded import CLUSTER_DIR
from referee.games import REGISTRY
from tests.bench import coldload, loadgen, procstat, statements
from tests.bench.cluster import embedded_cluster
from tests.bench.pgbench import run_pgbench
from tests.bench.store_bench import BENCH_KEYS, bench_login, measure_direct_appends
from tests.servers import TEST_SIGNING_KEYS

RESULTS = Path(__file__).with_name("RESULTS.md")
WARMUP_SECONDS = 2.0
SCALE_SLOTS = 32  # moves in flight in the --scale phases
LEGAL_READS = 40  # legal-commands reads per state, in phase 3
LEGAL_STATES = 40  # states visited in phase 3
STARTUP_PATIENCE = 60.0

GameRow = tuple[str, list[str], list[int]]  # id, tokens by seat, seats to act


# -- the server ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    """A `referee serve` process on the bench's database."""

    database_url: str
    workers: int
    cache_size: int | None
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        env = {
            **os.environ,
            "REFEREE_DATABASE_URL": self.database_url,
            "REFEREE_SEED_KEYS": BENCH_KEYS.entries(),
            "REFEREE_SIGNING_KEYS": TEST_SIGNING_KEYS,
            "REFEREE_LOG_LEVEL": "warning",
        }
        if self.cache_size is not None:
            env["REFEREE_TABLE_CACHE_SIZE"] = str(self.cache_size)
        referee = Path(sys.executable).with_name("referee")
        command = [str(referee), "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [*command, "--workers", str(self.workers)],
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + STARTUP_PATIENCE
        while time.monotonic() < deadline:
            try:
                ready = httpx.get(f"http://127.0.0.1:{self.port}/health/ready", timeout=5)
                # With several workers, wait until every one of them is up.
                workers = len(self.pids()) - 1 if self.workers > 1 else 1
                if ready.status_code == 200 and workers >= self.workers:
                    return self
            except httpx.TransportError:
                pass
            if self.process.poll() is not None:
                break
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the server did not start:\n{self.log.read_text()[-3000:]}")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def pids(self) -> list[int]:
        return procstat.tree(self.pid)

    def api_pid(self) -> int:
        """A process that serves requests: the server itself, or its busiest worker so far
        (beside the workers, Python children such as multiprocessing's resource tracker)."""
        if self.workers == 1:
            return self.pid
        workers = [pid for pid in self.pids() if pid != self.pid and _is_python(pid)]
        return max(workers, key=lambda pid: procstat.cpu_seconds([pid]), default=self.pid)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _is_python(pid: int) -> bool:
    try:
        return "python" in os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return False


# -- the load ----------------------------------------------------------------------------------


@dataclass
class Phase:
    """What a timed window measured."""

    seconds: float
    tallies: list[loadgen.Tally]
    api_cpu: float
    pg_cpu: float
    generator_cpu: float
    pg_cpus: list[float] = field(default_factory=list)  # by postmaster (Citus: by node)

    @property
    def moves(self) -> int:
        return sum(t.moves for t in self.tallies)

    def latencies(self, which: str = "move") -> list[float]:
        return sorted(x for t in self.tallies for x in getattr(t, f"{which}_latencies"))

    def per_move_ms(self, cpu: float) -> float | None:
        return round(cpu / self.moves * 1000, 3) if self.moves else None

    def check(self, name: str) -> None:
        errors = sum(t.errors for t in self.tallies)
        if errors:
            first = next(t.first_error for t in self.tallies if t.first_error)
            raise RuntimeError(f"{name}: {errors} failed requests; the first: {first}")


def run_phase(
    server: Server,
    postmaster: int | list[int],
    job: loadgen.Job,
    games: list[GameRow],
    generators: int,
    seconds: float,
    warmup: float = WARMUP_SECONDS,
) -> Phase:
    """Split `games` among `generators` processes, run `job` on them, read CPU around the
    timed window. Each process's games come back with their seats to act updated in place."""
    context = multiprocessing.get_context("spawn")
    generators = max(1, min(generators, len(games)))
    pipes, processes = [], []
    for _ in range(generators):
        parent, child = context.Pipe()
        process = context.Process(target=loadgen.worker, args=(child,), daemon=True)
        process.start()
        pipes.append(parent)
        processes.append(process)
    try:
        for pipe in pipes:
            if not pipe.poll(STARTUP_PATIENCE) or pipe.recv() != "ready":
                raise RuntimeError("a load generator did not start")
        measure_from = time.monotonic() + warmup
        stop_at = measure_from + seconds
        shares = [games[n::generators] for n in range(generators)]
        for n, (pipe, share) in enumerate(zip(pipes, shares, strict=True)):
            slots = job.slots // generators + (n < job.slots % generators)
            rate = None if job.rate is None else job.rate / generators
            share_job = _replace(job, games=share, slots=max(1, slots), rate=rate, seed=n)
            pipe.send(_replace(share_job, measure_from=measure_from, stop_at=stop_at))
        generator_pids = [p.pid for p in processes if p.pid is not None]
        _sleep_until(measure_from)
        before = _cpu(server, postmaster, generator_pids)
        _sleep_until(stop_at)
        after = _cpu(server, postmaster, generator_pids)
        tallies: list[loadgen.Tally] = []
        patience = STARTUP_PATIENCE + 30 + len(games) / 20  # priming reads every game
        for pipe in pipes:
            if not pipe.poll(patience):
                raise RuntimeError("a load generator did not answer")
            tallies.append(pipe.recv())
    finally:
        for process in processes:
            process.join(10)
            if process.is_alive():
                process.kill()
    # The games as the phase left them (seats to act; ended ones replaced), for the next.
    if not job.prime:
        games[:] = [row for tally in tallies for row in tally.games]
    api, gen = after[0] - before[0], after[2] - before[2]
    pgs = [end - start for start, end in zip(before[1], after[1], strict=True)]
    return Phase(seconds, tallies, api, sum(pgs), gen, pgs)


def _replace(job: loadgen.Job, **changes: Any) -> loadgen.Job:
    return dataclasses.replace(job, **changes)


def _cpu(
    server: Server, postmaster: int | list[int], generators: list[int]
) -> tuple[float, list[float], float]:
    postmasters = postmaster if isinstance(postmaster, list) else [postmaster]
    return (
        procstat.tree_cpu_seconds([server.pid]),
        [procstat.tree_cpu_seconds([pid]) for pid in postmasters],
        procstat.cpu_seconds(generators),
    )


def _sleep_until(moment: float) -> None:
    delay = moment - time.monotonic()
    if delay > 0:
        time.sleep(delay)


def percentile(ordered: list[float], fraction: float) -> float | None:
    if not ordered:
        return None
    return round(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000, 2)


async def create_games(service: GameService, kind: str, seats: int, count: int) -> list[GameRow]:
    """`count` new games, created through the service (not HTTP, for speed), 32 at a time."""
    options = REGISTRY[kind].options_type()
    rows: list[GameRow] = []

    async def one() -> GameRow:
        created = await service.create(kind, seats=seats, options=options, seed=None, entropy="")
        tokens = [token for _, token in sorted(created.seat_tokens)]  # (seat, token): by seat
        return created.game_id, tokens, sorted(created.table.to_act())

    while len(rows) < count:
        batch = min(32, count - len(rows))
        rows += await asyncio.gather(*(one() for _ in range(batch)))
    return rows


# -- phases ----------------------------------------------------------------------------------


def load_figures(prefix: str, phase: Phase) -> dict[str, Any]:
    moves = phase.latencies()
    commands = phase.latencies("command")
    return {
        f"{prefix}_moves": phase.moves,
        f"{prefix}_moves_per_second": round(phase.moves / phase.seconds, 1),
        f"{prefix}_p50_ms": percentile(moves, 0.5),
        f"{prefix}_p99_ms": percentile(moves, 0.99),
        f"{prefix}_command_p50_ms": percentile(commands, 0.5),
        f"{prefix}_command_p99_ms": percentile(commands, 0.99),
        f"{prefix}_api_cpu_per_move_ms": phase.per_move_ms(phase.api_cpu),
        f"{prefix}_pg_cpu_per_move_ms": phase.per_move_ms(phase.pg_cpu),
        f"{prefix}_generator_cpu_per_move_ms": phase.per_move_ms(phase.generator_cpu),
        f"{prefix}_api_cores": round(phase.api_cpu / phase.seconds, 2),
        f"{prefix}_pg_cores": round(phase.pg_cpu / phase.seconds, 2),
        f"{prefix}_generator_cores": round(phase.generator_cpu / phase.seconds, 2),
        f"{prefix}_games_created": sum(t.created for t in phase.tallies),
    }


async def legal_commands_cost(server: Server, kind: str, seats: int) -> dict[str, Any]:
    """The API's CPU per legal-commands read (limit 20), in states of few and of many legal
    commands: one game played over HTTP, `LEGAL_READS` reads at each of its states."""
    http = loadgen.Http("127.0.0.1", server.port)
    rng = random.Random(3)
    body = msgspec.json.encode({"kind": kind, "seats": seats})
    by_total: list[tuple[int, float]] = []  # (legal commands, CPU per read)
    created: loadgen.Created | None = None
    states = 0
    while states < LEGAL_STATES:
        if created is None or not created.to_act:
            status, raw = await http.request("POST", "/v1/games", b"", body)
            created = msgspec.json.decode(raw, type=loadgen.Created)
            tokens = {
                t["seat"]: f"Authorization: Bearer {t['token']}\r\n".encode()
                for t in created.seat_tokens
            }
        seat = rng.choice(created.to_act)
        path = f"/v1/games/{created.game_id}"
        before = procstat.tree_cpu_seconds([server.pid])
        for _ in range(LEGAL_READS):
            status, raw = await http.request("GET", f"{path}/legal-commands?limit=20", tokens[seat])
        cpu = (procstat.tree_cpu_seconds([server.pid]) - before) / LEGAL_READS
        page = msgspec.json.decode(raw)
        by_total.append((page["total"], cpu))
        # Any legal command, not only the first page's: the game visits states of few and of
        # many legal commands (in Coyote, low bids leave hundreds of higher ones).
        pick = f"{path}/legal-commands?limit=1&offset={rng.randrange(page['total'])}"
        status, raw = await http.request("GET", pick, tokens[seat])
        command = msgspec.json.decode(raw)["commands"][0]
        status, raw = await http.request(
            "POST", f"{path}/commands", tokens[seat], msgspec.json.encode({"command": command})
        )
        if status != 200:
            raise RuntimeError(f"legal-commands phase: command {status}: {raw[:300]!r}")
        created.to_act = msgspec.json.decode(raw, type=loadgen.Answer).to_act
        states += 1
    if http.writer is not None:
        http.writer.close()
    by_total.sort()
    half = len(by_total) // 2
    few, many = by_total[:half], by_total[half:]

    def mean(pairs: list[tuple[int, float]], index: int) -> float:
        return statistics.fmean(pair[index] for pair in pairs)

    few_ms, many_ms = mean(few, 1) * 1000, mean(many, 1) * 1000
    return {
        "legal_few_commands": round(mean(few, 0), 1),
        "legal_few_api_cpu_ms": round(few_ms, 3),
        "legal_many_commands": round(mean(many, 0), 1),
        "legal_many_api_cpu_ms": round(many_ms, 3),
        "legal_many_over_few": round(many_ms / few_ms, 2) if few_ms else None,
    }


def profile(pid: int, directory: Path, seconds: float) -> dict[str, Any]:
    """py-spy on one API process for `seconds`: raw stacks, an SVG, and a text summary."""
    py_spy = Path(sys.executable).with_name("py-spy")
    if not py_spy.exists():
        return {"profile": "py-spy not installed (uv sync installs it with the dev group)"}
    directory.mkdir(parents=True, exist_ok=True)
    raw = directory / "profile.txt"
    command = [str(py_spy), "record", "--pid", str(pid), "--duration", str(round(seconds))]
    command += ["--rate", "200", "--nonblocking"]
    outputs = [(raw, "raw"), (directory / "profile.svg", "flamegraph")]
    # Two recorders at once, one per format, so that both see the same load.
    running = [
        subprocess.Popen(
            [*command, "--format", fmt, "--output", str(path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for path, fmt in outputs
    ]
    for process in running:
        _, error = process.communicate(timeout=seconds + 60)
        if process.returncode != 0:
            return {"profile": f"py-spy failed: {error.decode(errors='replace')[-500:]}"}
    summary = summarise(raw)
    (directory / "profile-top.txt").write_text(summary)
    return {"profile": str(directory), "profile_pid": pid}


def summarise(raw: Path, top: int = 30) -> str:
    """Top functions of py-spy's raw (collapsed) stacks: own samples and inclusive samples."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack:
            continue
        count = int(count_text)
        frames = [_frame(frame) for frame in stack.split(";")]
        frames = [frame for frame in frames if not frame.startswith("process ")]
        if not frames:
            continue
        total += count
        own[frames[-1]] += count
        for frame in set(frames):
            inclusive[frame] += count
    areas: Counter[str] = Counter()
    for frame, n in own.items():
        areas[_area(frame)] += n
    lines = [f"{total} samples", "", "own time by area (where the leaf frame lives):"]
    lines += [f"{n / total:6.1%}  {area}" for area, n in areas.most_common()]
    lines += ["", "own time (the function itself):"]
    lines += [f"{n / total:6.1%}  {frame}" for frame, n in own.most_common(top)]
    lines += ["", "inclusive time (the function and what it calls):"]
    lines += [f"{n / total:6.1%}  {frame}" for frame, n in inclusive.most_common(top)]
    return "\n".join(lines) + "\n"


AREAS = [
    ("referee/games/", "the games' rules (referee/games)"),
    ("referee/", "the kernel (referee/kernel)"),
    ("api/", "the API's own code (api/)"),
    ("eventstore/", "the event store (eventstore/)"),
    ("psycopg", "psycopg and its pool"),
    ("litestar/", "Litestar"),
    ("uvicorn/", "uvicorn"),
    ("prometheus", "prometheus_client"),
    ("structlog", "structlog"),
    ("msgspec", "msgspec"),
    ("asyncio/", "asyncio"),
]


def _area(frame: str) -> str:
    return next((name for marker, name in AREAS if marker in frame), "other (stdlib, ...)")


def _frame(frame: str) -> str:
    """`function (path/to/file.py:123)` → `function (to/file.py)`: one entry per function."""
    name, _, where = frame.partition(" (")
    where = where.rstrip(")").rsplit(":", 1)[0]
    for marker in ("site-packages/", "/work/", "lib/python3"):
        if marker in where:
            where = where.split(marker, 1)[1]
    return f"{name} ({where})" if where else name


async def memory(
    database_url: str,
    postmaster: int,
    workers: int,
    games: list[GameRow],
    generators: int,
    log: Path,
) -> dict[str, Any]:
    """RSS of a fresh server before and after reading `games` once (all kept in its cache)."""
    server = Server(database_url, workers, 2 * len(games), log).start()
    try:
        http = httpx.Client(base_url=f"http://127.0.0.1:{server.port}")
        http.get(f"/v1/games/{games[0][0]}").raise_for_status()  # the code paths warmed once
        http.close()
        time.sleep(0.5)
        before = procstat.tree_rss_bytes(server.pid)
        job = loadgen.Job("127.0.0.1", server.port, "", 0, [], 0.0, 0.0, slots=32, prime=True)
        phase = run_phase(server, postmaster, job, games, generators, 0.0, warmup=0.0)
        reads = sum(t.reads for t in phase.tallies)
        phase.check("memory")
        time.sleep(0.5)
        after = procstat.tree_rss_bytes(server.pid)
    finally:
        server.stop()
    grown = after - before
    return {
        "memory_games": reads,
        "memory_rss_before_mib": round(before / 2**20, 1),
        "memory_rss_after_mib": round(after / 2**20, 1),
        "memory_grown_mib": round(grown / 2**20, 1),
        "memory_kib_per_game": round(grown / 1024 / max(reads, 1), 1),
    }


# -- the run -----------------------------------------------------------------------------------


async def run(args: argparse.Namespace, owner_url: str, app_url: str, cluster: Path) -> dict:
    database_url = await bench_login(owner_url, app_url)
    postmaster = procstat.postmaster_pid(cluster)
    work = Path(tempfile.mkdtemp(prefix="referee-bench-logs-"))
    figures: dict[str, Any] = {
        "kind": args.kind,
        "seats": args.seats,
        "games": args.games,
        "workers": args.workers,
        "seconds": args.seconds,
        "generators": args.generators,
    }
    say = (lambda *a: None) if args.json_only else (lambda *a: print(*a, file=sys.stderr))
    population_size = max([args.games * 3, *args.scale, args.memory_games])
    async with open_store(database_url, BENCH_KEYS, min_size=8, max_size=8) as store:
        service = GameService(store, REGISTRY, TableCache(8))
        say(f"creating {population_size} {args.kind} games through the store ...")
        population = await create_games(service, args.kind, args.seats, population_size)

    server = Server(database_url, args.workers, args.cache_size, work / "serve.log").start()
    figures["server_cache_size"] = args.cache_size or "default"
    job = loadgen.Job("127.0.0.1", server.port, args.kind, args.seats, [], 0.0, 0.0)

    def load(first: int, end: int, name: str, seconds: float, **changes: Any) -> Phase:
        """Play population[first:end] under `job` with `changes`; keep the games it leaves."""
        games = population[first:end]
        phase = run_phase(
            server, postmaster, _replace(job, **changes), games, args.generators, seconds
        )
        population[first:end] = games
        phase.check(name)
        return phase

    try:
        say(f"1. closed loop: {args.games} games, {args.seconds} s ...")
        if args.statements:
            statements.reset(owner_url)
        phase = load(0, args.games, "closed loop", args.seconds, slots=args.games)
        figures.update(load_figures("full", phase))
        if args.statements:  # the warm-up's moves are in the counters too: a small overcount
            figures["statements"] = statements.per_move(owner_url, phase.moves)
            say(statements.printed(figures["statements"]))

        say(f"2. open loop: {args.rate} moves/s offered over {args.games} games ...")
        phase = load(args.games, 2 * args.games, "open loop", args.seconds, rate=args.rate, slots=1)
        figures["open_offered_per_second"] = args.rate
        figures.update(load_figures("open", phase))
        figures["open_unserved"] = sum(t.unserved for t in phase.tallies)

        say("3. legal commands: CPU per read, few vs many legal ...")
        figures.update(await legal_commands_cost(server, args.kind, args.seats))

        for count in args.scale:
            say(f"4. scale: {count} games in play, {SCALE_SLOTS} moves in flight ...")
            primer = _replace(job, slots=32, prime=True)
            run_phase(server, postmaster, primer, population[:count], args.generators, 0.0, 0.0)
            phase = load(0, count, f"scale {count}", args.seconds, slots=SCALE_SLOTS)
            scaled = load_figures(f"scale{count}", phase)
            figures.update({k: v for k, v in scaled.items() if "command_p" not in k})
            base = figures["full_api_cpu_per_move_ms"]
            mine = figures[f"scale{count}_api_cpu_per_move_ms"]
            figures[f"scale{count}_over_full"] = round(mine / base, 2) if base and mine else None

        if args.profile:
            say(f"5. profile: py-spy on one API process for {args.seconds} s ...")
            profiled: dict[str, Any] = {}
            recorder = threading.Thread(
                target=_profile_later,
                args=(server.api_pid(), Path(args.profile), args.seconds, profiled),
            )
            recorder.start()
            slice_ = (2 * args.games, 3 * args.games)
            load(*slice_, "profile", args.seconds + 6, slots=args.games)
            recorder.join(120)
            figures.update(profiled)
    finally:
        server.stop()

    if args.memory_games:
        say(f"6. memory: {args.memory_games} games read into a fresh server's cache ...")
        figures.update(
            await memory(
                database_url,
                postmaster,
                args.workers,
                population[: args.memory_games],
                args.generators,
                work / "serve-memory.log",
            )
        )

    say(f"7. direct appends and pgbench, {args.games} streams/clients ...")
    direct = await measure_direct_appends(
        database_url, args.games, args.seconds / 2, postmaster=postmaster
    )
    figures["direct_appends_per_second"] = direct["appends_per_second"]
    figures["direct_pg_cpu_us_per_append"] = direct["postgres_cpu_us_per_append"]
    figures["direct_p50_ms"] = direct["p50_ms"]
    figures["direct_p99_ms"] = direct["p99_ms"]
    figures.update(run_pgbench(owner_url, args.games, args.seconds / 2))
    if figures.get("pgbench_inserts_per_second"):
        ratio = figures["direct_appends_per_second"] / figures["pgbench_inserts_per_second"]
        figures["direct_over_pgbench"] = round(ratio, 3)

    say("8. cold load of a 10,000-event game, fold speed ...")
    async with open_store(database_url, BENCH_KEYS, min_size=2, max_size=2) as store:
        game_id = await coldload.long_game(store)
        figures.update(await coldload.measure_cold_load(store, game_id))
        figures.update(
            await coldload.fold_speed_of(store, args.kind, [g[0] for g in population[:200]])
        )
    shutil.rmtree(work, ignore_errors=True)
    return figures


def _profile_later(pid: int, directory: Path, seconds: float, into: dict[str, Any]) -> None:
    """Once the load generators are up and warm (see run_phase), py-spy for `seconds`."""
    time.sleep(WARMUP_SECONDS + 3)
    into.update(profile(pid, directory, seconds))


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    with embedded_cluster("referee-http-bench-") as (embedded, data_dir):
        if args.statements:
            embedded = statements.preloaded(data_dir, embedded)
        figures = await run(args, embedded.owner_url, embedded.app_url, data_dir / CLUSTER_DIR)
    if args.citus:
        from tests.bench.citus_bench import on_a_cluster  # it uses this module's phases

        figures.update(await on_a_cluster(args))
    return figures


# -- targets, printing, recording --------------------------------------------------------------

GiB = 1024.0


def targets(f: dict[str, Any]) -> dict[str, bool | None]:
    """The targets for this machine, True met, False not met, None not measured: issue 29's
    for a move's cost and rate (two workers), issue 13's for the rest."""

    def at_most(key: str, limit: float) -> bool | None:
        return None if f.get(key) is None else f[key] <= limit

    def at_least(key: str, limit: float) -> bool | None:
        return None if f.get(key) is None else f[key] >= limit

    standard = f["games"] == 32
    two_workers = standard and f.get("workers") == 2
    return {
        "api_cpu_per_move<=1.2ms": at_most("full_api_cpu_per_move_ms", 1.2),
        "pg_cpu_per_move<=0.6ms": at_most("full_pg_cpu_per_move_ms", 0.6),
        "moves/s>=1000@32x2": at_least("full_moves_per_second", 1000) if two_workers else None,
        "p99<=50ms@300/s": at_most("open_p99_ms", 50.0)
        if standard and f.get("open_offered_per_second") == 300
        else None,
        "direct>=0.5*pgbench": at_least("direct_over_pgbench", 0.5),
        "cold_load<=100ms": at_most("cold_load_ms", 100.0),
        "fold>=500k/s": at_least("fold_events_per_second", 500_000),
        "10k_games<=1GiB": (
            at_most("memory_grown_mib", GiB) if f.get("memory_games", 0) >= 10_000 else None
        ),
        "cpu@2048<=1.25x": at_most("scale2048_over_full", 1.25),
        "cpu@10000<=1.25x": at_most("scale10000_over_full", 1.25),
        "legal_cost_flat(<=1.25x)": at_most("legal_many_over_few", 1.25),
    }


def report(f: dict[str, Any]) -> str:
    def g(key: str) -> Any:
        return f.get(key, "-")

    lines = [
        f"machine: {g('cores')} cores, {g('cpu')}; load average {g('load_before')} before, "
        f"{g('load_after')} after; commit {g('commit')}",
        f"{g('kind')}, {g('seats')} seats, {g('games')} games, {g('workers')} worker(s), "
        f"{g('seconds')} s per phase, {g('generators')} generator processes",
        "",
        f"full load:  {g('full_moves_per_second')} moves/s, move p50 {g('full_p50_ms')} ms, "
        f"p99 {g('full_p99_ms')} ms (command alone p99 {g('full_command_p99_ms')} ms)",
        f"  CPU per move: API {g('full_api_cpu_per_move_ms')} ms, PostgreSQL "
        f"{g('full_pg_cpu_per_move_ms')} ms, load generator {g('full_generator_cpu_per_move_ms')}"
        f" ms  (cores busy: API {g('full_api_cores')}, PostgreSQL {g('full_pg_cores')}, "
        f"generator {g('full_generator_cores')})",
        f"open loop:  {g('open_offered_per_second')} moves/s offered, "
        f"{g('open_moves_per_second')} served, p50 {g('open_p50_ms')} ms, "
        f"p99 {g('open_p99_ms')} ms, API CPU per move {g('open_api_cpu_per_move_ms')} ms",
        f"legal-commands read: API CPU {g('legal_few_api_cpu_ms')} ms with "
        f"~{g('legal_few_commands')} legal, {g('legal_many_api_cpu_ms')} ms with "
        f"~{g('legal_many_commands')} legal (x{g('legal_many_over_few')})",
    ]
    for key in sorted(k for k in f if k.startswith("scale") and k.endswith("_over_full")):
        n = key.removeprefix("scale").removesuffix("_over_full")
        lines.append(
            f"{n} games in play: API CPU per move {g(f'scale{n}_api_cpu_per_move_ms')} ms "
            f"(x{g(key)} of full load), {g(f'scale{n}_moves_per_second')} moves/s, "
            f"p50 {g(f'scale{n}_p50_ms')} ms"
        )
    lines += [
        f"memory: {g('memory_games')} games cached: +{g('memory_grown_mib')} MiB "
        f"({g('memory_kib_per_game')} KiB a game; RSS {g('memory_rss_before_mib')} -> "
        f"{g('memory_rss_after_mib')} MiB)",
        f"direct appends: {g('direct_appends_per_second')}/s on {g('games')} streams "
        f"(PostgreSQL {g('direct_pg_cpu_us_per_append')} µs of CPU an append); pgbench "
        f"INSERT: {g('pgbench_inserts_per_second')}/s with {g('pgbench_clients')} clients "
        f"(ratio {g('direct_over_pgbench')})",
        f"cold load of {g('cold_load_events')} events ({g('cold_load_kind')}): "
        f"{g('cold_load_ms')} ms (read+verify {g('cold_read_ms')}, decode {g('cold_decode_ms')},"
        f" fold {g('cold_fold_ms')}); fold {g('fold_events_per_second')} events/s; "
        f"{g('kind')} games fold {g('kind_fold_events_per_second')} events/s",
    ]
    if "citus_moves_per_second" in f:
        lines += [
            f"citus (coordinator + 2 workers, this machine): {g('citus_moves_per_second')} "
            f"moves/s, p50 {g('citus_p50_ms')} ms, p99 {g('citus_p99_ms')} ms; open loop p99 "
            f"{g('citus_open_p99_ms')} ms",
            f"  CPU per move: API {g('citus_api_cpu_per_move_ms')} ms, coordinator "
            f"{g('citus_coordinator_cpu_per_move_ms')} ms, workers "
            f"{g('citus_worker1_cpu_per_move_ms')} + {g('citus_worker2_cpu_per_move_ms')} ms",
        ]
    lines += [
        "",
        "targets: "
        + ", ".join(
            f"{name} {'met' if ok else 'NOT met' if ok is False else 'not measured'}"
            for name, ok in f["targets"].items()
        ),
    ]
    return "\n".join(lines)


RESULTS_HEADER = """# Benchmark results

Rows appended by `make bench ARGS=--record` (tests/bench/http_bench.py); see README.md for what
each figure means. CPU figures are milliseconds per move (a legal-commands read + a command);
`load` is the 1-minute load average before/after the run: figures from a loaded machine are
noisy and slower than the machine can do.
"""


COLUMNS = [
    "date",
    "commit",
    "machine",
    "load",
    "setup",
    "API CPU/move",
    "PG CPU/move",
    "gen CPU/move",
    "moves/s",
    "p50/p99",
    "p99 open",
    "legal few/many",
    "CPU x2048/x10000",
    "direct/pgbench",
    "cold load",
    "fold",
    "10k games",
    "targets met",
]


def record(f: dict[str, Any]) -> None:
    def g(key: str) -> Any:
        return f.get(key, "-")

    met = [name for name, ok in f["targets"].items() if ok]
    missed = [name for name, ok in f["targets"].items() if ok is False]
    row = [
        f["date"],
        f["commit"],
        f"{f['cores']} cores, {f['cpu']}",
        f"{g('load_before')}/{g('load_after')}",
        f"{g('kind')} x{g('seats')}, {g('games')} games, {g('workers')} worker(s), "
        f"{g('seconds')} s",
        g("full_api_cpu_per_move_ms"),
        g("full_pg_cpu_per_move_ms"),
        g("full_generator_cpu_per_move_ms"),
        g("full_moves_per_second"),
        f"{g('full_p50_ms')}/{g('full_p99_ms')} ms",
        f"{g('open_p99_ms')} ms @{g('open_offered_per_second')}/s",
        f"{g('legal_few_api_cpu_ms')}/{g('legal_many_api_cpu_ms')} ms",
        f"{g('scale2048_over_full')}/{g('scale10000_over_full')}",
        f"{g('direct_appends_per_second')}/{g('pgbench_inserts_per_second')} "
        f"({g('direct_over_pgbench')})",
        f"{g('cold_load_ms')} ms",
        f"{g('fold_events_per_second')}/s",
        f"{g('memory_grown_mib')} MiB",
        f"{len(met)}/{len(met) + len(missed)}; not met: {', '.join(missed) or 'none'}",
    ]
    if not RESULTS.exists():
        table = "| " + " | ".join(COLUMNS) + " |\n" + "|---" * len(COLUMNS) + "|\n"
        RESULTS.write_text(RESULTS_HEADER + "\n" + table)
    with RESULTS.open("a") as results:
        results.write("| " + " | ".join(str(cell) for cell in row) + " |\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--kind", default="coyote")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=32, help="games in play at full load")
    parser.add_argument("--seconds", type=float, default=20.0, help="each timed phase")
    parser.add_argument(
        "--workers",
        type=int,
        default=available_cores(),
        help="referee serve --workers (default: its own default, the cores this process may use)",
    )
    parser.add_argument("--rate", type=float, default=300.0, help="open loop: moves/s offered")
    parser.add_argument(
        "--scale",
        type=lambda text: [int(n) for n in text.split(",") if n],
        default=[2048, 10_000],
        help="games in play for the scaling phases, comma-separated ('' for none)",
    )
    parser.add_argument("--memory-games", type=int, default=10_000, help="0: no memory phase")
    parser.add_argument(
        "--cache-size", type=int, default=None, help="the server's REFEREE_TABLE_CACHE_SIZE"
    )
    parser.add_argument(
        "--generators", type=int, default=2, help="load generator processes (default 2)"
    )
    parser.add_argument("--profile", metavar="DIR", help="py-spy one API process into DIR")
    parser.add_argument(
        "--statements",
        action="store_true",
        help="PostgreSQL's work per move under full load, by statement (pg_stat_statements)",
    )
    parser.add_argument(
        "--citus",
        action="store_true",
        help="9. the closed and open loops again on a Citus coordinator and two workers",
    )
    parser.add_argument("--record", action="store_true", help=f"append a row to {RESULTS.name}")
    parser.add_argument("--json-only", action="store_true", help="print only the JSON line")
    args = parser.parse_args()

    load_before = procstat.load_average()
    figures = asyncio.run(main_async(args))
    figures.update(procstat.machine())
    figures.update(
        {
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M"),
            "commit": procstat.commit(),
            "load_before": load_before,
            "load_after": procstat.load_average(),
        }
    )
    figures["targets"] = targets(figures)
    if not args.json_only:
        print(report(figures))
    print(json.dumps(figures))
    if args.record:
        record(figures)


if __name__ == "__main__":
    main()
