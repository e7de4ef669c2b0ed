"""What handlers are given: the game service, the registry, the calling seat."""

from __future__ import annotations

from litestar.datastructures import State
from litestar.di import Provide

from api.auth import provide_caller, provide_seat
from api.service import GameService
from referee.kernel import Registry


def provide_service(state: State) -> GameService:
    service: GameService = state.service
    return service


def provide_registry(state: State) -> Registry:
    registry: Registry = state.registry
    return registry


APP_DEPENDENCIES = {
    "service": Provide(provide_service, sync_to_thread=False),
    "registry": Provide(provide_registry, sync_to_thread=False),
}
GAME_DEPENDENCIES = {
    "caller": Provide(provide_caller),
    "seat": Provide(provide_seat),
}
