"""What a bot may think: a world its seat cannot tell from the real one, and a state's worth.

A seat sees every head but its own, the discard pile and the size of the draw pile: `imagine`
deals the cards it has not seen at random onto its own head (and any extra card there) and into
the draw pile. `evaluate` counts feathers, the game's only score: the last seat with any wins.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from referee.games.coyote.data import DECK, Card
from referee.games.coyote.state import State
from referee.games.coyote.views import CoyoteView
from referee.kernel.bots import ended, lead
from referee.kernel.contract import Seat
from referee.kernel.seating import CLOCKWISE, COUNTERCLOCKWISE
from referee.kernel.unseen import deal_unseen

# Feathers held by the others, as a share of one feather: between two states with the same
# lead, the one where the others have fewer feathers left is closer to the end, and better.
OTHERS_FEATHER = 0.1


def imagine(view: CoyoteView, seat: Seat, rng: random.Random) -> State:
    """A state with `view`'s every visible card in place and the unseen ones dealt at random."""
    hidden = [sum(card is None for card in player.cards) for player in view.seats]
    pile_size = 0 if view.draw_pile is not None else view.draw_pile_size
    *dealt, pile = deal_unseen(DECK, _seen(view), [*hidden, pile_size], rng)
    hands = tuple(
        _filled(player.cards, iter(cards)) for player, cards in zip(view.seats, dealt, strict=True)
    )
    return State(
        seats=len(view.seats),
        shaman=view.shaman,
        feathers=tuple(player.feathers for player in view.seats),
        eliminated=view.eliminated,
        shaman_used=tuple(view.shaman and not player.shaman_available for player in view.seats),
        draw_pile=view.draw_pile if view.draw_pile is not None else pile,
        discard=view.discard,
        hands=hands,
        round=view.round,
        starter=view.starter,
        direction=CLOCKWISE if view.direction == "clockwise" else COUNTERCLOCKWISE,
        turn=view.turn,
        bids=view.bids,
        bidder=view.bidder,
        two_feathers=view.two_feathers,
        lynx_barred=view.lynx_barred,
        canceller=view.canceller,
        cancelled_bid=view.cancelled_bid,
        # Between commands no challenge is pending: the one that ended the game is the last.
        challenger=view.last_round.challenger if view.finished and view.last_round else None,
        last_round=view.last_round,
        winner=view.winner,
    )


def _seen(view: CoyoteView) -> list[Card]:
    heads = [card for player in view.seats for card in player.cards if card is not None]
    return [*heads, *view.discard, *(view.draw_pile or ())]


def _filled(cards: tuple[Card | None, ...], unseen: Iterator[Card]) -> tuple[Card, ...]:
    return tuple(card if card is not None else next(unseen) for card in cards)


def evaluate(state: State, seat: Seat) -> float:
    """Feathers: how far ahead of the best other seat, and how few the others keep in all."""
    if state.winner is not None:
        return ended((state.winner,), seat)
    others = sum(state.feathers) - state.feathers[seat]
    return lead(state.feathers, seat) - OTHERS_FEATHER * others
