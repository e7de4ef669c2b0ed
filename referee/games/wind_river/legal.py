"""Every command `decide` accepts from a seat now: the candidates that no check refuses."""

from __future__ import annotations

from referee.games.wind_river.checks import (
    buffalo_moves,
    insert_refusal,
    placement_refusal,
    teepee_move_refusal,
)
from referee.games.wind_river.commands import (
    Command,
    EarnResources,
    InsertTeepee,
    MoveBuffalo,
    MoveExtraBuffalo,
    MoveTeepee,
    PlaceTeepee,
    SendBackTeepees,
)
from referee.games.wind_river.stages import Stage, stage, to_act
from referee.games.wind_river.state import State, board_of
from referee.games.wind_river.supply import send_back_options
from referee.kernel.contract import Seat


def legal_commands(state: State, seat: Seat) -> list[Command]:
    if seat not in to_act(state):
        return []
    match stage(state):
        case Stage.PLACING:
            return placements(state)
        case Stage.MOVING_BUFFALO:
            return [MoveBuffalo(from_=s, to=t) for s, t in buffalo_moves(state, extra=False)]
        case Stage.SUPPLYING:
            return [SendBackTeepees(spaces=spaces) for spaces in send_back_options(state, seat)]
        case Stage.EXTRA_ACTIVITY:
            return extra_activities(state, seat)
    return []


def placements(state: State) -> list[Command]:
    board = board_of(state)
    return [PlaceTeepee(at=at) for at in board.spaces if placement_refusal(state, at) is None]


def extra_activities(state: State, seat: Seat) -> list[Command]:
    """In the order of the rule text: move a teepee, earn, insert, move an extra buffalo."""
    board = board_of(state)
    own = [space for space in board.spaces if state.teepees_at(space)[seat]]
    return [
        *(
            MoveTeepee(from_=source, to=target)
            for source in own
            for target in board.teepee_targets(source)
            if teepee_move_refusal(state, seat, source, target) is None
        ),
        EarnResources(),
        *(InsertTeepee(at=at) for at in own if insert_refusal(state, seat, at) is None),
        *(MoveExtraBuffalo(from_=s, to=t) for s, t in buffalo_moves(state, extra=True)),
    ]
