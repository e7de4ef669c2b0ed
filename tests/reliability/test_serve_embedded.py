"""`referee serve` on its embedded PostgreSQL, as an operator meets it: a supervisor killed with
SIGKILL. Each test has a data directory of its own; whatever a test leaves running is stopped."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from eventstore.embedded import CLUSTER_DIR
from tests.servers import descendants, free_port, running, start_server, stop_server

PATIENCE = 60.0  # seconds before a test gives up; never a measured duration


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    """An embedded database's data directory; its server is stopped at the end if it runs."""
    path = tmp_path / "data"
    yield path
    stop_postmaster(path / CLUSTER_DIR)


def stop_postmaster(cluster: Path) -> None:
    """Stop at once the server of `cluster` and every process of its session (a command it
    runs, as restore_command's `sleep`), whatever state it is in."""
    try:
        pid = int((cluster / "postmaster.pid").read_text().split()[0])
        session = os.getsid(pid)
    except (OSError, ValueError, IndexError):  # no server, or gone
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGQUIT)  # an immediate shutdown
    wait_until(lambda: not running(pid), f"the postmaster {pid} did not stop")
    if session == pid and session != os.getsid(0):  # its own session: what it left behind
        with contextlib.suppress(ProcessLookupError):
            os.killpg(session, signal.SIGKILL)


def wait_until(done: Callable[[], bool], failure: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not done():
        assert time.monotonic() < deadline, failure
        time.sleep(0.1)


def port_is_free(port: int) -> bool:
    """Whether a new server could listen on `port` (uvicorn's socket options)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def test_workers_die_with_their_supervisor(data_dir: Path, tmp_path: Path) -> None:
    """SIGKILL to the supervisor of `--workers 2`, which can do nothing about it: its workers
    die too and free the port, and a new server on the same port and data directory serves."""
    port = free_port()
    log = tmp_path / "first.log"
    first = start_server(None, log, port, workers=2, data_dir=data_dir)
    wait_until(
        lambda: log.read_text().count("Application startup complete.") == 2, "a worker is missing"
    )
    workers = descendants(first.process.pid)
    try:
        first.process.kill()
        first.process.wait(PATIENCE)
        wait_until(lambda: not any(map(running, workers)), "a worker outlived its supervisor")
        wait_until(lambda: port_is_free(port), f"port {port} is still taken")
    finally:
        for pid in workers:  # the orphans of a failed test
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    second = start_server(None, tmp_path / "second.log", port, data_dir=data_dir)
    try:
        assert httpx.get(f"{second.url}/health/ready").status_code == 200
    finally:
        stop_server(second)
