"""The state of a Manitou game (or match), and the small facts derived from it.

Seats alternate teams: team = seat % 2, so seats 0 and 2 play against 1 and 3 (MI-1), and with
two players each seat is its own team. The first player's team owns the day colour.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from referee.games.manitou_island.data import Colour, Face, SpecialtyCardId
from referee.games.manitou_island.options import Options
from referee.games.manitou_island.stages import Stage
from referee.kernel.contract import Seat
from referee.kernel.hexgrid import ORIGIN, Hex

TEAMS = (0, 1)

# What lies in a space. A land card turned over is water; a lighthouse covers a sacrificed land
# card; a bridge lies on water (the turned land card stays beneath it).
Content = Literal["origin", "land", "water", "whirlpool", "lighthouse", "bridge"]


class Cell(msgspec.Struct, frozen=True):
    at: Hex
    content: Content
    card: int | None = None  # the land card in this space, whatever lies on top of it
    colour: Colour | None = None  # for a specialty card: the colour of the team that played it


class SpecialtyCardState(msgspec.Struct, frozen=True):
    """One of a team's three specialty cards: unused, or played with one face on one space."""

    card: SpecialtyCardId
    played_face: Face | None = None
    at: Hex | None = None


class SeatCard(msgspec.Struct, frozen=True):
    seat: Seat
    card: int


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    """How one game ended; `scores` are what it adds to each team's match total."""

    game: int
    day_team: int
    reason: Literal["all-land-played", "forfeit"]
    forfeited_seat: Seat | None
    islands: tuple[tuple[int, ...], tuple[int, ...]]  # per team, populations largest first
    winner_team: int | None  # None: a draw
    scores: tuple[int, int]


class State(msgspec.Struct, frozen=True, kw_only=True):
    seats: int
    options: Options
    stage: Stage = "dealing"
    game: int = 0  # the number of the game being played (match play: 1, 2, ...)
    first_draws: tuple[tuple[SeatCard, ...], ...] = ()  # this game's first-player draw rounds
    first_seat: Seat = 0
    turn_seat: Seat = 0
    origin: Hex = ORIGIN
    hands: tuple[tuple[int, ...], ...] = ()
    pile: tuple[int, ...] = ()  # top first
    board: tuple[Cell, ...] = ()
    specialty: tuple[tuple[SpecialtyCardState, ...], ...] = ((), ())  # per team
    totals: tuple[int, int] = (0, 0)  # per team, the running match totals
    results: tuple[GameResult, ...] = ()


def initial_state(options: Options, seats: int) -> State:
    """Before the opening: nothing drawn, nothing dealt."""
    return State(seats=seats, options=options)


def team_of(seat: Seat) -> int:
    return seat % 2


def team_seats(team: int, seats: int) -> tuple[Seat, ...]:
    return tuple(seat for seat in range(seats) if team_of(seat) == team)


def teams(seats: int) -> tuple[frozenset[Seat], ...]:
    """The two sides: one seat each head to head, two partners each at four."""
    return tuple(frozenset(team_seats(team, seats)) for team in (0, 1))


def day_team(state: State) -> int:
    return team_of(state.first_seat)


def colour_of_team(state: State, team: int) -> Colour:
    return "day" if team == day_team(state) else "night"


def colour_of_seat(state: State, seat: Seat) -> Colour:
    return colour_of_team(state, team_of(seat))


def team_of_colour(state: State, colour: Colour) -> int:
    return day_team(state) if colour == "day" else 1 - day_team(state)


def board_map(state: State) -> dict[Hex, Cell]:
    return {cell.at: cell for cell in state.board}
