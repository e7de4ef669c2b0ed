"""The viewer: plain pages, served by the API itself, that watch, replay and audit any game.

The pages are static files (`api/web/`: HTML, CSS, JavaScript modules; no build step) that
read the public API (`/v1`) and nothing else. A seat token pasted into a page stays in that
page's memory: the pages are sent with a policy that allows scripts from this origin only, and
no referrer, so that nothing injected or linked can carry it off.

`/web/{name}` serves the files found under `api/web/` when the process starts, by their names
and nothing else: no path a client sends is ever handed to the file system (a NUL, a name too
long for it or a `..` would otherwise reach `stat`). A file added later is served after a restart.
Among them, under `vendor/`, the third-party files the API's documentation page loads.

Every answer says `X-Content-Type-Options: nosniff`, and every HTML answer carries the pages'
policy (`api.frame.response_headers`, a before-send hook: one place for all routes, the files
included), the documentation page its own (DOCS_HEADERS).
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from uuid import UUID

from litestar import Response, get, route
from litestar.enums import HttpMethod, MediaType
from litestar.params import FromPath
from litestar.response import File
from litestar.types import ControllerRouterHandler

from api.openapi import DOCS_STYLE
from api.problems import NOT_FOUND, Problem

WEB = Path(__file__).resolve().parent.parent / "web"
STATIC_PATH = "/web"

PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def csp_hash(text: str) -> str:
    """A policy's source for an inline text by its hash: `'sha256-...'`."""
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


# The API's documentation page (Redoc, under the OpenAPI path; its one script is served from
# `vendor/redoc/` like the viewer's files) has the pages' policy and what Redoc needs beyond it,
# none of it from elsewhere. Three stylesheets in the page, allowed by their hashes alone: its
# own (DOCS_STYLE), the empty <style> that Redoc's styled-components fill through the CSSOM,
# and Redoc's scrollbars' fixed one (another version of Redoc may change it: the browser test
# of /schema then fails). And the worker of Redoc's search, made from a blob: only a script
# already running (this origin's) can make one.
DOCS_STYLES = (
    csp_hash(DOCS_STYLE),
    csp_hash(""),
    "'sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc='",  # perfect-scrollbar's, Redoc 2.5.4
)
DOCS_HEADERS = {
    **PAGE_HEADERS,
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self' "
    + " ".join(DOCS_STYLES)
    + "; img-src 'self' data:; connect-src 'self'; worker-src blob:; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'",
}


def viewer_files(root: Path) -> dict[str, Path]:
    """The viewer's files by their path under `root` ("js/game.js"), hidden ones left out."""
    return {
        path.relative_to(root).as_posix(): path
        for path in sorted(root.rglob("*"))
        if path.is_file() and not any(part.startswith(".") for part in path.relative_to(root).parts)
    }


FILES = viewer_files(WEB)


def page(name: str) -> Response[bytes]:
    """One of the viewer's HTML pages (read on each request: they are small)."""
    return Response((WEB / name).read_bytes(), media_type=MediaType.HTML)


@get("/games/{game_id:uuid}", include_in_schema=False, sync_to_thread=False)
def game_page(game_id: FromPath[UUID]) -> Response[bytes]:
    """A game's table, timeline and audit; the page reads the id from its own URL."""
    return page("game.html")


@route(
    f"{STATIC_PATH}/{{name:path}}",
    http_method=[HttpMethod.GET, HttpMethod.HEAD],
    include_in_schema=False,
    name="viewer-files",
    sync_to_thread=False,
)
def viewer_file(name: FromPath[str]) -> File:
    """One of the viewer's files, as the type its name says (`mimetypes`)."""
    path = FILES.get(name.lstrip("/"))
    if path is None:
        raise Problem(NOT_FOUND, "The viewer has no file of this name.")
    return File(path, filename=path.name, content_disposition_type="inline")


HANDLERS: list[ControllerRouterHandler] = [game_page, viewer_file]
