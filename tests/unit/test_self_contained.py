"""The project never cites a file outside its own repository: users and auditors read only the
repository, so the rule texts, rulings and the chance algorithm it relies on are written into it
(each game's RULES.md, referee/kernel/CHANCE.md)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).parents[2]
# The working notes the project was built from, which the repository does not hold.
OUTSIDE = re.compile(r"RULINGS\.md|DESIGN\.md|STYLE\.md|STACK-NOTES\.md|\bshared/|\bseeds/\d")


def tracked_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / name for name in listed if name.endswith((".md", ".py", ".sql", ".yaml"))]


def test_no_file_cites_a_file_outside_the_repository() -> None:
    here = Path(__file__).resolve()
    citing = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in tracked_files()
        if path.resolve() != here
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert citing == []
