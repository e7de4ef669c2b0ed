"""What frames every request: its id and log line, its metrics, its body's deadline, and the
headers every answer carries.

Each concern lives in its own module (api/logging.py, api/metrics.py, api/server.py,
api/routes/pages.py); here they are put together in one plain ASGI layer for the routed
requests (`RequestFrame`) and one before-send hook for every answer, routed or not
(`response_headers`). They were three middlewares and two hooks, each layer wrapping `send` or
`receive` again: without any of them a move cost 0.58 ms in one process instead of 0.78
(tests/bench/app_bench.py; tests/bench/README.md, issue 29's fifth step), and one layer and one
hook keep what they did for part of that.
"""

from __future__ import annotations

import time

from litestar.enums import ScopeType
from litestar.types import ASGIApp, BeforeMessageSendHookHandler, Message, Receive, Scope, Send

from api.logging import REQUEST_ID_NAME, close_request_log, open_request_log, request_id
from api.metrics import RequestMetrics
from api.routes.pages import DOCS_HEADERS, PAGE_HEADERS
from api.server import body_within

Headers = list[tuple[bytes, bytes]]


class RequestFrame:
    """A routed request's log context and line, its metrics and its body's deadline: an ASGI
    middleware (`DefineMiddleware(RequestFrame, body_timeout=...)` in the app's list)."""

    def __init__(self, app: ASGIApp, *, body_timeout: float) -> None:
        self.app = app
        self._body_timeout = body_timeout
        self._metrics = RequestMetrics()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        open_request_log(scope)
        method, path = scope["method"], scope.get("path_template") or scope["path"]
        running = self._metrics.started(method, path)
        status = 500  # what the client gets if the app fails before it answers

        async def send_noting_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        started = time.perf_counter()
        try:
            await self.app(scope, body_within(receive, self._body_timeout), send_noting_status)
        finally:
            seconds = time.perf_counter() - started
            self._metrics.finished(running, method, path, status, seconds)
            close_request_log(scope, status, seconds)


def response_headers(docs: str) -> BeforeMessageSendHookHandler:
    """A before-send hook: every answer carries its request id and says nosniff, and every HTML
    one carries the pages' policy; under `docs` (the OpenAPI path) the documentation page's own
    (DOCS_HEADERS). Any header of these names the answer had is replaced. A coroutine: Litestar
    would run a plain function in a worker thread, twice an answer."""
    docs_prefix = docs.rstrip("/") + "/"
    nosniff = _Added({"X-Content-Type-Options": PAGE_HEADERS["X-Content-Type-Options"]})
    page, docs_page = _Added(PAGE_HEADERS), _Added(DOCS_HEADERS)

    async def add_response_headers(message: Message, scope: Scope) -> None:
        if message["type"] != "http.response.start":
            return
        given = message.get("headers") or ()
        content_type = next((v for k, v in given if k.lower() == b"content-type"), b"")
        ours = nosniff
        if content_type.startswith(b"text/html"):
            path = scope["path"]
            ours = docs_page if path == docs or path.startswith(docs_prefix) else page
        headers: Headers = [(k, v) for k, v in given if k.lower() not in ours.names]
        headers += ours.headers
        headers.append((REQUEST_ID_NAME, request_id(scope).encode("latin-1")))
        message["headers"] = headers

    return add_response_headers


class _Added:
    """Headers an answer is given, encoded once, and the names they replace (the request id's
    among them)."""

    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = [
            (k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()
        ]
        self.names = {name for name, _ in self.headers} | {REQUEST_ID_NAME}
