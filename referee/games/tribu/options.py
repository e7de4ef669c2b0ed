"""Tribù's options: the rule text names no variant, so there is nothing to choose."""

from __future__ import annotations

import msgspec


class Options(msgspec.Struct, frozen=True, kw_only=True):
    """The game as printed, with the house deck of TR-1."""


def validate(options: Options, seats: int) -> None:
    """Nothing to check: the kernel checks the number of players against `seat_counts`."""
