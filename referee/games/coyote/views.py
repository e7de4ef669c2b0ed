"""What each seat may see: `view` of the state and `redact` of an event.

Every seat sees the cards on the other heads and never its own (nor an extra card on its own
head); a spectator (seat None) sees no head card at all; the order of the draw pile is secret.
Cards revealed at a challenge, and the discard pile, are public. Once the game is over, `view`
shows everything. `redact` knows only the event: the caller shows a finished game's events as
they were recorded (the kernel's convention that a finished game hides nothing).
"""

from __future__ import annotations

from typing import Literal, assert_never

import msgspec

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
from referee.kernel.seating import CLOCKWISE


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    seat: Seat
    feathers: int
    in_play: bool
    cards: tuple[Card | None, ...]  # the head card, then extras; None where hidden from the viewer
    shaman_available: bool


class CoyoteView(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="coyote.view"):
    viewer: Seat | None
    finished: bool
    winner: Seat | None
    shaman: bool
    round: int
    starter: Seat | None
    turn: Seat | None
    direction: Literal["clockwise", "counterclockwise"]
    bid: int | None
    bidder: Seat | None
    bids: tuple[int, ...]
    two_feathers: bool
    lynx_barred: bool
    canceller: Seat | None
    cancelled_bid: int | None
    seats: tuple[SeatView, ...]
    eliminated: tuple[Seat, ...]
    draw_pile_size: int
    draw_pile: tuple[Card, ...] | None  # only once the game is over
    discard: tuple[Card, ...]
    last_round: RoundResult | None


def sees_head(viewer: Seat | None, holder: Seat) -> bool:
    """The one secret of play: a seat never sees the cards on its own head; a spectator sees no
    head card at all (until the game is over)."""
    return viewer is not None and viewer != holder


def _visible(card: Card, holder: Seat, viewer: Seat | None, finished: bool) -> Card | None:
    return card if finished or sees_head(viewer, holder) else None


def view(state: State, viewer: Seat | None) -> CoyoteView:
    finished = state.winner is not None
    seats = tuple(
        SeatView(
            seat=seat,
            feathers=state.feathers[seat],
            in_play=state.feathers[seat] > 0,
            cards=tuple(_visible(card, seat, viewer, finished) for card in hand),
            shaman_available=state.shaman and not state.shaman_used[seat],
        )
        for seat, hand in enumerate(state.hands)
    )
    return CoyoteView(
        viewer=viewer,
        finished=finished,
        winner=state.winner,
        shaman=state.shaman,
        round=state.round,
        starter=state.starter,
        turn=state.turn,
        direction="clockwise" if state.direction == CLOCKWISE else "counterclockwise",
        bid=state.current_bid,
        bidder=state.bidder,
        bids=state.bids,
        two_feathers=state.two_feathers,
        lynx_barred=state.lynx_barred,
        canceller=state.canceller,
        cancelled_bid=state.cancelled_bid,
        seats=seats,
        eliminated=state.eliminated,
        draw_pile_size=len(state.draw_pile),
        draw_pile=state.draw_pile if finished else None,
        discard=state.discard,
        last_round=state.last_round,
    )


def redact(event: Event, viewer: Seat | None) -> Event:
    match event:
        case DeckShuffled():
            return event if event.order is None else msgspec.structs.replace(event, order=None)
        case CardDealt():
            seen = sees_head(viewer, event.seat)
            return event if seen else msgspec.structs.replace(event, card=None)
        case (
            RoundStarted()
            | BidMade()
            | LynxCalled()
            | BidCancelled()
            | Challenged()
            | TeepeeDrew()
            | Counted()
            | Eliminated()
            | RoundEnded()
            | GameWon()
        ):
            return event
    assert_never(event)
