"""The state of a game of Wind River: frozen Structs of tuples, replaced, never mutated.

Per-space counts are tuples over all 48 spaces of the grid (board.index), the lane that is not
in play with three players holding zeros; per-seat counts are tuples in seat order.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from referee.games.wind_river.board import (
    SPACES,
    Board,
    Space,
    board_for,
    index,
    starting_buffalo,
)
from referee.games.wind_river.data import BUFFALO, STARTING_RESOURCES, TEEPEES_PER_PLAYER
from referee.games.wind_river.options import Options
from referee.kernel.contract import Seat

# "setup": before the start player is drawn; "placing": the two placement rounds; "buffalo":
# step 5.1, then 5.2 (supplying) once no buffalo move is due or possible; "extra": step 5.3;
# "turn-over": the referee ends the turn (or the game); "over": the game has ended.
Step = Literal["setup", "placing", "buffalo", "extra", "turn-over", "over"]


class State(msgspec.Struct, frozen=True, kw_only=True):
    seats: int
    step: Step = "setup"
    start_player: Seat = 0
    current: Seat = 0  # who places a teepee, or whose turn it is
    placed: int = 0  # teepees placed in the two set-up rounds
    turn: int = 0  # turns begun since the set-up
    buffalo: tuple[int, ...]  # per space
    teepees: tuple[tuple[int, ...], ...]  # per space, per seat
    stock: tuple[int, ...]  # per seat: teepees beside the board, placeable by 5.3.3
    plains: tuple[int, ...]  # per seat: teepees in the open plains, the score
    resources: tuple[int, ...]  # per seat, 0 to 10
    buffalo_gone: int = 0  # moved into the open plains, out of the game
    moves_due: int = 0  # buffalo moves of this turn's step 5.1 not made yet
    moves_made: int = 0
    moved: tuple[int, ...]  # per space: buffalo there that moved in this turn's step 5.1
    finished: bool = False

    def teepees_at(self, space: Space) -> tuple[int, ...]:
        return self.teepees[index(space)]

    def buffalo_at(self, space: Space) -> int:
        return self.buffalo[index(space)]

    def others_at(self, space: Space, seat: Seat) -> int:
        """The teepees of players other than `seat` on `space`."""
        counts = self.teepees_at(space)
        return sum(counts) - counts[seat]

    def on_board(self, seat: Seat) -> int:
        """The teepees `seat` has on the board."""
        return sum(counts[seat] for counts in self.teepees)

    @property
    def buffalo_on_board(self) -> int:
        return sum(self.buffalo)

    @property
    def buffalo_out_of_play(self) -> int:
        """Buffalo never placed: those of the lighter lane with three players (WR-2)."""
        return BUFFALO - sum(starting_buffalo(self.seats))

    @property
    def board_empty(self) -> bool:
        return not any(any(counts) for counts in self.teepees)

    @property
    def placement_round(self) -> int:
        return self.placed // self.seats + 1


def initial_state(options: Options, seats: int) -> State:
    """Before the opening: every teepee and resource in stock, the buffalo on their spaces."""
    return State(
        seats=seats,
        buffalo=starting_buffalo(seats),
        teepees=((0,) * seats,) * len(SPACES),
        stock=(TEEPEES_PER_PLAYER,) * seats,
        plains=(0,) * seats,
        resources=(STARTING_RESOURCES,) * seats,
        moved=(0,) * len(SPACES),
    )


def board_of(state: State) -> Board:
    """The spaces in play at this table."""
    return board_for(state.seats)
