"""Live play: a game's events as Server-Sent Events, as the caller may see them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any
from uuid import UUID

import msgspec
import structlog
from litestar import get, post
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from api.live import EventHub
from api.problems import FORBIDDEN, MALFORMED, UNAUTHORIZED, Problem, responses
from api.routes.params import GAME_READ_PROBLEMS, OPTIONAL_SEAT, REQUIRED_SEAT
from api.service import GameService
from api.tickets import TICKET_SECONDS, StreamTickets, TicketRefused
from api.views import event_records
from eventstore import StoreError
from referee.kernel import Outcome, Seat

PAGE = 200  # events read per query while catching up
RETRY_MILLISECONDS = 1000  # how soon a client reconnects after losing the stream

log = structlog.get_logger("api.stream")


class StreamTicket(msgspec.Struct, frozen=True, kw_only=True):
    """Opens this seat's stream once, within `expires_in` seconds: `?ticket=` on the stream."""

    ticket: str
    expires_in: int


@post(
    "/games/{game_id:uuid}/stream-tickets",
    operation_id="createStreamTicket",
    summary="Get a ticket to open a seat's stream from a browser",
    tags=["history"],
    security=REQUIRED_SEAT,
    status_code=201,
    responses=responses(UNAUTHORIZED, FORBIDDEN, *GAME_READ_PROBLEMS),
)
async def create_stream_ticket(
    game_id: FromPath[UUID],
    seat: NamedDependency[Seat],
    service: NamedDependency[GameService],
    tickets: NamedDependency[StreamTickets],
) -> StreamTicket:
    """A short-lived, single-use ticket that opens this seat's event stream: a browser's
    EventSource cannot send the seat token, and a token must not travel in a URL."""
    await service.table(str(game_id))  # a game that does not exist is a 404
    return StreamTicket(ticket=tickets.issue(game_id, seat), expires_in=TICKET_SECONDS)


class StreamEnd(msgspec.Struct, frozen=True, kw_only=True):
    """The data of the `end` message: the game is over and every event was sent."""

    version: int
    outcome: Outcome


@get(
    "/games/{game_id:uuid}/events/stream",
    operation_id="streamEvents",
    tags=["history"],
    security=OPTIONAL_SEAT,
    media_type="text/event-stream",
    responses={
        200: ResponseSpec(
            str,
            media_type="text/event-stream",
            description="Server-Sent Events: `id` the seq, `data` an `EventRecord` (JSON); "
            "comment lines as heartbeats; an `end` message once the game is over.",
            generate_examples=False,
        ),
        204: ResponseSpec(None, description="The game is over and every event was sent already."),
        **responses(*GAME_READ_PROBLEMS),
    },
)
async def stream_events(
    game_id: FromPath[UUID],
    caller: NamedDependency[Seat | None],
    service: NamedDependency[GameService],
    hub: NamedDependency[EventHub],
    tickets: NamedDependency[StreamTickets],
    after: Annotated[
        int, QueryParameter(ge=0, description="Start after this seq (default: from the start).")
    ] = 0,
    last_event_id: Annotated[
        int | None,
        HeaderParameter(
            name="Last-Event-ID",
            ge=0,
            description="The id of the last event received: the stream resumes after it "
            "(EventSource sends it when it reconnects). It takes precedence over `after`.",
        ),
    ] = None,
    ticket: Annotated[
        str | None,
        QueryParameter(
            max_length=200,
            description="A seat's ticket (`createStreamTicket`), in place of its token: the "
            "stream a browser's EventSource opens for a seat. Each ticket opens one stream.",
        ),
    ] = None,
) -> ServerSentEvent:
    """The game's events as they happen, as the caller may see them (Server-Sent Events).

    Each event is a message whose `id` is its seq and whose `data` is an `EventRecord` (JSON).
    Comment lines (`: heartbeat`) keep the connection alive while nothing happens. Reconnect
    with `Last-Event-ID` (or `?after=`): nothing is skipped or repeated. Once the game is over
    and its last event sent, an `end` message (`{"version", "outcome"}`) closes the stream; a
    stream opened after that answers 204, which tells an EventSource to stop reconnecting.
    """
    if ticket is not None:
        caller = await _ticket_seat(tickets, game_id, ticket, caller)
    table = await service.table(str(game_id))
    start = after if last_event_id is None else last_event_id
    if start > table.version:
        raise Problem(MALFORMED, f"The game's last event is {table.version}, not {start}.")
    if table.outcome().finished and start == table.version:
        return ServerSentEvent((), status_code=204)
    return ServerSentEvent(_events(service, hub, str(game_id), caller, start))


async def _events(
    service: GameService, hub: EventHub, game_id: str, seat: Seat | None, sent: int
) -> AsyncIterator[ServerSentEventMessage]:
    """The messages of one stream. It reads the store itself, through the service's pool: a
    connection of a request's dependency would be gone before the body is sent."""
    with hub.subscribe(game_id) as doorbell:
        yield ServerSentEventMessage(
            data=None, comment=f"game {game_id} after event {sent}", retry=RETRY_MILLISECONDS
        )
        try:
            while True:
                table, recorded = await service.events(game_id, after=sent, limit=PAGE)
                # Only what the table has folded: its outcome decides what is public.
                shown = [item for item in recorded if item.stored.seq <= table.version]
                finished = table.outcome().finished
                for record in event_records(table.game, shown, seat, public=finished):
                    yield ServerSentEventMessage(id=record.seq, data=_json(record))
                    sent = record.seq
                if len(shown) < len(recorded) or len(recorded) == PAGE:
                    continue
                if finished and sent == table.version:
                    end = StreamEnd(version=table.version, outcome=table.outcome())
                    yield ServerSentEventMessage(event="end", data=_json(end))
                    return
                if not await doorbell.wait(hub.heartbeat_seconds):
                    yield ServerSentEventMessage(data=None, comment="heartbeat")
        except StoreError as error:  # the client reconnects with Last-Event-ID
            log.warning("event stream interrupted", game_id=game_id, error=str(error))


async def _ticket_seat(
    tickets: StreamTickets, game_id: UUID, ticket: str, caller: Seat | None
) -> Seat:
    if caller is not None:
        raise Problem(MALFORMED, "Send a seat token or a stream ticket, not both.")
    try:
        return await tickets.redeem(game_id, ticket)
    except TicketRefused as refused:
        raise Problem(UNAUTHORIZED, str(refused)) from None


def _json(value: msgspec.Struct) -> str:
    return msgspec.json.encode(value).decode()


HANDLERS: list[Any] = [create_stream_ticket, stream_events]
