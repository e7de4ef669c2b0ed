"""Opaque cursors for the list of games: the (created_at, game_id) of the last game of a page."""

from __future__ import annotations

import base64
import binascii
from datetime import UTC, datetime, timedelta

from eventstore.types import InvalidCursor, StreamInfo

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def encode_cursor(last: StreamInfo) -> str:
    """The cursor of the page that follows `last`."""
    micros = (last.created_at - _EPOCH) // _MICROSECOND  # exact: no float rounding
    raw = f"{micros}:{last.game_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """(created_at, game_id) of the last game already seen; InvalidCursor if it is not ours."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        micros, game_id = raw.split(":", 1)
        if "\x00" in game_id:  # no text column can hold it: no game of ours has it
            raise ValueError("a NUL in a game id")
        return _EPOCH + int(micros) * _MICROSECOND, game_id
    except (binascii.Error, UnicodeDecodeError, ValueError, OverflowError) as error:
        raise InvalidCursor(f"not a cursor of this list: {cursor!r}") from error
