"""Clients generated from the committed OpenAPI document, playing against a real server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.servers import Server, start_server, stop_server


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A `referee serve` on the test run's database, without the expensive-reads limit (each
    game ends with an export and a verification)."""
    log = tmp_path_factory.mktemp("clients") / "server.log"
    started = start_server(database_url, log, expensive_reads_per_minute=0)
    try:
        yield started
    finally:
        stop_server(started)
