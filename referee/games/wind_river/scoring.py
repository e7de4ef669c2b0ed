"""The end (section 6): most teepees in the open plains wins, then most resources (WR-R6)."""

from __future__ import annotations

from itertools import groupby

from referee.games.wind_river.events import WindRiverGameEnded
from referee.games.wind_river.state import State
from referee.kernel.contract import Outcome, Seat


def ranking(plains: tuple[int, ...], resources: tuple[int, ...]) -> tuple[tuple[Seat, ...], ...]:
    """Seats by teepees in the open plains, then resources left; equal on both share a place."""

    def standing(seat: Seat) -> tuple[int, int]:
        return plains[seat], resources[seat]

    seats = sorted(range(len(plains)), key=lambda seat: (-plains[seat], -resources[seat], seat))
    return tuple(tuple(group) for _, group in groupby(seats, key=standing))


def game_ended(state: State) -> WindRiverGameEnded:
    return WindRiverGameEnded(
        plains=state.plains,
        resources=state.resources,
        ranking=ranking(state.plains, state.resources),
    )


def outcome(state: State) -> Outcome:
    if not state.finished:
        return Outcome(finished=False)
    places = ranking(state.plains, state.resources)
    return Outcome(finished=True, winners=places[0], ranking=places, scores=state.plains)
