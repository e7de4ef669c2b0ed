"""What a bot may think: a world its seat cannot tell from the real one, and a state's worth.

Wind River hides nothing, so `imagine` deals nothing: it rebuilds the one state the view shows.
`evaluate` reads the game's own standing: teepees in the open plains, then resources.
"""

from __future__ import annotations

import random

from referee.games.wind_river.board import SPACES, Space
from referee.games.wind_river.data import PLACEMENT_ROUNDS
from referee.games.wind_river.scoring import ranking
from referee.games.wind_river.stages import Phase
from referee.games.wind_river.state import State, Step
from referee.games.wind_river.views import WindRiverView
from referee.kernel.bots import ended, lead
from referee.kernel.contract import Seat

# The phases a seat is ever asked to act in; the referee's own steps never wait for a view.
STEPS: dict[Phase, Step] = {
    "placing": "placing",
    "moving-buffalo": "buffalo",
    "supplying": "buffalo",
    "extra-activity": "extra",
    "over": "over",
}

# A resource is worth this share of a teepee in the open plains: the ranking counts resources
# only between equal plains (WR-R6).
RESOURCE = 0.01


def imagine(view: WindRiverView, seat: Seat, rng: random.Random) -> State:
    """The state `view` shows: every count is on it (nothing is hidden, nothing is dealt)."""
    spaces = {Space(space.lane, space.column): space for space in view.spaces}
    seats = len(view.players)
    shown = [spaces.get(space) for space in SPACES]
    placing = view.phase == "placing"
    return State(
        seats=seats,
        step=_step(view.phase),
        start_player=view.start_player,
        current=view.current,
        # While placing, every teepee on the board was placed in the set-up and none has left.
        placed=(
            sum(player.teepees_on_board for player in view.players)
            if placing
            else PLACEMENT_ROUNDS * seats
        ),
        turn=view.turn,
        buffalo=tuple(space.buffalo if space else 0 for space in shown),
        teepees=tuple(space.teepees if space else (0,) * seats for space in shown),
        stock=tuple(player.teepees_in_stock for player in view.players),
        plains=tuple(player.teepees_in_plains for player in view.players),
        resources=tuple(player.resources for player in view.players),
        buffalo_gone=view.buffalo_in_plains,
        # Moves still owed that no buffalo can make are not shown, and change nothing.
        moves_due=view.buffalo_moves_due,
        moves_made=view.buffalo_moves_made,
        moved=tuple(space.moved_buffalo if space else 0 for space in shown),
        finished=view.finished,
    )


def _step(phase: Phase) -> Step:
    if phase not in STEPS:
        raise ValueError(f"no seat is asked to act in the phase {phase!r}")
    return STEPS[phase]


def evaluate(state: State, seat: Seat) -> float:
    """Teepees in the open plains (resources break ties), ahead of the best other seat."""
    if state.finished:
        return ended(ranking(state.plains, state.resources)[0], seat)
    standings = [
        plains + RESOURCE * resources
        for plains, resources in zip(state.plains, state.resources, strict=True)
    ]
    return lead(standings, seat)
