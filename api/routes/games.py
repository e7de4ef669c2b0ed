"""Creating, listing and reading games."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, HttpMethod, Request, Response, get, post, route
from litestar.datastructures import ResponseHeader, State
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter, JSONBody, QueryParameter, SkipValidation

from api.dependencies import sweeper_in
from api.logging import bind
from api.problems import (
    CORRUPT_STREAM,
    DATABASE_UNAVAILABLE,
    GAME_EXISTS,
    IDEMPOTENCY_KEY_REUSED,
    INVALID_CURSOR,
    MALFORMED,
    PAYLOAD_TOO_LARGE,
    RULE_VIOLATION,
    Problem,
    responses,
)
from api.ratelimit import BOT_GAMES, RATE_LIMITED, spend
from api.routes.params import GAME_READ_PROBLEMS, OPTIONAL_SEAT, strict_body
from api.schemas import (
    AnyNewGame,
    CreatedGame,
    GameDetail,
    GamePage,
    GameStatus,
    NewGame,
    kind_of,
    plain_options,
)
from api.service import CreationKeyReused, CreationTokensRetired, GameService, OpenSeats
from api.views import created_game, game_detail, summary
from referee.kernel import Seat
from referee.kernel.lifecycle import Sit

CreationKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        pattern="^[!-~]{1,255}$",
        description="Send the same key again to retry a creation safely: the first creation is "
        "answered again (`replayed: true`), with the same game and the same seat tokens, and "
        "no other game is made, from any process, also after a restart. The same key with "
        "another request is refused (422). Creation has no caller to scope keys by, so "
        "whoever sends a key with the same request gets its seat tokens: use a random key "
        "(a UUID, at least 128 random bits) and keep it as secret as the tokens.",
    ),
]


BOT_GAMES_REFUSAL = (
    "Games with bot seats (the server plays them, on its own CPU) are limited per client; "
    "retry in {seconds} s."
)


class GamesController(Controller):
    """One controller for the collection, so that its route knows all its methods (Allow)."""

    path = "/games"

    @route("/", http_method=HttpMethod.OPTIONS, include_in_schema=False)
    async def allowed_methods(self) -> Response[None]:
        # Litestar 2 answers OPTIONS with the methods of the first handler of a path only
        # (litestar#4169, fixed in 3.0), so this path says it itself.
        return Response(None, status_code=204, headers={"Allow": "GET, OPTIONS, POST"})

    @post(
        "/",
        operation_id="createGame",
        summary="Create a game",
        tags=["games"],
        responses=responses(
            MALFORMED,
            GAME_EXISTS,
            CORRUPT_STREAM,
            PAYLOAD_TOO_LARGE,
            RULE_VIOLATION,
            IDEMPOTENCY_KEY_REUSED,
            RATE_LIMITED,
            DATABASE_UNAVAILABLE,
        ),
        response_headers=[
            ResponseHeader(
                name="Location",
                value="/v1/games/{game_id}",
                description="The new game's URL.",
                required=True,
                documentation_only=True,
            )
        ],
    )
    async def create_game(
        self,
        data: SkipValidation[JSONBody[AnyNewGame]],
        service: NamedDependency[GameService],
        state: State,
        request: Request[Any, Any, Any],
        idempotency_key: CreationKey = None,
    ) -> Response[CreatedGame]:
        """Create a game. The answer holds one secret token per seat: it is shown only here
        (and to a retry with the same `Idempotency-Key` and request).

        With `open_table`, the players take their own seats (`POST /v1/games/{id}/seats`) and
        the creator is given only the token of the seat they take, if any (and a private
        table's invitation code). The game is `waiting` until its last seat is taken, and is
        dealt then; the referee draws its seed, and each seat may add entropy.

        Optionally with a `time_control` (a limit per move, a total clock per seat with an
        increment: a seat out of time loses it to a `game.claim-timeout`) and `bots`: seats the
        server plays itself, so that a person can play alone against them."""
        body = strict_body(data, AnyNewGame)
        kind = kind_of(body)
        bind(kind=kind)
        if body.bots:  # the server plays those seats: CPU of its own, limited per client
            spend(request, BOT_GAMES, BOT_GAMES_REFUSAL)
        try:
            result = await service.create(
                kind,
                seats=body.seats,
                options=plain_options(body.options),
                seed=None if body.seed is None else bytes.fromhex(body.seed),
                entropy=body.entropy,
                idempotency_key=idempotency_key,
                time_control=body.time_control,
                bots=body.bots,
                open_seats=open_seats(body),
            )
        except CreationKeyReused:
            raise Problem(
                IDEMPOTENCY_KEY_REUSED,
                "This Idempotency-Key was already used to create a game from another request.",
            ) from None
        except CreationTokensRetired as retired:
            raise Problem(
                GAME_EXISTS,
                f"This Idempotency-Key created game {retired.game_id}, whose seat tokens can no "
                "longer be shown (the server key that made them was retired).",
            ) from None
        bind(game_id=result.game_id)
        sweeper_in(state).nudge(result.game_id, result.table)
        return Response(
            msgspec.structs.replace(created_game(result), replayed=result.replayed),
            status_code=201,
            headers={"Location": f"/v1/games/{result.game_id}"},
        )

    @get(
        "/",
        operation_id="listGames",
        summary="List games",
        tags=["games"],
        responses=responses(MALFORMED, INVALID_CURSOR, DATABASE_UNAVAILABLE),
    )
    async def list_games(
        self,
        service: NamedDependency[GameService],
        kind: Annotated[
            str | None, QueryParameter(max_length=64, description="Only this kind.")
        ] = None,
        status: Annotated[
            GameStatus | None, QueryParameter(description="Only games in this status.")
        ] = None,
        cursor: Annotated[
            str | None,
            QueryParameter(max_length=200, description="The `next_cursor` of the previous page."),
        ] = None,
        limit: Annotated[
            int, QueryParameter(ge=1, le=100, description="At most this many games.")
        ] = 20,
    ) -> GamePage:
        """Games, newest first, a page at a time: pass `next_cursor` back as `cursor`."""
        games, next_cursor = await service.list_games(
            kind=kind, status=status, cursor=cursor, limit=limit
        )
        return GamePage(games=[summary(info) for info in games], next_cursor=next_cursor)

    @get(
        "/{game_id:uuid}",
        operation_id="getGame",
        summary="Get a game",
        tags=["games"],
        security=OPTIONAL_SEAT,
        responses=responses(*GAME_READ_PROBLEMS),
    )
    async def get_game(
        self,
        game_id: FromPath[UUID],
        caller: NamedDependency[Seat | None],
        service: NamedDependency[GameService],
    ) -> GameDetail:
        """The game now: its summary, who is to act, the outcome, and the caller's view."""
        info = await service.info(str(game_id))
        table = await service.table(str(game_id))
        return game_detail(info, table, caller)


def open_seats(body: NewGame) -> OpenSeats | None:
    """The open table a new-game body asks for; the creator's seat defaults to the first one
    that no bot plays."""
    table = body.open_table
    if table is None:
        return None
    creator = table.creator
    if creator is None:
        return OpenSeats(table.visibility)
    bots = {bot.seat for bot in body.bots}
    seat = creator.seat
    if seat is None:
        seat = next((free for free in range(body.seats) if free not in bots), 0)
    return OpenSeats(table.visibility, seat, Sit(name=creator.name, entropy=creator.entropy))


HANDLERS = [GamesController]
