"""Proofs: the audit of a stored game, its export as a bundle, and the audit of an uploaded one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from litestar import Request, Response, get, post
from litestar.datastructures import ResponseHeader
from litestar.di import NamedDependency
from litestar.enums import MediaType
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import (
    OpenAPIFormat,
    OpenAPIMediaType,
    OpenAPIType,
    Operation,
    RequestBody,
    Schema,
)
from litestar.params import FromPath

from api.audit import Archive
from api.bundle import MAX_BUNDLE_BYTES, Bundle
from api.problems import GAME_NOT_FINISHED, MALFORMED, PAYLOAD_TOO_LARGE, responses
from api.ratelimit import RATE_LIMITED, expensive
from api.routes.params import GAME_READ_PROBLEMS, OPTIONAL_SEAT
from api.verify import AuditReport
from referee.kernel import Seat


@dataclass
class BundleUpload(Operation):
    """The upload is read as bytes (the digest covers them): document it as what it is."""

    def __post_init__(self) -> None:
        # A file, not a JSON value: a client that parsed a Bundle and encoded it again would
        # fail the `bundle` check, which holds the file to the exact exported bytes. So the
        # body is documented as bytes; the server reads them whatever the Content-Type says.
        self.request_body = RequestBody(
            content={
                "application/octet-stream": OpenAPIMediaType(
                    schema=Schema(type=OpenAPIType.STRING, format=OpenAPIFormat.BINARY)
                ),
            },
            description="A bundle file (the `Bundle` schema, canonically encoded) exactly as "
            "`exportGame` gave it: its bytes unchanged. Any Content-Type is read as those bytes "
            "(`application/json` too, as curl sends a file).",
            required=True,
        )


@get(
    "/games/{game_id:uuid}/audit",
    operation_id="auditGame",
    tags=["audit"],
    security=OPTIONAL_SEAT,
    guards=[expensive],
    responses=responses(*GAME_READ_PROBLEMS, RATE_LIMITED),
)
async def audit_game(
    game_id: FromPath[UUID], caller: NamedDependency[Seat | None], archive: NamedDependency[Archive]
) -> AuditReport:
    """Every check on the game as stored, with its verdict and the first failing event.

    Anyone may audit any game (a token, if sent, must be valid). While the game runs, the
    checks that need its seed are skipped (the seed is secret until the end) and commands that
    drew chance cannot be re-executed: the verdict is `partial`. A game's report is computed
    once per head of its stream and kept. Audits, exports and bundle checks are rate-limited
    per client (429 with `Retry-After`).
    """
    return await archive.audit(str(game_id))


@get(
    "/games/{game_id:uuid}/export",
    operation_id="exportGame",
    tags=["audit"],
    security=OPTIONAL_SEAT,
    responses={
        200: ResponseSpec(
            Bundle,
            description='The bundle (format: README, "The bundle format").',
            generate_examples=False,
        ),
        **responses(*GAME_READ_PROBLEMS, GAME_NOT_FINISHED, RATE_LIMITED),
    },
    guards=[expensive],
    response_headers=[
        ResponseHeader(
            name="Content-Disposition",
            description='attachment; filename="<kind>-<game id>.json"',
            documentation_only=True,
        )
    ],
)
async def export_game(
    game_id: FromPath[UUID], caller: NamedDependency[Seat | None], archive: NamedDependency[Archive]
) -> Response[bytes]:
    """The finished game (or cancelled table) as one self-contained bundle: verify it with
    `verifyBundle` or offline with `referee verify FILE`, with no database and no server. The
    file is sealed: any changed byte fails its verification. Anyone may export a game that is
    over (a token, if sent, must be valid)."""
    bundle, data = await archive.export(str(game_id))
    filename = f"{bundle.kind}-{bundle.game_id}.json"
    return Response(
        data,
        media_type=MediaType.JSON,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@post(
    "/audits",
    operation_id="verifyBundle",
    tags=["audit"],
    status_code=200,
    request_max_body_size=MAX_BUNDLE_BYTES,
    operation_class=BundleUpload,
    guards=[expensive],
    responses=responses(MALFORMED, PAYLOAD_TOO_LARGE, RATE_LIMITED),
)
async def verify_bundle(
    request: Request[Any, Any, Any], archive: NamedDependency[Archive]
) -> AuditReport:
    """Every check on an uploaded bundle, the same as `referee verify FILE` runs offline.

    A file that is not a bundle at all is a 400; a bundle that fails a check is a 200 whose
    verdict is `failed`.
    """
    return await archive.verify_file(await request.body())


HANDLERS: list[Any] = [audit_game, export_game, verify_bundle]
