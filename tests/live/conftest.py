"""Two real `referee serve` processes on the test run's database, and the SSE reader
(`api.sse`, which `referee bot` uses too).

The processes differ in one setting: the `reader` sends heartbeats once an hour, so a stream it
serves can only be woken by the database's notifications; the `writer` sends them twice a
second. Their logs are kept, to be searched for secrets.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from api.sse import Message as Message  # the live tests read streams with it
from api.sse import messages as messages
from tests.servers import Server, start_server, stop_server


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
