"""Who is calling: the seat named by a bearer token, or a spectator (no token).

See `api.tokens` for the token format; this module turns it into Litestar dependencies.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Request
from litestar.di import NamedDependency
from litestar.params import FromPath

from api.logging import bind
from api.problems import FORBIDDEN, UNAUTHORIZED, Problem
from api.service import GameService, StaleSeatToken
from api.tokens import read_claim, token_hash
from referee.kernel import Seat

SECURITY_SCHEME = "seatToken"
_CHALLENGE = 'Bearer realm="referee"'


def bearer_token(request: Request[Any, Any, Any]) -> str | None:
    """The bearer token of the request, None when it sends no Authorization header."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _unauthorized("The Authorization header must read 'Bearer <seat token>'.")
    return token.strip()


def _unauthorized(detail: str) -> Problem:
    return Problem(UNAUTHORIZED, detail, headers={"WWW-Authenticate": _CHALLENGE})


async def provide_caller(
    request: Request[Any, Any, Any],
    game_id: FromPath[UUID],
    service: NamedDependency[GameService],
) -> Seat | None:
    """The seat of the caller, or None for a spectator (no token)."""
    bind(game_id=str(game_id))
    token = bearer_token(request)
    if token is None:
        return None
    claim = read_claim(token)
    if claim is None:
        raise _unauthorized("This is not a seat token.")
    if claim.game_id != str(game_id):
        raise Problem(FORBIDDEN, "This seat token belongs to another game.")
    try:
        holder = await service.seat_for_token(claim.game_id, token_hash(token))
    except StaleSeatToken:
        raise _unauthorized("This seat token's player has left the seat.") from None
    if holder is None or holder[0] != claim.seat:
        raise _unauthorized("This seat token is not valid for this game.")
    seat, sitting = holder
    request.state.sitting = sitting  # a command is decided for this sitting only (`play`)
    bind(seat=seat)
    return seat


def sitting_of(request: Request[Any, Any, Any]) -> int:
    """The sitting the caller's token holds (see `provide_caller`)."""
    sitting: int = request.state.sitting
    return sitting


async def provide_seat(caller: NamedDependency[Seat | None]) -> Seat:
    """The seat of the caller, who must send a token."""
    if caller is None:
        raise _unauthorized("This operation needs the seat token of a player of this game.")
    return caller


async def seat_of_caller(
    request: Request[Any, Any, Any], game_id: UUID, service: GameService
) -> Seat:
    """What the `seat` dependency gives, for a handler to call itself: the two routes of every
    move (a page of legal commands, a command) do, for Litestar's chain of three dependencies
    (service, caller, seat) took ~13 µs a request."""
    return await provide_seat(await provide_caller(request, game_id, service))
