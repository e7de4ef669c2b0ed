"""Hex geometry of the kernel: axial coordinates, neighbours, distance, rings, regions, boards."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.kernel.hexgrid import (
    DIRECTIONS,
    EAST,
    NORTH_EAST,
    ORIGIN,
    SOUTH_EAST,
    Hex,
    HexBoard,
    OffsetLayout,
    axial_to_offset,
    connected_regions,
    hex_range,
    offset_to_axial,
    ring,
)

coordinates = st.integers(min_value=-50, max_value=50)
hexes = st.builds(Hex, coordinates, coordinates)


def test_cube_coordinates_sum_to_zero() -> None:
    cell = Hex(3, -5)
    assert (cell.q, cell.r, cell.s) == (3, -5, 2)


def test_arithmetic() -> None:
    assert Hex(1, 2) + Hex(3, -1) == Hex(4, 1)
    assert Hex(1, 2) - Hex(3, -1) == Hex(-2, 3)
    assert Hex(1, -2).scaled(3) == Hex(3, -6)


def test_six_neighbours_in_direction_order() -> None:
    assert ORIGIN.neighbours() == DIRECTIONS
    assert Hex(2, 3).neighbours() == tuple(Hex(2, 3) + step for step in DIRECTIONS)
    assert Hex(2, 3).neighbour(EAST) == Hex(3, 3)
    assert Hex(2, 3).neighbour(NORTH_EAST + 6) == Hex(3, 2)  # directions wrap around


def test_distance_examples() -> None:
    assert ORIGIN.distance(Hex(3, -1)) == 3
    assert Hex(-2, 4).distance(Hex(1, -3)) == 7
    assert Hex(0, 1).is_adjacent(ORIGIN)
    assert not Hex(1, 1).is_adjacent(ORIGIN)  # q and r both +1 is two steps away


@given(hexes, hexes)
def test_distance_is_a_symmetric_metric(a: Hex, b: Hex) -> None:
    assert a.distance(b) == b.distance(a) >= 0
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(b) == max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s))


@given(hexes)
def test_every_neighbour_is_at_distance_one_and_neighbours_back(cell: Hex) -> None:
    neighbours = cell.neighbours()
    assert len(set(neighbours)) == 6
    for neighbour in neighbours:
        assert cell.distance(neighbour) == 1
        assert cell in neighbour.neighbours()


def test_hex_is_a_hashable_ordered_json_struct() -> None:
    assert {Hex(1, 2), Hex(1, 2)} == {Hex(1, 2)}
    assert sorted([Hex(1, 0), Hex(0, 5), Hex(0, -1)]) == [Hex(0, -1), Hex(0, 5), Hex(1, 0)]
    assert msgspec.json.encode(Hex(1, -2)) == b'{"q":1,"r":-2}'
    assert msgspec.json.decode(b'{"q":1,"r":-2}', type=Hex) == Hex(1, -2)


@pytest.mark.parametrize("radius", [1, 2, 5])
def test_ring_holds_the_cells_at_exactly_the_radius(radius: int) -> None:
    cells = ring(Hex(2, -1), radius)
    assert len(cells) == len(set(cells)) == 6 * radius
    assert all(Hex(2, -1).distance(cell) == radius for cell in cells)
    # Consecutive cells of a ring are adjacent: it goes round once.
    assert all(a.is_adjacent(b) for a, b in zip(cells, [*cells[1:], cells[0]], strict=True))


def test_ring_of_radius_zero_and_negative() -> None:
    assert ring(Hex(4, 4), 0) == [Hex(4, 4)]
    with pytest.raises(ValueError):
        ring(ORIGIN, -1)
    with pytest.raises(ValueError):
        hex_range(ORIGIN, -1)


@pytest.mark.parametrize("radius", [0, 1, 3])
def test_range_holds_every_cell_within_the_radius(radius: int) -> None:
    cells = hex_range(Hex(-1, 2), radius)
    assert len(cells) == len(set(cells)) == 3 * radius * (radius + 1) + 1
    expected = {
        Hex(-1 + dq, 2 + dr)
        for dq in range(-radius, radius + 1)
        for dr in range(-radius, radius + 1)
        if abs(dq + dr) <= radius
    }
    assert set(cells) == expected


def test_connected_regions_split_by_gaps() -> None:
    left = {ORIGIN, Hex(1, 0), Hex(1, -1)}
    right = {Hex(5, 0), Hex(5, 1)}
    lonely = {Hex(-3, 3)}
    regions = connected_regions([*left, *right, *lonely])
    assert regions == [frozenset(lonely), frozenset(left), frozenset(right)]  # by smallest cell


def test_connected_regions_with_a_joining_predicate() -> None:
    colour = {ORIGIN: "red", Hex(1, 0): "red", Hex(2, 0): "blue", Hex(3, 0): "blue"}
    regions = connected_regions(colour, lambda a, b: colour[a] == colour[b])
    assert regions == [frozenset({ORIGIN, Hex(1, 0)}), frozenset({Hex(2, 0), Hex(3, 0)})]
    assert connected_regions([]) == []


@given(st.sets(st.builds(Hex, st.integers(-4, 4), st.integers(-4, 4)), max_size=40))
def test_regions_partition_the_cells_and_are_not_adjacent(cells: set[Hex]) -> None:
    regions = connected_regions(cells)
    assert set().union(*regions) == cells
    assert sum(len(region) for region in regions) == len(cells)
    for index, region in enumerate(regions):
        for other in regions[index + 1 :]:
            assert not any(a.is_adjacent(b) for a in region for b in other)


@pytest.mark.parametrize("layout", list(OffsetLayout))
@given(column=st.integers(-30, 30), row=st.integers(-30, 30))
def test_offset_round_trip(layout: OffsetLayout, column: int, row: int) -> None:
    assert axial_to_offset(offset_to_axial(column, row, layout), layout) == (column, row)


def test_odd_r_shifts_odd_rows_right() -> None:
    # Pointy-top, odd rows shifted right: offset (0, 1) lies south-east of (0, 0), and the
    # south-east of (0, 1) is (1, 2), because row 2 is not shifted.
    layout = OffsetLayout.ODD_R
    top_left = offset_to_axial(0, 0, layout)
    assert top_left.neighbour(SOUTH_EAST) == offset_to_axial(0, 1, layout)
    assert offset_to_axial(0, 1, layout).neighbour(SOUTH_EAST) == offset_to_axial(1, 2, layout)
    assert offset_to_axial(0, 2, layout).neighbour(NORTH_EAST) == offset_to_axial(0, 1, layout)
    assert offset_to_axial(7, 3, layout) == Hex(6, 3)


def test_flat_top_layouts_shift_columns() -> None:
    assert offset_to_axial(1, 0, OffsetLayout.ODD_Q) == Hex(1, 0)
    assert offset_to_axial(3, 2, OffsetLayout.ODD_Q) == Hex(3, 1)
    assert offset_to_axial(3, 2, OffsetLayout.EVEN_Q) == Hex(3, 0)
    assert offset_to_axial(2, 3, OffsetLayout.EVEN_R) == Hex(0, 3)


def test_rectangle_board_row_by_row() -> None:
    board = HexBoard.rectangle(8, 6)  # Wind River's six lanes of eight hexes
    assert len(board) == 48
    assert board.cells[0] == offset_to_axial(0, 0)
    assert board.cells[3 * 8 + 5] == offset_to_axial(5, 3)
    assert board.index(offset_to_axial(5, 3)) == 29
    assert offset_to_axial(8, 0) not in board
    assert offset_to_axial(0, -1) not in board
    corner = offset_to_axial(0, 0)
    assert len(board.neighbours(corner)) == 2  # east and south-east
    middle = offset_to_axial(3, 3)
    assert board.neighbours(middle) == middle.neighbours()
    with pytest.raises(ValueError):
        board.index(Hex(100, 100))
    with pytest.raises(ValueError):
        HexBoard.rectangle(0, 3)


def test_hexagon_board_and_equality() -> None:
    board = HexBoard.hexagon(2)
    assert len(board) == 19 and ORIGIN in board and Hex(3, 0) not in board
    assert board.cells[0] == ORIGIN
    assert board == HexBoard(hex_range(ORIGIN, 2))
    assert board != HexBoard.hexagon(1)
    assert hash(board) == hash(HexBoard.hexagon(2))
    assert HexBoard([ORIGIN, ORIGIN, Hex(1, 0)]).cells == (ORIGIN, Hex(1, 0))  # no duplicates
    assert list(HexBoard([Hex(1, 0), ORIGIN])) == [Hex(1, 0), ORIGIN]  # the given order is kept
