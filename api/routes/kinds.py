"""The kinds of game this referee knows."""

from __future__ import annotations

from litestar import get
from litestar.di import NamedDependency

from api.problems import HEADERS_TOO_LARGE, responses
from api.schemas import KindList
from api.views import kind_info
from referee.kernel import Registry


@get(
    "/kinds",
    operation_id="listKinds",
    summary="List the kinds of game",
    tags=["games"],
    responses=responses(HEADERS_TOO_LARGE),
)
async def list_kinds(registry: NamedDependency[Registry]) -> KindList:
    """The games, their options (JSON Schema and defaults), seat counts and rules versions.

    `rules_version` is the version new games are played under; `rules_versions` lists every
    version this referee has, under which recorded games replay, play on and audit.
    """
    return KindList(kinds=[kind_info(game, registry.versions(game.kind)) for game in registry])


HANDLERS = [list_kinds]
