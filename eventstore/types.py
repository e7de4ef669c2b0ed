"""What the store reads and writes: streams, versions and bytes. It never knows a game's rules."""

from __future__ import annotations

from datetime import datetime

import msgspec

GENESIS_HASH = bytes(32)  # prev_hash of event 1


class NewEvent(msgspec.Struct, frozen=True):
    """An event to append: its type tag, its canonical body bytes, the chance cursor after it;
    `secret` if it holds what a spectator may not see (it is stored sealed: eventstore.bodies)."""

    type: str
    body: bytes
    chance_cursor: int = 0
    secret: bool = False


class StoredEvent(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    seq: int
    type: str
    body: bytes  # exactly the bytes that were hashed
    seat: int | None  # the seat whose command caused it (None: creation, kernel)
    command_id: int | None
    chance_cursor: int
    recorded_at: datetime
    prev_hash: bytes
    hash: bytes  # sha256(prev_hash || body)


class StreamInfo(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    kind: str
    rules_version: str
    seats: int
    status: str  # "waiting" | "active" | "finished" | "cancelled"
    version: int  # seq of the last event
    seed_chosen_by_creator: bool
    created_at: datetime
    updated_at: datetime
    seating: str = "creator"  # "creator" | "open"
    listed: bool = True  # a private open table is not
    names: list[str | None] | None = None  # who sits where at an open table


class StreamHead(msgspec.Struct, frozen=True, kw_only=True):
    """A game's last event as it stands: what a head receipt or a checkpoint pins."""

    game_id: str
    version: int
    status: str
    hash: bytes  # the hash of event `version`
    recorded_at: datetime  # when event `version` was recorded


class SittingToken(msgspec.Struct, frozen=True):
    """A seat token's hash, good for one sitting of one seat (0: a table its creator seated)."""

    seat: int
    sitting: int
    token_hash: bytes


class OpenStream(msgspec.Struct, frozen=True, kw_only=True):
    """What the store keeps of an open table at its creation."""

    listed: bool
    names: list[str | None]  # by seat; None: open
    tokens: list[SittingToken]  # the seats taken at creation that someone holds


class CommandRecord(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    game_id: str
    seat: int | None  # None: the referee's own (a claimed timeout, an abandoned game closed)
    body: bytes
    idempotency_key: str | None
    first_seq: int
    last_seq: int
    recorded_at: datetime


class RecordStamp(msgspec.Struct, frozen=True, kw_only=True):
    """A game's stored record as it stands (`EventStore.record_stamp`): its version, and a
    digest of which rows hold it (each row of the game, its events and commands by its row
    version). Two equal stamps: nothing of the record was written in between."""

    version: int
    rows: bytes


class AppendResult(msgspec.Struct, frozen=True, kw_only=True):
    version: int  # the stream's version after the append
    events: list[StoredEvent]  # the events of this command (for a replayed key: the first result)
    command: CommandRecord | None = None
    replayed: bool = False  # True when an idempotency key matched an earlier command


class CreationKey(msgspec.Struct, frozen=True, kw_only=True):
    """What makes a game's creation idempotent; the key itself is never stored, only hashes."""

    key_hash: bytes  # sha256 of the Idempotency-Key
    request_hash: bytes  # sha256 of the request it came with
    token_key_id: str  # the seed key whose derived key made the seat tokens


class GameCreation(msgspec.Struct, frozen=True, kw_only=True):
    """The game an idempotency key created, and the version its creation answered."""

    game_id: str
    request_hash: bytes
    version: int
    token_key_id: str
    created_at: datetime


class StoreError(Exception):
    pass


class StreamCorrupted(StoreError):
    """What the stream holds contradicts its own record (a missing, extra or altered event):
    it was changed behind the store's back. Never a passing outage: retrying will not help."""


class StreamNotFound(StoreError):
    pass


class StreamExists(StoreError):
    pass


class VersionConflict(StoreError):
    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected version {expected}, the stream is at {actual}")
        self.expected = expected
        self.actual = actual


class InvalidCursor(StoreError, ValueError):
    """A `list_streams` cursor that this store did not hand out."""


class IdempotencyKeyReused(StoreError):
    """The same key was used by this seat for a different command body (or, for a game's
    creation, by anyone for a different request)."""


class CreationKeyTaken(StoreError):
    """Another creation recorded this idempotency key first: look it up (`find_creation`)."""


class DatabaseUnavailable(StoreError):
    pass
