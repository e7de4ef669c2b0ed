"""Coyote's options (CY-1, the Shaman variant) and their validation."""

from __future__ import annotations

from typing import Annotated

import msgspec

from referee.games.coyote.data import DEFAULT_FEATHERS, MAX_FEATHERS, MIN_FEATHERS
from referee.kernel.contract import RuleViolation


class Options(msgspec.Struct, frozen=True, kw_only=True):
    feathers: Annotated[
        int, msgspec.Meta(description="Feathers each player starts with, 1 to 5 (CY-1).")
    ] = DEFAULT_FEATHERS
    shaman: Annotated[
        bool, msgspec.Meta(description="Play the Shaman variant: one special power per player.")
    ] = False


def validate(options: Options, seats: int) -> None:
    """CY-1: 1 to 5 feathers, whatever the seat count (CY-R13)."""
    if not MIN_FEATHERS <= options.feathers <= MAX_FEATHERS:
        raise RuleViolation(
            "coyote.feathers",
            f"Each player starts with {MIN_FEATHERS} to {MAX_FEATHERS} feathers.",
        )
