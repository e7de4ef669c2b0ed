"""Real `referee serve` processes for tests: started on the test run's database with chosen
settings, waited for until ready, stopped at the end. Their logs are kept, to be searched."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.config import Settings
from api.signing import SigningKeys
from eventstore.seeds import SeedKeys

# A server or app of the tests runs no background sweeper unless its test is about one. The
# whole run shares one database, and a sweeper on the real clock claims the timeouts of every
# timed game in it, whichever test plays it: a seat's own claim then finds it taken.
NO_SWEEPER = 0  # REFEREE_SWEEP_INTERVAL_SECONDS / Settings.sweep_interval_seconds
STARTUP_PATIENCE = 60.0  # seconds for a server to answer ready; never a measured duration

# The seed keys of the test run (REFEREE_SEED_KEYS), for its stores and servers alike. A key
# made for the tests, never used anywhere else; `newer` first, as after a rotation.
TEST_SEED_KEYS = (
    "test-newer:7sUd1Y2Nq3d0y0q8o0l8f6Lr1y9r6m2B0pQv3W5sE4k=,"
    "test-older:0Wm5mF8yq2S1bQ2eGv9r0Z8mYx3B6d4kP7sL1nC2vA0="
)
# The signing keys of the test run (REFEREE_SIGNING_KEYS): Ed25519 private keys made for the
# tests, `newer` signs, `older` is retired.
TEST_SIGNING_KEYS = (
    "sign-newer:uQbDH3Lzew6zr+QnZGIE+zuCNFBPfaa7NeZzeWMqaNc=,"
    "sign-older:N0Je3Ynr6P1bKvI2SRhtCdugoZgxhtIk1E+cJLffN88="
)
NO_CHECKPOINTS = 0  # REFEREE_CHECKPOINT_SECONDS: a test signs checkpoints when it says


def app_settings(database_url: str, **overrides: Any) -> Settings:
    """Settings of an app in the test process on `database_url`, with the test run's keys, no
    sweeper and no checkpoints (a test runs them when it says), and `overrides`."""
    return Settings(
        database_url=database_url,
        seed_keys=SeedKeys.parse(TEST_SEED_KEYS),
        signing_keys=SigningKeys.parse(TEST_SIGNING_KEYS),
        sweep_interval_seconds=NO_SWEEPER,
        checkpoint_seconds=NO_CHECKPOINTS,
        **overrides,
    )


@dataclass
class Server:
    url: str
    log: Path
    process: subprocess.Popen[bytes]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(
    database_url: str | None,
    log: Path,
    port: int | None = None,
    *,
    workers: int = 1,
    **settings: object,
) -> Server:
    """A server on `port` (default: a free one), logged in as `database_url` (the service's
    login), sealing seeds with TEST_SEED_KEYS, appending its output to `log`; `settings` are
    `REFEREE_*` variables by their lower-case name (`sse_heartbeat_seconds=0.5` sets
    REFEREE_SSE_HEARTBEAT_SECONDS). With no `database_url`, the embedded database of the
    `data_dir` setting, with its own keys.

    One process unless `workers` says otherwise (a test counts on one process's limits and
    cache). Its sweeper is off unless `sweep_interval_seconds` is given (NO_SWEEPER), so are its
    checkpoints (NO_CHECKPOINTS), and games with bot seats are not limited unless
    `bot_games_per_minute` is given."""
    port = free_port() if port is None else port
    with log.open("ab") as output:  # a server restarted on the same log follows on
        process = subprocess.Popen(
            serve_command(port, workers),
            stdout=output,
            stderr=subprocess.STDOUT,
            env=server_environment(database_url, **settings),
            cwd=log.parent,
        )
    server = Server(f"http://127.0.0.1:{port}", log, process)
    wait_until_ready(server)
    return server


def serve_command(port: int, workers: int = 1) -> list[str]:
    referee = str(Path(sys.executable).parent / "referee")
    return [referee, "serve", "--port", str(port), "--workers", str(workers)]


def server_environment(database_url: str | None, **settings: object) -> dict[str, str]:
    """The environment of `start_server`'s server: no `REFEREE_*` variable but its own."""
    settings = {
        "sweep_interval_seconds": NO_SWEEPER,
        "checkpoint_seconds": NO_CHECKPOINTS,
        "bot_games_per_minute": 0,
        "log_level": "DEBUG",
        **settings,
    }
    if database_url is not None:
        settings = {
            "database_url": database_url,
            "seed_keys": TEST_SEED_KEYS,
            "signing_keys": TEST_SIGNING_KEYS,
            **settings,
        }
    return {
        **{name: value for name, value in os.environ.items() if not name.startswith("REFEREE_")},
        **{f"REFEREE_{name.upper()}": str(value) for name, value in settings.items()},
    }


def wait_until_ready(server: Server) -> None:
    deadline = time.monotonic() + STARTUP_PATIENCE
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(f"the server exited:\n{server.log.read_text()}")
        try:
            if httpx.get(f"{server.url}/health/ready").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    pytest.fail(f"the server did not become ready:\n{server.log.read_text()}")


def stop_server(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()


def descendants(pid: int) -> list[int]:
    """Every process under `pid` (a server's workers), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in {"Z", "X"}  # a killed worker not yet reaped is no longer running
