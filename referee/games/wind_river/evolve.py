"""`evolve`: each event applied to the state. No chance and no decisions here; an event that
cannot apply (a teepee that is not there, a sixth buffalo on a space) is refused, because a
replayed stream may come from an untrusted bundle."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from referee.games.wind_river.board import SPACES, Space, index
from referee.games.wind_river.data import MAX_BUFFALO_PER_SPACE, PLACEMENT_ROUNDS, STOCK_LIMIT
from referee.games.wind_river.events import (
    BuffaloMoved,
    Event,
    ResourcesEarned,
    StartPlayerDrawn,
    TeepeeInserted,
    TeepeeMoved,
    TeepeePlaced,
    TeepeesSupplied,
    TurnBegan,
    WindRiverGameEnded,
)
from referee.games.wind_river.state import State, board_of
from referee.kernel.contract import Seat
from referee.kernel.seating import next_seat, with_seat


def evolve(state: State, event: Event) -> State:
    match event:
        case StartPlayerDrawn():
            return replace(state, step="placing", start_player=event.seat, current=event.seat)
        case TeepeePlaced():
            return _teepee_placed(state, event)
        case TurnBegan():
            return replace(
                state,
                step="buffalo",
                current=event.seat,
                turn=event.turn,
                moves_due=event.buffalo_moves,
                moves_made=0,
                moved=(0,) * len(SPACES),
            )
        case BuffaloMoved():
            return _buffalo_moved(state, event)
        case TeepeesSupplied():
            return _teepees_supplied(state, event)
        case TeepeeMoved():
            return _teepee_moved(state, event)
        case ResourcesEarned():
            resources = _changed(state.resources, event.seat, event.earned, "resources")
            return replace(state, resources=resources, step="turn-over")
        case TeepeeInserted():
            state = _pay(state, event.seat, event.paid)
            state = _teepee_from_stock(state, event.seat, event.at)
            return replace(state, step="turn-over")
        case WindRiverGameEnded():
            return replace(state, step="over", finished=True)
    assert_never(event)


def _teepee_placed(state: State, event: TeepeePlaced) -> State:
    state = _teepee_from_stock(state, event.seat, event.at)
    placed = state.placed + 1
    if placed == PLACEMENT_ROUNDS * state.seats:
        return replace(state, placed=placed, step="turn-over")
    following = next_seat(event.seat, range(state.seats), state.seats)
    return replace(state, placed=placed, current=following)


def _buffalo_moved(state: State, event: BuffaloMoved) -> State:
    buffalo = _changed(state.buffalo, index(event.from_), -1, "buffalo")
    moved = state.moved
    gone = state.buffalo_gone
    if isinstance(event.to, Space):
        buffalo = _changed(buffalo, index(event.to), 1, "buffalo")
        if not event.extra:  # it may not move again in this step
            moved = _changed(moved, index(event.to), 1, "moved buffalo")
    else:
        gone += 1
    state = replace(state, buffalo=buffalo, buffalo_gone=gone, moved=moved)
    if event.extra:
        return replace(state, step="turn-over")
    return replace(state, moves_due=state.moves_due - 1, moves_made=state.moves_made + 1)


def _teepees_supplied(state: State, event: TeepeesSupplied) -> State:
    state = _pay(state, event.seat, event.paid)
    for space in event.sent_back:
        state = _teepee_to(state, event.seat, space, -1)
        state = replace(state, stock=_changed(state.stock, event.seat, 1, "teepees"))
    return replace(state, step="extra", moves_due=0, moved=(0,) * len(SPACES))


def _teepee_moved(state: State, event: TeepeeMoved) -> State:
    state = _teepee_to(state, event.seat, event.from_, -1)
    if isinstance(event.to, Space):
        state = _teepee_to(state, event.seat, event.to, 1)
    else:
        state = replace(state, plains=_changed(state.plains, event.seat, 1, "teepees"))
    for payer in event.paid_by:
        state = _pay(state, payer, 1)
    return replace(state, step="turn-over")


def _teepee_from_stock(state: State, seat: Seat, at: Space) -> State:
    state = replace(state, stock=_changed(state.stock, seat, -1, "teepees in stock"))
    return _teepee_to(state, seat, at, 1)


def _teepee_to(state: State, seat: Seat, target: Space, delta: int) -> State:
    if target not in board_of(state):
        raise ValueError(f"{target} is not a space of this board")
    at = index(target)
    counts = _changed(state.teepees[at], seat, delta, "teepees")
    return replace(state, teepees=with_seat(state.teepees, at, counts))


def _pay(state: State, seat: Seat, amount: int) -> State:
    return replace(state, resources=_changed(state.resources, seat, -amount, "resources"))


LIMITS = {"buffalo": MAX_BUFFALO_PER_SPACE, "resources": STOCK_LIMIT}


def _changed(counts: tuple[int, ...], at: int, delta: int, what: str) -> tuple[int, ...]:
    """`counts` with `delta` added at `at`, refused below zero or above the rules' limit."""
    value = counts[at] + delta
    if value < 0 or value > LIMITS.get(what, value):
        raise ValueError(f"this event leaves {value} {what} where the rules allow no such count")
    return with_seat(counts, at, value)
