"""The depth of JSON, measured before decoding: exact on any JSON, whatever its strings hold."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.json_limits import MAX_DEPTH, TooDeep, check_depth, nesting_depth

# Strings full of what a scanner could mistake for structure: brackets, quotes, backslashes.
tricky_text = st.text(alphabet=st.sampled_from('[]{}"\\/ ,:a\n\u00e9\u2028'), max_size=12)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | tricky_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(tricky_text, inner, max_size=4),
    max_leaves=60,
)


def depth_of(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth_of, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth_of, value.values()), default=0)
    return 0


@given(json_values, st.booleans())
def test_the_depth_is_exact_on_any_json(value: Any, spaced: bool) -> None:
    text = json.dumps(value, indent=1 if spaced else None, ensure_ascii=False).encode()
    assert nesting_depth(text) == depth_of(value)
    assert nesting_depth(msgspec.json.encode(value)) == depth_of(value)


@given(json_values, st.integers(min_value=0, max_value=8))
def test_check_depth_refuses_exactly_what_nests_deeper_than_the_limit(
    value: Any, limit: int
) -> None:
    text = msgspec.json.encode(value)
    if depth_of(value) > limit:
        with pytest.raises(TooDeep):
            check_depth(text, limit)
    else:
        check_depth(text, limit)


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        (b"1", 0),
        (b"[]", 1),
        (b'{"a": [{"b": "[[[["}]}', 3),
        (b'["\\\\", [[]]]', 3),  # an escaped backslash ends no string
        (b'["\\\\\\"[", [[]]]', 3),  # an escaped backslash, then an escaped quote
        (b'{"a": "\\u005b"}', 1),
    ],
)
def test_strings_and_escapes_are_not_structure(text: bytes, depth: int) -> None:
    assert nesting_depth(text) == depth


def test_the_limit_is_refused_one_level_past_it() -> None:
    check_depth(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH)
    with pytest.raises(TooDeep):
        check_depth(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))
    with pytest.raises(TooDeep):
        check_depth(b"[" * (MAX_DEPTH + 1))  # unclosed: still too deep for the decoder


@pytest.mark.parametrize(
    "text",
    [
        b"[" * (4 << 20),
        b"[]" * (2 << 20),
        b'"' + b'\\"' * (2 << 20),  # one unterminated string of escaped quotes
        b'"' + b"\\" * (4 << 20),
        b'"",' * (1 << 20),
        b'["[",' * (1 << 20),
    ],
    ids=["deep", "wide", "escaped-quotes", "backslashes", "empty-strings", "bracket-strings"],
)
def test_hostile_megabytes_are_scanned_in_linear_time(text: bytes) -> None:
    """Not a measure of speed (tests/bench is): a quadratic scan of 4 MiB would take hours, this
    takes a fraction of a second."""
    started = time.process_time()
    with contextlib.suppress(TooDeep):
        check_depth(text)
    assert time.process_time() - started < 10


def type_depth(info: msgspec.inspect.Type, raw: int, seen: tuple[type, ...] = ()) -> int:
    """How deep a value of this type can nest; `raw` for a Raw (recorded options)."""
    match info:
        case msgspec.inspect.Metadata():
            return type_depth(info.type, raw, seen)
        case msgspec.inspect.UnionType():
            return max(type_depth(member, raw, seen) for member in info.types)
        case msgspec.inspect.StructType():
            assert info.cls not in seen, f"{info.cls.__name__} nests itself: no bound"
            fields = [type_depth(field.type, raw, (*seen, info.cls)) for field in info.fields]
            return 1 + max(fields, default=0)
        case msgspec.inspect.TupleType():
            return 1 + max((type_depth(item, raw, seen) for item in info.item_types), default=0)
        case msgspec.inspect.CollectionType():  # list, set, variadic tuple
            return 1 + type_depth(info.item_type, raw, seen)
        case msgspec.inspect.DictType():
            return 1 + type_depth(info.value_type, raw, seen)
        case msgspec.inspect.RawType():
            return raw
        case msgspec.inspect.AnyType():
            raise AssertionError("an Any can nest without bound")
        case _:
            return 0


def test_no_body_the_api_defines_comes_near_the_limit() -> None:
    """Request bodies, bundles and every body recorded in one: at most half the limit."""
    from api.bundle import Bundle
    from api.schemas import AnyNewGame, CommandRequest
    from referee.games import REGISTRY
    from referee.kernel import GameCreated, SeedRevealed

    games = list(REGISTRY)
    options = max(type_depth(msgspec.inspect.type_info(game.options_type), 0) for game in games)
    recorded = [GameCreated, SeedRevealed]
    recorded += [kind for game in games for kind in (game.command_type, game.event_type)]
    deepest = {
        name: type_depth(msgspec.inspect.type_info(kind), options)
        for name, kind in [
            ("new game", AnyNewGame),
            ("command", CommandRequest),
            ("bundle", Bundle),
            *((f"recorded {kind}", kind) for kind in recorded),
        ]
    }
    assert max(deepest.values()) <= MAX_DEPTH // 2, deepest
