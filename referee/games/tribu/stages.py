"""Where the game stands, read from the state alone, and who may act there.

A challenge: dealt, then turns clockwise from its first player. A turn: draw (or use an active
card, [G]), then one action ([A]-[F]); Take 3 adds the discard of the cards drawn; an attack or
a Steal waits for the defender's answer, out of turn, then the referee resolves it; then the
referee ends the turn (TR-5's eliminations, the end of the challenge). Stages marked automatic
are the referee's own. Only the start of a turn can leave a player without a decision (after a
draw there is always a card to discard; a defender may always pass): then the challenge ends at
once (TR-13), so that a seat in `to_act` always has a legal command.
"""

from __future__ import annotations

import enum
from typing import Literal

from referee.games.tribu.state import State
from referee.games.tribu.turn_start import has_a_decision
from referee.kernel.contract import Seat

Phase = Literal[
    "setup",
    "dealing",
    "turn-start",
    "skipping",
    "no-move",
    "start-of-turn",
    "after-draw",
    "after-swap",
    "discarding",
    "defence",
    "resolving",
    "turn-over",
    "over",
]


class Stage(enum.Enum):
    SETUP = "setup"  # automatic: leaders and the first player drawn
    DEALING = "dealing"  # automatic: a challenge dealt, or the game ended
    TURN_START = "turn-start"  # automatic
    SKIPPING = "skipping"  # automatic: a blocked player's turn
    NO_MOVE = "no-move"  # automatic: the player has no legal decision, the challenge ends (TR-13)
    START_OF_TURN = "start-of-turn"  # draw, or use an active card
    AFTER_DRAW = "after-draw"  # discard, place, activate, swap or play an Azione card
    AFTER_SWAP = "after-swap"  # discard, place, activate or play an Azione card
    DISCARDING = "discarding"  # Take 3: discard as many as drawn
    DEFENCE = "defence"  # the attacked player: defend or pass
    RESOLVING = "resolving"  # automatic
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
        case "dealing":
            return Stage.DEALING
        case "turn-start":
            return Stage.TURN_START
        case "choosing":
            if state.players[state.current].blocked:
                return Stage.SKIPPING
            if state.rules.no_move_ends_the_challenge and not has_a_decision(state, state.current):
                return Stage.NO_MOVE
            return Stage.START_OF_TURN
        case "acting":
            return Stage.AFTER_DRAW
        case "swapped":
            return Stage.AFTER_SWAP
        case "discarding":
            return Stage.DISCARDING
        case "defence":
            if state.attack is not None and state.attack.answered:
                return Stage.RESOLVING
            return Stage.DEFENCE
        case "turn-over":
            return Stage.TURN_OVER
        case "over":
            return Stage.OVER


CURRENT_PLAYER_STAGES = frozenset(
    {Stage.START_OF_TURN, Stage.AFTER_DRAW, Stage.AFTER_SWAP, Stage.DISCARDING}
)


def to_act(state: State) -> frozenset[Seat]:
    current = stage(state)
    if current in CURRENT_PLAYER_STAGES:
        return frozenset({state.current})
    if current is Stage.DEFENCE and state.attack is not None:
        return frozenset({state.attack.seat})
    return frozenset()
