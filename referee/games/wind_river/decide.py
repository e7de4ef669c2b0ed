"""`decide`: a command checked against the rules and turned into its events.

What follows by itself (the end of step 5.1, a payment with no choice, the end of the turn) is
the referee's, in `flow.py`.
"""

from __future__ import annotations

from typing import assert_never

from referee.games.wind_river.checks import (
    buffalo_move_refusal,
    insert_refusal,
    placement_refusal,
    refuse,
    send_back_refusal,
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
from referee.games.wind_river.data import INSERT_COST
from referee.games.wind_river.events import (
    BuffaloMoved,
    Event,
    ResourcesEarned,
    TeepeeInserted,
    TeepeeMoved,
    TeepeePlaced,
    TeepeesSupplied,
)
from referee.games.wind_river.stages import Stage, stage
from referee.games.wind_river.state import State
from referee.games.wind_river.supply import affordable, earnings, entry_payers, unfed
from referee.kernel.chance import Chance
from referee.kernel.contract import Seat, raise_if

ADMITS: dict[Stage, tuple[type, ...]] = {
    Stage.PLACING: (PlaceTeepee,),
    Stage.MOVING_BUFFALO: (MoveBuffalo,),
    Stage.SUPPLYING: (SendBackTeepees,),
    Stage.EXTRA_ACTIVITY: (MoveTeepee, EarnResources, InsertTeepee, MoveExtraBuffalo),
}
WAITING_FOR = {
    Stage.PLACING: "a teepee to be placed",
    Stage.MOVING_BUFFALO: "a buffalo move",
    Stage.SUPPLYING: "the unfed teepees to be sent back",
    Stage.EXTRA_ACTIVITY: "an extra activity",
}


def decide(state: State, seat: Seat, command: Command, chance: Chance) -> list[Event]:
    current = stage(state)
    if not isinstance(command, ADMITS.get(current, ())):
        refuse("not-now", f"The game is waiting for {WAITING_FOR.get(current, 'nothing')}.")
    match command:
        case PlaceTeepee():
            raise_if(placement_refusal(state, command.at))
            return [TeepeePlaced(seat=seat, at=command.at, round=state.placement_round)]
        case MoveBuffalo() | MoveExtraBuffalo():
            extra = isinstance(command, MoveExtraBuffalo)
            raise_if(buffalo_move_refusal(state, command.from_, command.to, extra=extra))
            return [BuffaloMoved(seat=seat, from_=command.from_, to=command.to, extra=extra)]
        case SendBackTeepees():
            raise_if(send_back_refusal(state, seat, command.spaces))
            return [supplied(state, seat, command)]
        case MoveTeepee():
            raise_if(teepee_move_refusal(state, seat, command.from_, command.to))
            payers = entry_payers(state, seat, command.to)
            return [TeepeeMoved(seat=seat, from_=command.from_, to=command.to, paid_by=payers)]
        case EarnResources():
            counted, earned = earnings(state, seat)
            return [ResourcesEarned(seat=seat, counted=counted, earned=earned)]
        case InsertTeepee():
            raise_if(insert_refusal(state, seat, command.at))
            return [TeepeeInserted(seat=seat, at=command.at, paid=INSERT_COST)]
    assert_never(command)


def supplied(state: State, seat: Seat, command: SendBackTeepees) -> TeepeesSupplied:
    hungry = len(unfed(state, seat))
    return TeepeesSupplied(
        seat=seat,
        unfed=hungry,
        paid=affordable(state, seat, hungry),
        sent_back=command.spaces,
    )
