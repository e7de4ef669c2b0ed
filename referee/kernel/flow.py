"""The referee's own steps: after a command, carry a game forward until a player must choose.

Dealing the next hunt, paying what can only be paid one way, ending a turn: whatever follows
from the rules alone is decided by the referee and recorded as events, like a player's command.
A game says what its next automatic step is (`next_step`, returning [] when a player has to
choose); this loop folds each step as it goes, so that the next one sees the state it made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from referee.kernel.chance import Chance

S = TypeVar("S")
E = TypeVar("E")

Evolve = Callable[[S, E], S]
NextStep = Callable[[S, Chance], list[E]]

# A game that keeps stepping by itself this long has a loop in its rules, not a long turn.
MAX_AUTOMATIC_EVENTS = 100_000


def advance(state: S, chance: Chance, evolve: Evolve[S, E], next_step: NextStep[S, E]) -> list[E]:
    """The events that follow by themselves from `state`, until a player has a real choice."""
    events: list[E] = []
    while step := next_step(state, chance):
        state = fold(state, step, evolve)
        events.extend(step)
        if len(events) > MAX_AUTOMATIC_EVENTS:
            raise RuntimeError("the referee's own steps do not stop")
    return events


def then_advance(
    state: S, events: list[E], chance: Chance, evolve: Evolve[S, E], next_step: NextStep[S, E]
) -> list[E]:
    """`events` (a command's own), followed by the referee's steps they lead to."""
    return [*events, *advance(fold(state, events, evolve), chance, evolve, next_step)]


def fold(state: S, events: Iterable[E], evolve: Evolve[S, E]) -> S:
    for event in events:
        state = evolve(state, event)
    return state
