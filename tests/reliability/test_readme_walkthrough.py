"""The README's curl walkthrough, run verbatim against a real `referee serve`, several games in
a row, so that whoever is drawn to start, every command in it does what the text says."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.reliability.conftest import Serve

README = Path(__file__).parents[2] / "README.md"
GAMES = 4  # the first player is drawn from three: four games meet more than one
PROBLEM = "urn:referee:problem:"


def walkthrough() -> str:
    """The shell blocks of the section "A whole game with curl", in order."""
    text = README.read_text()
    section = text.split("## A whole game with curl", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    assert len(blocks) >= 5, "the walkthrough lost its shell blocks"
    return "\n".join(blocks)


@pytest.mark.skipif(shutil.which("curl") is None, reason="the walkthrough needs curl")
def test_the_walkthrough_works_verbatim_whoever_starts(serve: Serve, tmp_path: Path) -> None:
    server = serve()
    script = walkthrough()
    assert "API=http://127.0.0.1:8000" in script
    script = script.replace("API=http://127.0.0.1:8000", f"API={server.url}")
    for game in range(GAMES):
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, (game, done.stderr)
        # Exactly one problem is shown: the bid the rules refuse, with the rule the text names.
        problems = re.findall(rf'"type":"{PROBLEM}([a-z-]+)"', done.stdout)
        assert problems == ["rule-violation"], (game, problems, done.stdout[-2000:])
        assert '"rule_id":"coyote.bid-not-higher"' in done.stdout
        assert '"detail":"Your bid must be higher than 12."' in done.stdout
        assert '"kind":"coyote"' in (tmp_path / "created.json").read_text()
