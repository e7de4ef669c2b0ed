"""A real `referee serve` process, over real HTTP: on the test database, and on its own
embedded PostgreSQL (no configuration at all, as the README's first command runs it)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.helpers import requests_counted
from tests.servers import TEST_SEED_KEYS, TEST_SIGNING_KEYS

STARTUP_DEADLINE_SECONDS = 120  # a deadline for a start-up, not a measurement


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def log_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def referee_command() -> list[str]:
    script = Path(sys.executable).with_name("referee")
    return [str(script)] if script.exists() else [sys.executable, "-m", "api.cli"]


@contextmanager
def serving(
    env: dict[str, str],
    log: Path,
    *options: str,
    wrapper: tuple[str, ...] = (),
    startup_deadline: float = STARTUP_DEADLINE_SECONDS,
) -> Iterator[Server]:
    """`referee serve` (run by `wrapper`, as `taskset -c 0`, if given) until every worker has
    started; stopped with SIGTERM at the end."""
    port = free_port()
    if "--workers" not in options:
        options = ("--workers", "1", *options)  # one process unless the test asks for more
    workers = int(options[options.index("--workers") + 1])
    command = [*referee_command(), "serve", "--host", "127.0.0.1", "--port", str(port), *options]
    with log.open("wb") as output:
        process = subprocess.Popen(
            [*wrapper, *command], env=env, stdout=output, stderr=subprocess.STDOUT
        )
    server = Server(f"http://127.0.0.1:{port}", process, log)
    try:
        _wait_until_ready(server, workers, startup_deadline)
        yield server
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)


def _wait_until_ready(server: Server, workers: int, startup_deadline: float) -> None:
    """Ready, and every worker's start-up complete (a ready answer comes from any one)."""
    deadline = time.monotonic() + startup_deadline
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(f"referee serve exited:\n{server.log.read_text()}")
        try:
            ready = httpx.get(f"{server.url}/health/ready", timeout=2).status_code == 200
        except httpx.TransportError:
            ready = False
        if ready and server.log.read_text().count("Application startup complete.") >= workers:
            return
        time.sleep(0.2)
    pytest.fail(f"referee serve did not become ready:\n{server.log.read_text()}")


def environment(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    return {**env, **values}


SEED = "c0ffee" * 8


def play_a_few_moves(http: httpx.Client) -> tuple[str, int]:
    created = http.post("/v1/games", json={"kind": "coyote", "seats": 3, "seed": SEED})
    assert created.status_code == 201, created.text
    game = created.json()
    tokens = {item["seat"]: item["token"] for item in game["seat_tokens"]}
    url = f"/v1/games/{game['game_id']}"
    for number in (1, 2, 3):
        seat = http.get(url).json()["to_act"][0]
        response = http.post(
            f"{url}/commands",
            json={"command": {"type": "coyote.bid", "number": number}},
            headers={"Authorization": f"Bearer {tokens[seat]}", "X-Request-ID": f"e2e-{number}"},
        )
        assert response.status_code == 200, response.text
        assert response.headers["x-request-id"] == f"e2e-{number}"
    seat = http.get(url).json()["to_act"][0]
    idle = (seat + 1) % 3
    refused = http.post(
        f"{url}/commands",
        json={"command": {"type": "coyote.challenge"}},
        headers={"Authorization": f"Bearer {tokens[idle]}", "X-Request-ID": "e2e-refused"},
    )
    assert refused.status_code == 422
    assert http.get(url).json()["version"] == game["version"] + 3
    return game["game_id"], idle


def test_serve_on_a_configured_database(database_url: str, tmp_path: Path) -> None:
    env = environment(
        REFEREE_DATABASE_URL=database_url,
        REFEREE_SEED_KEYS=TEST_SEED_KEYS,
        REFEREE_SIGNING_KEYS=TEST_SIGNING_KEYS,
    )
    with serving(env, tmp_path / "serve.log") as server, httpx.Client(base_url=server.url) as http:
        game_id, idle = play_a_few_moves(http)
        assert http.get("/metrics").status_code == 200
    assert server.process.returncode == 0

    lines = server.log_lines()  # every line is JSON (json.loads above would fail otherwise)
    played = [line for line in lines if line.get("request_id") == "e2e-2"]
    access = next(line for line in played if line["event"] == "request")
    assert access["game_id"] == game_id
    assert access["status"] == 200
    assert isinstance(access["seat"], int)
    refused = [line for line in lines if line.get("request_id") == "e2e-refused"]
    problem = next(line for line in refused if line["event"] == "problem")
    assert problem["rule_id"] == "kernel.not-your-turn"
    assert problem["seat"] == idle
    assert problem["game_id"] == game_id
    assert not any(line.get("level") == "error" for line in lines)
    assert SEED not in server.log.read_text(), "the secret seed is never logged"


def test_serve_with_workers(database_url: str, tmp_path: Path) -> None:
    """`--workers 2`: two processes on one socket, each with its own app and lifespan, one
    JSON line per request, metrics that count every process's requests, and a clean stop on
    SIGTERM."""
    env = environment(
        REFEREE_DATABASE_URL=database_url,
        REFEREE_SEED_KEYS=TEST_SEED_KEYS,
        REFEREE_SIGNING_KEYS=TEST_SIGNING_KEYS,
    )
    with (
        serving(env, tmp_path / "serve.log", "--workers", "2") as server,
        httpx.Client(base_url=server.url) as http,
    ):
        game_id, _ = play_a_few_moves(http)
        reads = read_kinds_on_many_connections(server.url)
        # Each scrape, on a connection of its own, reaches either process: each counts all.
        scrapes = [httpx.get(f"{server.url}/metrics").text for _ in range(6)]
        assert [requests_counted(text, "/v1/kinds") for text in scrapes] == [reads] * 6
    assert server.process.returncode == 0

    lines = server.log_lines()
    events = [line["event"] for line in lines]
    started = {event for event in events if event.startswith("Started server process")}
    assert len(started) == 2, "two worker processes"
    assert events.count("Application startup complete.") == 2
    assert events.count("Application shutdown complete.") == 2
    played = [line for line in lines if line.get("request_id") == "e2e-2"]
    assert [line["event"] for line in played] == ["request"], "one line, the app's own"
    assert played[0]["game_id"] == game_id and played[0]["status"] == 200
    assert not any(line.get("level") == "error" for line in lines)


def read_kinds_on_many_connections(url: str, connections: int = 12) -> int:
    """GET /v1/kinds once on each of several connections held open together (so that the
    requests spread over the server's processes); how many were answered."""
    clients = [httpx.Client(base_url=url) for _ in range(connections)]
    try:
        for client in clients:
            assert client.get("/v1/kinds").status_code == 200
    finally:
        for client in clients:
            client.close()
    return connections


def test_serve_with_no_configuration_starts_its_own_postgresql() -> None:
    data_dir = Path(tempfile.mkdtemp(prefix="referee-e2e-"))
    try:
        env = environment(REFEREE_DATA_DIR=str(data_dir))
        with (
            serving(env, data_dir / "serve.log") as server,
            httpx.Client(base_url=server.url) as http,
        ):
            play_a_few_moves(http)
        assert server.process.returncode == 0
        assert (data_dir / "postgres" / "PG_VERSION").exists()
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


def test_migrate_applies_the_schema_once(
    empty_database: Callable[[], str], login_url_for: Callable[[str], str]
) -> None:
    owner = empty_database()
    env = environment(
        REFEREE_MIGRATION_DATABASE_URL=owner,
        REFEREE_DATABASE_URL=login_url_for(owner),
        REFEREE_SEED_KEYS=TEST_SEED_KEYS,
        REFEREE_SIGNING_KEYS=TEST_SIGNING_KEYS,
    )
    runs = [
        subprocess.run([*referee_command(), "migrate"], env=env, capture_output=True, check=True)
        for _ in range(2)
    ]
    applied = [
        next(line for line in map(json.loads, run.stdout.splitlines()) if "versions" in line)
        for run in runs
    ]
    assert applied[0]["versions"], "the first run applies the migrations"
    assert applied[1]["versions"] == [], "the second has nothing left to do"


BURNERS = 6  # busy processes sharing the server's one core: each process gets a seventh of it
STARVED_STARTUP_DEADLINE = 600.0  # a deadline for a starved start-up, not a measurement


@contextmanager
def starved_core(core: int = 0) -> Iterator[tuple[str, ...]]:
    """BURNERS processes spinning on `core`; the wrapper that runs a command on it too."""
    pinned = ("taskset", "-c", str(core))
    burners = [
        subprocess.Popen([*pinned, sys.executable, "-c", "while True: pass"])
        for _ in range(BURNERS)
    ]
    try:
        yield pinned
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


@pytest.mark.skipif(shutil.which("taskset") is None, reason="needs taskset (util-linux)")
def test_serve_with_workers_on_a_starved_core_kills_no_worker_for_being_slow(
    database_url: str, tmp_path: Path
) -> None:
    """Issue 24: on a busy machine uvicorn's supervisor killed workers that had not answered its
    ping within 5 s of their spawn (still importing, opening their pool), again and again. Here
    the server and six spinning processes share one core: both workers start, none is replaced,
    and a stop signal stops it all cleanly."""
    env = environment(
        REFEREE_DATABASE_URL=database_url,
        REFEREE_SEED_KEYS=TEST_SEED_KEYS,
        REFEREE_SIGNING_KEYS=TEST_SIGNING_KEYS,
    )
    log = tmp_path / "serve.log"
    with (
        starved_core() as pinned,
        serving(
            env, log, "--workers", "2", wrapper=pinned, startup_deadline=STARVED_STARTUP_DEADLINE
        ) as server,
    ):
        assert httpx.get(f"{server.url}/v1/kinds", timeout=60).status_code == 200
    assert server.process.returncode == 0
    events = [line["event"] for line in server.log_lines()]
    assert sum(event.startswith("Started server process") for event in events) == 2, events
    assert events.count("Application startup complete.") == 2
    assert events.count("Application shutdown complete.") == 2
    assert not [event for event in events if "replacing it" in event or "died" in event]
