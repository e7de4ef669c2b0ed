"""The board (WR-1, WR-2, WR-7): six lanes of eight hexes, odd lanes half a hex further east,
buffalo moving ahead only, the open plains beyond the eighth hex of each lane in play."""

from __future__ import annotations

import pytest

from referee.games.wind_river.board import (
    AROUND,
    OPEN_PLAINS,
    SPACES,
    Space,
    board_for,
    hex_of,
    index,
    lanes_in_play,
)

from .support import at


def test_six_lanes_of_eight_hexes_numbered_from_the_north_and_the_west() -> None:
    assert len(SPACES) == 48
    assert SPACES[0] == at(1, 1) and SPACES[-1] == at(6, 8)
    assert [index(space) for space in SPACES] == list(range(48))
    assert {space.lane for space in SPACES} == set(range(1, 7))
    assert {space.column for space in SPACES} == set(range(1, 9))


def test_lanes_1_3_5_sit_half_a_hex_further_east_than_2_4_6() -> None:
    # In lane 2 the hex of column 4 touches columns 3 and 4 of lane 1 (the shifted lane);
    # in lane 3 the hex of column 4 touches columns 4 and 5 of lane 2.
    touching = {space for space in SPACES if hex_of(space).is_adjacent(hex_of(at(2, 4)))}
    assert {at(1, 3), at(1, 4)} <= touching and at(1, 5) not in touching
    touching = {space for space in SPACES if hex_of(space).is_adjacent(hex_of(at(3, 4)))}
    assert {at(2, 4), at(2, 5)} <= touching and at(2, 3) not in touching


def test_a_buffalo_goes_straight_or_diagonally_ahead_never_back_or_sideways() -> None:
    board = board_for(4)
    assert board.buffalo_targets(at(3, 4)) == (at(3, 5), at(2, 5), at(4, 5))
    assert board.buffalo_targets(at(4, 4)) == (at(4, 5), at(3, 4), at(5, 4))
    for space in SPACES:
        for target in board.buffalo_targets(space):
            assert target == OPEN_PLAINS or hex_of(target).q >= hex_of(space).q


def test_no_side_exit_for_buffalo() -> None:
    board = board_for(4)
    assert board.buffalo_targets(at(1, 3)) == (at(1, 4), at(2, 4))  # no north-east from lane 1
    assert board.buffalo_targets(at(6, 3)) == (at(6, 4), at(5, 3))  # no south-east from lane 6


@pytest.mark.parametrize(
    ("space", "targets"),
    [
        (at(1, 8), (OPEN_PLAINS,)),  # east and south-east past column 8; north-east: WR-R1
        (at(2, 8), (OPEN_PLAINS, at(1, 8), at(3, 8))),  # WR-7: diagonals stay on the board
        (at(5, 8), (OPEN_PLAINS,)),
        (at(6, 8), (OPEN_PLAINS, at(5, 8))),
    ],
)
def test_the_open_plains_lie_beyond_column_8(space: Space, targets: tuple[object, ...]) -> None:
    assert board_for(4).buffalo_targets(space) == targets


def test_only_the_last_column_leads_into_the_open_plains() -> None:
    board = board_for(4)
    for space in SPACES:
        reaches = OPEN_PLAINS in board.buffalo_targets(space) + board.teepee_targets(space)
        assert reaches == (space.column == 8)


def test_with_three_players_lane_1_does_not_exist_for_any_move() -> None:
    assert lanes_in_play(3) == (2, 3, 4, 5, 6) and lanes_in_play(4) == (1, 2, 3, 4, 5, 6)
    board = board_for(3)
    assert at(1, 4) not in board and len(board.spaces) == 40
    assert board.buffalo_targets(at(2, 4)) == (at(2, 5), at(3, 4))
    assert board.buffalo_targets(at(2, 8)) == (OPEN_PLAINS, at(3, 8))
    assert board.buffalo_targets(at(3, 8)) == (OPEN_PLAINS,)  # beyond lane 2: in play
    assert board.buffalo_targets(at(1, 4)) == () and board.teepee_targets(at(1, 4)) == ()
    for space in board.spaces:
        for target in board.teepee_targets(space):
            assert target == OPEN_PLAINS or target.lane != 1


def test_a_teepee_moves_to_any_of_the_six_neighbours() -> None:
    board = board_for(4)
    assert len(AROUND) == 6
    assert set(board.teepee_targets(at(3, 4))) == {
        at(3, 5), at(2, 5), at(2, 4), at(3, 3), at(4, 4), at(4, 5)
    }  # fmt: skip
    assert set(board.teepee_targets(at(2, 1))) == {at(2, 2), at(1, 1), at(3, 1)}  # western edge
    assert set(board.teepee_targets(at(6, 8))) == {OPEN_PLAINS, at(5, 8), at(5, 7), at(6, 7)}
    for space in board.spaces:
        for target in board.teepee_targets(space):
            if target != OPEN_PLAINS:
                assert hex_of(target).is_adjacent(hex_of(space))
