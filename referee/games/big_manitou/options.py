"""The options of a game (BM-9, BM-R1) and their validation."""

from __future__ import annotations

from typing import Annotated

import msgspec

from referee.games.big_manitou.data import MAX_PLAYERS
from referee.kernel.contract import RuleViolation


class Options(msgspec.Struct, frozen=True, kw_only=True):
    random_cards: Annotated[
        bool,
        msgspec.Meta(description="BM-9: the cards for each hunt are drawn at random, not chosen."),
    ] = False
    first_dealer: Annotated[
        Annotated[int, msgspec.Meta(ge=0, le=MAX_PLAYERS - 1)] | None,
        msgspec.Meta(
            description="The seat of the oldest player, who deals the first hunt; "
            "null: drawn at random."
        ),
    ] = None


def validate(options: Options, seats: int) -> None:
    first = options.first_dealer
    if first is not None and not 0 <= first < seats:
        raise RuleViolation(
            "big-manitou.first-dealer",
            f"The first dealer must be one of the seats 0 to {seats - 1}.",
        )
