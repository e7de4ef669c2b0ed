"""The contract every game implements: a decider (initial state, decide, evolve) plus views.

A game is a package under `referee/games/<kind>/` that exposes `GAME`, an object satisfying
`Game`. The kernel, the store and the API only ever talk to games through this protocol, so
adding a game touches its own package and the registry, nothing else.

Conventions every game follows:
- Commands, events and views are msgspec Structs, tagged with `tag_field="type"` and a tag
  namespaced by the kind ("coyote.bid"), so that one OpenAPI union can hold every game's types.
- `State` is a frozen msgspec Struct: `evolve` returns a new one and never mutates its input,
  so states can be shared and a fold can be compared with `==`.
- `decide` never changes `state`; it draws from `chance` only, and writes every outcome of a
  draw into an event, so that `evolve` never needs the seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol, TypeVar

import msgspec

from referee.kernel.chance import Chance

Seat = int

# How a finished game ended: by its own rules, or by the kernel (a resignation, a clock that ran
# out, a game left without a move for too long).
Ending = Literal["rules", "resignation", "timeout", "abandoned", "cancelled"]

OptionsT = TypeVar("OptionsT", bound=msgspec.Struct)
StateT = TypeVar("StateT", bound=msgspec.Struct)
CommandT = TypeVar("CommandT", bound=msgspec.Struct)
EventT = TypeVar("EventT", bound=msgspec.Struct)


class RuleViolation(Exception):
    """A command or an option the rules refuse.

    `rule_id` is stable and namespaced ("coyote.bid-not-higher"): clients may switch on it.
    `message` is one sentence a player understands.
    """

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(message)
        self.rule_id = rule_id
        self.message = message


class NoLegalCommand(RuleViolation):
    """A seat is to act and has no legal command. The contract forbids it (`Game.to_act`), but
    a game recorded under an older rules version may hold such a position: whoever would move
    for the seat (the referee's stand-in, a bot) refuses with this, rather than fail."""

    def __init__(self, seat: Seat) -> None:
        super().__init__(
            "kernel.no-legal-command",
            f"Seat {seat} is to act but its rules leave it no legal command, so no move can be"
            " made for it; the game waits (it is closed as abandoned if nothing else happens).",
        )
        self.seat = seat


class Refusals:
    """The refusals of one kind of game: `Refusals("tribu")("double", "...")` is the
    RuleViolation with rule id `tribu.double`. A game's `checks.py` holds one."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __call__(self, rule: str, message: str) -> RuleViolation:
        return RuleViolation(f"{self.kind}.{rule}", message)


def raise_if(found: RuleViolation | None) -> None:
    """Raise a refusal found by a `*_refusal` check (None: the rules accept)."""
    if found is not None:
        raise found


def impossible_if(found: RuleViolation | None) -> None:
    """For `evolve`: an event the rules refuse could not have happened; a stream that holds
    one was not recorded by a referee (ValueError, as for any event that cannot apply)."""
    if found is not None:
        raise ValueError(f"an event the rules refuse: {found.message}")


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """Where a game stands: finished or not, and if finished who won and how."""

    finished: bool
    winners: tuple[Seat, ...] = ()
    # Seats grouped by final place, best first; seats that share a place share a group.
    ranking: tuple[tuple[Seat, ...], ...] = ()
    # Per seat, in seat order, when the game keeps a score.
    scores: tuple[int, ...] | None = None
    # Set by the kernel's table once the game is over; a game's own `outcome` leaves it None.
    ending: Ending | None = None


class Game(Protocol[OptionsT, StateT, CommandT, EventT]):
    """What the kernel needs from a game. See the module docstring for the conventions."""

    # What a game is: read-only, as the registry and the API only ever read them.
    @property
    def kind(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def version(self) -> str:
        """The rules version; recorded games replay under the version they were played."""
        ...

    @property
    def min_seats(self) -> int: ...
    @property
    def max_seats(self) -> int: ...
    @property
    def seat_counts(self) -> tuple[int, ...]:
        """Every number of players the game allows, ascending."""
        ...

    @property
    def options_type(self) -> type[OptionsT]: ...
    @property
    def command_type(self) -> Any:
        """The union of the game's command Structs."""
        ...

    @property
    def event_type(self) -> Any:
        """The union of the game's event Structs."""
        ...

    @property
    def view_type(self) -> Any:
        """The Struct (or union) that `view` returns."""
        ...

    def validate_options(self, options: OptionsT, seats: int) -> None:
        """Raise RuleViolation when the options do not fit together or with the seat count."""
        ...

    def initial_state(self, options: OptionsT, seats: int) -> StateT:
        """The state before the opening events: nothing dealt, nothing drawn."""
        ...

    def setup(self, options: OptionsT, seats: int, chance: Chance) -> list[EventT]:
        """The opening events: deals, the first player."""
        ...

    def decide(self, state: StateT, seat: Seat, command: CommandT, chance: Chance) -> list[EventT]:
        """Accept a command by returning its events, or refuse it with a RuleViolation.

        Called only for a seat in `to_act(state)` of a game not finished.
        """
        ...

    def evolve(self, state: StateT, event: EventT) -> StateT:
        """The fold: a new state with the event applied. No randomness, no decisions."""
        ...

    def to_act(self, state: StateT) -> frozenset[Seat]:
        """The seats that may send a command now (empty once the game is over).

        Every seat in it has at least one legal command: a game never waits for a seat that
        cannot move. Where the rules could leave the player to act without a decision, the game
        moves on by a rule of its own (Tribù's TR-13 ends the challenge); tests/unit/corners.py
        holds every game to it from positions built for each rule's corners."""
        ...

    def legal_commands(self, state: StateT, seat: Seat) -> Sequence[CommandT]:
        """Every command `decide` would accept from `seat` now."""
        ...

    def view(self, state: StateT, seat: Seat | None) -> msgspec.Struct:
        """What `seat` (None: a spectator) may see. Everything once the game is over."""
        ...

    def redact(self, event: EventT, seat: Seat | None) -> EventT:
        """The event as `seat` (None: a spectator) may see it: hidden values replaced by None."""
        ...

    def outcome(self, state: StateT) -> Outcome: ...

    # The bots' two functions (referee/kernel/bots.py): a state a seat cannot tell from the real
    # one, built from its view; and a state's worth to a seat, by the game's scoring.
    @property
    def imagine(self) -> Any: ...
    @property
    def evaluate(self) -> Any: ...

    def sides(self, seats: int) -> tuple[frozenset[Seat], ...]:
        """Who plays together: a resignation is its side's (a team concedes together)."""
        ...
