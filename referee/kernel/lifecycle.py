"""The kernel's own events and commands: they open and close every stream, whatever the game.

`GameCreated` is always event 1: it carries everything needed to rebuild the initial state and
the commitment to the seed. A game with a time control records it next (`TimeControlSet`), and
one with bots run by the server says which seats they play (`BotsSeated`). `SeedRevealed`
follows the last event of a finished game.

A table may also be open (`TableOpened`): its players take their own seats (`SeatTaken`, with a
name and entropy of their own), and may leave again (`SeatLeft`) until the last seat is taken;
only then is the game dealt. A table left unfilled too long is cancelled (`TableCancelled`).
See `referee/kernel/open_seats.py`.

Any seat may resign at any time (`Resign`); a seat whose clock has run out loses it to a claim
(`ClaimTimeout`) made by another seat or by the referee; a game left without a command for too
long is closed by the referee (`Abandon`). What follows a seat's leaving is the kernel's
(`referee/kernel/leaving.py`): the game ends when one side is left, and until then the referee
plays for the seat that left (`StandIn`, then that move's events).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, TypeAlias

import msgspec

from referee.kernel.bots import Strategy

Seconds = Annotated[float, msgspec.Meta(gt=0, le=30 * 24 * 3600)]
Time = Annotated[datetime, msgspec.Meta(tz=True)]


class GameCreated(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="game.created"):
    kind: str
    rules_version: str
    seats: int
    options: msgspec.Raw  # the game's Options exactly as recorded (canonical JSON)
    commitment: str  # sha256(seed) in hex
    entropy: str = ""
    seed_chosen_by_creator: bool = False


class TimeControl(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How long a seat may think: a limit per move, a total clock per seat, or both."""

    per_move_seconds: Seconds | None = None  # each command within this long of one's turn
    total_seconds: Seconds | None = None  # all of a seat's thinking in the game
    increment_seconds: Annotated[float, msgspec.Meta(ge=0, le=3600)] = 0.0  # added per move


class TimeControlSet(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="game.time-control"
):
    time_control: TimeControl


class BotSeat(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    seat: Annotated[int, msgspec.Meta(ge=0)]
    strategy: Strategy = "greedy"


class BotsSeated(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="game.bots"):
    """Seats played by the server's own bots (they play through the API's rules like anyone)."""

    seats: tuple[BotSeat, ...]


class ClockRead(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="game.clock"):
    """When a step of a timed game happened: the first event of every command's step (the end
    of the opening). `seat` moved (gets the increment) or is None (a resignation, a claim)."""

    at: Time
    seat: int | None = None


Visibility: TypeAlias = Literal["public", "private"]


class TableOpened(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="game.table-opened"
):
    """The players take their own seats: a `public` table is listed, a `private` one needs the
    invitation code the creator was given. Unfilled at `expires_at`, the referee cancels it."""

    visibility: Visibility
    expires_at: Time


class SeatTaken(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="game.seat-taken"):
    """`name` sits at `seat` of an open table; `entropy` goes into the chance key."""

    seat: int
    name: str
    entropy: str = ""


class SeatLeft(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="game.seat-left"):
    """The player at `seat` got up before the table was full: the seat is open again."""

    seat: int


class TableCancelled(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="game.table-cancelled"
):
    """An open table still unfilled when it expired: nothing was dealt, nobody won."""

    open_seats: tuple[int, ...]  # the seats nobody took


class Resigned(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="game.resigned"):
    seat: int


class TimedOut(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="game.timed-out"):
    seat: int


class StandIn(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="game.stand-in"):
    """The referee plays for `seat`, which has left: the events that follow are that move's."""

    seat: int


class Abandoned(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="game.abandoned"):
    idle_seconds: float  # how long the game had waited for a command


class SeedRevealed(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="game.seed-revealed"
):
    seed: str  # hex; sha256 of its bytes equals GameCreated.commitment


KernelEvent = (
    GameCreated
    | TimeControlSet
    | BotsSeated
    | TableOpened
    | SeatTaken
    | SeatLeft
    | TableCancelled
    | ClockRead
    | Resigned
    | TimedOut
    | StandIn
    | Abandoned
    | SeedRevealed
)

KERNEL_EVENTS = (
    GameCreated,
    TimeControlSet,
    BotsSeated,
    TableOpened,
    SeatTaken,
    SeatLeft,
    TableCancelled,
    ClockRead,
    Resigned,
    TimedOut,
    StandIn,
    Abandoned,
    SeedRevealed,
)  # none hides anything


# -- the kernel's commands, taken by every game --------------------------------------------------


class Resign(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    tag_field="type",
    tag="game.resign",
):
    """Leave the game now (any seat, at any time)."""


class ClaimTimeout(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    tag_field="type",
    tag="game.claim-timeout",
):
    """Claim that `seat`'s time has run out (any other seat, or the referee)."""

    seat: Annotated[int, msgspec.Meta(ge=0)]


class Abandon(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    tag_field="type",
    tag="game.abandon",
):
    """The referee closes a game left without a command for `idle_seconds` (never a seat)."""

    idle_seconds: float


PlayerName = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=160,  # bounds the work; the rule (40 characters after NFC) is open_seats'
        description="The name shown to everyone: 1 to 40 characters after NFC normalisation, "
        "no control or bidirectional-formatting character, unique at the table.",
    ),
]
SeatEntropy = Annotated[
    str,
    msgspec.Meta(
        max_length=256,
        description="Any text the player adds to the chance key (public; see CHANCE.md).",
    ),
]


class Sit(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    tag_field="type",
    tag="game.sit",
):
    """Take an open seat (the seat is the one the command is played for)."""

    name: PlayerName
    entropy: SeatEntropy = ""


class LeaveSeat(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    tag_field="type",
    tag="game.leave-seat",
):
    """Get up from a table that is not full yet: the seat opens again."""


class CancelTable(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    tag_field="type",
    tag="game.cancel-table",
):
    """The referee cancels an open table still unfilled at its expiry (never a seat)."""


KernelCommand = Resign | ClaimTimeout | Abandon | Sit | LeaveSeat | CancelTable
KERNEL_COMMANDS = (Resign, ClaimTimeout, Abandon, Sit, LeaveSeat, CancelTable)
SEAT_COMMANDS = (Resign, ClaimTimeout)  # what a seat may send; Abandon is the referee's alone
Departure = Literal["resignation", "timeout"]
