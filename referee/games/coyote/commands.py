"""What a player can say: one tagged Struct per kind of command."""

from __future__ import annotations

from typing import Annotated

import msgspec

from referee.games.coyote.data import MAX_BID, MIN_BID, BidPower
from referee.kernel.contract import Seat


class _Command(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    pass


class Bid(_Command, frozen=True, kw_only=True, tag="coyote.bid"):
    """Raise the bid (or open the round), optionally declaring a Shaman power with it."""

    number: Annotated[
        int, msgspec.Meta(ge=MIN_BID, le=MAX_BID, description="How many Indians you bid, 1 to 999.")
    ]
    power: Annotated[
        BidPower | None, msgspec.Meta(description="A Shaman power declared with this bid.")
    ] = None
    target: Annotated[
        Seat | None,
        msgspec.Meta(description="The seat a take-a-card or it-is-your-turn power names."),
    ] = None


class Challenge(_Command, frozen=True, tag="coyote.challenge"):
    """Call "Coyote!": the current bid is too high."""


class EyeOfTheLynx(_Command, frozen=True, tag="coyote.eye-of-the-lynx"):
    """Shaman power: repeat the current bid instead of raising it."""


class Cancel(_Command, frozen=True, tag="coyote.cancel"):
    """Shaman power: the last bidder must bid a different number; then it is your turn again."""


Command = Bid | Challenge | EyeOfTheLynx | Cancel
