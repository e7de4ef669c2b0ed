"""Open tables: the players take their own seats, under names of their own.

An open table is created with some seats taken (by its creator, by the server's bots) and the
others open. Each player who sits gets that seat alone; until the last seat is taken nothing is
dealt, nobody is to act, and a seat may be left again. The deal then follows exactly as at a
table its creator seated, from a chance key that covers every seat's entropy (CHANCE.md).

`Seating` is the fold of an open table's seats; `check_name` is the rule for names.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from datetime import datetime

from referee.kernel.contract import RuleViolation, Seat
from referee.kernel.lifecycle import SeatTaken, Visibility
from referee.kernel.seating import with_seat

NAME_MAX_CHARACTERS = 40
# Characters that reorder the text around them: a name holding one could show as another name.
BIDI_FORMATTING = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def name_refusal(rule: str, message: str) -> RuleViolation:
    return RuleViolation(f"kernel.name-{rule}", message)


def normal_name(name: str) -> str:
    """The name as it is recorded and compared: NFC. Refuses what breaks the rule for names."""
    normal = unicodedata.normalize("NFC", name)
    if not 1 <= len(normal) <= NAME_MAX_CHARACTERS:
        raise name_refusal(
            "length",
            f"A name has 1 to {NAME_MAX_CHARACTERS} characters (after NFC normalisation); "
            f"this one has {len(normal)}.",
        )
    if any(unicodedata.category(char) == "Cc" for char in normal):
        raise name_refusal("control", "A name may not hold a control character.")
    if any(char in BIDI_FORMATTING for char in normal):
        raise name_refusal(
            "bidi", "A name may not hold a bidirectional formatting character (U+202E ...)."
        )
    if not normal.strip():
        raise name_refusal("blank", "A name must show something: it is only spaces.")
    return normal


def same_name(one: str, other: str) -> bool:
    """Two names a reader could take for each other: the same but for case."""
    return one.casefold() == other.casefold()


def bot_name(seat: Seat, strategy: str) -> str:
    return f"Bot {seat + 1} ({strategy})"


@dataclass(frozen=True)
class Sitter:
    """Who sits at a seat: their recorded name and entropy, and `sitting`, the number of the
    event that seated them (a token is valid for that sitting only)."""

    name: str
    entropy: str
    sitting: int


@dataclass(frozen=True)
class Seating:
    """An open table's seats, as its events have left them."""

    visibility: Visibility
    expires_at: datetime
    sitters: tuple[Sitter | None, ...]  # by seat; None: open
    dealt: bool = False  # every seat was taken: the game is dealt in the same step
    cancelled: bool = False

    @classmethod
    def empty(cls, visibility: Visibility, expires_at: datetime, seats: int) -> Seating:
        return cls(visibility, expires_at, (None,) * seats)

    @property
    def waiting(self) -> bool:
        return not self.dealt and not self.cancelled

    def open_seats(self) -> tuple[Seat, ...]:
        return tuple(seat for seat, sitter in enumerate(self.sitters) if sitter is None)

    def full(self) -> bool:
        return all(sitter is not None for sitter in self.sitters)

    def names(self) -> tuple[str | None, ...]:
        return tuple(None if sitter is None else sitter.name for sitter in self.sitters)

    def entropies(self) -> tuple[str, ...]:
        return tuple("" if sitter is None else sitter.entropy for sitter in self.sitters)

    def check_sit(self, seat: Seat, name: str) -> None:
        """Refuse what makes this sitting impossible (the table's state, the seat, the name)."""
        if not self.waiting:
            raise RuleViolation(
                "kernel.table-not-waiting", "This table is not waiting for players."
            )
        if not 0 <= seat < len(self.sitters):
            raise RuleViolation("kernel.no-such-seat", f"The table has no seat {seat}.")
        if self.sitters[seat] is not None:
            raise RuleViolation("kernel.seat-taken", f"Seat {seat} is taken.")
        normal = normal_name(name)
        if normal != name:
            raise name_refusal("not-normal", "A recorded name is in NFC normal form.")
        for other in self.sitters:
            if other is not None and same_name(other.name, name):
                raise name_refusal("taken", f"Someone at this table is called {other.name!r}.")

    def take(self, event: SeatTaken, sitting: int) -> Seating:
        self.check_sit(event.seat, event.name)
        sitter = Sitter(event.name, event.entropy, sitting)
        sitters = with_seat(self.sitters, event.seat, sitter)
        return replace(self, sitters=sitters, dealt=None not in sitters)

    def check_leave(self, seat: Seat) -> None:
        if not self.waiting:
            raise RuleViolation(
                "kernel.table-not-waiting",
                "Only a table still waiting for players may be left; resign from a game.",
            )
        if not 0 <= seat < len(self.sitters) or self.sitters[seat] is None:
            raise RuleViolation("kernel.seat-open", f"Nobody sits at seat {seat}.")

    def cancel(self) -> Seating:
        return replace(self, cancelled=True)

    def leave(self, seat: Seat) -> Seating:
        self.check_leave(seat)
        return replace(self, sitters=with_seat(self.sitters, seat, None))
