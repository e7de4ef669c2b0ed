"""Unions of msgspec Structs, built at run time from the games in the registry."""

from __future__ import annotations

import typing
from collections.abc import Iterable
from typing import Any

import msgspec


def members(union: Any) -> tuple[Any, ...]:
    """The types of a union, or the type itself when it is not one."""
    return typing.get_args(union) or (union,)


def union_of(types: Iterable[Any]) -> Any:
    """One flat union of every member of `types`, in order, without repeats."""
    flat = tuple(dict.fromkeys(member for kind in types for member in members(kind)))
    if not flat:
        raise RuntimeError("no game is registered in referee.games.REGISTRY")
    return typing.Union[flat]  # noqa: UP007 (built at run time from the registry)


def tag_of(value: msgspec.Struct) -> str:
    """The tag of a tagged Struct ("coyote.bid"): the `type` of a stored event."""
    tag = type(value).__struct_config__.tag
    if not isinstance(tag, str):
        raise TypeError(f"{type(value).__name__} is not a tagged Struct")
    return tag
