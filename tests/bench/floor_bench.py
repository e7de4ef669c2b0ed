"""What the stack costs before any of the referee's code runs: the floor under a move's CPU.

    .venv/bin/python -m tests.bench.floor_bench [--seconds 5] [--connections 32]

1. HTTP: uvicorn as `referee serve` runs it (uvloop, httptools, one process) answering a
   keep-alive GET with a small JSON body, served by a bare ASGI callable and by a Litestar
   handler with no middleware and no dependency; the server's CPU (/proc) per request, the
   load coming from this process's keep-alive connections (tests/bench/loadgen.py's client).
2. Dependencies: a Litestar handler with one dependency against one with two independent
   ones (each an attribute lookup), called in-process: Litestar resolves two dependencies of
   one level concurrently, in an anyio task group.
3. The driver: one trivial prepared statement (`SELECT $1 + 1`) on an embedded PostgreSQL,
   this process's CPU per statement (user and system): through the store's kind of pool
   (async, autocommit), on one async connection, on one sync connection.

Prints one JSON line. A move is two requests and two or three statements (tests/bench/README.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import msgspec
import psycopg
from litestar import Litestar, get
from litestar.datastructures import State
from litestar.di import Provide
from psycopg_pool import AsyncConnectionPool

from tests.bench import procstat
from tests.bench.asgi import http_scope
from tests.bench.loadgen import Http
from tests.servers import free_port

STATEMENT = "SELECT %s::int + 1"
MODULE = "tests.bench.floor_bench"  # where uvicorn finds the apps (this file runs as __main__)


class Page(msgspec.Struct):
    commands: list[dict[str, Any]]
    total: int


PAGE = Page(commands=[{"type": "coyote.bid", "number": n} for n in range(20)], total=500)
PAGE_BYTES = msgspec.json.encode(PAGE)


async def bare_app(scope: Any, receive: Any, send: Any) -> None:
    """The least an ASGI server can be asked for: a fixed answer."""
    if scope["type"] != "http":
        return
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(PAGE_BYTES))]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": PAGE_BYTES})


@get("/page", sync_to_thread=False)
def page() -> Page:
    return PAGE


litestar_app = Litestar([page], logging_config=None)


def _one(state: State) -> int:
    return 1


def _two(state: State) -> int:
    return 2


A = Provide(_one, sync_to_thread=False)
B = Provide(_two, sync_to_thread=False)


@get("/one", dependencies={"a": A})
async def one_dependency(a: int) -> Page:
    return PAGE


@get("/two", dependencies={"a": A, "b": B})
async def two_dependencies(a: int, b: int) -> Page:
    return PAGE


dependencies_app = Litestar([one_dependency, two_dependencies], logging_config=None)


# -- 1. HTTP ---------------------------------------------------------------------------------


def http_floor(app: str, seconds: float, connections: int) -> float:
    """Server CPU µs per request of uvicorn serving `app` (module:attribute)."""
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", app, "--port", str(port), "--loop", "uvloop"]
    command += ["--http", "httptools", "--no-access-log", "--log-level", "warning"]
    server = subprocess.Popen(command)
    try:
        _wait_for(f"http://127.0.0.1:{port}/page")
        asyncio.run(_load(port, 1.0, connections))  # warm up
        before = procstat.tree_cpu_seconds([server.pid])
        answered = asyncio.run(_load(port, seconds, connections))
        spent = procstat.tree_cpu_seconds([server.pid]) - before
    finally:
        server.terminate()
        server.wait(timeout=30)
    return spent / answered * 1e6


async def _load(port: int, seconds: float, connections: int) -> int:
    stop = time.monotonic() + seconds

    async def client() -> int:
        http, answered = Http("127.0.0.1", port), 0
        while time.monotonic() < stop:
            status, _ = await http.request("GET", "/page")
            assert status == 200, status
            answered += 1
        return answered

    return sum(await asyncio.gather(*(client() for _ in range(connections))))


def _wait_for(url: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer")


# -- 2. Dependencies -------------------------------------------------------------------------


async def dependency_cost(calls: int = 2000, repeats: int = 7) -> dict[str, float]:
    """CPU µs per in-process call of each handler (best of `repeats`)."""
    best: dict[str, float] = {}
    for path in ("/one", "/two"):
        await _calls(path, 200)
        best[path] = min([await _calls(path, calls) for _ in range(repeats)])
    return {"one_dependency_us": best["/one"], "two_dependencies_us": best["/two"]}


async def _calls(path: str, calls: int) -> float:
    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        pass

    started = time.process_time()
    for _ in range(calls):
        scope = http_scope("GET", path)
        await dependencies_app(scope, receive, send)  # type: ignore[arg-type]
    return (time.process_time() - started) / calls * 1e6


# -- 3. The driver ---------------------------------------------------------------------------


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _per_statement(run: Callable[[int], Awaitable[None]], statements: int) -> float:
    await run(200)
    started = _cpu()
    await run(statements)
    return (_cpu() - started) / statements * 1e6


async def driver_cost(url: str, statements: int = 3000) -> dict[str, float]:
    figures: dict[str, float] = {}
    async with AsyncConnectionPool(
        url, min_size=1, max_size=1, open=False, kwargs={"autocommit": True}
    ) as pool:
        await pool.open()

        async def pooled(n: int) -> None:
            for i in range(n):
                async with pool.connection() as conn:
                    await (await conn.execute(STATEMENT, [i], prepare=True)).fetchall()

        figures["pool_async_us"] = await _per_statement(pooled, statements)
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:

        async def direct(n: int) -> None:
            for i in range(n):
                await (await conn.execute(STATEMENT, [i], prepare=True)).fetchall()

        figures["async_connection_us"] = await _per_statement(direct, statements)
    with psycopg.connect(url, autocommit=True) as sync:

        async def blocking(n: int) -> None:
            for i in range(n):
                sync.execute(STATEMENT, [i], prepare=True).fetchall()

        figures["sync_connection_us"] = await _per_statement(blocking, statements)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="each HTTP measurement")
    parser.add_argument("--connections", type=int, default=32, help="keep-alive connections")
    args = parser.parse_args()
    from tests.bench.cluster import embedded_cluster  # not in the apps' processes

    figures: dict[str, Any] = {
        "http_bare_asgi_us": http_floor(f"{MODULE}:bare_app", args.seconds, args.connections),
        "http_litestar_us": http_floor(f"{MODULE}:litestar_app", args.seconds, args.connections),
    }
    figures.update(asyncio.run(dependency_cost()))
    with embedded_cluster("referee-floor-") as (embedded, _):
        figures.update(asyncio.run(driver_cost(embedded.owner_url)))
    figures = {name: round(value, 1) for name, value in figures.items()}
    figures.update(procstat.machine(), commit=procstat.commit(), load=procstat.load_average())
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
