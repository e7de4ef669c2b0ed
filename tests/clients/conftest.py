"""Clients generated from the committed OpenAPI document, playing against a real server."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.kernel.registry import AnyGame
from tests.servers import Server, start_server, stop_server

SEED = "5e" * 32


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


def play_whole_game(
    player: list[str], cwd: Path, server: Server, game: AnyGame, seating: str = "creator"
) -> dict[str, Any]:
    """Run a player (`player` BASE_URL KIND SEATS SEED SEATING) to the end of a game of `game`'s
    kind and check what it printed: the game played, its exported bundle verified. Answers what
    it printed, for a test to check more.

    SEATING `creator`: the player creates the game and is given every seat's token. `public` or
    `private`: it opens a table (its seed the referee's), where each player takes a seat of
    their own through the client, named "Player 1", "Player 2"... in seat order."""
    done = subprocess.run(
        [*player, server.url, game.kind, str(game.min_seats), SEED, seating],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    assert result["kind"] == game.kind and result["commands"] > 0
    assert result["verdict"] == "passed", result
    if seating != "creator":
        assert result["seating"] == "open", result
        assert result["names"] == [f"Player {seat + 1}" for seat in range(game.min_seats)], result
    return result
