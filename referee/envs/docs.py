"""The "Actions" section of each kind's RULES.md, written from its action space.

    python -m referee.envs.docs          # rewrite the sections
    python -m referee.envs.docs --check  # exit 1 if one is out of date (tests/envs does this)

The section sits between two markers; everything else in RULES.md is left as it is.
"""

from __future__ import annotations

import sys
from pathlib import Path

from referee.envs.env import AnyGame, action_space_of, bounds_of
from referee.games import REGISTRY

BEGIN = "<!-- actions: written by `python -m referee.envs.docs`; do not edit by hand -->"
END = "<!-- /actions -->"
GAMES = Path(__file__).resolve().parent.parent / "games"


def rules_md(kind: str) -> Path:
    return GAMES / kind.replace("-", "_") / "RULES.md"


def section(rules: AnyGame) -> str:
    space = action_space_of(rules)
    bounds = bounds_of(rules.kind)
    rows = "\n".join(
        f"| {indices} | `{path}` | {values} |" for indices, path, values in space.table()
    )
    return f"""{BEGIN}
## Actions (the `referee.envs` environment)

The environment's action space is `Discrete({space.size})`: each index below means one value of
one field of a command, whatever the seat count. A command is its type's index, then its fields'
indices in this order (a union field first names its member; a list ends with its `end` index);
the environment asks for them one at a time, with a mask of the indices that lead to a legal
command (README, "Training bots").

| indices | field | values |
|---|---|---|
{rows}

**Reward** (`reward="ranking"`, the default): 0 until the end, then
`(seats placed below - seats placed above) / (seats - 1)`.
{bounds.reward}

**Score** (`reward="score"`): {bounds.score or "none: this kind keeps no score."}
{END}
"""


def updated(text: str, new: str) -> str:
    if BEGIN in text:
        before, _, rest = text.partition(BEGIN)
        _, _, after = rest.partition(END + "\n")
        return before + new + after
    return text.rstrip("\n") + "\n\n" + new


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for rules in REGISTRY:
        path = rules_md(rules.kind)
        text = path.read_text()
        new = updated(text, section(rules))
        if new != text:
            stale.append(path)
            if not check:
                path.write_text(new)
    if check and stale:
        names = ", ".join(str(path) for path in stale)
        print(f"out of date: {names} (python -m referee.envs.docs)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
