"""Reading request bodies: what every body the API reads is held to, before any handler sees it.

The application's requests are `ApiRequest`s. Their JSON body is decoded here rather than by
the framework, so that every way a body can fail to be JSON is a MalformedBody (400), whatever
the handler: not UTF-8, not JSON, or nested deeper than `api.json_limits.MAX_DEPTH`. A body over
the size limit is refused while it streams in (413, by the framework). The body is read as JSON
whatever its Content-Type says: a client that forgets the header is not refused for that alone.

A client that hangs up before its body is complete raises ClientDisconnected: nobody is left to
read an answer, and it is no fault of the server's (it is answered 499, as nginx logs it).
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request
from litestar.connection.base import empty_receive, empty_send
from litestar.exceptions import InternalServerException
from litestar.types import Empty, HTTPReceiveMessage, Receive, Scope, Send

from api.json_limits import MAX_DEPTH, TooDeep, check_depth

_DECODER = msgspec.json.Decoder()


class MalformedBody(ValueError):
    """A request body that is not a JSON document the API reads."""


class ClientDisconnected(Exception):
    """The client closed the connection before it had sent the whole body."""


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


class _HangUp:
    """Whether the client hung up: what the request's receive notes, held apart from the request
    so that the receive does not refer to the request (a cycle, left to the garbage collector)."""

    __slots__ = ("seen",)

    def __init__(self) -> None:
        self.seen = False


def _noting_hang_up(receive: Receive, hang_up: _HangUp) -> Receive:
    async def receive_and_note() -> Any:
        message: HTTPReceiveMessage = await receive()  # type: ignore[assignment]
        if message["type"] == "http.disconnect":
            hang_up.seen = True
        return message

    return receive_and_note


class ApiRequest(Request[Any, Any, Any]):
    """A request whose body is read under the rules of this module."""

    def __init__(
        self, scope: Scope, receive: Receive = empty_receive, send: Send = empty_send
    ) -> None:
        self._hang_up = _HangUp()
        super().__init__(scope, _noting_hang_up(receive, self._hang_up), send)

    async def body(self) -> bytes:
        try:
            return await super().body()
        except InternalServerException:  # how the framework reports a body cut short
            if self._hang_up.seen:
                raise ClientDisconnected from None
            raise

    async def json(self) -> Any:
        if self._json is Empty:
            if self._connection_state.json is Empty:
                self._connection_state.json = read_json(await self.body() or b"null")
            self._json = self._connection_state.json
        return self._json
