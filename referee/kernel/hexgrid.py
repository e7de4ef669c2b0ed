"""Hexagonal grids: axial coordinates, neighbours, distance, rings, regions, bounded boards.

Coordinates are axial (q, r), with the cube coordinate s = -q - r implied, as in Red Blob
Games' "Hexagonal Grids" guide; the formulas here are that guide's. Axial coordinates do not
depend on whether hexes are drawn pointy-top or flat-top: only the names of the directions and
the offset layouts (how rows or columns of a printed board are shifted) do.

`Hex` is a frozen msgspec Struct, so a game can put it straight into its state, commands and
events; it encodes as {"q": ..., "r": ...}.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from enum import StrEnum

import msgspec


class Hex(msgspec.Struct, frozen=True, order=True, forbid_unknown_fields=True):
    """One cell of a hexagonal grid, in axial coordinates."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate: q + r + s == 0."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scaled(self, factor: int) -> Hex:
        return Hex(self.q * factor, self.r * factor)

    def neighbour(self, direction: int) -> Hex:
        """The neighbour in `direction` (an index into DIRECTIONS, taken modulo 6)."""
        step = DIRECTIONS[direction % 6]
        return Hex(self.q + step.q, self.r + step.r)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six neighbours, in the order of DIRECTIONS."""
        return _neighbours(self.q, self.r)

    def distance(self, other: Hex) -> int:
        """The number of steps between two cells."""
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def is_adjacent(self, other: Hex) -> bool:
        return self.distance(other) == 1


ORIGIN = Hex(0, 0)

# Counter-clockwise from "east". Pointy-top: E, NE, NW, W, SW, SE.
# Flat-top (the same vectors rotated by 30 degrees): SE, NE, N, NW, SW, S.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)
EAST, NORTH_EAST, NORTH_WEST, WEST, SOUTH_WEST, SOUTH_EAST = range(6)  # pointy-top names


@functools.lru_cache(maxsize=8192)
def _neighbours(q: int, r: int) -> tuple[Hex, ...]:
    # Kept: the rules ask a cell's neighbours many times a move (Manitou island's legal
    # commands, thousands of times), and a board has a few hundred cells.
    return tuple(Hex(q + step.q, r + step.r) for step in DIRECTIONS)


def ring(center: Hex, radius: int) -> list[Hex]:
    """The cells at exactly `radius` steps from `center`, going round once (6 * radius cells)."""
    if radius < 0:
        raise ValueError("a ring's radius must not be negative")
    if radius == 0:
        return [center]
    cells = []
    cell = center + DIRECTIONS[SOUTH_WEST].scaled(radius)
    for direction in range(6):
        for _ in range(radius):
            cells.append(cell)
            cell = cell.neighbour(direction)
    return cells


def hex_range(center: Hex, radius: int) -> list[Hex]:
    """Every cell within `radius` steps of `center`, ring by ring from the center outwards."""
    if radius < 0:
        raise ValueError("a range's radius must not be negative")
    return [cell for distance in range(radius + 1) for cell in ring(center, distance)]


def connected_regions(
    cells: Iterable[Hex], joined: Callable[[Hex, Hex], bool] | None = None
) -> list[frozenset[Hex]]:
    """The connected regions of `cells`: two adjacent cells of the set share a region when
    `joined(a, b)` holds (always, when `joined` is None).

    Regions come sorted by their smallest cell, so the result is deterministic.
    """
    remaining = set(cells)
    regions = []
    while remaining:
        start = min(remaining)
        remaining.discard(start)
        region = {start}
        frontier = deque([start])
        while frontier:
            cell = frontier.popleft()
            for neighbour in cell.neighbours():
                if neighbour in remaining and (joined is None or joined(cell, neighbour)):
                    remaining.discard(neighbour)
                    region.add(neighbour)
                    frontier.append(neighbour)
        regions.append(frozenset(region))
    return regions


class OffsetLayout(StrEnum):
    """How a printed board's rows (pointy-top) or columns (flat-top) are shifted."""

    ODD_R = "odd-r"  # pointy-top, odd rows shifted right by half a hex
    EVEN_R = "even-r"  # pointy-top, even rows shifted right
    ODD_Q = "odd-q"  # flat-top, odd columns shifted down
    EVEN_Q = "even-q"  # flat-top, even columns shifted down


def offset_to_axial(column: int, row: int, layout: OffsetLayout = OffsetLayout.ODD_R) -> Hex:
    """The axial cell at (column, row) of an offset layout."""
    if layout is OffsetLayout.ODD_R:
        return Hex(column - (row - (row & 1)) // 2, row)
    if layout is OffsetLayout.EVEN_R:
        return Hex(column - (row + (row & 1)) // 2, row)
    if layout is OffsetLayout.ODD_Q:
        return Hex(column, row - (column - (column & 1)) // 2)
    return Hex(column, row - (column + (column & 1)) // 2)


def axial_to_offset(cell: Hex, layout: OffsetLayout = OffsetLayout.ODD_R) -> tuple[int, int]:
    """The (column, row) of an axial cell in an offset layout."""
    q, r = cell.q, cell.r
    if layout is OffsetLayout.ODD_R:
        return q + (r - (r & 1)) // 2, r
    if layout is OffsetLayout.EVEN_R:
        return q + (r + (r & 1)) // 2, r
    if layout is OffsetLayout.ODD_Q:
        return q, r + (q - (q & 1)) // 2
    return q, r + (q + (q & 1)) // 2


class HexBoard:
    """A bounded set of cells, kept in a fixed, meaningful order (the order it was built in).

    The order is part of the board: a game that draws a cell at random draws an index into it.
    """

    __slots__ = ("_lookup", "cells")

    def __init__(self, cells: Iterable[Hex]) -> None:
        ordered = tuple(dict.fromkeys(cells))
        self.cells: tuple[Hex, ...] = ordered
        self._lookup = frozenset(ordered)

    @classmethod
    def rectangle(
        cls, columns: int, rows: int, layout: OffsetLayout = OffsetLayout.ODD_R
    ) -> HexBoard:
        """A board of `rows` rows of `columns` cells (offset coordinates 0-based), row by row."""
        if columns < 1 or rows < 1:
            raise ValueError("a rectangular board needs at least one column and one row")
        return cls(
            offset_to_axial(column, row, layout) for row in range(rows) for column in range(columns)
        )

    @classmethod
    def hexagon(cls, radius: int, center: Hex = ORIGIN) -> HexBoard:
        """A hexagon-shaped board: every cell within `radius` of `center`, ring by ring."""
        return cls(hex_range(center, radius))

    def __contains__(self, cell: object) -> bool:
        return cell in self._lookup

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.cells)

    def __len__(self) -> int:
        return len(self.cells)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HexBoard) and self.cells == other.cells

    def __hash__(self) -> int:
        return hash(self.cells)

    def __repr__(self) -> str:
        return f"HexBoard({len(self.cells)} cells)"

    def neighbours(self, cell: Hex) -> tuple[Hex, ...]:
        """The neighbours of `cell` that lie on the board."""
        return tuple(n for n in cell.neighbours() if n in self._lookup)

    def index(self, cell: Hex) -> int:
        """The position of `cell` in the board's order."""
        if cell not in self._lookup:
            raise ValueError(f"{cell} is not on the board")
        return self.cells.index(cell)
