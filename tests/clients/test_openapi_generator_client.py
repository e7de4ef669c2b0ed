"""The Python client that openapi-generator (`-g python`) generates from the committed OpenAPI
document decodes every member of every tagged union, plays a whole game of every kind over a
real server (every event read back, export and verification included), and the player written
against it type-checks with `mypy --strict`, with no cast and no ignore. At open tables, public
and private, each player takes a seat through the client and plays it with the token it got.

The generator is the dev dependency `openapi-generator-cli` (its version pinned in uv.lock),
whose wheel carries the generator's jar: nothing is downloaded when it runs. The jar needs Java
(11 or later; CI's machine has 17): without it these tests skip and say so. The player is
`tests/clients/players/play_openapi_generator.py`.
"""

from __future__ import annotations

import json
import os
import re
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
PLAYERS = Path(__file__).parent / "players"
PLAYER = PLAYERS / "play_openapi_generator.py"
DECODER = PLAYERS / "decode_openapi_generator.py"
BIN = Path(sys.executable).parent
PACKAGE = "referee_api"
MIN_JAVA = 11  # openapi-generator 7's own minimum

# What the generator may warn about, and why it may: OpenAPI 3.1 is new to it; a map of any JSON
# value (a kind's default options, their JSON Schema) is typed `Any`; a union written in place
# (such as Wind River's `to`: a space or "open-plains") has no name until the generator gives it
# one.
EXPECTED_WARNINGS = (
    "OpenAPI 3.1 support is still in beta",
    "Codegen property is null (e.g. map/dict of undefined type). Default to typing.Any.",
    "Failed to get the schema name: null",
)


def java_major() -> int | None:
    """The major version of the `java` on PATH; None if there is none."""
    java = shutil.which("java")
    if java is None:
        return None
    done = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60)
    found = re.search(r'version "(?:1\.)?(\d+)', done.stderr + done.stdout)
    return int(found.group(1)) if found else None


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated client (package `referee_api`) beside copies of the player and decoder."""
    major = java_major()
    if major is None or major < MIN_JAVA:
        found = "no `java` on PATH" if major is None else f"Java {major}"
        pytest.skip(
            f"openapi-generator needs Java {MIN_JAVA} or later and finds {found}: install a "
            "Java runtime (Debian: apt-get install openjdk-17-jre-headless) to run these tests"
        )
    directory = tmp_path_factory.mktemp("openapi-generator-client")
    done = subprocess.run(
        [
            str(BIN / "openapi-generator-cli"),
            "generate",
            "--generator-name",
            "python",
            "--input-spec",
            str(COMMITTED),
            "--output",
            str(directory / "generated"),
            "--package-name",
            PACKAGE,
            "--global-property",
            "apiTests=false,modelTests=false,apiDocs=false,modelDocs=false",
        ],
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-5000:]
    unexpected = [
        line
        for line in output.splitlines()
        if re.search(r"\b(WARN|ERROR)\b|Exception", line)
        and not any(warning in line for warning in EXPECTED_WARNINGS)
    ]
    assert unexpected == [], unexpected
    shutil.move(directory / "generated" / PACKAGE, directory / PACKAGE)
    shutil.copy(PLAYER, directory / PLAYER.name)
    shutil.copy(DECODER, directory / DECODER.name)
    return directory


def test_the_player_type_checks_strictly_with_no_cast_or_ignore(generated: Path) -> None:
    source = PLAYER.read_text()
    for escape in ("cast(", "type: ignore", "Any", "getattr("):
        assert escape not in source, escape
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", PLAYER.name],
        cwd=generated,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert "(checked 1 source file)" in done.stdout, done.stdout + done.stderr  # mypy ran
    player_errors = [line for line in done.stdout.splitlines() if line.startswith(PLAYER.name)]
    assert player_errors == [], done.stdout


def test_every_member_of_every_union_decodes_as_itself(generated: Path) -> None:
    done = subprocess.run(
        [sys.executable, DECODER.name, str(COMMITTED)],
        cwd=generated,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["failures"] == []
    document = json.loads(COMMITTED.read_text())
    mapping = document["components"]["schemas"]["EventRecord"]["properties"]["event"]
    assert result["unions"] >= 3 and result["members"] >= len(mapping["discriminator"]["mapping"])


@pytest.mark.parametrize("game", list(REGISTRY), ids=lambda game: game.kind)
def test_the_client_plays_a_whole_game_of_every_kind(
    generated: Path, server: Server, game: AnyGame
) -> None:
    result = play_whole_game([sys.executable, PLAYER.name], generated, server, game)
    assert result["events"] == result["version"] > result["commands"]
    assert {"GameCreated", "SeedRevealed"} <= set(result["event_types"])
    assert result["audit"] == "passed"


@pytest.mark.parametrize(("kind", "seating"), [("big-manitou", "public"), ("coyote", "private")])
def test_players_take_their_seats_at_an_open_table_and_play_it_out(
    generated: Path, server: Server, kind: str, seating: str
) -> None:
    game = REGISTRY[kind]
    result = play_whole_game([sys.executable, PLAYER.name], generated, server, game, seating)
    assert result["events"] == result["version"] > result["commands"]
    assert {"GameCreated", "TableOpened", "SeatTaken", "SeedRevealed"} <= set(result["event_types"])
    assert result["audit"] == "passed"
