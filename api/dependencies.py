"""What handlers are given: the game service, the archive, the event hub, the stream tickets,
the sweeper (the server's own moves), the registry, the calling seat."""

from __future__ import annotations

from litestar.datastructures import State
from litestar.di import Provide

from api.audit import Archive
from api.auth import provide_caller, provide_seat
from api.live import EventHub
from api.service import GameService
from api.sweeper import Sweeper
from api.tickets import StreamTickets
from referee.kernel import Registry


def service_in(state: State) -> GameService:
    """The game service: the `service` dependency, and what the two routes of every move call
    themselves, as they find the caller's seat without the chain of dependencies
    (`api.auth.seat_of_caller`)."""
    service: GameService = state.service
    return service


def sweeper_in(state: State) -> Sweeper:
    """The sweeper, for a handler that also has the service: taken from the app's state, not
    as a dependency, because Litestar resolves two independent dependencies of a handler
    concurrently, in an anyio task group of their own: 120-170 µs a request for two attribute
    lookups, about what a bare Litestar request costs in all (tests/bench/floor_bench.py)."""
    sweeper: Sweeper = state.sweeper
    return sweeper


def provide_archive(state: State) -> Archive:
    archive: Archive = state.archive
    return archive


def provide_hub(state: State) -> EventHub:
    hub: EventHub = state.hub
    return hub


def provide_tickets(state: State) -> StreamTickets:
    tickets: StreamTickets = state.tickets
    return tickets


def provide_registry(state: State) -> Registry:
    registry: Registry = state.registry
    return registry


APP_DEPENDENCIES = {
    "service": Provide(service_in, sync_to_thread=False),
    "registry": Provide(provide_registry, sync_to_thread=False),
    "archive": Provide(provide_archive, sync_to_thread=False),
    "hub": Provide(provide_hub, sync_to_thread=False),
    "tickets": Provide(provide_tickets, sync_to_thread=False),
}
GAME_DEPENDENCIES = {
    "caller": Provide(provide_caller),
    "seat": Provide(provide_seat),
}
