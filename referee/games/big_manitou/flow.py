"""Carry the game forward after a command, up to the next decision a player has to make."""

from __future__ import annotations

from referee.games.big_manitou.automatic import AUTOMATIC
from referee.games.big_manitou.events import Event, TurnSkipped
from referee.games.big_manitou.fold import evolve
from referee.games.big_manitou.legal import legal_commands
from referee.games.big_manitou.rules import command_events
from referee.games.big_manitou.stages import Stage, stage, to_act
from referee.games.big_manitou.state import State
from referee.kernel.chance import Chance


def advance(state: State, chance: Chance) -> list[Event]:
    """The events that follow by themselves from `state`, until a player has a real choice."""
    events: list[Event] = []
    while step := next_step(state, chance):
        for event in step:
            state = evolve(state, event)
        events += step
    return events


def next_step(state: State, chance: Chance) -> list[Event]:
    current = stage(state)
    if current in AUTOMATIC:
        return AUTOMATIC[current](state, chance)
    if current is Stage.PLAYING:
        return skipped_turn(state)
    if current in FORCED_ON_PUBLIC_INFORMATION:
        return forced_move(state)
    return []


# Booty picks and the thief's tile are chosen among face-up tiles: when only one choice is
# left, making it reveals nothing. A forced card play is still sent by its player, because
# playing it for them would tell everyone what else their hidden hand holds. (A skipped turn
# does tell that the hand holds only Heroes: see BM-R4 in RULES.md.)
FORCED_ON_PUBLIC_INFORMATION = frozenset({Stage.PICKING, Stage.PENALTY})


def forced_move(state: State) -> list[Event]:
    """Our ruling BM-R3: where a pick or a discard leaves exactly one possibility, the referee
    makes it."""
    for seat in sorted(to_act(state)):
        options = legal_commands(state, seat)
        if len(options) == 1:
            return command_events(state, seat, options[0])
    return []


def skipped_turn(state: State) -> list[Event]:
    """Our ruling BM-R4: a player holding no card they may play loses the turn."""
    seat = state.current
    return [] if legal_commands(state, seat) else [TurnSkipped(seat=seat)]
