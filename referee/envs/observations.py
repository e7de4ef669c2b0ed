"""A kind's view as a gymnasium space, derived from the view's own type.

The view a seat gets from `Game.view` is a msgspec Struct of ints, bools, literals, optional
values, tuples and nested Structs (tests/envs checks that every kind's is). Each maps to a space
and each value to a point of it, the same way for every kind:

| in the view                  | space                               | value                      |
|------------------------------|-------------------------------------|----------------------------|
| Struct                       | `Dict`, its fields in order         | dict                       |
| int (bounds from its `Meta`) | `Box(shape=(), dtype=int64)`        | 0-d int64 array            |
| bool                         | `Discrete(2)`                       | 0 or 1                     |
| Literal                      | `Discrete(len(values))`             | the value's position       |
| `X | Y | None`               | `OneOf((X, Y, Discrete(1)))`        | `(member, value)`          |
| `tuple[X, ...]`              | `Sequence(X)`                       | tuple                      |
| `tuple[X, Y]`                | `Tuple((X, Y))`                     | tuple                      |

A literal's positions are its values in alphabetical order; a union's members are in the order
its type declares them, None last. The view's JSON, in the API's own form, is beside it in the
step's info.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium.spaces as spaces
import msgspec
import msgspec.inspect as mi
import numpy as np

Encoder = Callable[[Any], Any]
INT64 = np.iinfo(np.int64)


class UnsupportedView(TypeError):
    """A view holds a type this module does not map (a string, a float, a dict...)."""


def view_space(view_type: Any) -> tuple[spaces.Space[Any], Encoder]:
    """The space of a kind's views, and the function that maps a view into it."""
    return _convert(mi.type_info(view_type))


def _convert(info: mi.Type) -> tuple[spaces.Space[Any], Encoder]:
    match info:
        case mi.Metadata():
            return _convert(info.type)
        case mi.StructType():
            return _struct(info)
        case mi.BoolType():
            return spaces.Discrete(2), int
        case mi.IntType():
            return _int(info)
        case mi.LiteralType():
            ordered = sorted(info.values, key=str)
            positions = {value: index for index, value in enumerate(ordered)}
            return spaces.Discrete(len(positions)), positions.__getitem__
        case mi.UnionType():
            return _union(info)
        case mi.VarTupleType() | mi.ListType():
            item, encode = _convert(info.item_type)
            return spaces.Sequence(item), lambda values: tuple(encode(v) for v in values)
        case mi.TupleType():
            converted = [_convert(item) for item in info.item_types]
            encoders = [encode for _, encode in converted]
            return spaces.Tuple([space for space, _ in converted]), lambda values: tuple(
                encode(value) for encode, value in zip(encoders, values, strict=True)
            )
    raise UnsupportedView(f"a view holds {info!r}, which has no space here")


def _struct(info: mi.StructType) -> tuple[spaces.Space[Any], Encoder]:
    fields = [(field.name, _convert(field.type)) for field in info.fields]
    names = [name for name, _ in fields]
    encoders = [encode for _, (_, encode) in fields]

    def encode(value: msgspec.Struct) -> dict[str, Any]:
        return {
            name: encode_field(getattr(value, name))
            for name, encode_field in zip(names, encoders, strict=True)
        }

    return spaces.Dict({name: space for name, (space, _) in fields}), encode


def _int(info: mi.IntType) -> tuple[spaces.Space[Any], Encoder]:
    low = info.ge if info.ge is not None else (info.gt + 1 if info.gt is not None else INT64.min)
    high = info.le if info.le is not None else (info.lt - 1 if info.lt is not None else INT64.max)
    space = spaces.Box(low=low, high=high, shape=(), dtype=np.int64)
    return space, lambda value: np.asarray(value, dtype=np.int64)


def _union(info: mi.UnionType) -> tuple[spaces.Space[Any], Encoder]:
    """One member per type of the union (None last): a value is (its member, its point)."""
    members = sorted(info.types, key=lambda member: isinstance(member, mi.NoneType))
    converted = [
        (spaces.Discrete(1), lambda _: 0) if isinstance(member, mi.NoneType) else _convert(member)
        for member in members
    ]
    encoders = [encode for _, encode in converted]
    which = [_matcher(member) for member in members]

    def encode(value: Any) -> tuple[int, Any]:
        for index, matches in enumerate(which):
            if matches(value):
                return index, encoders[index](value)
        raise UnsupportedView(f"{value!r} is no member of {info!r}")

    return spaces.OneOf([space for space, _ in converted]), encode


def _matcher(info: mi.Type) -> Callable[[Any], bool]:
    """Whether a value belongs to one member of a union."""
    match info:
        case mi.Metadata():
            return _matcher(info.type)
        case mi.NoneType():
            return lambda value: value is None
        case mi.BoolType():
            return lambda value: isinstance(value, bool)
        case mi.IntType():
            return lambda value: isinstance(value, int) and not isinstance(value, bool)
        case mi.LiteralType():
            values = frozenset(info.values)
            return lambda value: isinstance(value, str | int) and value in values
        case mi.StructType():
            return lambda value: isinstance(value, info.cls)
        case mi.VarTupleType() | mi.TupleType() | mi.ListType():
            return lambda value: isinstance(value, tuple | list)
    raise UnsupportedView(f"a union member {info!r} has no space here")
