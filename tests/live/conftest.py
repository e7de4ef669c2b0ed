"""Two real `referee serve` processes on the test run's database, and an SSE reader.

The processes differ in one setting: the `reader` sends heartbeats once an hour, so a stream it
serves can only be woken by the database's notifications; the `writer` sends them twice a
second. Their logs are kept, to be searched for secrets.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

STARTUP_PATIENCE = 60.0  # seconds for a server to answer ready; never a measured duration


@dataclass
class Server:
    url: str
    log: Path
    process: subprocess.Popen[bytes]


@dataclass
class Message:
    """One Server-Sent Events message: the fields it had, and its comment lines."""

    id: str | None = None
    event: str | None = None
    data: str | None = None
    retry: str | None = None
    comments: list[str] = field(default_factory=list)


async def messages(response: httpx.Response) -> AsyncIterator[Message]:
    """The messages of an event stream, as an EventSource parses them."""
    message = Message()
    async for line in response.aiter_lines():
        if not line:
            yield message
            message = Message()
        elif line.startswith(":"):
            message.comments.append(line[1:].strip())
        else:
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "data":
                message.data = value if message.data is None else f"{message.data}\n{value}"
            elif name in ("id", "event", "retry"):
                setattr(message, name, value)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(
    database_url: str, log: Path, heartbeat_seconds: float, grace_seconds: float = 10
) -> Server:
    port = free_port()
    env = {
        **os.environ,
        "REFEREE_DATABASE_URL": database_url,
        "REFEREE_SSE_HEARTBEAT_SECONDS": str(heartbeat_seconds),
        "REFEREE_SHUTDOWN_GRACE_SECONDS": str(grace_seconds),
        "REFEREE_LOG_LEVEL": "DEBUG",
    }
    referee = Path(sys.executable).parent / "referee"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [str(referee), "serve", "--port", str(port)],
            stdout=output,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=log.parent,
        )
    server = Server(f"http://127.0.0.1:{port}", log, process)
    wait_until_ready(server)
    return server


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


@pytest.fixture(scope="session")
def servers(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    """[writer, reader]."""
    directory = tmp_path_factory.mktemp("servers")
    started: list[Server] = []
    try:
        started.append(start_server(database_url, directory / "writer.log", 0.5))
        started.append(start_server(database_url, directory / "reader.log", 3600))
        yield started
    finally:
        for server in started:
            stop_server(server)


@pytest.fixture
async def writer(servers: list[Server]) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as client:
        yield client


@pytest.fixture
async def reader(servers: list[Server]) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=servers[1].url, timeout=30) as client:
        yield client
