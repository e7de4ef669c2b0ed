"""The Python client that `openapi-python-client` generates from the committed OpenAPI document
plays a whole game of every kind over a real server (export and verification included), and the
player written against it type-checks with `mypy --strict`, with no cast and no ignore. At open
tables, public and private, each player takes a seat through the client and plays it with the
token it got.

The generator is a dev dependency (its version pinned in uv.lock); the player is
`tests/clients/players/play.py`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.games import REGISTRY
from referee.kernel.registry import AnyGame
from tests.clients.conftest import play_whole_game
from tests.servers import Server

ROOT = Path(__file__).parents[2]
COMMITTED = ROOT / "openapi" / "openapi.json"
PLAYER = Path(__file__).parent / "players" / "play.py"
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated client (package `referee_client`) beside a copy of the player."""
    directory = tmp_path_factory.mktemp("python-client")
    done = subprocess.run(
        [
            str(BIN / "openapi-python-client"),
            "generate",
            "--path",
            str(COMMITTED),
            "--output-path",
            str(directory / "referee_client"),
            "--meta",
            "none",
        ],
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "Warning" not in output and "Unable" not in output, output  # every schema generated
    shutil.copy(PLAYER, directory / "play.py")
    return directory


def test_the_player_type_checks_strictly_with_no_cast_or_ignore(generated: Path) -> None:
    source = PLAYER.read_text()
    for escape in ("cast(", "type: ignore", "Any", "getattr("):
        assert escape not in source, escape
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "play.py"],
        cwd=generated,
        capture_output=True,
        text=True,
        timeout=300,
    )
    player_errors = [line for line in done.stdout.splitlines() if line.startswith("play.py")]
    assert player_errors == [], done.stdout


@pytest.mark.parametrize("game", list(REGISTRY), ids=lambda game: game.kind)
def test_the_client_plays_a_whole_game_of_every_kind(
    generated: Path, server: Server, game: AnyGame
) -> None:
    play_whole_game([sys.executable, "play.py"], generated, server, game)


@pytest.mark.parametrize(("kind", "seating"), [("coyote", "public"), ("tribu", "private")])
def test_players_take_their_seats_at_an_open_table_and_play_it_out(
    generated: Path, server: Server, kind: str, seating: str
) -> None:
    play_whole_game([sys.executable, "play.py"], generated, server, REGISTRY[kind], seating)
