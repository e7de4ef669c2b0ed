"""Simultaneous secret choices (referee.kernel.simultaneous)."""

from __future__ import annotations

import pytest

from referee.kernel.simultaneous import (
    Choices,
    all_in,
    as_seen_by,
    no_choices,
    waiting_for,
    with_choice,
)


def test_a_round_of_choices() -> None:
    choices: Choices[str] = no_choices(3)
    assert waiting_for(choices) == {0, 1, 2} and not all_in(choices)
    choices = with_choice(choices, 1, "b")
    assert waiting_for(choices) == {0, 2}
    choices = with_choice(with_choice(choices, 0, "a"), 2, "c")
    assert choices == ("a", "b", "c") and all_in(choices) and waiting_for(choices) == set()


def test_a_seat_chooses_once() -> None:
    with pytest.raises(ValueError, match="seat 0"):
        choices: Choices[str] = no_choices(2)
        with_choice(with_choice(choices, 0, "a"), 0, "b")


def test_each_seat_sees_only_its_own_choice() -> None:
    choices = ("a", None, "c")
    assert as_seen_by(choices, 0) == ("a", None, None)
    assert as_seen_by(choices, 1) == (None, None, None)
    assert as_seen_by(choices, None) == (None, None, None)
