"""Playing: commands and the commands a seat may send now."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Request, get, post
from litestar.datastructures import State
from litestar.params import (
    FromPath,
    HeaderParameter,
    JSONBody,
    QueryParameter,
    SkipValidation,
)

from api.auth import seat_of_caller, sitting_of
from api.dependencies import service_in, sweeper_in
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
    RULES_UNAVAILABLE,
    UNAUTHORIZED,
    VERSION_CONFLICT,
    WRONG_KIND,
    responses,
)
from api.routes.params import GAME_READ_PROBLEMS, MAX_SEQ, REQUIRED_SEAT, strict_body
from api.schemas import CommandRequest, CommandResult, LegalCommandPage
from api.views import command_result

IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        pattern="^[!-~]{1,255}$",
        description="Send the same key again to retry safely: the first result comes back and "
        "nothing is appended. The same key with another command is refused (422).",
    ),
]


@post(
    "/games/{game_id:uuid}/commands",
    operation_id="playCommand",
    summary="Send a command",
    tags=["play"],
    status_code=200,
    security=REQUIRED_SEAT,
    responses=responses(
        MALFORMED,
        WRONG_KIND,
        UNAUTHORIZED,
        FORBIDDEN,
        NOT_FOUND,
        VERSION_CONFLICT,
        CONCURRENT_UPDATE,
        GAME_OVER,
        RULES_UNAVAILABLE,
        CORRUPT_STREAM,
        PAYLOAD_TOO_LARGE,
        RULE_VIOLATION,
        IDEMPOTENCY_KEY_REUSED,
        DATABASE_UNAVAILABLE,
    ),
)
async def play_command(
    game_id: FromPath[UUID],
    data: SkipValidation[JSONBody[CommandRequest]],
    state: State,
    request: Request[Any, Any, Any],
    idempotency_key: IdempotencyKey = None,
) -> CommandResult:
    """Send a command as the seat of the bearer token.

    The answer holds the command's events as this seat may see them, the new version and the
    seat's view. A command the rules refuse is answered 422 with the rule's id, and changes nothing.

    Besides the game's own commands, every seat may send `{"type": "game.resign"}` at any time,
    and `{"type": "game.claim-timeout", "seat": n}` once seat n's time has run out in a timed
    game (refused with `kernel.time-remains` before). Neither is listed in `legal-commands`.
    """
    service = service_in(state)
    seat = await seat_of_caller(request, game_id, service)
    body = strict_body(data, CommandRequest)
    result = await service.play(
        str(game_id),
        seat,
        body.command,
        expected_version=body.expected_version,
        idempotency_key=idempotency_key,
        sitting=sitting_of(request),
    )
    sweeper_in(state).nudge(str(game_id), result.table)
    return command_result(result, seat)


@get(
    "/games/{game_id:uuid}/legal-commands",
    operation_id="listLegalCommands",
    summary="List the legal commands",
    tags=["play"],
    security=REQUIRED_SEAT,
    responses=responses(*GAME_READ_PROBLEMS),
)
async def list_legal_commands(
    game_id: FromPath[UUID],
    state: State,
    request: Request[Any, Any, Any],
    offset: Annotated[int, QueryParameter(ge=0, le=MAX_SEQ, description="Skip this many.")] = 0,
    limit: Annotated[int, QueryParameter(ge=1, le=1000, description="At most this many.")] = 100,
) -> LegalCommandPage:
    """Every command the calling seat may send now (none when it is not its turn), a page at
    a time: there can be thousands."""
    service = service_in(state)
    seat = await seat_of_caller(request, game_id, service)
    table, legal = await service.legal_commands(str(game_id), seat)
    return LegalCommandPage(
        seat=seat,
        version=table.version,
        total=len(legal),
        offset=offset,
        limit=limit,
        commands=list(legal[offset : offset + limit]),
    )


HANDLERS = [play_command, list_legal_commands]
