"""Piles and hands of identical components, kept as tuples (a pile's top is its first item).

Identical components (two Chiefs, eight one-Tepee tiles) are the same value, so a hand, a pile
or a bag is a multiset: these helpers take and remove by value, one occurrence at a time.
Every shuffle starts from the game's documented canonical order, so that a third party can
re-derive it from the revealed seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from itertools import combinations
from typing import TypeVar

from referee.kernel.chance import Chance

T = TypeVar("T", bound=Hashable)


def in_canonical_order(items: Iterable[T], canonical: Sequence[T]) -> tuple[T, ...]:
    """`items` sorted by where their value first appears in `canonical`."""
    rank: dict[T, int] = {}
    for index, item in enumerate(canonical):
        rank.setdefault(item, index)
    try:
        return tuple(sorted(items, key=rank.__getitem__))
    except KeyError as missing:
        raise ValueError(f"{missing.args[0]!r} is not in the canonical order") from None


def shuffled(chance: Chance, items: Iterable[T], canonical: Sequence[T]) -> tuple[T, ...]:
    """`items` put into canonical order, then shuffled with `chance` (top first)."""
    return tuple(chance.shuffle(in_canonical_order(items, canonical)))


def draw(pile: tuple[T, ...], count: int) -> tuple[tuple[T, ...], tuple[T, ...]]:
    """The top `count` items and the rest; fewer items when the pile runs short."""
    if count < 0:
        raise ValueError("cannot draw a negative number of items")
    return pile[:count], pile[count:]


def contains(items: Iterable[T], wanted: Iterable[T]) -> bool:
    """Whether `items` holds every one of `wanted`, counting repeats (multiset inclusion)."""
    return not Counter(wanted) - Counter(items)


def without(items: tuple[T, ...], taken: Iterable[T]) -> tuple[T, ...]:
    """`items` less one occurrence of each of `taken`, the order of the rest kept."""
    remaining = list(items)
    for item in taken:
        try:
            remaining.remove(item)
        except ValueError:
            raise ValueError(f"{item!r} is not there to take") from None
    return tuple(remaining)


def distinct_selections(items: Sequence[T], count: int) -> list[tuple[T, ...]]:
    """Every different multiset of `count` of `items`, each in the order of `items`.

    Choosing one of two identical cards is one choice, not two.
    """
    return list(dict.fromkeys(combinations(items, count)))
