"""The fold: each event applied to the state. No randomness and no decisions happen here."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from referee.games.coyote.data import Card
from referee.games.coyote.events import (
    BidCancelled,
    BidMade,
    CardDealt,
    Challenged,
    Counted,
    DeckShuffled,
    Eliminated,
    Event,
    GameWon,
    LynxCalled,
    RoundEnded,
    RoundStarted,
    TeepeeDrew,
)
from referee.games.coyote.state import RoundResult, State
from referee.kernel.contract import Seat
from referee.kernel.seating import next_seat, with_seat


def evolve(state: State, event: Event) -> State:
    match event:  # the most frequent first: a fold tries them in this order
        case BidMade():
            return _bid_made(state, event)
        case CardDealt():
            return _card_dealt(state, event)
        case DeckShuffled():
            return _deck_shuffled(state, event)
        case RoundStarted():
            return _round_started(state, event)
        case LynxCalled():
            return _lynx_called(state, event)
        case BidCancelled():
            return _bid_cancelled(state, event)
        case Challenged():
            return _challenged(state, event)
        case TeepeeDrew():
            return _teepee_drew(state, event)
        case Counted():
            return _counted(state, event)
        case Eliminated():
            return _eliminated(state, event)
        case RoundEnded():
            return _round_ended(state, event)
        case GameWon():
            return _game_won(state, event)
    assert_never(event)


def _next_after(state: State, seat: Seat, direction: int | None = None) -> Seat:
    """The seat in play after `seat`, in the state's direction or the one given."""
    turning = state.direction if direction is None else direction
    return next_seat(seat, state.in_play, state.seats, turning)


def _take_top(state: State, card: Card | None) -> tuple[Card, ...]:
    """The draw pile without its top card, which the event must name (a guard on the stream)."""
    if card is None:
        raise ValueError("a redacted event cannot be folded")
    if not state.draw_pile or state.draw_pile[0] != card:
        raise ValueError(f"card {card.id} is not the top of the draw pile")
    return state.draw_pile[1:]


def _deck_shuffled(state: State, event: DeckShuffled) -> State:
    if event.order is None:
        raise ValueError("a redacted event cannot be folded")
    if sorted(card.id for card in event.order) != sorted(
        card.id for card in state.draw_pile + state.discard
    ):
        raise ValueError("a shuffle must hold exactly the draw and discard piles")
    return replace(state, draw_pile=event.order, discard=())


def _round_started(state: State, event: RoundStarted) -> State:
    return replace(
        state,
        round=event.round,
        starter=event.starter,
        turn=event.starter,
        bids=(),
        bidder=None,
        two_feathers=False,
        lynx_barred=False,
        canceller=None,
        cancelled_bid=None,
        challenger=None,
    )


def _card_dealt(state: State, event: CardDealt) -> State:
    draw_pile = _take_top(state, event.card)
    hand = (*state.hands[event.seat], state.draw_pile[0])
    return replace(state, draw_pile=draw_pile, hands=with_seat(state.hands, event.seat, hand))


def _bid_made(state: State, event: BidMade) -> State:
    direction = -state.direction if event.power == "u-turn" else state.direction
    shaman_used = state.shaman_used
    if event.power is not None:
        shaman_used = with_seat(shaman_used, event.seat, True)
    if state.canceller is not None:  # the bid a Cancel forced: the canceller answers it
        turn = state.canceller
    elif event.power == "it-is-your-turn" and event.target is not None:
        turn = event.target
    else:  # a bid takes no feathers: the seats in play are the same after it
        turn = _next_after(state, event.seat, direction)
    return replace(
        state,
        bids=(*state.bids, event.number),
        bidder=event.seat,
        turn=turn,
        two_feathers=event.power == "two-feathers",
        lynx_barred=False,
        direction=direction,
        shaman_used=shaman_used,
        canceller=None,
        cancelled_bid=None,
    )


def _lynx_called(state: State, event: LynxCalled) -> State:
    after = replace(
        state,
        bids=(*state.bids, event.number),
        bidder=event.seat,
        two_feathers=False,
        lynx_barred=True,
        shaman_used=with_seat(state.shaman_used, event.seat, True),
    )
    return replace(after, turn=_next_after(after, event.seat))


def _bid_cancelled(state: State, event: BidCancelled) -> State:
    return replace(
        state,
        bids=state.bids[:-1],
        two_feathers=False,
        lynx_barred=False,
        canceller=event.seat,
        cancelled_bid=event.number,
        shaman_used=with_seat(state.shaman_used, event.seat, True),
        turn=event.bidder,
    )


def _challenged(state: State, event: Challenged) -> State:
    return replace(state, challenger=event.seat, turn=None)


def _teepee_drew(state: State, event: TeepeeDrew) -> State:
    return replace(state, draw_pile=_take_top(state, event.card), teepee_card=event.card)


def _counted(state: State, event: Counted) -> State:
    if state.challenger is None or state.bidder is None or not state.bids:
        raise ValueError("a count needs a challenge")
    result = RoundResult(
        round=state.round,
        challenger=state.challenger,
        bidder=state.bidder,
        bid=state.bids[-1],
        hands=state.hands,
        teepee_card=state.teepee_card,
        total=event.total,
        loser=event.loser,
        feathers_lost=event.feathers_lost,
    )
    feathers = state.feathers[event.loser] - event.feathers_lost
    return replace(
        state, feathers=with_seat(state.feathers, event.loser, feathers), last_round=result
    )


def _eliminated(state: State, event: Eliminated) -> State:
    return replace(state, eliminated=(*state.eliminated, event.seat))


def _round_ended(state: State, event: RoundEnded) -> State:
    return replace(
        state,
        discard=state.discard + state.cards_in_play,
        hands=((),) * state.seats,
        teepee_card=None,
        turn=None,
    )


def _game_won(state: State, event: GameWon) -> State:
    return replace(state, winner=event.seat, turn=None)
