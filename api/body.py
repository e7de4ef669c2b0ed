"""Reading request bodies: what every body the API reads is held to, before any handler sees it.

The application's requests are `ApiRequest`s. Their JSON body is decoded here rather than by
the framework, so that every way a body can fail to be JSON is a MalformedBody (400), whatever
the handler: not UTF-8, not JSON, or nested deeper than `api.json_limits.MAX_DEPTH`. A body over
the size limit is refused while it streams in (413, by the framework). The body is read as JSON
whatever its Content-Type says: a client that forgets the header is not refused for that alone.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request
from litestar.types import Empty

from api.json_limits import MAX_DEPTH, TooDeep, check_depth

_DECODER = msgspec.json.Decoder()


class MalformedBody(ValueError):
    """A request body that is not a JSON document the API reads."""


def read_json(data: bytes) -> Any:
    """The JSON document in `data`, or MalformedBody saying what is wrong with it."""
    try:
        check_depth(data)
        return _DECODER.decode(data)
    except TooDeep:
        raise MalformedBody(
            f"The body nests arrays and objects more than {MAX_DEPTH} levels deep."
        ) from None
    except UnicodeDecodeError as error:
        raise MalformedBody(f"The body is not UTF-8 text: {error.reason}.") from None
    except msgspec.DecodeError as error:
        raise MalformedBody(f"The body is not JSON: {error}") from None


class ApiRequest(Request[Any, Any, Any]):
    """A request whose body is read under the rules of this module."""

    async def json(self) -> Any:
        if self._json is Empty:
            if self._connection_state.json is Empty:
                self._connection_state.json = read_json(await self.body() or b"null")
            self._json = self._connection_state.json
        return self._json
