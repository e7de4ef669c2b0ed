"""Dealing what a seat has not seen (referee/kernel/unseen.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.kernel.unseen import deal_unseen, deal_until_it_fits

COMPONENTS = ("a", "a", "b", "c", "c", "c", "d")


def test_the_unseen_components_fill_the_places_exactly() -> None:
    places = deal_unseen(COMPONENTS, ["a", "c"], (2, 0, 3), random.Random(1))
    assert [len(place) for place in places] == [2, 0, 3]
    dealt = Counter(item for place in places for item in place)
    assert dealt == Counter(COMPONENTS) - Counter(["a", "c"])


def test_the_deal_follows_the_bots_own_randomness() -> None:
    deals = {tuple(deal_unseen(COMPONENTS, (), (3, 4), random.Random(seed))) for seed in range(20)}
    assert len(deals) > 1
    again = deal_unseen(COMPONENTS, (), (3, 4), random.Random(7))
    assert again == deal_unseen(COMPONENTS, (), (3, 4), random.Random(7))


@pytest.mark.parametrize(("seen", "sizes"), [((), (3, 3)), ((), (4, 4)), (("e",), (6,))])
def test_a_deal_that_loses_or_invents_a_component_is_refused(
    seen: tuple[str, ...], sizes: tuple[int, ...]
) -> None:
    with pytest.raises(ValueError):
        deal_unseen(COMPONENTS, seen, sizes, random.Random(0))


def test_the_order_of_what_was_seen_does_not_change_the_deal() -> None:
    deal = deal_unseen(COMPONENTS, ["a", "d"], (2, 3), random.Random(7))
    assert deal == deal_unseen(COMPONENTS, ["d", "a"], (2, 3), random.Random(7))


def test_a_deal_is_dealt_again_until_it_fits_or_the_attempts_run_out() -> None:
    deals = iter(range(10))
    assert deal_until_it_fits(lambda: next(deals), lambda n: n >= 3, attempts=5) == 3
    deals = iter(range(10))
    assert deal_until_it_fits(lambda: next(deals), lambda n: n >= 9, attempts=2) == 2
