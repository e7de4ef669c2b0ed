"""The HTTP routes: thin handlers over `api.service`, bodies from `api.schemas`."""

from litestar import Router
from litestar.types import ControllerRouterHandler

from api.dependencies import GAME_DEPENDENCIES
from api.routes import (
    audit,
    games,
    health,
    history,
    kinds,
    meta,
    pages,
    play,
    proofs,
    seats,
    stream,
)

v1 = Router(
    path="/v1",
    route_handlers=[
        *kinds.HANDLERS,
        *games.HANDLERS,
        *play.HANDLERS,
        *seats.HANDLERS,
        *history.HANDLERS,
        *stream.HANDLERS,
        *audit.HANDLERS,
        *proofs.HANDLERS,
    ],
    dependencies=GAME_DEPENDENCIES,
)
ROUTE_HANDLERS: list[ControllerRouterHandler] = [
    v1,
    *health.HANDLERS,
    *meta.HANDLERS,
    *pages.HANDLERS,
]
