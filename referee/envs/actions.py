"""A kind's fixed action space: every command it can ever take, spelt in numbered tokens.

A command is a path of tokens, derived from its type the same way for every kind: the command's
type first, then each field in declaration order. A field whose values are few (an int with
bounds, a literal, a bool, or a union of those with None) is one token from its own *segment*,
a run of indices each meaning one value of that field; a Struct is its fields' tokens; a union
holding a Struct takes a token saying which member, then the member's tokens; a variable tuple
is its items' tokens and then an `end` token. Each index means one thing, always:
`coyote.bid.number = 7` is the same index in every game of every seat count. A literal's
values are in alphabetical order, an int's in increasing order, None last.

Most commands are one to four tokens. An environment asks for them one at a time (the action
mask holds the tokens that lead to some legal command), so that a command made of many parts
(Tribù's three ordered discards, Wind River's teepees sent back) needs no index of its own and
the space stays a few thousand wide. The mask comes from the kernel's `legal_commands` alone:
this module only spells, it never decides what is legal.

Where a field's type has no bounds (a seat, a card id, a hex coordinate), the kind's
`actions.py` gives them (`ActionBounds`); an int outside them is refused with a clear error.
The table of every kind's indices is written in its RULES.md ("Actions"), from `table`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import msgspec.inspect as mi
import numpy as np

from referee.envs.bounds import ActionBounds

Tokens = tuple[int, ...]
Spell = Callable[[Any, list[int]], None]  # appends a value's tokens
END = "end"


class OutsideActionSpace(ValueError):
    """A command with a value the kind's action space has no index for."""


class IllegalAction(ValueError):
    """An action the mask does not allow: no legal command goes that way."""


@dataclass(frozen=True)
class Segment:
    """A run of indices, one per value of one field: index `offset + i` is `values[i]`."""

    path: str
    values: tuple[Any, ...]
    offset: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "_positions", {_key(v): i for i, v in enumerate(self.values)})

    def index(self, value: Any) -> int:
        position = self._positions.get(_key(value))  # type: ignore[attr-defined]
        if position is None:
            raise OutsideActionSpace(f"{self.path} = {value!r} has no index in the action space")
        return int(self.offset + position)


def _key(value: Any) -> Any:
    # True == 1 in a dict: a bool keeps its own key beside the ints of a segment.
    return ("bool", value) if isinstance(value, bool) else value


class ActionSpace:
    """The numbered tokens of one kind's commands (`size` of them) and how to spell a command."""

    def __init__(self, command_type: Any, bounds: ActionBounds) -> None:
        self._bounds = bounds.ints
        self._unused = set(bounds.ints)
        self.segments: list[Segment] = []
        union = mi.type_info(command_type)
        members = union.types if isinstance(union, mi.UnionType) else (union,)
        structs = [member for member in members if isinstance(member, mi.StructType)]
        tags = tuple(_tag(struct) for struct in structs)
        command = self._segment("command", tags)
        self._spellers: dict[type, Spell] = {}
        for struct, tag in zip(structs, tags, strict=True):
            head = command.index(tag)
            body = self._fields(struct, tag)

            def spell(value: Any, out: list[int], head: int = head, body: Spell = body) -> None:
                out.append(head)
                body(value, out)

            self._spellers[struct.cls] = spell
        if self._unused:
            raise ValueError(f"bounds given for no field: {sorted(self._unused)}")
        self.size = sum(len(segment.values) for segment in self.segments)
        self._cache: dict[msgspec.Struct, Tokens] = {}

    def tokens(self, command: msgspec.Struct) -> Tokens:
        """The command's path of indices."""
        found = self._cache.get(command)
        if found is None:
            out: list[int] = []
            self._spellers[type(command)](command, out)
            found = tuple(out)
            if len(self._cache) > 200_000:  # every command of a kind is far fewer; a bound
                self._cache.clear()
            self._cache[command] = found
        return found

    def meaning(self, index: int) -> str:
        """What an index says, as the RULES.md table writes it ("coyote.bid.number = 7")."""
        for segment in self.segments:
            if segment.offset <= index < segment.offset + len(segment.values):
                return f"{segment.path} = {_shown(segment.values[index - segment.offset])}"
        raise IndexError(f"no index {index} in an action space of {self.size}")

    def table(self) -> Iterator[tuple[str, str, str]]:
        """Rows (indices, field, values): the segments in order."""
        for segment in self.segments:
            first, last = segment.offset, segment.offset + len(segment.values) - 1
            indices = str(first) if first == last else f"{first}-{last}"
            yield indices, segment.path, _values(segment.values)

    # -- deriving the segments from the types ---------------------------------------------------

    def _segment(self, path: str, values: Iterable[Any]) -> Segment:
        offset = sum(len(segment.values) for segment in self.segments)
        segment = Segment(path, tuple(values), offset)
        self.segments.append(segment)
        return segment

    def _fields(self, struct: mi.StructType, path: str) -> Spell:
        spellers = [
            (field.name, self._spell(field.type, f"{path}.{field.encode_name}"))
            for field in struct.fields
        ]

        def spell(value: Any, out: list[int]) -> None:
            for name, speller in spellers:
                speller(getattr(value, name), out)

        return spell

    def _spell(self, info: mi.Type, path: str) -> Spell:
        if isinstance(info, mi.Metadata):
            return self._spell(info.type, path)
        if (values := self._scalars(info, path)) is not None:
            segment = self._segment(path, values)
            return lambda value, out: out.append(segment.index(value))
        if isinstance(info, mi.StructType):
            return self._fields(info, path)
        if isinstance(info, mi.UnionType):
            return self._union(info, path)
        if isinstance(info, mi.VarTupleType | mi.ListType):
            item = self._spell(info.item_type, f"{path}[]")
            end = self._segment(f"{path}.{END}", (END,)).index(END)

            def spell_items(values: Sequence[Any], out: list[int]) -> None:
                for value in values:
                    item(value, out)
                out.append(end)

            return spell_items
        raise TypeError(f"{path}: a command field of type {info!r} has no tokens")

    def _scalars(self, info: mi.Type, path: str) -> tuple[Any, ...] | None:
        """The values of a field that is one token, or None if it is not."""
        if isinstance(info, mi.Metadata):
            return self._scalars(info.type, path)
        if isinstance(info, mi.LiteralType):
            return tuple(sorted(info.values, key=str))  # our order, whatever msgspec's
        if isinstance(info, mi.BoolType):
            return (False, True)
        if isinstance(info, mi.NoneType):
            return (None,)
        if isinstance(info, mi.IntType):
            return tuple(self._ints(info, path))
        if isinstance(info, mi.UnionType):
            members = sorted(info.types, key=lambda member: isinstance(member, mi.NoneType))
            parts = [self._scalars(member, path) for member in members]
            if all(part is not None for part in parts):
                return tuple(value for part in parts if part is not None for value in part)
        return None

    def _ints(self, info: mi.IntType, path: str) -> range:
        if path in self._bounds:
            self._unused.discard(path)
            return self._bounds[path]
        low = info.ge if info.ge is not None else (None if info.gt is None else info.gt + 1)
        high = info.le if info.le is not None else (None if info.lt is None else info.lt - 1)
        if low is None or high is None:
            raise TypeError(f"{path}: an int without bounds needs them in the kind's actions.py")
        return range(low, high + 1)

    def _union(self, info: mi.UnionType, path: str) -> Spell:
        """A token for the member (a literal's or None's value, or a Struct's name), then the
        Struct member's own tokens."""
        members: list[tuple[Callable[[Any], bool], Any, mi.StructType | None]] = []
        for member in info.types:
            inner = member.type if isinstance(member, mi.Metadata) else member
            if isinstance(inner, mi.StructType):
                members.append((_is(inner.cls), inner.cls.__name__.lower(), inner))
            else:
                members += [(_equals(v), v, None) for v in self._scalars(inner, path) or ()]
        which = self._segment(path, tuple(label for _, label, _ in members))
        spelt = [
            (matches, which.index(label), None if struct is None else self._fields(struct, path))
            for matches, label, struct in members
        ]

        def spell(value: Any, out: list[int]) -> None:
            for matches, token, body in spelt:
                if matches(value):
                    out.append(token)
                    if body is not None:
                        body(value, out)
                    return
            raise OutsideActionSpace(f"{path} = {value!r} has no index in the action space")

        return spell


def _tag(struct: mi.StructType) -> str:
    tag = struct.tag
    if not isinstance(tag, str):
        raise TypeError(f"{struct.cls.__name__}: a command is a tagged Struct")
    return tag


def _is(cls: type) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, cls)


def _equals(expected: Any) -> Callable[[Any], bool]:
    return lambda value: value == expected and isinstance(value, bool) == isinstance(expected, bool)


def _shown(value: Any) -> str:
    if value is None:
        return "null"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _values(values: tuple[Any, ...]) -> str:
    numbers = len(values) > 3 and all(type(v) is int for v in values)
    if numbers and list(values) == list(range(values[0], values[-1] + 1)):
        return f"{values[0]} to {values[-1]}"
    return ", ".join(_shown(value) for value in values)


class Choice:
    """One decision of one seat: the legal commands' paths of tokens, walked token by token.

    `mask()` says which tokens go on from where the walk stands; `take(token)` goes on, and
    returns the command once its path is complete (None before). Each step keeps the paths
    that go that way: a decision costs a pass over its legal commands per token, no tree."""

    def __init__(self, space: ActionSpace, legal: Sequence[msgspec.Struct]) -> None:
        self._space = space
        self._paths = [(space.tokens(command), command) for command in legal]
        self._next: set[int] | None = None
        self.taken: list[int] = []

    @property
    def empty(self) -> bool:
        return not self._paths

    def _tokens(self) -> set[int]:
        if self._next is None:
            depth = len(self.taken)
            self._next = {path[depth] for path, _ in self._paths}
        return self._next

    def mask(self) -> np.ndarray:
        mask = np.zeros(self._space.size, dtype=np.int8)
        mask[list(self._tokens())] = 1
        return mask

    def take(self, token: int) -> msgspec.Struct | None:
        allowed = self._tokens()
        if token not in allowed:
            if not 0 <= token < self._space.size:
                last = self._space.size - 1
                raise IllegalAction(f"action {token} is outside the space (0 to {last})")
            shown = sorted(allowed)
            raise IllegalAction(
                f"action {token} ({self._space.meaning(token)}) leads to no legal command here:"
                f" the mask allows {shown[:10]}{'...' if len(shown) > 10 else ''}"
            )
        depth = len(self.taken)
        kept = [(path, command) for path, command in self._paths if path[depth] == token]
        self.taken.append(token)
        self._paths, self._next = kept, None
        complete = [command for path, command in kept if len(path) == depth + 1]
        if not complete:
            return None
        if len(kept) > 1:  # the kind's spelling is at fault, never the player
            raise AssertionError(f"{complete[0]!r}: its path is another command's, or leads on")
        return complete[0]
