"""What happened: one tagged Struct per kind of event, every chance outcome included.

Cards hidden from a seat are None in the copy `redact` gives that seat (see views.py).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from referee.games.coyote.data import BidPower, Card
from referee.kernel.contract import Seat

ShuffleReason = Literal["setup", "moon", "draw-pile-empty"]


class DeckShuffled(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="coyote.deck-shuffled"
):
    """The draw pile and the discard pile, shuffled together into a new draw pile."""

    reason: ShuffleReason
    size: int
    order: tuple[Card, ...] | None  # the new draw pile, top card first; secret while in play


class RoundStarted(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="coyote.round-started"
):
    round: int
    starter: Seat


class CardDealt(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="coyote.card-dealt"
):
    """The top card of the draw pile goes onto a player's head (`extra`: by Take a Card)."""

    seat: Seat
    card: Card | None
    extra: bool = False


class BidMade(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="coyote.bid-made"):
    seat: Seat
    number: int
    power: BidPower | None = None
    target: Seat | None = None
    rebid: bool = False  # made because of a Cancel


class LynxCalled(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="coyote.lynx-called"
):
    seat: Seat
    number: int


class BidCancelled(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="coyote.bid-cancelled"
):
    seat: Seat  # who played Cancel
    bidder: Seat
    number: int


class Challenged(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="coyote.challenged"
):
    """Coyote! Every card in play is revealed."""

    seat: Seat
    bidder: Seat
    bid: int
    hands: tuple[tuple[Card, ...], ...]


class TeepeeDrew(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="coyote.teepee-drew"
):
    seat: Seat
    card: Card


class Counted(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="coyote.counted"):
    total: int
    loser: Seat
    feathers_lost: int


class Eliminated(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="coyote.eliminated"
):
    seat: Seat


class RoundEnded(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="coyote.round-ended"
):
    """The cards in play go to the discard pile (a Moon then shuffles everything)."""

    moon: bool


class GameWon(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="coyote.game-won"):
    seat: Seat


Event = (
    DeckShuffled
    | RoundStarted
    | CardDealt
    | BidMade
    | LynxCalled
    | BidCancelled
    | Challenged
    | TeepeeDrew
    | Counted
    | Eliminated
    | RoundEnded
    | GameWon
)
