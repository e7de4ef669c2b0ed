"""Sequences whose items are made when asked for: a legal space of thousands of commands, of
which a client reads a page.

A subclass says how many items there are (`__len__`) and makes the one at a valid index
(`_item`); indexing (negative indices and slices too), iteration, membership and equality
with any sequence of the same items follow. Subclasses override `__iter__` and
`__contains__` where they can do better than by index.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar, overload

T = TypeVar("T", covariant=True)


class LazySequence(Sequence[T]):
    __slots__ = ()

    def _item(self, index: int) -> T:
        """The item at `index`, 0 <= index < len(self)."""
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...

    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            return [self._item(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"{type(self).__name__} index out of range")
        return self._item(index)

    def __iter__(self) -> Iterator[T]:
        return (self._item(i) for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self)} items)"
