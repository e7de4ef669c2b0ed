"""Piles and multisets of identical components (referee.kernel.piles)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.kernel.chance import Chance
from referee.kernel.piles import (
    contains,
    distinct_selections,
    draw,
    in_canonical_order,
    shuffled,
    without,
)

CANONICAL = ("a", "a", "b", "c", "c", "c")


def test_canonical_order_sorts_by_first_appearance() -> None:
    assert in_canonical_order(["c", "a", "b", "a"], CANONICAL) == ("a", "a", "b", "c")
    with pytest.raises(ValueError, match="'z'"):
        in_canonical_order(["z"], CANONICAL)


def test_a_shuffle_starts_from_the_canonical_order_whatever_the_input_order() -> None:
    first = shuffled(Chance(b"key"), ["c", "b", "a", "a"], CANONICAL)
    second = shuffled(Chance(b"key"), ["a", "c", "a", "b"], CANONICAL)
    assert first == second == tuple(Chance(b"key").shuffle(["a", "a", "b", "c"]))


def test_draw_takes_from_the_top_and_runs_short() -> None:
    assert draw(("x", "y", "z"), 2) == (("x", "y"), ("z",))
    assert draw(("x",), 3) == (("x",), ())
    with pytest.raises(ValueError):
        draw(("x",), -1)


def test_contains_counts_repeats() -> None:
    assert contains(CANONICAL, ["a", "a", "c"])
    assert not contains(CANONICAL, ["a", "a", "a"])
    assert not contains(CANONICAL, ["d"])


def test_without_removes_one_occurrence_each_and_keeps_order() -> None:
    assert without(("c", "a", "b", "a"), ["a"]) == ("c", "b", "a")
    with pytest.raises(ValueError, match="'b'"):
        without(("a",), ["b"])


def test_distinct_selections_count_identical_items_once() -> None:
    assert distinct_selections(("a", "a", "b"), 2) == [("a", "a"), ("a", "b")]
    assert distinct_selections(("a", "b"), 3) == []


@given(st.lists(st.sampled_from("abc"), max_size=8), st.integers(0, 8))
def test_every_selection_is_contained_and_none_repeats(items: list[str], count: int) -> None:
    selections = distinct_selections(tuple(sorted(items)), count)
    assert len(set(selections)) == len(selections)
    assert all(len(s) == count and contains(items, s) for s in selections)
