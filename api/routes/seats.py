"""Sitting down at an open table, and getting up again before the deal."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Request, Response, delete, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter, JSONBody, PathParameter, SkipValidation

from api.auth import sitting_of
from api.dependencies import sweeper_in
from api.logging import bind
from api.problems import (
    CONCURRENT_UPDATE,
    CORRUPT_STREAM,
    DATABASE_UNAVAILABLE,
    FORBIDDEN,
    GAME_OVER,
    IDEMPOTENCY_KEY_REUSED,
    MALFORMED,
    NOT_FOUND,
    PAYLOAD_TOO_LARGE,
    RULE_VIOLATION,
    SEAT_TAKEN,
    UNAUTHORIZED,
    responses,
)
from api.ratelimit import INVITATION_GUESSES, RATE_LIMITED, spend
from api.routes.params import REQUIRED_SEAT, strict_body
from api.schemas import GameDetail, SeatGranted, SitRequest
from api.service import GameService
from api.views import game_detail, seat_granted
from eventstore import StreamNotFound
from referee.kernel import Seat
from referee.kernel.contract import RuleViolation
from referee.kernel.lifecycle import LeaveSeat, Sit

SittingKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        pattern="^[!-~]{1,255}$",
        description="Send the same key again to retry a sitting safely: the first answer is "
        "given again (`replayed: true`), with the same seat and token. Whoever sends the key "
        "with the same request gets that token: use a random key and keep it secret.",
    ),
]
MAX_SEATS = 9999  # what a seat token can name (api.tokens)
GUESS_REFUSAL = (
    "Too many sittings with invitation codes or at tables not found; retry in {seconds} s."
)


@post(
    "/games/{game_id:uuid}/seats",
    operation_id="takeSeat",
    summary="Take a seat at an open table",
    tags=["seats"],
    responses=responses(
        MALFORMED,
        NOT_FOUND,
        SEAT_TAKEN,
        GAME_OVER,
        CONCURRENT_UPDATE,
        CORRUPT_STREAM,
        PAYLOAD_TOO_LARGE,
        RULE_VIOLATION,
        IDEMPOTENCY_KEY_REUSED,
        RATE_LIMITED,
        DATABASE_UNAVAILABLE,
    ),
)
async def take_seat(
    game_id: FromPath[UUID],
    data: SkipValidation[JSONBody[SitRequest]],
    service: NamedDependency[GameService],
    state: State,
    request: Request[Any, Any, Any],
    idempotency_key: SittingKey = None,
) -> Response[SeatGranted]:
    """Sit at an open table under a name, and receive that seat's token: it is shown here once.

    Without a `seat`, the first open one is taken. A seat that is taken (also by a sitting that
    won a race to it) is a 409 `seat-taken`. A private table needs its `invitation_code`; a
    wrong code is answered exactly as a game that does not exist (404). Sittings answered 404
    are limited per client; past the limit a sitting with a code is refused (429) before its
    code is checked, so that guessing learns nothing. The
    sitting that takes the last seat deals the game. A retry with the same `Idempotency-Key`
    is answered as the first sitting was (`replayed: true`)."""
    body = strict_body(data, SitRequest)
    bind(game_id=str(game_id))
    if body.invitation_code is not None:  # past the limit, no code is checked, right or wrong
        spend(request, INVITATION_GUESSES, GUESS_REFUSAL, only_look=True)
    try:
        result = await service.sit(
            str(game_id),
            Sit(name=body.name, entropy=body.entropy),
            seat=body.seat,
            invitation_code=body.invitation_code,
            idempotency_key=idempotency_key,
        )
    except StreamNotFound:  # no such game, or a private one without its (right) code
        spend(request, INVITATION_GUESSES, GUESS_REFUSAL)
        raise
    bind(seat=result.seat)
    sweeper_in(state).nudge(str(game_id), result.table)
    return Response(seat_granted(str(game_id), result), status_code=201)


@delete(
    "/games/{game_id:uuid}/seats/{seat_number:int}",
    operation_id="leaveSeat",
    summary="Leave a seat of a table that is not full yet",
    tags=["seats"],
    status_code=200,
    security=REQUIRED_SEAT,
    responses=responses(
        MALFORMED,
        UNAUTHORIZED,
        FORBIDDEN,
        NOT_FOUND,
        GAME_OVER,
        CONCURRENT_UPDATE,
        CORRUPT_STREAM,
        RULE_VIOLATION,
        DATABASE_UNAVAILABLE,
    ),
)
async def leave_seat(
    game_id: FromPath[UUID],
    seat_number: Annotated[
        int, PathParameter(ge=0, le=MAX_SEATS, description="The seat to leave: the token's own.")
    ],
    seat: NamedDependency[Seat],
    service: NamedDependency[GameService],
    request: Request[Any, Any, Any],
) -> GameDetail:
    """Get up from a table still waiting for players, with that seat's token: the seat is open
    again and the token is good for nothing more. Once the table is full, resign instead."""
    if seat != seat_number:
        raise RuleViolation(
            "kernel.not-your-seat", f"Only seat {seat_number}'s token may leave it."
        )
    left = await service.play(str(game_id), seat, LeaveSeat(), sitting=sitting_of(request))
    info = await service.info(str(game_id))
    detail = game_detail(info, await service.table(str(game_id)), None)
    return msgspec.structs.replace(detail, receipt=left.receipt)


HANDLERS = [take_seat, leave_seat]
