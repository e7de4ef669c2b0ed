"""A game assembled from its package's functions: the one object every `game.py` builds.

Every game satisfies the contract the same way: each method hands over to the module of the
package that does the work, and where the referee takes steps of its own (`flow.next_step`), a
command's events are followed by them through the kernel's `then_advance`. Writing that class
once here keeps each `game.py` to what differs: the names, the types and the functions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec

from referee.kernel.bots import Imagine
from referee.kernel.chance import Chance
from referee.kernel.contract import Outcome, Seat
from referee.kernel.flow import NextStep, then_advance

OptionsT = TypeVar("OptionsT", bound=msgspec.Struct)
StateT = TypeVar("StateT", bound=msgspec.Struct)
CommandT = TypeVar("CommandT", bound=msgspec.Struct)
EventT = TypeVar("EventT", bound=msgspec.Struct)


@dataclass(frozen=True, kw_only=True, eq=False)
class WiredGame(Generic[OptionsT, StateT, CommandT, EventT]):
    """The kernel's `Game`, from a game's parts (see `referee/games/README.md`)."""

    kind: str
    title: str
    version: str
    seat_counts: tuple[int, ...]
    options_type: type[OptionsT]
    command_type: Any  # the union of the game's commands
    event_type: Any  # the union of the game's events
    view_type: Any
    validate_options: Callable[[OptionsT, int], None]
    initial_state: Callable[[OptionsT, int], StateT]
    opening: Callable[[OptionsT, int, Chance], list[EventT]]
    command_events: Callable[[StateT, Seat, CommandT, Chance], list[EventT]]
    evolve: Callable[[StateT, EventT], StateT]
    to_act: Callable[[StateT], frozenset[Seat]]
    legal_commands: Callable[[StateT, Seat], Sequence[CommandT]]
    view: Callable[[StateT, Seat | None], msgspec.Struct]
    redact: Callable[[EventT, Seat | None], EventT]
    outcome: Callable[[StateT], Outcome]
    # The bots' two functions (the package's `bots.py`, see referee/kernel/bots.py): a state the
    # seat cannot tell from the real one, built from its view; and a state's worth to a seat.
    imagine: Imagine
    evaluate: Callable[[StateT, Seat], float]
    next_step: NextStep[StateT, EventT] | None = None  # the referee's own steps, if any
    # Who plays together, by the number of seats (None: every seat for itself).
    teams: Callable[[int], tuple[frozenset[Seat], ...]] | None = None
    min_seats: int = field(init=False)
    max_seats: int = field(init=False)

    def __post_init__(self) -> None:
        if not self.seat_counts or list(self.seat_counts) != sorted(set(self.seat_counts)):
            raise ValueError("seat_counts lists the numbers of players, ascending")
        object.__setattr__(self, "min_seats", self.seat_counts[0])
        object.__setattr__(self, "max_seats", self.seat_counts[-1])

    def setup(self, options: OptionsT, seats: int, chance: Chance) -> list[EventT]:
        """The opening events, and the referee's steps that follow them."""
        events = self.opening(options, seats, chance)
        return self._advanced(self.initial_state(options, seats), events, chance)

    def decide(self, state: StateT, seat: Seat, command: CommandT, chance: Chance) -> list[EventT]:
        """A command's events (or its refusal), and the referee's steps that follow them."""
        return self._advanced(state, self.command_events(state, seat, command, chance), chance)

    def sides(self, seats: int) -> tuple[frozenset[Seat], ...]:
        """Who plays together: the game's teams, or every seat for itself."""
        if self.teams is not None:
            return self.teams(seats)
        return tuple(frozenset((seat,)) for seat in range(seats))

    def _advanced(self, state: StateT, events: list[EventT], chance: Chance) -> list[EventT]:
        if self.next_step is None:
            return events
        return then_advance(state, events, chance, self.evolve, self.next_step)

    def __repr__(self) -> str:
        return f"<game {self.kind} rules {self.version}>"
