"""Liveness and readiness, for orchestrators and load balancers."""

from __future__ import annotations

from litestar import get
from litestar.di import NamedDependency

from api.problems import DATABASE_UNAVAILABLE, HEADERS_TOO_LARGE, responses
from api.schemas import Health
from api.service import GameService


@get(
    "/health/live",
    operation_id="live",
    summary="Liveness",
    tags=["health"],
    responses=responses(HEADERS_TOO_LARGE),
)
async def live() -> Health:
    """The process is up."""
    return Health(status="ok")


@get(
    "/health/ready",
    operation_id="ready",
    summary="Readiness",
    tags=["health"],
    responses=responses(HEADERS_TOO_LARGE, DATABASE_UNAVAILABLE),
)
async def ready(service: NamedDependency[GameService]) -> Health:
    """The process can serve requests: the database answers."""
    await service.ready()
    return Health(status="ok")


HANDLERS = [live, ready]
