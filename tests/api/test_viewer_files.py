"""The viewer's files and pages: only its own files are served, each as the kind of file it is,
every page under the same security headers; no spelling of a path is ever a 500."""

from __future__ import annotations

import asyncio
import json
import urllib.parse
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from litestar import Litestar

from api.routes.pages import DOCS_HEADERS, WEB
from tests.api.helpers import Client

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
VIEWER_FILES = sorted(path.relative_to(WEB).as_posix() for path in WEB.rglob("*") if path.is_file())

# Spellings of a path a client may send: encoded NULs, dots and slashes, overlong UTF-8, double
# encoding, backslashes, names too long for the file system, percent signs that encode nothing.
ODD_SPELLINGS = [
    "%00",
    "index.html%00",
    "index.html%00.css",
    "%00/index.html",
    "css/%00",
    "%2e%2e/%2e%2e/api/app.py",
    "%2e%2e%2f%2e%2e%2fapi%2fapp.py",
    "..%2f..%2fpyproject.toml",
    "%c0%ae%c0%ae/%c0%ae%c0%ae/api/app.py",
    "%c0%af",
    "%252e%252e/%252e%252e/api/app.py",
    "%25%30%30",
    "..%5c..%5capi%5capp.py",
    "..\\..\\api\\app.py",
    "%5c%5c",
    "a" * 5_000,
    "/".join(["a" * 255] * 40),
    "%ff%fe",
    "%e2%80%ae",
    "%0d%0aSet-Cookie:%20x=1",
    "%",
    "%zz",
    "index.html/x",
    "css",
    "js/",
    ".",
    "%2e",
    "~",
    "index.html::$DATA",
    "%u002e%u002e/app.py",
]
PREFIXES = ["/web/", "/web/js/", "/web/css/", "/games/", "/", "/schema/", "/v1/games/"]


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


async def get_raw(app: Litestar, raw_path: str, accept: str = BROWSER_ACCEPT) -> Answer:
    """GET `raw_path` exactly as written, decoded as uvicorn decodes it (no client normalises it
    first: the ASGI scope an HTTP server would make)."""
    received: list[dict[str, Any]] = []
    answered = asyncio.Event()
    asked = False

    async def receive() -> dict[str, Any]:
        """The request's (empty) body, then, as uvicorn does, a disconnect once the whole
        answer is sent (a file sent in chunks listens for it meanwhile)."""
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await answered.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        received.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body", False):
            answered.set()

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": urllib.parse.unquote(raw_path),
        "raw_path": raw_path.encode("latin-1"),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"accept", accept.encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
        "state": {},
    }
    await app(scope, receive, send)  # type: ignore[arg-type]
    start = next(message for message in received if message["type"] == "http.response.start")
    headers = {name.decode().lower(): value.decode() for name, value in start["headers"]}
    body = b"".join(m.get("body", b"") for m in received if m["type"] == "http.response.body")
    return Answer(start["status"], headers, body)


@pytest.mark.parametrize("prefix", PREFIXES)
async def test_no_spelling_of_a_path_is_a_server_error(started_app: Litestar, prefix: str) -> None:
    for spelling in ODD_SPELLINGS:
        answer = await get_raw(started_app, prefix + spelling)
        assert answer.status in (400, 404), (prefix + spelling[:80], answer.status, answer.body)
        assert str(WEB.parent) not in answer.body.decode(errors="replace")  # no server path
        if answer.headers["content-type"].startswith("application/problem+json"):
            problem = json.loads(answer.body)
            assert problem["status"] == answer.status and "Traceback" not in problem["detail"]


async def test_a_viewer_file_is_served_by_its_name_only(started_app: Litestar) -> None:
    for name in VIEWER_FILES:
        assert (await get_raw(started_app, f"/web/{name}")).status == 200, name
    for other in ["/web/../app.py", "/web/%2e%2e/app.py", "/web/css/../../app.py", "/web/"]:
        assert (await get_raw(started_app, other)).status == 404, other


async def root_page_headers(client: Client) -> dict[str, str]:
    page = await client.get("/", headers={"Accept": BROWSER_ACCEPT})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    wanted = ["content-security-policy", "referrer-policy", "x-content-type-options"]
    headers = {name: page.headers[name] for name in wanted}
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    return headers


async def test_every_html_answer_carries_the_security_headers_of_the_front_page(
    client: Client,
) -> None:
    expected = await root_page_headers(client)
    pages = [f"/games/{uuid.uuid4()}", "/web/index.html", "/web/game.html"]
    pages += [f"/web/{name}" for name in VIEWER_FILES if name.endswith(".html")]
    for path in pages:
        methods = ("GET", "HEAD") if path.startswith("/web/") else ("GET",)  # files answer HEAD
        for method in methods:
            page = await client.request(method, path, headers={"Accept": BROWSER_ACCEPT})
            assert page.status_code == 200, (method, path)
            assert page.headers["content-type"].startswith("text/html"), path
            shown = {name: page.headers.get(name) for name in expected}
            assert shown == expected, (method, path)


async def test_every_viewer_file_says_nosniff_with_its_own_type(client: Client) -> None:
    types = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
    for name in VIEWER_FILES:
        answer = await client.get(f"/web/{name}")
        assert answer.status_code == 200, name
        assert answer.headers["x-content-type-options"] == "nosniff", name
        suffix = name[name.rfind(".") :]
        if suffix in types:
            assert answer.headers["content-type"].startswith(types[suffix]), name


async def test_api_answers_and_refusals_say_nosniff_too(client: Client) -> None:
    for path in ["/v1/kinds", "/web/no-such-file.js", "/v1/games/not-a-game", "/health/live"]:
        answer = await client.get(path)
        assert answer.headers["x-content-type-options"] == "nosniff", path


async def test_the_documentation_page_may_not_be_framed_either(client: Client) -> None:
    """The documentation page under /schema has a policy of its own (DOCS_HEADERS; what it
    allows: tests/api/test_docs_offline.py), which forbids framing too."""
    docs = await client.get("/schema", headers={"Accept": BROWSER_ACCEPT})
    assert docs.status_code == 200 and docs.headers["content-type"].startswith("text/html")
    policy = docs.headers["content-security-policy"]
    assert policy == DOCS_HEADERS["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy.split("; ")
    assert docs.headers["x-content-type-options"] == "nosniff"
    assert docs.headers["referrer-policy"] == "no-referrer"
