"""Piles and multisets of identical components (referee.kernel.piles)."""

from __future__ import annotations

from itertools import combinations

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


@st.composite
def grouped_items(draw: st.DrawFn) -> tuple[int, ...]:
    """Items with equal ones side by side (as in a canonical order): groups of 1 to 3."""
    groups = draw(st.lists(st.integers(1, 3), max_size=7))
    return tuple(value for value, size in enumerate(groups) for _ in range(size))


@given(grouped_items(), st.integers(0, 12))
def test_the_lazy_selections_are_the_distinct_combinations_in_their_order(
    items: tuple[int, ...], count: int
) -> None:
    """Length, every index, slices, iteration and membership agree with the combinations of
    the items with repeats dropped (what `distinct_selections` listed before it was lazy)."""
    expected = list(dict.fromkeys(combinations(items, count)))
    selections = distinct_selections(items, count)
    assert len(selections) == len(expected)
    assert list(selections) == expected
    assert [selections[i] for i in range(len(expected))] == expected
    assert selections[1:5] == expected[1:5] and selections[-1:] == expected[-1:]
    assert all(selection in selections for selection in expected)
    assert selections == expected


@given(grouped_items(), st.integers(0, 12), st.lists(st.integers(0, 8), max_size=12))
def test_a_selection_is_in_the_lazy_selections_only_if_it_is_one_of_them(
    items: tuple[int, ...], count: int, candidate: list[int]
) -> None:
    expected = set(dict.fromkeys(combinations(items, count)))
    assert (tuple(candidate) in distinct_selections(items, count)) == (tuple(candidate) in expected)


def test_equal_items_apart_and_negative_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="side by side"):
        distinct_selections(("a", "b", "a"), 2)
    with pytest.raises(ValueError, match="negative"):
        distinct_selections(("a",), -1)
    with pytest.raises(IndexError):
        distinct_selections(("a", "b"), 1)[2]
