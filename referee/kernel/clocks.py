"""Time controls: every seat's clock, derived from the times recorded in the events.

A timed game reads the clock at every step (`game.clock`, the first event of each command's
step and the last of the opening). At a reading, every seat that was to act since the previous
reading is charged the time between the two; the seat that moved gets the increment. A seat's
turn (for the per-move limit) began at the reading after which it became to act, or after which
it last moved. Nothing here reads a real clock: the times come from the events, so a replay and
a re-execution agree with the live game to the microsecond.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

import msgspec

from referee.kernel.contract import Seat
from referee.kernel.lifecycle import TimeControl


class Clocks(msgspec.Struct, frozen=True, kw_only=True):
    control: TimeControl
    read_at: datetime | None = None  # the latest reading; None before the opening's
    remaining: tuple[float, ...] | None = None  # seconds per seat at `read_at` (a total clock)
    turn_started: tuple[datetime | None, ...] = ()  # per seat on the clock at `read_at`
    last_mover: Seat | None = None  # the seat that moved in the latest step

    @classmethod
    def start(cls, control: TimeControl, seats: int) -> Clocks:
        total = control.total_seconds
        return cls(
            control=control,
            remaining=None if total is None else (float(total),) * seats,
            turn_started=(None,) * seats,
        )

    def read(self, at: datetime, mover: Seat | None, acting: Iterable[Seat]) -> Clocks:
        """The clocks after a reading at `at`; `acting` waited since the previous reading."""
        acting = frozenset(acting)
        started = tuple(
            self.turn_start(seat) if seat in acting else None
            for seat in range(len(self.turn_started))
        )
        remaining = self.remaining
        if remaining is not None:
            elapsed = self._since_read(at)
            remaining = tuple(
                left
                - (elapsed if seat in acting else 0.0)
                + (self.control.increment_seconds if seat == mover else 0.0)
                for seat, left in enumerate(remaining)
            )
        return msgspec.structs.replace(
            self, read_at=at, remaining=remaining, turn_started=started, last_mover=mover
        )

    def turn_start(self, seat: Seat) -> datetime | None:
        """When the wait of `seat` (to act now) began."""
        started = self.turn_started[seat]
        if started is None or seat == self.last_mover:
            return self.read_at
        return started

    def deadline(self, seat: Seat) -> datetime | None:
        """When the time of `seat`, to act now, runs out (None: never)."""
        if self.read_at is None:
            return None
        limits = []
        if self.remaining is not None:
            limits.append(self.read_at + timedelta(seconds=self.remaining[seat]))
        start = self.turn_start(seat)
        if self.control.per_move_seconds is not None and start is not None:
            limits.append(start + timedelta(seconds=self.control.per_move_seconds))
        return min(limits, default=None)

    def left(self, seat: Seat, at: datetime, acting: bool) -> float | None:
        """Seconds `seat` has left at `at` (None: no limit applies to it now)."""
        deadline = self.deadline(seat) if acting else None
        if deadline is None:
            if self.remaining is None or self.read_at is None:
                return None
            return self.remaining[seat]
        return (deadline - at).total_seconds()

    def out_of_time(self, seat: Seat, at: datetime) -> bool:
        deadline = self.deadline(seat)
        return deadline is not None and at >= deadline

    def _since_read(self, at: datetime) -> float:
        if self.read_at is None:
            return 0.0
        # Readings come from the processes that recorded the steps; a clock that went back
        # charges nothing rather than giving time back.
        return max(0.0, (at - self.read_at).total_seconds())
