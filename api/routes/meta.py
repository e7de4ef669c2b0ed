"""The service's front door and its metrics (the OpenAPI document and its docs page are served
under /schema, the health checks under /health, the viewer's pages by `api.routes.pages`)."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.plugins.prometheus import PrometheusController
from litestar.types import ControllerRouterHandler

from api.openapi import DOCS
from api.routes.pages import page


class MetricsController(PrometheusController):
    path = "/metrics"
    include_in_schema = False


class Index(msgspec.Struct, frozen=True, kw_only=True):
    """Where everything is: what `GET /` answers a program."""

    service: str = "referee"
    docs: str = DOCS
    openapi: str = f"{DOCS}/openapi.json"
    kinds: str = "/v1/kinds"
    games: str = "/v1/games"
    audits: str = "/v1/audits"
    live: str = "/health/live"
    ready: str = "/health/ready"
    metrics: str = "/metrics"


@get("/", include_in_schema=False, sync_to_thread=False)
def index(request: Request[Any, Any, State]) -> Response[Index] | Response[bytes]:
    """A browser gets the viewer's list of games; a program gets the map of the service."""
    if request.accept.best_match(["application/json", "text/html"]) == "text/html":
        return page("index.html")
    return Response(Index())


HANDLERS: list[ControllerRouterHandler] = [MetricsController, index]
