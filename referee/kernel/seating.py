"""Turn order around the table, shared by every game: seats are numbered clockwise from 0."""

from __future__ import annotations

from collections.abc import Collection
from typing import TypeVar

from referee.kernel.contract import Seat

T = TypeVar("T")

CLOCKWISE = 1
COUNTERCLOCKWISE = -1


def next_seat(
    current: Seat, in_play: Collection[Seat], seat_count: int, direction: int = CLOCKWISE
) -> Seat:
    """The next seat after `current` in `direction` that is still in play.

    `current` itself need not be in play (an eliminated player passes the turn on).
    """
    if not in_play:
        raise ValueError("no seat is in play")
    seat = current
    for _ in range(seat_count):
        seat = (seat + direction) % seat_count
        if seat in in_play:
            return seat
    raise ValueError("no seat is in play")


def with_seat(per_seat: tuple[T, ...], seat: Seat, value: T) -> tuple[T, ...]:
    """A per-seat tuple (hands, choices, feathers) with `seat`'s entry replaced."""
    return (*per_seat[:seat], value, *per_seat[seat + 1 :])
