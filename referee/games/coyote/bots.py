"""What a bot may think: a world its seat cannot tell from the real one, and a state's worth.

A seat sees every head but its own, the discard pile and the size of the draw pile: `imagine`
deals the cards it has not seen at random onto its own head (and any extra card there) and into
the draw pile. `evaluate` counts feathers, the game's only score: the last seat with any wins;
a bid still standing is counted as if it were called "Coyote!" now when the world's cards fall
short of it (the next seat sees every head but its own: a bid too high is one it calls), so
that a bid is worth no more than the worlds' counts make it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from referee.games.coyote.challenge import penalty, teepee_holder
from referee.games.coyote.count import count_indians
from referee.games.coyote.data import DECK, Card
from referee.games.coyote.state import State
from referee.games.coyote.views import CoyoteView
from referee.kernel.bots import WIN, ended, lead
from referee.kernel.contract import Seat
from referee.kernel.seating import CLOCKWISE, COUNTERCLOCKWISE
from referee.kernel.unseen import deal_unseen

# Feathers held by the others, as a share of one feather: between two states with the same
# lead, the one where the others have fewer feathers left is closer to the end, and better.
OTHERS_FEATHER = 0.1
# An unused Shaman power, as a share of one feather: spent only where it changes more than this.
SHAMAN_POWER = 0.05


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
    """Feathers: how far ahead of the best other seat, and how few the others keep in all, with
    a bid the cards in play fall short of already lost by its bidder; a little for an unused
    Shaman power."""
    if state.winner is not None:
        return ended((state.winner,), seat)
    feathers = _after_a_call(state)
    survivors = [other for other, count in enumerate(feathers) if count > 0]
    if seat not in survivors:
        return -WIN
    if survivors == [seat]:
        return WIN
    others = sum(feathers) - feathers[seat]
    power = SHAMAN_POWER if state.shaman and not state.shaman_used[seat] else 0.0
    return lead(feathers, seat) - OTHERS_FEATHER * others + power


def _after_a_call(state: State) -> tuple[int, ...]:
    """The feathers once the standing bid is called, if the cards in play fall short of it (a
    bid they reach costs nobody anything yet: the next seat must raise it). A bid cancelled and
    not yet made again stands for nothing."""
    bid, bidder = state.current_bid, state.bidder
    if bid is None or bidder is None or state.canceller is not None:
        return state.feathers
    if bid <= count_indians(_cards_counted(state)):
        return state.feathers
    feathers = list(state.feathers)
    feathers[bidder] = max(0, feathers[bidder] - penalty(state))
    return tuple(feathers)


def _cards_counted(state: State) -> tuple[Card, ...]:
    """The cards in play, a Teepee's draw among them: the top of the draw pile (CY-3a)."""
    cards = state.cards_in_play
    if state.teepee_card is None and state.draw_pile and teepee_holder(state) is not None:
        return (*cards, state.draw_pile[0])
    return cards
