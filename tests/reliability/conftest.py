"""The reliability suite: attacks an operator or an attacker would try, against a real
`referee serve` process on the test run's database (tests/servers.py). Each test module starts
the servers it needs, with the settings it needs, through `serve`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.servers import Server, start_server, stop_server

Serve = Callable[..., Server]


@pytest.fixture(scope="module")
def serve(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """Start a server with `REFEREE_*` settings given by name; stopped after the module."""
    directory = tmp_path_factory.mktemp("reliability")
    started: list[Server] = []

    def start(**settings: object) -> Server:
        log = directory / f"server-{len(started)}.log"
        server = start_server(database_url, Path(log), **settings)
        started.append(server)
        return server

    try:
        yield start
    finally:
        for server in started:
            stop_server(server)
