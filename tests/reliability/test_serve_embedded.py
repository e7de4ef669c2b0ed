"""`referee serve` on its embedded PostgreSQL, as an operator meets it: a supervisor killed with
SIGKILL, a second server started on the same port and data directory, a database that does not
start. Each test has a data directory of its own; whatever a test leaves running is stopped."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from eventstore.embedded import CLUSTER_DIR, DATABASE, LOGIN, LOGIN_PASSWORD_FILE
from tests.servers import (
    TEST_SEED_KEYS,
    descendants,
    free_port,
    running,
    serve_command,
    server_environment,
    start_server,
    stop_server,
)

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


def serve(data_dir: Path, port: int, **settings: object) -> subprocess.CompletedProcess[str]:
    """`referee serve` that is expected to refuse to start: its exit status and output."""
    return subprocess.run(
        serve_command(port),
        env=server_environment(None, data_dir=data_dir, **settings),
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        cwd=data_dir.parent,
    )


def refused_in_one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 1, done
    assert done.stderr.startswith("referee serve: ") and done.stderr.count("\n") == 1, done
    assert "Traceback" not in done.stderr + done.stdout
    assert all(word in done.stderr for word in words), done.stderr


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


def test_a_second_server_on_a_port_in_use_leaves_the_first_alone(
    data_dir: Path, tmp_path: Path
) -> None:
    first = start_server(None, tmp_path / "first.log", workers=2, data_dir=data_dir)
    try:
        port = int(first.url.rsplit(":", 1)[1])
        refused_in_one_line(serve(data_dir, port), f"--port {port}", "Address already in use")
        assert httpx.get(f"{first.url}/health/ready").status_code == 200
    finally:
        stop_server(first)


def login_url(data_dir: Path) -> str:
    """The service's login to the running embedded database of `data_dir`, as a client given
    its URL connects (unknown to the list of processes that share the server)."""
    # postmaster.pid: its pid, data directory, start time, port and socket directory, ...
    port, socket_dir = (data_dir / CLUSTER_DIR / "postmaster.pid").read_text().splitlines()[3:5]
    return psycopg.conninfo.make_conninfo(
        dbname=DATABASE,
        user=LOGIN,
        password=(data_dir / LOGIN_PASSWORD_FILE).read_text().strip(),
        host=socket_dir,
        port=port,
    )


def test_a_failed_start_leaves_running_a_database_it_did_not_start(
    data_dir: Path, tmp_path: Path
) -> None:
    """The server that started the database was killed, and a client still uses it. A server
    that joins it, then refuses to start (another seed key than the one its games are sealed
    with), lets go of it without stopping it."""
    first = start_server(None, tmp_path / "first.log", data_dir=data_dir)
    created = httpx.post(f"{first.url}/v1/games", json={"kind": "coyote", "seats": 3})
    assert created.status_code == 201, created.text
    first.process.kill()
    first.process.wait(PATIENCE)
    with psycopg.connect(login_url(data_dir), connect_timeout=10) as client:
        refused = serve(data_dir, free_port(), seed_keys=TEST_SEED_KEYS)
        refused_in_one_line(refused, "is sealed with key")
        assert client.execute("SELECT count(*) FROM games").fetchone() == (1,)


def initialised(data_dir: Path) -> Path:
    """A cluster made and migrated by `referee migrate`, stopped again; its directory."""
    referee = str(Path(sys.executable).with_name("referee"))
    env = server_environment(None, data_dir=data_dir)
    subprocess.run([referee, "migrate"], env=env, check=True, capture_output=True, timeout=120)
    return data_dir / CLUSTER_DIR


def test_a_database_that_does_not_start_in_time_is_said_in_one_line(data_dir: Path) -> None:
    """A cluster that cannot be ready in time (a standby waiting for its archive) misses the
    package's start timeout; the start that comes next finds it still starting."""
    cluster = initialised(data_dir)
    (cluster / "standby.signal").touch()
    with (cluster / "postgresql.conf").open("a") as conf:
        conf.write("restore_command = 'sleep 120; false'\n")
    refused_in_one_line(serve(data_dir, free_port()), "did not start within", str(cluster))
    refused_in_one_line(serve(data_dir, free_port()), "is starting, not ready", str(cluster))


def test_a_database_that_cannot_start_is_said_in_one_line(data_dir: Path) -> None:
    cluster = initialised(data_dir)
    with (cluster / "postgresql.conf").open("a") as conf:
        conf.write("shared_buffers = 'a lot'\n")
    refused_in_one_line(serve(data_dir, free_port()), "could not start", "pg_ctl")
