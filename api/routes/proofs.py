"""Signed proofs: the referee's public keys, a game's head receipt, the checkpoints of the log
of every game's head and the proofs against them (README, "Disputes")."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Annotated, TypeVar
from uuid import UUID

from litestar import get
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import FromPath, PathParameter, QueryParameter

from api.checkpoints import (
    LEAVES_PER_PAGE,
    Checkpointer,
    CheckpointPair,
    GameInLog,
    LeafPage,
    NoCheckpoint,
)
from api.problems import (
    CHECKPOINT_ORDER,
    CORRUPT_LOG,
    DATABASE_UNAVAILABLE,
    HEADERS_TOO_LARGE,
    MALFORMED,
    NOT_FOUND,
    Problem,
    responses,
)
from api.routes.params import GAME_READ_PROBLEMS
from api.service import GameService
from api.signing import Envelope, KeyList, SigningKeys, key_list
from eventstore.log import LogStore

T = TypeVar("T")
CheckpointSize = Annotated[
    int, QueryParameter(ge=1, le=2**53, description="The size of a signed checkpoint.")
]


def _checkpointer(state: State) -> Checkpointer:
    checkpointer: Checkpointer = state.checkpointer
    return checkpointer


@get(
    "/keys",
    operation_id="listSigningKeys",
    summary="The referee's public keys",
    tags=["proofs"],
    responses=responses(HEADERS_TOO_LARGE, DATABASE_UNAVAILABLE),
)
async def list_keys(state: State) -> KeyList:
    """Every Ed25519 key the referee signs or signed receipts and checkpoints with: its id, the
    raw public key (base64), when it first signed and when a newer key took over. Keep this
    list: `referee verify --keys` checks signatures with it."""
    keys: SigningKeys = state.signing_keys
    log: LogStore = state.log
    used = await log.published_keys()
    if keys.current not in {key_id for key_id, _, _ in used}:  # published at start, unless the
        await log.publish_key(keys.current, keys.public_key(keys.current))  # database was away
        used = await log.published_keys()
    return key_list(keys, used, current=keys.current)


@get(
    "/games/{game_id:uuid}/receipt",
    operation_id="getGameReceipt",
    summary="A signed statement of the game's head",
    tags=["proofs"],
    responses=responses(*GAME_READ_PROBLEMS),
)
async def game_receipt(game_id: FromPath[UUID], service: NamedDependency[GameService]) -> Envelope:
    """The game's head as it stands, signed: its version, status, when its last event was
    recorded and a commitment to the history up to it that only the revealed seed opens (so
    that it tells nothing hidden while the game runs). Anyone may ask, at any moment."""
    return await service.receipt(str(game_id))


@get(
    "/checkpoints/latest",
    operation_id="getLatestCheckpoint",
    summary="The latest signed checkpoint",
    tags=["proofs"],
    responses=responses(NOT_FOUND, CORRUPT_LOG, DATABASE_UNAVAILABLE),
)
async def latest_checkpoint(state: State) -> Envelope:
    """The newest signed head of the log of every game's head: its size and Merkle root. Keep
    it: later proofs must be consistent with it."""
    return await _found(_checkpointer(state).latest())


@get(
    "/checkpoints/{size:int}",
    operation_id="getCheckpoint",
    summary="A signed checkpoint, by size",
    tags=["proofs"],
    responses=responses(MALFORMED, NOT_FOUND, CORRUPT_LOG, DATABASE_UNAVAILABLE),
)
async def checkpoint_at(
    size: Annotated[int, PathParameter(ge=1, le=2**53, description="The log's size.")],
    state: State,
) -> Envelope:
    """The checkpoint the referee signed when the log held `size` leaves."""
    return await _found(_checkpointer(state).at(size))


@get(
    "/checkpoints/consistency",
    operation_id="getCheckpointConsistency",
    summary="Two checkpoints and the proof that the later extends the earlier",
    tags=["proofs"],
    responses=responses(MALFORMED, CHECKPOINT_ORDER, NOT_FOUND, CORRUPT_LOG, DATABASE_UNAVAILABLE),
)
async def checkpoint_consistency(
    first: CheckpointSize, second: CheckpointSize, state: State
) -> CheckpointPair:
    """Checkpoints `first` and `second` (first <= second) with their RFC 9162 consistency
    proof: the tree of the second holds the tree of the first unchanged. Self-contained:
    `referee verify-checkpoints` checks it offline."""
    if first > second:
        raise Problem(CHECKPOINT_ORDER, f"Checkpoint {first} is newer than checkpoint {second}.")
    return await _found(_checkpointer(state).pair(first, second))


@get(
    "/checkpoints/leaves",
    operation_id="listLogLeaves",
    summary="The log's leaves, by number",
    tags=["proofs"],
    responses=responses(MALFORMED, CORRUPT_LOG, DATABASE_UNAVAILABLE),
)
async def log_leaves(
    state: State,
    start: Annotated[int, QueryParameter(ge=0, le=2**53, description="The first leaf's number.")],
    end: Annotated[
        int,
        QueryParameter(
            ge=1,
            le=2**53,
            description=f"One past the last leaf's number; at most {LEAVES_PER_PAGE} leaves a "
            "page, fewer past the latest checkpoint.",
        ),
    ],
) -> LeafPage:
    """Leaves `start` to `end` - 1 of the log, exactly as hashed into its tree, among those of
    the latest checkpoint. Read every page up to a checkpoint you kept and its root is rebuilt
    from them: `referee verify BUNDLE --leaves FILE --checkpoint KEPT` then finds every head of
    the game by what the leaves say, and `referee verify-log` shows a game the server no longer
    has. A range with no leaf in it (past the log, or ending where it starts) is an empty page."""
    return await _found(_checkpointer(state).leaves(start, end))


@get(
    "/games/{game_id:uuid}/inclusion",
    operation_id="getGameInclusion",
    summary="The game's heads in a checkpoint, with their proofs",
    tags=["proofs"],
    responses=responses(*GAME_READ_PROBLEMS, CHECKPOINT_ORDER, CORRUPT_LOG),
)
async def game_inclusion(
    game_id: FromPath[UUID],
    service: NamedDependency[GameService],
    state: State,
    size: Annotated[
        int | None,
        QueryParameter(ge=1, le=2**53, description="A checkpoint's size (default: the latest)."),
    ] = None,
    since: Annotated[
        int | None,
        QueryParameter(
            ge=1,
            le=2**53,
            description="The size of a checkpoint you kept: adds the proof "
            "that this checkpoint extends it.",
        ),
    ] = None,
) -> GameInLog:
    """Every leaf of the game in the checkpoint (its head each time the log took it), each with
    its inclusion proof; `referee verify BUNDLE --log FILE` checks them against the game. The
    log answers for a game it holds even when the game's own record is gone."""
    if since is not None and size is not None and since > size:
        raise Problem(CHECKPOINT_ORDER, f"Checkpoint {since} is newer than checkpoint {size}.")
    found = await _found(_checkpointer(state).game(str(game_id), size=size, since=since))
    if not found.entries:
        await service.info(str(game_id))  # no such game: a 404 like every read of a game
    return found


async def _found(pending: Awaitable[T]) -> T:
    """What `pending` gives, a checkpoint never signed being a 404."""
    try:
        return await pending
    except NoCheckpoint as missing:
        raise Problem(NOT_FOUND, str(missing)) from None


HANDLERS = [
    list_keys,
    game_receipt,
    latest_checkpoint,
    checkpoint_consistency,
    checkpoint_at,
    log_leaves,
    game_inclusion,
]
