from __future__ import annotations

import pytest

from referee.kernel.seating import COUNTERCLOCKWISE, next_seat, with_seat


def test_clockwise_wraps_around() -> None:
    assert next_seat(3, {0, 1, 2, 3}, 4) == 0


def test_skips_seats_out_of_play() -> None:
    assert next_seat(0, {0, 3}, 4) == 3


def test_counterclockwise() -> None:
    assert next_seat(0, {0, 1, 2}, 3, COUNTERCLOCKWISE) == 2


def test_from_an_eliminated_seat() -> None:
    assert next_seat(1, {0, 2}, 3) == 2


def test_nobody_in_play() -> None:
    with pytest.raises(ValueError):
        next_seat(0, set(), 3)


def test_with_seat_replaces_one_entry() -> None:
    assert with_seat((3, 3, 3), 1, 2) == (3, 2, 3)
    assert with_seat(("a",), 0, "b") == ("b",)
