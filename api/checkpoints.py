"""Checkpoints: the referee's signed heads of a log of every game's head (README, "Disputes").

The log is a Merkle tree (RFC 9162, `api.merkle`) whose leaves are head statements
(`LoggedHead`): what a head receipt says (`api.receipts.HeadReceipt`), pinning a game's history
up to a version without telling anything hidden, but naming the game by a hash of its id, so
that the log, which anyone may read leaf by leaf, lists no game's id (a private table's stays
unlisted). Logs begun before that hold head receipts' payloads; both are read. Every
`interval` one process appends a leaf for each
game whose head changed since its last leaf (every one: a head recorded before a checkpoint
began is in it), and signs the new tree head, `{"size", "root",
"signed_at"}`, in a DSSE envelope of type `application/vnd.referee.checkpoint+json`.

Anyone may keep checkpoints. An inclusion proof shows a game's leaves in a checkpoint; a
consistency proof shows that a later checkpoint's tree extends an earlier one's. So once a
game's head is in a checkpoint that someone kept, the operator can neither drop the game nor
rewrite its past without the next proofs failing against that checkpoint.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
from collections.abc import Sequence
from typing import Annotated, Final

import msgspec
import structlog

from api.merkle import MerkleTree, leaf_hash
from api.receipts import GameStatus, HeadReceipt, Pin, Time, decode, head_receipt
from api.service import Clock
from api.signing import Envelope, SigningKeys
from eventstore.log import LogStore, StoredCheckpoint
from eventstore.types import StoreError

CHECKPOINT_TYPE: Final = "application/vnd.referee.checkpoint+json"
log = structlog.get_logger("referee.checkpoints")

Hash = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$", description="SHA-256, hex.")]


class LoggedHead(msgspec.Struct, frozen=True, kw_only=True, tag_field="leaf", tag="head"):
    """A leaf of the log: a game's head as its head receipt states it, the game named by
    `game_tag` of its id rather than by the id."""

    game: Hash  # game_tag(game id)
    version: int
    head: Pin
    recorded_at: Time
    status: GameStatus


_LEAF_DECODER = msgspec.json.Decoder(LoggedHead)


def game_tag(game_id: str) -> str:
    """How a leaf names a game: SHA-256("referee.log" 0x00 game id), hex."""
    return hashlib.sha256(b"referee.log\x00" + game_id.encode()).hexdigest()


def logged_head(head: HeadReceipt) -> bytes:
    """The leaf of a game's head (the bytes hashed into the tree)."""
    leaf = LoggedHead(
        game=game_tag(head.game_id),
        version=head.version,
        head=head.head,
        recorded_at=head.recorded_at,
        status=head.status,
    )
    return msgspec.json.encode(leaf)


def read_leaf(leaf: bytes, game_id: str) -> HeadReceipt | None:
    """The head a leaf states of `game_id`, as its head receipt would; None for a leaf of
    another game or of no kind this referee writes."""
    try:
        logged = _LEAF_DECODER.decode(leaf)
    except ValueError:  # a log begun before leaves named games by a hash: a head receipt
        try:
            statement = decode(leaf)
        except ValueError:
            return None
        return (
            statement
            if isinstance(statement, HeadReceipt) and statement.game_id == game_id
            else None
        )
    if logged.game != game_tag(game_id):
        return None
    return HeadReceipt(
        game_id=game_id,
        version=logged.version,
        head=logged.head,
        recorded_at=logged.recorded_at,
        status=logged.status,
    )


class Checkpoint(msgspec.Struct, frozen=True, kw_only=True):
    """The signed statement: the tree of the log's first `size` leaves has this root."""

    size: int
    root: Hash
    signed_at: Time


class LogEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One leaf of a game and the path that proves it in the checkpoint's tree."""

    index: int  # the leaf's number in the log, from 0
    leaf: Annotated[
        str, msgspec.Meta(description="The leaf's exact bytes (a head statement), standard base64.")
    ]
    path: list[Hash]  # RFC 9162 inclusion proof, from the leaf's sibling up


class ConsistencyPath(msgspec.Struct, frozen=True, kw_only=True):
    """That the tree at `second` extends the tree at `first` (RFC 9162 consistency proof)."""

    first: int
    second: int
    path: list[Hash]


class GameInLog(msgspec.Struct, frozen=True, kw_only=True):
    """A game's leaves in a checkpoint, each with its inclusion proof; and, when asked for,
    the consistency of that checkpoint with an earlier one the caller kept."""

    game_id: str
    checkpoint: Envelope
    entries: list[LogEntry]
    consistency: ConsistencyPath | None = None


class LeafPage(msgspec.Struct, frozen=True, kw_only=True):
    """Leaves `start`, `start` + 1, ... of the log, in order: what a monitor reads to rebuild a
    checkpoint's root, and to find every leaf of a game by what the leaves say, not by what
    the server chooses to show."""

    start: int
    leaves: list[Annotated[str, msgspec.Meta(description="A leaf's exact bytes, standard base64.")]]


LEAVES_PER_PAGE: Final = 1000


class CheckpointPair(msgspec.Struct, frozen=True, kw_only=True):
    """Two checkpoints and the proof that the later extends the earlier: self-contained."""

    first: Envelope
    second: Envelope
    consistency: ConsistencyPath


class NoCheckpoint(LookupError):
    """No checkpoint of that size was signed (or none at all yet)."""


class LogCorrupted(Exception):
    """The log's stored leaves are not those the signed checkpoints were computed over: changed
    or removed behind the service's back. Never a passing outage."""


class Checkpointer:
    """Extends and signs the log; serves proofs against any checkpoint it signed."""

    def __init__(
        self, store: LogStore, keys: SigningKeys, clock: Clock, *, interval: float
    ) -> None:
        self._store = store
        self._keys = keys
        self._clock = clock
        self.interval = interval
        self._tree = MerkleTree()  # the log's leaves this process has read, in order
        self._reading = asyncio.Lock()

    async def run(self) -> None:
        """Sign a checkpoint every `interval` seconds, if the log grew (until cancelled)."""
        while True:
            try:
                await self.checkpoint_now()
            except StoreError as error:
                log.warning("checkpoint failed", error=str(error))
            except LogCorrupted as error:
                log.error("checkpoint refused: the log was changed", error=str(error))
            await asyncio.sleep(self.interval)

    async def checkpoint_now(self) -> StoredCheckpoint | None:
        """Add the changed heads to the log and sign its new head; None if the log did not
        grow or another process is extending it now."""
        try:
            async with self._store.extending() as writer:
                if writer is None:
                    return None
                size = await writer.size()
                await self._only_signed_leaves(size)
                heads, skipped = await writer.changed_heads()
                if skipped:
                    log.warning("games left out of the log: no key opens their seed", games=skipped)
                if not heads:
                    return None
                leaves = [
                    (
                        head.head.game_id,
                        head.head.version,
                        logged_head(head_receipt(head.head, head.seed)),
                    )
                    for head in heads
                ]
                await writer.add_leaves(size, leaves)
                async with self._reading:
                    if self._tree.size > size:  # leaves gone from the store: read it again
                        self._tree = MerkleTree()
                    tree = await self._synced(size)
                    tree.extend(leaf_hash(leaf) for _, _, leaf in leaves)
                    checkpoint = self._signed(tree)
                await writer.add_checkpoint(checkpoint)
        except BaseException:
            self._tree = MerkleTree()  # it may hold leaves that were never committed
            raise
        log.info("checkpoint signed", size=checkpoint.size, games=len(leaves))
        return checkpoint

    async def _only_signed_leaves(self, size: int) -> None:
        """Raise LogCorrupted unless the log's `size` leaves are exactly those of its latest
        checkpoint: the referee adds leaves and signs them in one transaction, so a leaf past
        it was written by someone else, and a checkpoint missing from the end was removed.
        Either way the referee signs nothing over the log."""
        latest = await self._store.checkpoint()
        signed = 0 if latest is None else latest.size
        if size != signed:
            raise LogCorrupted(
                f"the log holds {size} leaves and its latest checkpoint {signed}: leaves were "
                "added or checkpoints removed behind the referee's back"
            )

    def _signed(self, tree: MerkleTree) -> StoredCheckpoint:
        signed_at = self._clock()
        root = tree.root()
        statement = Checkpoint(size=tree.size, root=root.hex(), signed_at=signed_at)
        envelope = self._keys.sign(CHECKPOINT_TYPE, msgspec.json.encode(statement))
        return StoredCheckpoint(
            size=tree.size, root=root, signed_at=signed_at, envelope=msgspec.json.encode(envelope)
        )

    async def latest(self) -> Envelope:
        return _envelope(await self._stored(None))

    async def at(self, size: int) -> Envelope:
        return _envelope(await self._stored(size))

    async def game(self, game_id: str, *, size: int | None, since: int | None) -> GameInLog:
        """The game's leaves in the checkpoint of `size` (default: the latest), with their
        proofs, and that checkpoint's consistency with the one of size `since`."""
        checkpoint = await self._stored(size)
        if since is not None:
            await self._stored(since)  # a size never signed is a 404, not a proof
        leaves = await self._store.leaves_of(game_id, below=checkpoint.size)
        async with self._reading:
            tree = await self._synced(checkpoint.size)
            for leaf in leaves:  # what the store holds now must be what was signed
                if tree.leaf(leaf.index) != leaf_hash(leaf.leaf):
                    raise LogCorrupted(f"leaf {leaf.index} is not the leaf that was signed")
            entries = [
                LogEntry(
                    index=leaf.index,
                    leaf=base64.b64encode(leaf.leaf).decode(),
                    path=_hex(tree.inclusion_proof(leaf.index, checkpoint.size)),
                )
                for leaf in leaves
            ]
            consistency = None
            if since is not None:
                consistency = self._consistency(tree, since, checkpoint.size)
        return GameInLog(
            game_id=game_id,
            checkpoint=_envelope(checkpoint),
            entries=entries,
            consistency=consistency,
        )

    async def leaves(self, start: int, stop: int) -> LeafPage:
        """The log's leaves start .. stop - 1 (fewer past its end, at most LEAVES_PER_PAGE), as
        signed: a leaf changed since is refused (LogCorrupted), never served."""
        stop = min(stop, start + LEAVES_PER_PAGE)
        latest = await self._store.checkpoint()
        stop = min(stop, 0 if latest is None else latest.size)
        leaves = await self._store.leaves(start=start, stop=stop) if start < stop else []
        async with self._reading:
            tree = await self._synced(stop) if leaves else self._tree
            for index, leaf in enumerate(leaves, start=start):
                if tree.leaf(index) != leaf_hash(leaf):
                    raise LogCorrupted(f"leaf {index} is not the leaf that was signed")
        return LeafPage(start=start, leaves=[base64.b64encode(leaf).decode() for leaf in leaves])

    async def pair(self, first: int, second: int) -> CheckpointPair:
        """Checkpoints `first` and `second` (first <= second) and their consistency proof."""
        older, newer = await self._stored(first), await self._stored(second)
        async with self._reading:
            tree = await self._synced(newer.size)
            consistency = self._consistency(tree, first, second)
        return CheckpointPair(
            first=_envelope(older), second=_envelope(newer), consistency=consistency
        )

    def _consistency(self, tree: MerkleTree, first: int, second: int) -> ConsistencyPath:
        if first > second:
            raise ValueError(f"checkpoint {first} is newer than checkpoint {second}")
        return ConsistencyPath(
            first=first, second=second, path=_hex(tree.consistency_proof(first, second))
        )

    async def _stored(self, size: int | None) -> StoredCheckpoint:
        checkpoint = await self._store.checkpoint(size)
        if checkpoint is None:
            raise NoCheckpoint(
                "No checkpoint is signed yet." if size is None else f"No checkpoint of size {size}."
            )
        return checkpoint

    async def _synced(self, size: int) -> MerkleTree:
        """The tree, holding at least the log's first `size` leaves (read as needed). What it
        read must give the root the referee signed for it: a log changed while no process held
        it (a restart) is refused like one changed under a running process."""
        if self._tree.size < size:
            leaves = await self._store.leaves(start=self._tree.size, stop=size)
            self._tree.extend(leaf_hash(leaf) for leaf in leaves)
            try:
                await self._check_signed(self._tree)
            except BaseException:
                self._tree = MerkleTree()  # read again, and refused again, next time
                raise
        if self._tree.size < size:
            raise LogCorrupted(f"the log holds {self._tree.size} leaves, not {size}")
        return self._tree

    async def _check_signed(self, tree: MerkleTree) -> None:
        """Raise LogCorrupted unless `tree` has the root of the latest checkpoint it covers."""
        signed = await self._store.checkpoint(at_most=tree.size)
        if signed is not None and tree.root(signed.size) != signed.root:
            raise LogCorrupted(
                f"the log's first {signed.size} leaves are not those checkpoint {signed.size} "
                "was signed over"
            )


def _envelope(checkpoint: StoredCheckpoint) -> Envelope:
    return msgspec.json.decode(checkpoint.envelope, type=Envelope)


def _hex(hashes: Sequence[bytes]) -> list[str]:
    return [item.hex() for item in hashes]


def read_checkpoint(payload: bytes) -> Checkpoint:
    """The statement of a checkpoint's payload. Raises msgspec.DecodeError (a ValueError)."""
    return msgspec.json.decode(payload, type=Checkpoint)
