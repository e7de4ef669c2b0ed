"""The game bundle: a recorded game in one self-contained, sealed file.

Its format is documented in README.md, "The bundle format". A file, and each body recorded in
it, nests its arrays and objects at most `api.json_limits.MAX_DEPTH` levels deep: deeper is not a
bundle (no game records anything near it).

Pure: no database, no server. `api.audit` builds bundles from the store, `api.verify` checks
them. The bundle is JSON encoded canonically (compact, fields in declaration order), so a file
is valid only as exported: its `digest` covers every field, including those the hash chain does
not (times, seats), and any other encoding of the same content is refused by the verifier.

Version 2 added `seating` (how the table was seated: by its creator, or open to players who took
their own seats) and the statuses of an open table (`waiting`, `cancelled`). A version 1 file,
from before open tables, has no `seating`: it is read as a table its creator seated, and encoded
again (for its file check and its digest) exactly as version 1 wrote it, without that field.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from typing import Annotated, Final, Literal

import msgspec

from api.ids import GameId
from api.json_limits import MAX_DEPTH, TooDeep, check_depth

FORMAT: Final = "referee.game-bundle"
FORMAT_VERSION: Final = 2  # the version exported
FORMAT_VERSIONS: Final = (1, 2)  # the versions read
MAX_BUNDLE_BYTES = 16 * 1024 * 1024  # a long game is well under 1 MiB
UNSEALED = "0" * 64  # the digest field's value while the digest is computed
UUID_TEXT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

BundleStatus = Literal["waiting", "active", "finished", "cancelled"]
Seating = Literal["creator", "open"]
Time = Annotated[datetime, msgspec.Meta(tz=True)]  # with a time zone: times compare
Canonical = Annotated[
    bytes,
    msgspec.Meta(description="The canonical JSON bytes, base64 (RFC 4648, padded)."),
]
Hex = Annotated[str, msgspec.Meta(description="Lower-case hex.")]


class MalformedBundle(ValueError):
    """Bytes that are not a bundle this verifier can read: not JSON, wrong shape, other format."""


class BundleCommand(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An accepted command, as recorded with the range of events it produced."""

    id: int  # 1, 2, 3 ... per game
    seat: int | None  # null: the referee's own (a timeout claimed by the server, abandonment)
    first_seq: int
    last_seq: int
    recorded_at: Time
    body: Canonical


class BundleEvent(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A recorded event: its body exactly as hashed, and the link to the event before it."""

    seq: int
    type: str
    seat: int | None  # the seat whose command caused it; null for the opening events
    command_id: int | None
    chance_cursor: int  # random words consumed once this event was produced
    recorded_at: Time
    prev_hash: Hex  # 64 zeros for event 1
    hash: Hex  # sha256(prev_hash bytes || body)
    body: Canonical  # exactly the bytes that were hashed


class Bundle(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everything needed to verify a game with no database and no server."""

    format: Literal["referee.game-bundle"]
    format_version: Literal[1, 2]
    game_id: GameId
    kind: str
    rules_version: str
    seats: int
    # open: the players took their own seats (game.table-opened follows event 1). Always in a
    # version 2 file; a version 1 file has none (every table was its creator's then).
    seating: Annotated[
        Seating,
        msgspec.Meta(description="How the table was seated; not in a version 1 bundle."),
    ] = "creator"
    options: msgspec.Raw  # the options exactly as recorded in event 1
    entropy: str
    seed_chosen_by_creator: bool
    commitment: Hex  # sha256(seed), published in event 1
    seed: Hex | None  # null while the game runs (an audit of a running game)
    status: BundleStatus
    version: int  # the seq of the last event
    created_at: Time
    commands: tuple[BundleCommand, ...]
    events: tuple[BundleEvent, ...]
    digest: Hex  # sha256 of this encoding with the digest set to 64 zeros (UNSEALED)


class _BundleV1(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A version 1 file, field for field: `Bundle` without `seating`, with the two statuses a
    game had then."""

    format: Literal["referee.game-bundle"]
    format_version: Literal[1]
    game_id: GameId
    kind: str
    rules_version: str
    seats: int
    options: msgspec.Raw
    entropy: str
    seed_chosen_by_creator: bool
    commitment: Hex
    seed: Hex | None
    status: Literal["active", "finished"]
    version: int
    created_at: Time
    commands: tuple[BundleCommand, ...]
    events: tuple[BundleEvent, ...]
    digest: Hex


class _FormatHeader(msgspec.Struct, frozen=True):
    """The fields read first, so that another format or version gets a clear answer."""

    format: str
    format_version: int
    seating: object = msgspec.UNSET  # UNSET: the file has no `seating` field


_ENCODER = msgspec.json.Encoder()
_HEADER_DECODER = msgspec.json.Decoder(_FormatHeader)
_DECODER = msgspec.json.Decoder(Bundle)
_V1_DECODER = msgspec.json.Decoder(_BundleV1)
_V1_FIELDS = _BundleV1.__struct_fields__


def _encode(bundle: Bundle) -> bytes:
    """The canonical encoding, in the bundle's own version: a version 1 bundle without the
    `seating` field it never had."""
    if bundle.format_version == 1:
        fields = {name: getattr(bundle, name) for name in _V1_FIELDS}
        return _ENCODER.encode(_BundleV1(**fields))
    return _ENCODER.encode(bundle)


def digest_of(bundle: Bundle) -> str:
    """The digest a sealed bundle carries: sha256 of its encoding with the digest zeroed."""
    unsealed = msgspec.structs.replace(bundle, digest=UNSEALED)
    return hashlib.sha256(_encode(unsealed)).hexdigest()


def seal(bundle: Bundle) -> Bundle:
    return msgspec.structs.replace(bundle, digest=digest_of(bundle))


def encode_bundle(bundle: Bundle) -> bytes:
    """The bundle file: the sealed bundle, canonically encoded."""
    return _encode(seal(bundle))


def canonical_bytes(bundle: Bundle) -> bytes:
    """The encoding of `bundle` as it stands (a file must be exactly this)."""
    return _encode(bundle)


def read_bundle(data: bytes) -> Bundle:
    """The bundle in `data`, or MalformedBundle saying what is wrong with it."""
    if len(data) > MAX_BUNDLE_BYTES:
        raise MalformedBundle(f"A bundle is at most {MAX_BUNDLE_BYTES} bytes; this is {len(data)}.")
    if not data.strip():
        raise MalformedBundle("This is not a game bundle: the file is empty.")
    try:
        check_depth(data)
    except TooDeep:
        raise MalformedBundle(
            f"This is not a game bundle: it nests more than {MAX_DEPTH} levels deep."
        ) from None
    try:
        header = _HEADER_DECODER.decode(data)
    except ValueError as error:  # msgspec.DecodeError, or bytes that are not UTF-8
        raise MalformedBundle(f"This is not a game bundle: {error}") from None
    if header.format != FORMAT:
        raise MalformedBundle(f"This file's format is {header.format!r}, not {FORMAT!r}.")
    if header.format_version not in FORMAT_VERSIONS:
        raise MalformedBundle(
            f"This is a version {header.format_version} bundle; this verifier reads versions "
            f"{' and '.join(map(str, FORMAT_VERSIONS))}."
        )
    if header.format_version == 2 and header.seating is msgspec.UNSET:
        raise MalformedBundle(
            "This version 2 bundle does not say how its table was seated: it has no `seating`."
        )
    try:
        bundle = _decode(data, header.format_version)
    except ValueError as error:  # msgspec.DecodeError, or bytes that are not UTF-8
        raise MalformedBundle(f"The bundle is malformed: {error}") from None
    _check_game_id(bundle)
    _check_bodies(bundle)
    return bundle


def _decode(data: bytes, format_version: int) -> Bundle:
    """The bundle in a file of that version. A version 1 file's table was seated by its
    creator: open tables came with version 2."""
    if format_version == 1:
        old = _V1_DECODER.decode(data)
        fields = {name: getattr(old, name) for name in _V1_FIELDS}
        return Bundle(**fields, seating="creator")
    return _DECODER.decode(data)


def _check_game_id(bundle: Bundle) -> None:
    """The game id is a UUID as every game id is written (the schema's `format: uuid`): it is
    echoed in the report and linked to by the viewer, so no other text gets that far."""
    if not UUID_TEXT.fullmatch(bundle.game_id):
        raise MalformedBundle(
            "The bundle is malformed: its game_id is not a UUID written as game ids are "
            "(8-4-4-4-12 lowercase hex digits)."
        )


def _check_bodies(bundle: Bundle) -> None:
    """The recorded bodies are JSON the verifier decodes: held to the same depth as any."""
    _check_depths("command", [command.body for command in bundle.commands])
    _check_depths("event", [event.body for event in bundle.events])


def _check_depths(what: str, bodies: list[bytes]) -> None:
    for number, body in enumerate(bodies, start=1):
        try:
            check_depth(body)
        except TooDeep:
            raise MalformedBundle(
                f"The body of {what} {number} (in file order) nests more than {MAX_DEPTH} "
                "levels deep."
            ) from None
