"""Parameters and documentation shared by several routes."""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec
from litestar.openapi.spec import SecurityRequirement

from api.auth import SECURITY_SCHEME
from api.problems import (
    CORRUPT_STREAM,
    DATABASE_UNAVAILABLE,
    FORBIDDEN,
    MALFORMED,
    NOT_FOUND,
    RULES_UNAVAILABLE,
    UNAUTHORIZED,
    FieldError,
    Problem,
)

T = TypeVar("T")

MAX_SEQ = 2**31 - 1  # bounds a seq or an offset, so that any value in range is answered

# A token is optional on reads (none: the spectator's view), required to act.
OPTIONAL_SEAT: list[SecurityRequirement] = [{}, {SECURITY_SCHEME: []}]
REQUIRED_SEAT: list[SecurityRequirement] = [{SECURITY_SCHEME: []}]

GAME_READ_PROBLEMS = (
    MALFORMED,
    UNAUTHORIZED,
    FORBIDDEN,
    NOT_FOUND,
    RULES_UNAVAILABLE,
    CORRUPT_STREAM,
    DATABASE_UNAVAILABLE,
)


def strict_body(value: Any, body_type: type[T]) -> T:
    """The request body as `body_type`, with JSON's own types: no "7" for 7.

    Litestar converts bodies leniently (as it must for query strings), so body handlers take the
    decoded JSON unvalidated (`SkipValidation`) and convert it here.
    """
    try:
        return msgspec.convert(_integral_floats_as_ints(value), body_type, strict=True)
    except msgspec.ValidationError as error:
        raise Problem(
            MALFORMED,
            f"The request body is invalid: {error}",
            errors=[FieldError(message=str(error), source="body")],
        ) from None


def _integral_floats_as_ints(value: Any) -> Any:
    """JSON Schema counts 3.0 as an integer, so the API does too (a float field takes an int)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _integral_floats_as_ints(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_integral_floats_as_ints(item) for item in value]
    return value
