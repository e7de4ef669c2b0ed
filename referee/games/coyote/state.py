"""Coyote's state: a frozen Struct, tuples only, so a fold can be compared with ==."""

from __future__ import annotations

import msgspec

from referee.games.coyote.data import DECK, Card
from referee.games.coyote.options import Options
from referee.kernel.contract import Seat
from referee.kernel.seating import CLOCKWISE


class RoundResult(msgspec.Struct, frozen=True, kw_only=True):
    """How the last challenge went: the cards revealed, the count and who paid."""

    round: int
    challenger: Seat
    bidder: Seat
    bid: int
    hands: tuple[tuple[Card, ...], ...]  # per seat, as revealed; empty for a seat out of play
    teepee_card: Card | None  # the card the Teepee drew, if a Teepee was in play
    total: int
    loser: Seat
    feathers_lost: int


class State(msgspec.Struct, frozen=True, kw_only=True):
    seats: int
    shaman: bool
    feathers: tuple[int, ...]
    eliminated: tuple[Seat, ...] = ()  # in the order the seats went out
    shaman_used: tuple[bool, ...]
    draw_pile: tuple[Card, ...]  # the top card first
    discard: tuple[Card, ...] = ()
    hands: tuple[tuple[Card, ...], ...]  # per seat: the head card, then any Take-a-Card extras
    teepee_card: Card | None = None  # drawn at a challenge, in play until the round ends
    round: int = 0
    starter: Seat | None = None
    direction: int = CLOCKWISE
    turn: Seat | None = None  # the one seat to act; None between rounds and after the end
    bids: tuple[int, ...] = ()  # the round's standing bids, the current one last
    bidder: Seat | None = None  # who made the current bid (after a Cancel: who must bid again)
    two_feathers: bool = False  # the current bid was declared with 2 Feathers
    lynx_barred: bool = False  # the current bid is an Eye of the Lynx: no Lynx in answer
    canceller: Seat | None = None  # set while the bidder must bid again after a Cancel
    cancelled_bid: int | None = None
    challenger: Seat | None = None
    last_round: RoundResult | None = None
    winner: Seat | None = None

    @property
    def in_play(self) -> frozenset[Seat]:
        return frozenset(seat for seat, count in enumerate(self.feathers) if count > 0)

    @property
    def current_bid(self) -> int | None:
        return self.bids[-1] if self.bids else None

    @property
    def bid_before(self) -> int:
        """The bid under the current one (0 if none): the floor of a bid made after a Cancel."""
        return self.bids[-2] if len(self.bids) > 1 else 0

    @property
    def cards_in_play(self) -> tuple[Card, ...]:
        cards = tuple(card for hand in self.hands for card in hand)
        return (*cards, self.teepee_card) if self.teepee_card is not None else cards


def initial_state(options: Options, seats: int) -> State:
    """Before the set-up: the deck in its canonical order, nothing dealt."""
    return State(
        seats=seats,
        shaman=options.shaman,
        feathers=(options.feathers,) * seats,
        shaman_used=(False,) * seats,
        draw_pile=DECK,
        hands=((),) * seats,
    )
