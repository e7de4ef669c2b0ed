"""The TypeScript client that @hey-api/openapi-ts generates from the committed OpenAPI document
plays a whole game of every kind over a real server (the exported bundle verified), and the
player written against it compiles with `tsc --strict` (and `noUncheckedIndexedAccess`), with no
cast, no `any` and no ignore. At open tables, public and private, each player takes a seat through
the client and plays it with the token it got.

The generator, the compiler and Node's types are installed by `make test` from
tests/spec/package.json (npm ci); Node comes from the machine. The player is
`tests/clients/players/play.ts`.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.games import REGISTRY
from referee.kernel.registry import AnyGame
from tests.clients.conftest import play_whole_game
from tests.servers import Server

ROOT = Path(__file__).parents[2]
COMMITTED = ROOT / "openapi" / "openapi.json"
PLAYERS = Path(__file__).parent / "players"
TOOLS = ROOT / "tests" / "spec" / "node_modules"


def tool(name: str) -> str:
    path = TOOLS / ".bin" / name
    if not path.exists():
        pytest.fail(f"{name} is not installed: run `make test` (it runs npm ci in {TOOLS.parent})")
    return str(path)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated client (./client) and the player, compiled to ./dist."""
    directory = tmp_path_factory.mktemp("typescript-client")
    generate = subprocess.run(
        [tool("openapi-ts"), "-i", str(COMMITTED), "-o", str(directory / "client")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert generate.returncode == 0, generate.stdout + generate.stderr
    shutil.copy(PLAYERS / "play.ts", directory / "play.ts")
    config = json.loads((PLAYERS / "tsconfig.json").read_text())
    config["compilerOptions"]["typeRoots"] = [str(TOOLS / "@types")]
    (directory / "tsconfig.json").write_text(json.dumps(config))
    done = subprocess.run(
        [tool("tsc"), "-p", "tsconfig.json"],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return directory


def test_the_player_compiles_strictly_with_no_cast_any_or_ignore(compiled: Path) -> None:
    source = (PLAYERS / "play.ts").read_text()
    code = re.sub(r"//.*", "", source)  # comments may say what the code does not do
    for escape in (r"\bas\s+[A-Za-z{]", r"\bany\b", r"@ts-", r"!\."):
        assert not re.search(escape, code), escape
    config = json.loads((PLAYERS / "tsconfig.json").read_text())["compilerOptions"]
    assert config["strict"] is True and config["noUncheckedIndexedAccess"] is True
    assert (compiled / "dist" / "play.js").exists()


@pytest.mark.parametrize("game", list(REGISTRY), ids=lambda game: game.kind)
def test_the_client_plays_a_whole_game_of_every_kind(
    compiled: Path, server: Server, game: AnyGame
) -> None:
    play_whole_game(["node", "dist/play.js"], compiled, server, game)


@pytest.mark.parametrize(
    ("kind", "seating"), [("wind-river", "public"), ("manitou-island", "private")]
)
def test_players_take_their_seats_at_an_open_table_and_play_it_out(
    compiled: Path, server: Server, kind: str, seating: str
) -> None:
    play_whole_game(["node", "dist/play.js"], compiled, server, REGISTRY[kind], seating)
