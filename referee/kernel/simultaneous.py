"""Simultaneous secret choices: every seat chooses, and no seat sees another's choice.

The choices are a tuple with one entry per seat, None while that seat has not chosen yet; it
fits in a frozen State as it is. A game reveals the choices (or what follows from them) once
`all_in` holds, and until then shows each seat only its own with `as_seen_by`.
"""

from __future__ import annotations

from typing import TypeVar

from referee.kernel.contract import Seat
from referee.kernel.seating import with_seat

T = TypeVar("T")

Choices = tuple[T | None, ...]


def no_choices(seats: int) -> tuple[None, ...]:
    return (None,) * seats


def waiting_for(choices: Choices[T]) -> frozenset[Seat]:
    """The seats that have not chosen yet."""
    return frozenset(seat for seat, choice in enumerate(choices) if choice is None)


def all_in(choices: Choices[T]) -> bool:
    return all(choice is not None for choice in choices)


def with_choice(choices: Choices[T], seat: Seat, choice: T) -> Choices[T]:
    """The choices with `seat`'s recorded; a seat chooses once."""
    if choices[seat] is not None:
        raise ValueError(f"seat {seat} has already chosen")
    return with_seat(choices, seat, choice)


def as_seen_by(choices: Choices[T], viewer: Seat | None) -> Choices[T]:
    """The choices as `viewer` (None: a spectator) may see them: only its own."""
    return tuple(choice if seat == viewer else None for seat, choice in enumerate(choices))
