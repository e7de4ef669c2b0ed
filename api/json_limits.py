"""How deep the JSON the API reads may nest, checked before it is decoded.

A JSON decoder descends once per level of nesting, and Python's stack is bounded: a body of a
few thousand `[` makes msgspec raise RecursionError, at a depth that also depends on how deep
the stack already was, and our own code that walks a decoded value would do the same. So every
JSON document the API reads (a request body, an uploaded bundle and each body recorded in it)
is refused when its arrays and objects nest deeper than `MAX_DEPTH`: far beyond anything the
API defines (its deepest body nests a handful of levels; a test holds every wire type to it)
and far below the stack's limit.

The scan is linear and its steps run in C: a 64 KiB request body costs well under a
millisecond, a 16 MiB upload a fraction of a second (a hostile one, at worst about a second and
a half on a small machine). Pure: the offline verifier uses it too.
"""

from __future__ import annotations

import re
from array import array
from itertools import accumulate
from typing import Final

MAX_DEPTH: Final = 32  # arrays and objects inside one another: `[[1]]` nests 2 deep

# Once its escaped backslashes and quotes are gone, a string is a quote, no quote, a quote (or
# runs to the end, unterminated): one simple pattern, never retried, so the scan stays linear.
_STRING = re.compile(rb'"[^"]*"?')
_OPEN, _CLOSE = 1, 0xFF  # as signed bytes: +1 and -1
_STEPS = bytes.maketrans(b"[{]}", bytes([_OPEN, _OPEN, _CLOSE, _CLOSE]))
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[{]}")


class TooDeep(ValueError):
    """A JSON document nested deeper than the limit."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"JSON nested more than {limit} levels deep is refused.")
        self.limit = limit


def nesting_depth(data: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest (0 for a scalar).

    For text that is not JSON, a number that the decoder's own error makes moot.
    """
    return _deepest(_steps(data), stop_above=None)


def check_depth(data: bytes, limit: int = MAX_DEPTH) -> None:
    """Raise TooDeep if `data` nests deeper than `limit`.

    Each step is in C and linear: a count of the brackets, which bounds the depth (most bodies
    end there); the brackets outside strings; pairs `[]` and `{}` taken out, innermost first, at
    most `limit` times, which empties any well-formed text that nests no deeper than `limit`;
    and only if brackets remain (too deep, or unbalanced), the exact depth, stopping as soon as
    it exceeds the limit.
    """
    if data.count(b"[") + data.count(b"{") <= limit:
        return
    steps = _steps(data)
    if steps.count(_OPEN) <= limit:
        return
    remaining = steps
    for _ in range(limit):
        inner = remaining.replace(_PAIR, b"")
        if len(inner) == len(remaining):
            break
        remaining = inner
    if remaining and _deepest(steps, stop_above=limit) > limit:
        raise TooDeep(limit)


_PAIR = bytes([_OPEN, _CLOSE])
_CHUNK = 1 << 16


def _steps(data: bytes) -> bytes:
    """The brackets outside strings, as +1 and -1 (signed bytes)."""
    unescaped = data.replace(b"\\\\", b"").replace(b'\\"', b"")  # in this order: `\\"` ends one
    return _STRING.sub(b"", unescaped).translate(_STEPS, _NOT_BRACKETS)


def _deepest(steps: bytes, stop_above: int | None) -> int:
    """The greatest depth the steps reach, or a depth above `stop_above` once one is found."""
    deepest = depth = 0
    for start in range(0, len(steps), _CHUNK):
        depths = list(accumulate(array("b", steps[start : start + _CHUNK]), initial=depth))
        deepest, depth = max(deepest, *depths), depths[-1]
        if stop_above is not None and deepest > stop_above:
            break
    return deepest
