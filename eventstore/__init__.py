"""PostgreSQL event store: migrations, append with expected version, reads, the hash chain.

It knows streams, versions and bytes, never a game's rules; it never imports `referee` or `api`.
"""

from eventstore.types import (
    GENESIS_HASH,
    AppendResult,
    CommandRecord,
    DatabaseUnavailable,
    IdempotencyKeyReused,
    NewEvent,
    StoredEvent,
    StoreError,
    StreamExists,
    StreamInfo,
    StreamNotFound,
    VersionConflict,
)

__all__ = [
    "GENESIS_HASH",
    "AppendResult",
    "CommandRecord",
    "DatabaseUnavailable",
    "IdempotencyKeyReused",
    "NewEvent",
    "StoreError",
    "StoredEvent",
    "StreamExists",
    "StreamInfo",
    "StreamNotFound",
    "VersionConflict",
]
