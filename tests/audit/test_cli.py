"""`referee verify FILE` and `python -m api.verify FILE`: offline, with a telling exit status."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from api.bundle import encode_bundle
from api.verify.cli import main
from tests.audit.helpers import recorded, running
from tests.corpus.generate import GAMES

GAME = GAMES / "coyote-4-shaman.json"


def test_referee_verify_passes_an_exported_game() -> None:
    referee = Path(sys.executable).parent / "referee"
    result = subprocess.run(
        [str(referee), "verify", str(GAME)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "verdict: PASSED" in result.stdout


def test_python_m_api_verify_prints_the_report_as_json() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "api.verify", "--json", str(GAME)],
        capture_output=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["verdict"] == "passed" and len(report["checks"]) == 9


@pytest.mark.parametrize(
    ("content", "status", "words"),
    [
        (GAME.read_bytes().replace(b'"seats":4', b'"seats":5'), 1, "verdict: FAILED"),
        (b"{not a bundle", 2, "not a game bundle"),
        (encode_bundle(running(recorded(), 3)), 3, "verdict: PARTIAL"),
    ],
    ids=["altered", "not-a-bundle", "running-game"],
)
def test_the_exit_status_says_what_was_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, status: int, words: str
) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    assert main([str(path)]) == status
    captured = capsys.readouterr()
    assert words in captured.out + captured.err


def test_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main([str(tmp_path / "nowhere.json")]) == 2
    assert "nowhere.json" in capsys.readouterr().err
