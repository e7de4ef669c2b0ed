"""PostgreSQL event store: migrations, append with expected version, reads, the hash chain.

It knows streams, versions and bytes, never a game's rules; it never imports `referee` or `api`.

    pool = create_pool(url)          # connections act as the application's role
    await pool.open()                # in the app's lifespan; `await pool.close()` at the end
    store = EventStore(pool)

`eventstore.migrations.migrate(url)` applies the schema; `eventstore.embedded.start_embedded`
runs a local PostgreSQL when no server is configured (imported on its own: it pulls in the
bundled server).
"""

from eventstore.migrations import MigrationError, migrate
from eventstore.pool import APP_ROLE, create_pool
from eventstore.store import (
    MAX_IDEMPOTENCY_KEY_LENGTH,
    NOTIFY_CHANNEL,
    STATUSES,
    EventStore,
    open_store,
    parse_notification,
)
from eventstore.types import (
    GENESIS_HASH,
    AppendResult,
    CommandRecord,
    DatabaseUnavailable,
    IdempotencyKeyReused,
    InvalidCursor,
    NewEvent,
    StoredEvent,
    StoreError,
    StreamExists,
    StreamInfo,
    StreamNotFound,
    VersionConflict,
)

__all__ = [
    "APP_ROLE",
    "GENESIS_HASH",
    "MAX_IDEMPOTENCY_KEY_LENGTH",
    "NOTIFY_CHANNEL",
    "STATUSES",
    "AppendResult",
    "CommandRecord",
    "DatabaseUnavailable",
    "EventStore",
    "IdempotencyKeyReused",
    "InvalidCursor",
    "MigrationError",
    "NewEvent",
    "StoreError",
    "StoredEvent",
    "StreamExists",
    "StreamInfo",
    "StreamNotFound",
    "VersionConflict",
    "create_pool",
    "migrate",
    "open_store",
    "parse_notification",
]
