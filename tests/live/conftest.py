"""Two real `referee serve` processes on the test run's database, and an SSE reader.

The processes differ in one setting: the `reader` sends heartbeats once an hour, so a stream it
serves can only be woken by the database's notifications; the `writer` sends them twice a
second. Their logs are kept, to be searched for secrets.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field

import httpx
import pytest

from tests.servers import Server, start_server, stop_server


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


@pytest.fixture(scope="session")
def servers(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    """[writer, reader]."""
    directory = tmp_path_factory.mktemp("servers")
    started: list[Server] = []
    try:
        started.append(
            start_server(
                database_url,
                directory / "writer.log",
                sse_heartbeat_seconds=0.5,
                shutdown_grace_seconds=10,
            )
        )
        started.append(
            start_server(
                database_url,
                directory / "reader.log",
                sse_heartbeat_seconds=3600,
                shutdown_grace_seconds=10,
            )
        )
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
