"""The past of a game: its events and its state after any event, as the caller may see them."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import get
from litestar.di import NamedDependency
from litestar.params import FromPath, PathParameter, QueryParameter

from api.problems import responses
from api.routes.params import GAME_READ_PROBLEMS, MAX_SEQ, OPTIONAL_SEAT
from api.schemas import EventPage, StateAt
from api.service import GameService
from api.views import event_records, state_at
from referee.kernel import Seat


@get(
    "/games/{game_id:uuid}/events",
    operation_id="listEvents",
    summary="List the events",
    tags=["history"],
    security=OPTIONAL_SEAT,
    responses=responses(*GAME_READ_PROBLEMS),
)
async def list_events(
    game_id: FromPath[UUID],
    caller: NamedDependency[Seat | None],
    service: NamedDependency[GameService],
    after: Annotated[
        int, QueryParameter(ge=0, le=MAX_SEQ, description="Only events with a greater seq.")
    ] = 0,
    limit: Annotated[int, QueryParameter(ge=1, le=1000, description="At most this many.")] = 100,
) -> EventPage:
    """The game's events in order, as the caller may see them (everything once it is over)."""
    table, recorded = await service.events(str(game_id), after=after, limit=limit)
    public = table.outcome().finished
    return EventPage(
        version=table.version,
        events=event_records(table.game, recorded, caller, public=public),
    )


@get(
    "/games/{game_id:uuid}/states/{seq:int}",
    operation_id="getState",
    summary="Get a past state",
    tags=["history"],
    security=OPTIONAL_SEAT,
    responses=responses(*GAME_READ_PROBLEMS),
)
async def get_state(
    game_id: FromPath[UUID],
    seq: Annotated[
        int, PathParameter(ge=1, le=MAX_SEQ, description="The event after which to look.")
    ],
    caller: NamedDependency[Seat | None],
    service: NamedDependency[GameService],
) -> StateAt:
    """The caller's view of the game as it was right after event `seq`; once the game is over,
    also every seat's view of that moment (`seat_views`): then nothing about it is secret."""
    now = await service.table(str(game_id))
    then = await service.table(str(game_id), upto=seq)
    return state_at(
        then,
        version=now.version,
        seat=caller,
        public=now.outcome().finished,
        open_table=now.seating is not None,
    )


HANDLERS = [list_events, get_state]
