"""`evolve`: each event applied to the state. No chance and no decisions here.

A replayed stream may come from an untrusted bundle, so an event that could not have happened
is refused (ValueError) rather than folded into a state no game can reach: each event is held
to the same checks `decide` and the referee's steps apply (a seat out of range, a buffalo into
the lane not in play, a payment that is not the rules', a game ended with teepees on the board).
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from referee.games.wind_river.board import SPACES, Space, index
from referee.games.wind_river.checks import (
    buffalo_move_refusal,
    insert_refusal,
    placement_refusal,
    send_back_refusal,
    teepee_move_refusal,
)
from referee.games.wind_river.data import (
    INSERT_COST,
    MAX_BUFFALO_PER_SPACE,
    PLACEMENT_ROUNDS,
    STOCK_LIMIT,
)
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
from referee.games.wind_river.scoring import game_ended
from referee.games.wind_river.state import State, Step, board_of
from referee.games.wind_river.supply import affordable, earnings, entry_payers, unfed
from referee.kernel.contract import Seat, impossible_if
from referee.kernel.seating import next_seat


def evolve(state: State, event: Event) -> State:
    match event:
        case StartPlayerDrawn():
            _expect(state, "setup", _seat(state, event.seat))
            return replace(state, step="placing", start_player=event.seat, current=event.seat)
        case TeepeePlaced():
            return _teepee_placed(state, event)
        case TurnBegan():
            return _turn_began(state, event)
        case BuffaloMoved():
            return _buffalo_moved(state, event)
        case TeepeesSupplied():
            return _teepees_supplied(state, event)
        case TeepeeMoved():
            return _teepee_moved(state, event)
        case ResourcesEarned():
            _expect(state, "extra", event.seat)
            if (event.counted, event.earned) != earnings(state, event.seat):
                raise ValueError("the resources earned are not what the board gives")
            resources = _changed(state.resources, event.seat, event.earned, "resources")
            return replace(state, resources=resources, step="turn-over")
        case TeepeeInserted():
            _expect(state, "extra", event.seat)
            impossible_if(insert_refusal(state, event.seat, event.at))
            if event.paid != INSERT_COST:
                raise ValueError(f"inserting a teepee costs {INSERT_COST} resources")
            state = _pay(state, event.seat, event.paid)
            state = _teepee_from_stock(state, event.seat, event.at)
            return replace(state, step="turn-over")
        case WindRiverGameEnded():
            if state.step != "turn-over" or not state.board_empty or event != game_ended(state):
                raise ValueError("the game ends with no teepee on the board, as it stands")
            return replace(state, step="over", finished=True)
    assert_never(event)


def _seat(state: State, seat: Seat) -> Seat:
    if not 0 <= seat < state.seats:
        raise ValueError(f"there is no seat {seat}")
    return seat


def _expect(state: State, step: Step, seat: Seat) -> None:
    """The event belongs to this step of the game and to the seat whose turn it is."""
    if state.step != step or (step != "setup" and seat != state.current):
        raise ValueError(f"seat {seat} cannot do this in step {state.step!r}")


def _teepee_placed(state: State, event: TeepeePlaced) -> State:
    _expect(state, "placing", event.seat)
    impossible_if(placement_refusal(state, event.at))
    if event.round != state.placement_round:
        raise ValueError(f"this is placement round {state.placement_round}")
    state = _teepee_from_stock(state, event.seat, event.at)
    placed = state.placed + 1
    if placed == PLACEMENT_ROUNDS * state.seats:
        return replace(state, placed=placed, step="turn-over")
    following = next_seat(event.seat, range(state.seats), state.seats)
    return replace(state, placed=placed, current=following)


def _turn_began(state: State, event: TurnBegan) -> State:
    if state.turn == 0:
        expected = state.start_player
    else:
        expected = next_seat(state.current, range(state.seats), state.seats)
    if (
        state.step != "turn-over"
        or state.board_empty
        or (event.seat, event.turn, event.buffalo_moves)
        != (expected, state.turn + 1, state.on_board(expected))
    ):
        raise ValueError("a turn begins for the next player, owing one move per teepee")
    return replace(
        state,
        step="buffalo",
        current=event.seat,
        turn=event.turn,
        moves_due=event.buffalo_moves,
        moves_made=0,
        moved=(0,) * len(SPACES),
    )


def _buffalo_moved(state: State, event: BuffaloMoved) -> State:
    _expect(state, "extra" if event.extra else "buffalo", event.seat)
    if not event.extra and state.moves_due < 1:
        raise ValueError("no buffalo move is owed")
    impossible_if(buffalo_move_refusal(state, event.from_, event.to, extra=event.extra))
    source = index(event.from_)
    buffalo = _changed(state.buffalo, source, -1, "buffalo")
    moved, gone = state.moved, state.buffalo_gone
    if event.extra:  # the marks of step 5.1 are spent: the step is over
        moved = (0,) * len(SPACES)
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
    _expect(state, "buffalo", event.seat)
    hungry = len(unfed(state, event.seat))
    if (event.unfed, event.paid) != (hungry, affordable(state, event.seat, hungry)):
        raise ValueError("the supply is not what the board and the stock say")
    impossible_if(send_back_refusal(state, event.seat, event.sent_back))
    state = _pay(state, event.seat, event.paid)
    for space in event.sent_back:
        state = _teepee_to(state, event.seat, space, -1)
        state = replace(state, stock=_changed(state.stock, event.seat, 1, "teepees"))
    return replace(state, step="extra", moves_due=0, moved=(0,) * len(SPACES))


def _teepee_moved(state: State, event: TeepeeMoved) -> State:
    _expect(state, "extra", event.seat)
    impossible_if(teepee_move_refusal(state, event.seat, event.from_, event.to))
    if event.paid_by != entry_payers(state, event.seat, event.to):
        raise ValueError("those who pay to have a teepee enter are not the rules'")
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
    return replace(state, teepees=(*state.teepees[:at], counts, *state.teepees[at + 1 :]))


def _pay(state: State, seat: Seat, amount: int) -> State:
    if amount < 0:
        raise ValueError("a payment is never negative")
    return replace(state, resources=_changed(state.resources, seat, -amount, "resources"))


LIMITS = {"buffalo": MAX_BUFFALO_PER_SPACE, "resources": STOCK_LIMIT}


def _changed(counts: tuple[int, ...], at: int, delta: int, what: str) -> tuple[int, ...]:
    """`counts` with `delta` added at `at`, refused below zero or above the rules' limit."""
    if not 0 <= at < len(counts):
        raise ValueError(f"there is no place {at} for {what}")
    value = counts[at] + delta
    if value < 0 or value > LIMITS.get(what, value):
        raise ValueError(f"this event leaves {value} {what} where the rules allow no such count")
    return (*counts[:at], value, *counts[at + 1 :])
