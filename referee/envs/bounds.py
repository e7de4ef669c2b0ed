"""What a game package declares for its environment (its `actions.py`), kept apart from the
environments themselves: a game imports this, never gymnasium."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ActionBounds:
    """The values of a kind's int command fields whose types leave them open, by path
    ("coyote.bid.target"); how its ranking, which gives the reward, is made; and what its final
    score is, for `reward="score"` (None: the kind keeps no score)."""

    ints: dict[str, range]
    reward: str
    score: str | None
