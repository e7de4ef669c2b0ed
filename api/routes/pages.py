"""The viewer: plain pages, served by the API itself, that watch, replay and audit any game.

The pages are static files (`api/web/`: HTML, CSS, JavaScript modules; no build step) that
read the public API (`/v1`) and nothing else. A seat token pasted into a page stays in that
page's memory: the pages are sent with a policy that allows scripts from this origin only, and
no referrer, so that nothing injected or linked can carry it off.
"""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

from litestar import Response, get
from litestar.enums import MediaType
from litestar.params import FromPath
from litestar.static_files import create_static_files_router
from litestar.types import ControllerRouterHandler

WEB = Path(__file__).resolve().parent.parent / "web"
STATIC_PATH = "/web"

PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def page(name: str) -> Response[bytes]:
    """One of the viewer's HTML pages (read on each request: they are small)."""
    return Response((WEB / name).read_bytes(), media_type=MediaType.HTML, headers=PAGE_HEADERS)


@get("/games/{game_id:uuid}", include_in_schema=False, sync_to_thread=False)
def game_page(game_id: FromPath[UUID]) -> Response[bytes]:
    """A game's table, timeline and audit; the page reads the id from its own URL."""
    return page("game.html")


static_files = create_static_files_router(
    path=STATIC_PATH, directories=[WEB], include_in_schema=False, name="viewer-files"
)

HANDLERS: list[ControllerRouterHandler] = [game_page, static_files]
