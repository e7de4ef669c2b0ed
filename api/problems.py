"""RFC 9457 problem details: one stable `type` per kind of problem, and the mapping of every
exception the API can meet to one of them, so that no input ever produces a 500.

Handlers raise `Problem` for what they detect themselves; rule refusals (`RuleViolation`) and
store errors are mapped here, in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import msgspec
import psycopg
import psycopg_pool
import structlog
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec

from api.audit import GameNotFinished
from api.body import ClientDisconnected, MalformedBody
from api.bundle import MalformedBundle
from api.checkpoints import LogCorrupted
from api.logging import bind, request_id
from api.service import (
    CorruptStream,
    NoOpenSeat,
    NoSuchEvent,
    RaceLost,
    RulesUnavailable,
    WrongKind,
)
from eventstore import (
    DatabaseUnavailable,
    IdempotencyKeyReused,
    InvalidCursor,
    SealedSeedError,
    SeedKeyMissing,
    StoreError,
    StreamCorrupted,
    StreamExists,
    StreamNotFound,
    VersionConflict,
)
from referee.kernel import GameOver, RuleViolation, UnknownKind

PROBLEM_MEDIA_TYPE = "application/problem+json"
TYPE_PREFIX = "urn:referee:problem:"
RETRY_AFTER_SECONDS = "2"

log = structlog.get_logger("api.problems")


@dataclass(frozen=True)
class ProblemKind:
    """A kind of problem: its stable type URI, its status and its title."""

    slug: str
    status: int
    title: str
    alarming: bool = False  # logged as an error with its cause, whatever its status

    @property
    def type(self) -> str:
        return TYPE_PREFIX + self.slug


MALFORMED = ProblemKind("malformed-request", 400, "The request is malformed.")
WRONG_KIND = ProblemKind("wrong-kind", 400, "The command is for another kind of game.")
UNAUTHORIZED = ProblemKind("unauthorized", 401, "A valid seat token is required.")
FORBIDDEN = ProblemKind("forbidden", 403, "This token belongs to another game.")
INVALID_CURSOR = ProblemKind("invalid-cursor", 400, "This cursor was not handed out by this list.")
NOT_FOUND = ProblemKind("not-found", 404, "Not found.")
CHECKPOINT_ORDER = ProblemKind(
    "checkpoint-order", 400, "A checkpoint can only extend an older (smaller) one."
)
METHOD_NOT_ALLOWED = ProblemKind("method-not-allowed", 405, "Method not allowed.")
VERSION_CONFLICT = ProblemKind("version-conflict", 409, "The game has moved on.")
CONCURRENT_UPDATE = ProblemKind("concurrent-update", 409, "Too many concurrent commands.")
GAME_OVER = ProblemKind("game-over", 409, "The game is over.")
GAME_EXISTS = ProblemKind("game-exists", 409, "This game exists already.")
SEAT_TAKEN = ProblemKind("seat-taken", 409, "The seat is taken.")
RULES_UNAVAILABLE = ProblemKind(
    "rules-unavailable", 409, "This game was recorded under rules this server does not have."
)
CORRUPT_STREAM = ProblemKind(
    "corrupt-stream", 409, "This game's record is damaged: it cannot be replayed.", alarming=True
)
CORRUPT_LOG = ProblemKind(
    "corrupt-log",
    409,
    "The checkpoint log is damaged: its leaves are not those that were signed.",
    alarming=True,
)
GAME_NOT_FINISHED = ProblemKind("game-not-finished", 409, "The game is not over yet.")
PAYLOAD_TOO_LARGE = ProblemKind("payload-too-large", 413, "The request body is too large.")
RULE_VIOLATION = ProblemKind("rule-violation", 422, "The rules refuse this request.")
IDEMPOTENCY_KEY_REUSED = ProblemKind(
    "idempotency-key-reused", 422, "This Idempotency-Key was used for another request."
)
# Nobody reads it: it is what the request's log line and metrics count instead of a 500.
CLIENT_CLOSED_REQUEST = ProblemKind(
    "client-closed-request", 499, "The client closed the connection before sending its body."
)
INTERNAL = ProblemKind("internal-error", 500, "Internal error.", alarming=True)
DATABASE_UNAVAILABLE = ProblemKind(
    "database-unavailable", 503, "The database is unavailable.", alarming=True
)
# Answered by the server's protocol (api/server.py) before any handler runs.
HEADERS_TOO_LARGE = ProblemKind(
    "headers-too-large", 431, "The request's line and headers exceed 64 KiB together."
)
TOO_MANY_CONNECTIONS = ProblemKind(
    "too-many-connections", 503, "This process has as many connections as it may serve."
)
SEED_KEY_MISSING = ProblemKind(
    "seed-key-missing", 503, "This server lacks the key of this game's seed.", alarming=True
)

ALL_KINDS = (
    MALFORMED,
    WRONG_KIND,
    INVALID_CURSOR,
    CHECKPOINT_ORDER,
    UNAUTHORIZED,
    FORBIDDEN,
    NOT_FOUND,
    METHOD_NOT_ALLOWED,
    VERSION_CONFLICT,
    CONCURRENT_UPDATE,
    GAME_OVER,
    GAME_EXISTS,
    SEAT_TAKEN,
    RULES_UNAVAILABLE,
    CORRUPT_STREAM,
    CORRUPT_LOG,
    GAME_NOT_FINISHED,
    PAYLOAD_TOO_LARGE,
    RULE_VIOLATION,
    IDEMPOTENCY_KEY_REUSED,
    CLIENT_CLOSED_REQUEST,
    INTERNAL,
    DATABASE_UNAVAILABLE,
    SEED_KEY_MISSING,
    HEADERS_TOO_LARGE,
    TOO_MANY_CONNECTIONS,
)
_BY_STATUS = {kind.status: kind for kind in reversed(ALL_KINDS)}  # the first kind per status


class FieldError(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    message: str
    key: str | None = None
    source: str | None = None  # "body", "query", "path", "header"


class ProblemDetails(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """An RFC 9457 problem. `type` is stable: switch on it (and on `rule_id` for 422)."""

    type: str
    title: str
    status: int
    detail: str
    instance: str | None = None  # the request path
    request_id: str | None = None
    rule_id: str | None = None  # for rule violations: the rule that refused the command
    current_version: int | None = None  # for version conflicts
    errors: list[FieldError] | None = None  # for malformed requests: what was wrong, where


class Problem(Exception):
    """An error the API reports as a problem of `kind`."""

    def __init__(
        self,
        kind: ProblemKind,
        detail: str,
        *,
        headers: dict[str, str] | None = None,
        **extensions: Any,
    ) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.headers = headers or {}
        self.extensions = extensions


def to_problem(exc: Exception) -> Problem:
    """The problem that reports `exc`; anything unforeseen is an internal error."""
    match exc:
        case Problem():
            return exc
        case RuleViolation():
            return Problem(RULE_VIOLATION, exc.message, rule_id=exc.rule_id)
        case WrongKind():
            return Problem(WRONG_KIND, str(exc))
        case UnknownKind():
            return Problem(MALFORMED, f"There is no kind of game called {exc}.")
        case RaceLost():
            return Problem(CONCURRENT_UPDATE, str(exc))
        case NoOpenSeat():
            return Problem(SEAT_TAKEN, str(exc))
        case RulesUnavailable():
            return Problem(RULES_UNAVAILABLE, str(exc))
        case CorruptStream():
            return Problem(CORRUPT_STREAM, str(exc))
        case StreamCorrupted():  # found by the store: never an outage to retry
            return Problem(CORRUPT_STREAM, "This game's record is damaged: it cannot be replayed.")
        case SeedKeyMissing():  # the server's configuration: no use retrying until it changes
            return Problem(
                SEED_KEY_MISSING,
                "This game's seed is sealed with a key this server was not given; its operator "
                "must add the key.",
            )
        case LogCorrupted():
            return Problem(CORRUPT_LOG, f"The checkpoint log was changed: {exc}.")
        case SealedSeedError():
            return Problem(CORRUPT_STREAM, "This game's sealed seed does not open: it was altered.")
        case GameNotFinished():
            return Problem(
                GAME_NOT_FINISHED,
                "A game is exported once it is over: its seed is secret until then.",
            )
        case MalformedBundle() | MalformedBody():
            return Problem(MALFORMED, str(exc))
        case ClientDisconnected():
            return Problem(CLIENT_CLOSED_REQUEST, "The client closed the connection mid-body.")
        case NoSuchEvent():
            return Problem(NOT_FOUND, str(exc))
        case GameOver():
            return Problem(GAME_OVER, "The game is over: it accepts no more commands.")
        case StreamNotFound():
            return Problem(NOT_FOUND, "There is no game with this id.")
        case VersionConflict():
            return Problem(
                VERSION_CONFLICT,
                f"The game is at version {exc.actual}, not {exc.expected}.",
                current_version=exc.actual,
            )
        case IdempotencyKeyReused():
            return Problem(
                IDEMPOTENCY_KEY_REUSED,
                "This Idempotency-Key was already used by this seat for a different command.",
            )
        case InvalidCursor():
            return Problem(INVALID_CURSOR, "Pass back a `next_cursor` of this list unchanged.")
        case StreamExists():
            return Problem(GAME_EXISTS, "A game with this id already exists.")
        case (
            DatabaseUnavailable()
            | psycopg.OperationalError()
            | psycopg_pool.PoolTimeout()
            | TimeoutError()
        ):
            return Problem(
                DATABASE_UNAVAILABLE,
                "The database cannot be reached; try again shortly.",
                headers={"Retry-After": RETRY_AFTER_SECONDS},
            )
        case StoreError() if isinstance(exc.__cause__, psycopg.DataError):
            return Problem(
                MALFORMED, "The request holds a value that cannot be stored or searched."
            )
        case StoreError():
            return Problem(
                DATABASE_UNAVAILABLE,
                "The database could not complete the operation; try again shortly.",
                headers={"Retry-After": RETRY_AFTER_SECONDS},
            )
        case ValidationException():
            return Problem(MALFORMED, exc.detail, errors=_field_errors(exc.extra))
        case HTTPException() if exc.status_code < 500:
            kind = _BY_STATUS.get(exc.status_code) or ProblemKind(
                f"http-{exc.status_code}", exc.status_code, HTTPStatus(exc.status_code).phrase
            )
            return Problem(kind, exc.detail, headers=dict(exc.headers or {}))
        case _:
            return Problem(INTERNAL, "An unexpected error occurred; it has been logged.")


def _field_errors(extra: Any) -> list[FieldError] | None:
    items = extra if isinstance(extra, list) else [extra] if isinstance(extra, dict) else []
    errors = [
        FieldError(
            message=str(item.get("message", "")),
            key=_optional_str(item.get("key")),
            source=_optional_str(item.get("source")),
        )
        for item in items
        if isinstance(item, dict)
    ]
    return errors or None


def _optional_str(value: Any) -> str | None:
    return None if value is None else str(value)


def problem_response(request: Request[Any, Any, Any], exc: Exception) -> Response[ProblemDetails]:
    """The exception handler of the whole application."""
    problem = to_problem(exc)
    kind = problem.kind
    body = ProblemDetails(
        type=kind.type,
        title=kind.title,
        status=kind.status,
        detail=problem.detail,
        instance=request.url.path,
        request_id=request_id(request.scope),
        **problem.extensions,
    )
    if body.rule_id is not None:
        bind(rule_id=body.rule_id)  # the request's own log line names the rule too
    details = {"type": kind.type, "status": kind.status, "request_id": body.request_id}
    if kind.alarming:
        log.error("problem", **details, exc_info=exc)
    else:
        log.info("problem", **details)
    return Response(
        body,
        status_code=kind.status,
        media_type=PROBLEM_MEDIA_TYPE,
        headers=problem.headers,
    )


def responses(*kinds: ProblemKind) -> dict[int, ResponseSpec]:
    """The problem responses a handler documents, one per status, naming the problem types."""
    by_status: dict[int, list[ProblemKind]] = {}
    for kind in kinds:
        by_status.setdefault(kind.status, []).append(kind)
    return {
        status: ResponseSpec(
            data_container=ProblemDetails,
            description=" ".join(f"`{kind.type}`: {kind.title}" for kind in group),
            media_type=PROBLEM_MEDIA_TYPE,
            generate_examples=False,
        )
        for status, group in sorted(by_status.items())
    }
