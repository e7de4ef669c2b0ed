"""Piles and hands of identical components, kept as tuples (a pile's top is its first item).

Identical components (two Chiefs, eight one-Tepee tiles) are the same value, so a hand, a pile
or a bag is a multiset: these helpers take and remove by value, one occurrence at a time.
Every shuffle starts from the game's documented canonical order, so that a third party can
re-derive it from the revealed seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import TypeVar

from referee.kernel.chance import Chance
from referee.kernel.lazy import LazySequence

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


def distinct_selections(items: Sequence[T], count: int) -> DistinctSelections[T]:
    """Every different multiset of `count` of `items`, each in the order of `items`.

    Choosing one of two identical cards is one choice, not two. Equal items must stand side by
    side (as in a canonical order). The order is that of `itertools.combinations` with repeats
    dropped; the selections are computed on demand (`DistinctSelections`).
    """
    return DistinctSelections(items, count)


class DistinctSelections(LazySequence[tuple[T, ...]]):
    """`distinct_selections` as a lazy sequence: its length, a selection by index and a test of
    membership cost what they read, not the thousands of selections there can be (Big Manitou's
    13,156 ways to choose nine cards took milliseconds to list for a page of twenty).

    The items form groups of equal ones (value, how many). A selection takes some of each group;
    in the order of `combinations` the selections that take more of the first group come first,
    then, among those, more of the second, and so on: `_ways[j][r]`, the selections of `r` items
    from group `j` on, ranks and unranks them.
    """

    __slots__ = ("_count", "_most", "_values", "_ways")

    def __init__(self, items: Sequence[T], count: int) -> None:
        if count < 0:
            raise ValueError("cannot select a negative number of items")
        self._values: list[T] = []
        self._most: list[int] = []
        for item in items:
            if self._values and self._values[-1] == item:
                self._most[-1] += 1
            elif item in self._values:
                raise ValueError(f"equal items must stand side by side: {item!r}")
            else:
                self._values.append(item)
                self._most.append(1)
        self._count = count
        groups = len(self._values)
        self._ways = [[0] * (count + 1) for _ in range(groups + 1)]
        self._ways[groups][0] = 1
        for group in reversed(range(groups)):
            later = self._ways[group + 1]
            for left in range(count + 1):
                taken = range(min(self._most[group], left) + 1)
                self._ways[group][left] = sum(later[left - c] for c in taken)

    def __len__(self) -> int:
        return self._ways[0][self._count]

    def _item(self, index: int) -> tuple[T, ...]:
        selection: list[T] = []
        left = self._count
        for group, value in enumerate(self._values):
            for taken in reversed(range(min(self._most[group], left) + 1)):
                block = self._ways[group + 1][left - taken]
                if index < block:
                    selection += [value] * taken
                    left -= taken
                    break
                index -= block
        return tuple(selection)

    def __iter__(self) -> Iterator[tuple[T, ...]]:
        return self._from(0, self._count, ())

    def _from(self, group: int, left: int, chosen: tuple[T, ...]) -> Iterator[tuple[T, ...]]:
        if group == len(self._values):
            if left == 0:
                yield chosen
            return
        if self._ways[group][left] == 0:
            return
        value = self._values[group]
        for taken in reversed(range(min(self._most[group], left) + 1)):
            yield from self._from(group + 1, left - taken, chosen + (value,) * taken)

    def __contains__(self, selection: object) -> bool:
        if not isinstance(selection, tuple) or len(selection) != self._count:
            return False
        counts = Counter(selection)
        if any(value not in self._values for value in counts):
            return False
        canonical: list[T] = []
        for group, value in enumerate(self._values):
            if counts[value] > self._most[group]:
                return False
            canonical += [value] * counts[value]
        return tuple(canonical) == selection

    def __repr__(self) -> str:
        return f"DistinctSelections({len(self)} selections of {self._count})"
