"""The referee's own steps: the end of a turn (or of the game), and every decision that leaves
a player exactly one possibility (our ruling WR-R2: nothing is hidden, so making it reveals
nothing)."""

from __future__ import annotations

from referee.games.wind_river.decide import decide
from referee.games.wind_river.events import Event, TurnBegan
from referee.games.wind_river.legal import legal_commands
from referee.games.wind_river.scoring import game_ended
from referee.games.wind_river.stages import Stage, stage
from referee.games.wind_river.state import State
from referee.kernel.chance import Chance
from referee.kernel.seating import next_seat

FORCEABLE = frozenset({Stage.MOVING_BUFFALO, Stage.SUPPLYING, Stage.EXTRA_ACTIVITY})


def next_step(state: State, chance: Chance) -> list[Event]:
    current = stage(state)
    if current is Stage.TURN_OVER:
        return [end_of_turn(state)]
    if current in FORCEABLE:
        return forced(state, chance)
    return []


def end_of_turn(state: State) -> Event:
    """Section 6, WR-6: the game ends at the end of the turn that leaves no teepee on the
    board; else the next player clockwise (the start player after the set-up) begins a turn,
    owing as many buffalo moves as they have teepees on the board (WR-3)."""
    if state.board_empty:
        return game_ended(state)
    if state.turn == 0:
        seat = state.start_player
    else:
        seat = next_seat(state.current, range(state.seats), state.seats)
    return TurnBegan(seat=seat, turn=state.turn + 1, buffalo_moves=state.on_board(seat))


def forced(state: State, chance: Chance) -> list[Event]:
    commands = legal_commands(state, state.current)
    if len(commands) != 1:
        return []
    return decide(state, state.current, commands[0], chance)
