"""The board as data (WR-1, WR-2, WR-7): six lanes of eight hexes, and the open plains east.

Lanes are numbered 1 to 6 from the north, columns 1 to 8 from the west. The hexes are
pointy-top, and lanes 1, 3 and 5 sit half a hex further east than lanes 2, 4 and 6: in the
kernel's offset layouts that is "even-r", lane n being row n - 1 and column c column c - 1.
Geometry (neighbours, directions) is the kernel's `hexgrid`; this module only says which cells
are spaces, which lanes are in play, and where the open plains begin.

A space is named on the wire as `{"lane": 3, "column": 8}`; the state keeps per-space counts in
tuples indexed lane by lane from the north, west to east (`index`), the board's canonical order.
"""

from __future__ import annotations

import functools
from typing import Annotated, Literal

import msgspec

from referee.kernel.hexgrid import (
    EAST,
    NORTH_EAST,
    SOUTH_EAST,
    Hex,
    OffsetLayout,
    axial_to_offset,
    offset_to_axial,
)

LANES = 6
COLUMNS = 8
LIGHTER_LANE = 1  # WR-2: not used with three players
START_COLUMNS = (1, 2, 3)  # WR-1: the first three hexes of every lane start with buffalo
BUFFALO_PER_START_SPACE = 2  # 6 lanes x 3 hexes x 2 = 36
LAYOUT = OffsetLayout.EVEN_R
AHEAD = (EAST, NORTH_EAST, SOUTH_EAST)  # WR-7: straight, ahead-left, ahead-right
AROUND = tuple(range(6))  # a teepee moves to any of the six neighbouring spaces

OpenPlains = Literal["open-plains"]
OPEN_PLAINS: OpenPlains = "open-plains"


class Space(msgspec.Struct, frozen=True, order=True, forbid_unknown_fields=True):
    """One hex of the board."""

    lane: Annotated[int, msgspec.Meta(ge=1, le=LANES, description="1 to 6, from the north.")]
    column: Annotated[
        int, msgspec.Meta(ge=1, le=COLUMNS, description="1 to 8, from the west (buffalo go east).")
    ]


# Where a buffalo or a teepee goes: a space, or the open plains beyond the eastern edge.
Target = Space | OpenPlains

SPACES: tuple[Space, ...] = tuple(
    Space(lane, column) for lane in range(1, LANES + 1) for column in range(1, COLUMNS + 1)
)


def index(space: Space) -> int:
    """The position of `space` in the per-space tuples of the state."""
    return (space.lane - 1) * COLUMNS + space.column - 1


def on_the_grid(space: Space) -> bool:
    return 1 <= space.lane <= LANES and 1 <= space.column <= COLUMNS


def hex_of(space: Space) -> Hex:
    return offset_to_axial(space.column - 1, space.lane - 1, LAYOUT)


def lanes_in_play(seats: int) -> tuple[int, ...]:
    """WR-2: with three players the lighter lane is not used."""
    return tuple(lane for lane in range(1, LANES + 1) if seats > 3 or lane != LIGHTER_LANE)


class Board:
    """The spaces in play for a number of players, and where each may be left for."""

    __slots__ = ("ahead", "around", "lanes", "playable", "spaces")

    def __init__(self, lanes: tuple[int, ...]) -> None:
        self.lanes = lanes
        self.spaces = tuple(space for space in SPACES if space.lane in lanes)
        self.playable = frozenset(self.spaces)
        self.ahead = tuple(self._targets(space, AHEAD) for space in SPACES)
        self.around = tuple(self._targets(space, AROUND) for space in SPACES)

    def __contains__(self, space: object) -> bool:
        return space in self.playable

    def neighbour(self, space: Space, direction: int) -> Target | None:
        """The space (or the open plains) next to `space` in `direction`; None past a side
        edge, the western edge, or into the lane not in play.

        The open plains lie beyond the eighth hex of each lane in play (WR-1, WR-7): a step that
        leaves column 8 eastwards into such a lane enters them; a step that leaves the board by
        the north or south side does not, even from column 8 (our ruling WR-R1).
        """
        column, row = axial_to_offset(hex_of(space).neighbour(direction), LAYOUT)
        lane, column = row + 1, column + 1
        if lane not in self.lanes or column < 1:
            return None
        if column > COLUMNS:
            return OPEN_PLAINS
        return Space(lane, column)

    def _targets(self, space: Space, directions: tuple[int, ...]) -> tuple[Target, ...]:
        if space not in self.playable:
            return ()
        found = (self.neighbour(space, direction) for direction in directions)
        return tuple(dict.fromkeys(target for target in found if target is not None))

    def buffalo_targets(self, space: Space) -> tuple[Target, ...]:
        """One space straight or diagonally ahead, or the open plains (5.1, WR-7)."""
        return self.ahead[index(space)]

    def teepee_targets(self, space: Space) -> tuple[Target, ...]:
        """Any neighbouring space, or the open plains from the eastern edge (5.3.1)."""
        return self.around[index(space)]


@functools.cache
def board_for(seats: int) -> Board:
    return Board(lanes_in_play(seats))


def starting_buffalo(seats: int) -> tuple[int, ...]:
    """Per space: two buffalo on the first three hexes of every lane in play (WR-1, WR-2)."""
    board = board_for(seats)
    return tuple(
        BUFFALO_PER_START_SPACE if space in board and space.column in START_COLUMNS else 0
        for space in SPACES
    )
