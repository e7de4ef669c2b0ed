"""Limits on what a client may hold of the server: connections, and time to send a request.

uvicorn closes a connection idle between two requests (keep-alive timeout), but not one that
opened and sends nothing, or half a request line, or headers that never end: it would hold it
forever. `GuardedProtocol` is uvicorn's HTTP protocol (httptools) with these limits added:

- The request line and headers must arrive within `header_read_timeout` of the connection
  opening, or of the previous response ending; else the connection is closed. While a request
  is being served (its headers are in) this clock does not run. The rest of a body answered
  before it was read (a refused upload) must arrive within the same time.
- Headers larger than `MAX_HEADER_BYTES` are answered 431 and the connection closed.
- At most `max_connections` connections per process: one more is answered 503 and closed at
  once, before anything is read from it.
- On a stop signal, a response still running after `shutdown_grace` (an event stream never
  ends by itself) has its connection closed: the app sees its client leave, and the stream
  ends as when a client hangs up, logged at info. uvicorn would cancel it instead, and log that
  and the cancellation's traceback as errors.

The body of a request is the application's to read: `body_within` gives it
`body_read_timeout` from the headers to its last byte, then answers 408 (problem+json) and
closes the connection.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
from http import HTTPStatus
from typing import Any

import structlog
from litestar import Litestar
from litestar.types import Receive, ReceiveMessage
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from api.config import Settings
from api.problems import (
    HEADERS_TOO_LARGE,
    PROBLEM_MEDIA_TYPE,
    TOO_MANY_CONNECTIONS,
    Problem,
    ProblemKind,
)

MAX_HEADER_BYTES = 64 * 1024  # a request line and headers, together

log = structlog.get_logger("api.server")

REQUEST_TIMEOUT = ProblemKind("request-timeout", 408, "The request was not received in time.")


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a header read timeout and a connection limit, set for
    the process by `configure` (uvicorn makes one instance per connection)."""

    header_read_timeout: float = 10.0
    max_connections: int = 2048
    shutdown_grace: float = 10.0

    @classmethod
    def configure(cls, settings: Settings) -> type[GuardedProtocol]:
        """Take this process's limits from `settings`; the class to give uvicorn (`http=`)."""
        cls.header_read_timeout = settings.header_read_timeout_seconds
        cls.max_connections = settings.max_connections
        cls.shutdown_grace = settings.shutdown_grace_seconds
        return cls

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._header_bytes = 0  # received towards the current request's headers
        self._cut_timer: asyncio.TimerHandle | None = None

    # -- connections -------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            self._refuse(503, "Too many connections; try again shortly.", retry_after=1)
            return
        self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        if self._cut_timer is not None:
            self._cut_timer.cancel()
        super().connection_lost(exc)

    def shutdown(self) -> None:
        self._stop_header_timer()
        super().shutdown()  # closes an idle connection; a running response's, once it ends
        if not self.transport.is_closing():
            self._cut_timer = self.loop.call_later(self.shutdown_grace, self._cut)

    def _cut(self) -> None:
        """The grace period is over and a response still runs: close its connection."""
        if not self.transport.is_closing():
            log.info("connection cut: the server is stopping", after_seconds=self.shutdown_grace)
            self.transport.close()

    # -- the headers' deadline ---------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        # Bytes towards the next request's headers, not the rest of a body that was answered
        # before it was read (a refused upload): that is bounded by the deadline alone.
        counting = self._header_timer is not None and (
            self.cycle is None or not self.cycle.more_body
        )
        super().data_received(data)
        if counting and self._header_timer is not None:  # still no end of headers
            self._header_bytes += len(data)
            if self._header_bytes > MAX_HEADER_BYTES and not self.transport.is_closing():
                self._refuse(431, "The request's line and headers are too large.")

    def on_headers_complete(self) -> None:
        self._stop_header_timer()
        super().on_headers_complete()
        if self.cycle is not None and self.cycle.transport is self.transport:
            # A response's head leaves with its body, in one send.
            self.cycle.transport = HeadWithBody(self.transport, self.loop)  # type: ignore[assignment]

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # The next request's headers are due now, unless one is already in (pipelined).
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._await_headers()

    def _await_headers(self) -> None:
        self._stop_header_timer()
        self._header_bytes = 0
        self._header_timer = self.loop.call_later(self.header_read_timeout, self._headers_late)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def _refuse(self, status: int, detail: str, *, retry_after: int | None = None) -> None:
        """Answer a problem on a connection no request of which is being served, and close it."""
        self._stop_header_timer()
        kind = {503: TOO_MANY_CONNECTIONS, 431: HEADERS_TOO_LARGE}[status]
        body = json.dumps(
            {
                "type": kind.type,
                "title": detail,
                "status": status,
                "detail": detail,
            }
        ).encode()
        head = [
            f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
            f"content-type: {PROBLEM_MEDIA_TYPE}",
            f"content-length: {len(body)}",
            "connection: close",
        ]
        if retry_after is not None:
            head.append(f"retry-after: {retry_after}")
        self.transport.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        self.transport.close()


class HeadWithBody:
    """A response's transport that sends the response's head with the first write after it.

    uvicorn writes a response's status line and headers, then its body: two sends, and on a
    loopback connection the reader is woken for each. The first write of a response (its head)
    is held until the next one, and both leave in one send; a head with no write after it in
    the same turn of the event loop (a stream that has nothing yet) leaves at the end of that
    turn. Nothing else waits: what follows goes as it comes. Everything else is the transport's
    own; closing sends what is held first.
    """

    __slots__ = ("_held", "_loop", "_started", "_transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._started = False
        self._held: bytes | None = None

    def write(self, data: bytes) -> None:
        if not self._started:
            self._started = True
            self._held = data
            self._loop.call_soon(self._release)
            return
        if self._held is not None:
            data, self._held = self._held + data, None
        self._transport.write(data)

    def close(self) -> None:
        self._release()
        self._transport.close()

    def _release(self) -> None:
        if self._held is not None:
            held, self._held = self._held, None
            if not self._transport.is_closing():
                self._transport.write(held)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


def worker_app() -> Litestar:
    """The app of one worker process of `referee serve --workers N` (uvicorn's factory): its
    settings come from the environment, the database's URL included (`serve` sets it)."""
    from api.app import create_app
    from api.logging import configure_logging
    from api.supervisor import die_with_supervisor

    die_with_supervisor()
    settings = Settings.from_env()
    configure_logging(settings.log_level)
    # uvicorn set its own loggers up before this; the app writes one line per request itself.
    logging.getLogger("uvicorn.access").propagate = False
    GuardedProtocol.configure(settings)
    app = create_app(settings)
    tune_garbage_collector()
    return app


# Python's collector runs a pass over its youngest generation after 700 new container objects,
# and over older ones every 10 of those: a move makes thousands (requests, rows, events, the
# table it folds), and the passes over older generations walk every cached game's objects. At
# the defaults these passes made the slowest moves: p99 115 ms at 300 moves/s offered on the
# bench's machine, 28-33 ms with these (p50 10 -> 7 ms); cycles are still collected, later.
GC_THRESHOLDS = (20_000, 50, 100)  # the defaults: (700, 10, 10)


def tune_garbage_collector() -> None:
    """For a serving process, once its app is made: what exists by then (modules, routes, the
    games' data) lives as long as the process, so no pass walks it again; and every
    generation is collected less often (`GC_THRESHOLDS`)."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def body_within(receive: Receive, timeout: float) -> Receive:
    """`receive` held to a deadline: a request's body must arrive within `timeout` seconds of
    its headers (of this call), else 408 and the connection is closed (`Connection: close`).
    What follows the body (a disconnect) has no deadline. api/frame.py wraps every request's."""
    deadline = asyncio.get_running_loop().time() + timeout
    body_done = False

    async def receive_in_time() -> ReceiveMessage:
        nonlocal body_done
        if body_done:
            return await receive()
        try:
            async with asyncio.timeout_at(deadline):
                message = await receive()
        except TimeoutError:
            raise Problem(
                REQUEST_TIMEOUT,
                f"The request's body did not arrive within {timeout:g} s.",
                headers={"Connection": "close"},
            ) from None
        if message["type"] != "http.request" or not message.get("more_body", False):
            body_done = True
        return message

    return receive_in_time
