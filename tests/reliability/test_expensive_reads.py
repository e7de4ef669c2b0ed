"""Expensive reads anyone may ask for: a finished game's audit is verified once and then costs
about an ordinary read, and audits, exports and bundle checks are rate-limited per client.

Costs are the server process's CPU time (/proc/<pid>/stat), not wall time: the machine is
noisy, so each figure is an average over many requests and the bounds are generous."""

from __future__ import annotations

import json
import os
from collections.abc import Callable

import httpx
import pytest

from api.cache import TableCache
from api.ratelimit import RateLimiter
from api.service import GameService
from eventstore.pool import Pool
from eventstore.seeds import SeedKeys
from eventstore.store import EventStore
from referee.games import REGISTRY
from tests.audit.helpers import play_game
from tests.reliability.conftest import Serve
from tests.servers import Server

REPEATS = 100
TICK = 1 / os.sysconf("SC_CLK_TCK")  # the resolution of /proc's CPU times, in seconds


@pytest.fixture(scope="module")
async def long_game(store_pool: Pool, seed_keys: SeedKeys) -> str:
    """A finished game of a few hundred commands (about 0.1 s of CPU to verify)."""
    service = GameService(EventStore(store_pool, seed_keys), REGISTRY, TableCache(4))
    return await play_game(service, kind="big-manitou", seats=5)


def cpu_seconds(server: Server) -> float:
    """User and system CPU time of the server process so far."""
    with open(f"/proc/{server.process.pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * TICK  # utime, stime: fields 14, 15


def cpu_per_request(server: Server, request: Callable[[], httpx.Response], count: int) -> float:
    before = cpu_seconds(server)
    for _ in range(count):
        response = request()
        assert response.status_code == 200, response.text
    return (cpu_seconds(server) - before) / count


def verified(server: Server, game_id: str) -> int:
    """How many times the server verified the game from scratch (its log says so)."""
    lines = [json.loads(line) for line in server.log.read_text().splitlines() if line.strip()]
    return sum(
        1 for line in lines if line.get("event") == "audit verified" and line["game_id"] == game_id
    )


def test_a_finished_games_audit_is_verified_once_then_costs_an_ordinary_read(
    serve: Serve, long_game: str
) -> None:
    server = serve(expensive_reads_per_minute=1_000_000, expensive_reads_burst=1_000_000)
    with httpx.Client(base_url=server.url, timeout=60) as http:
        audit = f"/v1/games/{long_game}/audit"
        read = f"/v1/games/{long_game}"
        http.get(read)  # the game is folded once, as for any read
        first = cpu_per_request(server, lambda: http.get(audit), 1)
        report = http.get(audit).json()
        assert report["verdict"] == "passed" and report["status"] == "finished"
        repeated = cpu_per_request(server, lambda: http.get(audit), REPEATS)
        ordinary = cpu_per_request(server, lambda: http.get(read), REPEATS)
    assert verified(server, long_game) == 1
    print(f"audit CPU: first {first * 1000:.1f} ms, repeated {repeated * 1000:.2f} ms,")
    print(f"ordinary read {ordinary * 1000:.2f} ms (averages of {REPEATS})")
    assert repeated < first / 5
    # The bound, 3 x an ordinary read, with a tick of /proc's clock to spare per batch.
    assert repeated <= 3 * ordinary + 2 * TICK / REPEATS


def test_audits_exports_and_bundle_checks_are_rate_limited(serve: Serve, long_game: str) -> None:
    server = serve(expensive_reads_per_minute=6, expensive_reads_burst=2)
    with httpx.Client(base_url=server.url, timeout=60) as http:
        assert http.get(f"/v1/games/{long_game}/audit").status_code == 200
        exported = http.get(f"/v1/games/{long_game}/export")
        assert exported.status_code == 200
        refused = [
            http.post("/v1/audits", content=exported.content),
            http.get(f"/v1/games/{long_game}/audit"),
            http.get(f"/v1/games/{long_game}/export"),
        ]
        for response in refused:
            assert response.status_code == 429, response.text
            assert response.headers["content-type"] == "application/problem+json"
            assert response.json()["type"] == "urn:referee:problem:rate-limited"
            assert 1 <= int(response.headers["retry-after"]) <= 10  # one request per 10 s
        assert http.get(f"/v1/games/{long_game}").status_code == 200, "other reads are not"


def test_a_bucket_refills_at_its_rate_and_per_client() -> None:
    now = [0.0]
    limiter = RateLimiter(per_minute=60, burst=2, clock=lambda: now[0])
    assert [limiter.wait("a") for _ in range(3)] == [0, 0, pytest.approx(1.0)]
    assert limiter.wait("b") == 0, "another client has a bucket of its own"
    now[0] = 0.5
    assert limiter.wait("a") == pytest.approx(0.5)
    now[0] = 1.0
    assert limiter.wait("a") == 0
    now[0] = 100.0
    assert [limiter.wait("a") for _ in range(3)] == [0, 0, pytest.approx(1.0)], "burst, no more"
    assert not RateLimiter(per_minute=0, burst=1).enabled


def test_a_look_at_a_bucket_spends_nothing() -> None:
    now = [0.0]
    limiter = RateLimiter(per_minute=60, burst=1, clock=lambda: now[0])
    assert [limiter.wait("a", spend=False) for _ in range(3)] == [0, 0, 0]
    assert limiter.wait("a") == 0
    assert limiter.wait("a", spend=False) == pytest.approx(1.0), "empty: a look says so"
    assert limiter.wait("a", spend=False) == pytest.approx(1.0), "and takes nothing"
    now[0] = 1.0
    assert limiter.wait("a", spend=False) == 0
