"""A request leaves no reference cycle behind: each one that did (the body reader's receive
referred to its request) kept a request's whole graph (the ASGI cycle, its headers, the scope)
for the garbage collector, whose passes then took 15-50 ms every second or so under load."""

from __future__ import annotations

import gc
from typing import Any

from api.body import ApiRequest


async def receive() -> dict[str, Any]:
    return {"type": "http.request", "body": b"{}", "more_body": False}


async def send(message: Any) -> None:
    pass


def test_a_request_is_freed_as_soon_as_it_is_dropped() -> None:
    scope: dict[str, Any] = {
        "type": "http",
        "method": "POST",
        "path": "/v1/games",
        "headers": [(b"content-type", b"application/json")],
        "query_string": b"",
        "state": {},
    }
    gc.collect()
    gc.disable()
    try:
        request = ApiRequest(scope, receive, send)  # type: ignore[arg-type]
        assert request.method == "POST"
        del request
        assert gc.collect() == 0  # nothing was left for the collector to find
    finally:
        gc.enable()
