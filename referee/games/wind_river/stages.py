"""Where the game stands, read from the state alone, and who may act there.

Set-up: the start player is drawn, then two placement rounds. A turn: step 5.1 (buffalo moves,
one command each), 5.2 (supplying: a command only when the stock cannot pay for every unfed
teepee and the player must choose which go back), 5.3 (the extra activity), then the referee
ends the turn, or the game (section 6). Stages marked automatic are the referee's own.
"""

from __future__ import annotations

import enum
from typing import Literal

from referee.games.wind_river.checks import can_move_a_buffalo
from referee.games.wind_river.state import State
from referee.kernel.contract import Seat

Phase = Literal[
    "setup", "placing", "moving-buffalo", "supplying", "extra-activity", "turn-over", "over"
]


class Stage(enum.Enum):
    SETUP = "setup"  # automatic: the opening draws the start player
    PLACING = "placing"
    MOVING_BUFFALO = "moving-buffalo"
    SUPPLYING = "supplying"
    EXTRA_ACTIVITY = "extra-activity"
    TURN_OVER = "turn-over"  # automatic
    OVER = "over"

    @property
    def phase(self) -> Phase:
        phase: Phase = self.value
        return phase


def stage(state: State) -> Stage:
    match state.step:
        case "setup":
            return Stage.SETUP
        case "placing":
            return Stage.PLACING
        case "buffalo":
            # WR-3, WR-9: the moves are made one at a time until the count is reached or no
            # buffalo that has not moved this step can move; then the teepees are supplied.
            if state.moves_due and can_move_a_buffalo(state, extra=False):
                return Stage.MOVING_BUFFALO
            return Stage.SUPPLYING
        case "extra":
            return Stage.EXTRA_ACTIVITY
        case "turn-over":
            return Stage.TURN_OVER
        case "over":
            return Stage.OVER


PLAYER_STAGES = frozenset(
    {Stage.PLACING, Stage.MOVING_BUFFALO, Stage.SUPPLYING, Stage.EXTRA_ACTIVITY}
)


def to_act(state: State) -> frozenset[Seat]:
    return frozenset({state.current}) if stage(state) in PLAYER_STAGES else frozenset()
