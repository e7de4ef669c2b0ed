"""An HTTP request's ASGI scope as uvicorn makes it, for the benches that call an app directly."""

from __future__ import annotations

from typing import Any


def http_scope(
    method: str, path: str, query: str = "", headers: list[tuple[bytes, bytes]] | None = None
) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1",
        "scheme": "http",
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 50000),
        "method": method,
        "root_path": "",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "headers": headers or [],
        "state": {},
    }
