"""Where a game stands, and who acts there.

Manitou keeps its stage in the state (`State.stage`), set by the events themselves:
- "dealing": before a game is dealt (at the start, and between the games of a match: the
  referee deals the next one, `flow.next_step`);
- "start-of-turn": the seat to act may play a specialty card or a land card;
- "specialty-played": the seat to act has played its specialty card and now plays a land card;
- "over": the game (or the match) is finished.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from referee.kernel.contract import Seat

if TYPE_CHECKING:
    from referee.games.manitou_island.state import State

Stage = Literal["dealing", "start-of-turn", "specialty-played", "over"]
PLAYING: frozenset[str] = frozenset({"start-of-turn", "specialty-played"})


def stage(state: State) -> Stage:
    return state.stage


def to_act(state: State) -> frozenset[Seat]:
    return frozenset({state.turn_seat}) if state.stage in PLAYING else frozenset()
