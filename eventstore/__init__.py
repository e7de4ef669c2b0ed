"""PostgreSQL event store: migrations, append with expected version, reads, the hash chain.

It knows streams, versions and bytes, never a game's rules; it never imports `referee` or `api`.

    pool = create_pool(app_url)      # logs in as the service's own role (eventstore.roles)
    await pool.open()                # in the app's lifespan; `await pool.close()` at the end
    store = EventStore(pool, SeedKeys.parse(text))   # seeds are sealed (eventstore.seeds)

`provision(owner_url, app_url, keys)` does what the owner does before the service starts:
applies the schema's migrations (`migrate`), makes the service's login (`grant_login`) and
seals the seeds (`seal_seeds`). `eventstore.embedded.start_embedded` runs a local PostgreSQL
when no server is configured (imported on its own: it pulls in the bundled server).
"""

from eventstore.migrations import MigrationError, migrate
from eventstore.notifications import NOTIFY_CHANNEL, parse_notification
from eventstore.pool import create_pool
from eventstore.provision import Provisioned, provision
from eventstore.roles import APP_ROLE, UnsafeLogin, check_login, grant_login
from eventstore.seeds import (
    SealedSeedError,
    SeedKeyError,
    SeedKeyMissing,
    SeedKeys,
    check_seed_keys,
    seal_seeds,
)
from eventstore.store import MAX_IDEMPOTENCY_KEY_LENGTH, STATUSES, EventStore, open_store
from eventstore.types import (
    GENESIS_HASH,
    AppendResult,
    CommandRecord,
    CreationKey,
    CreationKeyTaken,
    DatabaseUnavailable,
    GameCreation,
    IdempotencyKeyReused,
    InvalidCursor,
    NewEvent,
    OpenStream,
    RecordStamp,
    SittingToken,
    StoredEvent,
    StoreError,
    StreamCorrupted,
    StreamExists,
    StreamHead,
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
    "CreationKey",
    "CreationKeyTaken",
    "DatabaseUnavailable",
    "EventStore",
    "GameCreation",
    "IdempotencyKeyReused",
    "InvalidCursor",
    "MigrationError",
    "NewEvent",
    "OpenStream",
    "Provisioned",
    "RecordStamp",
    "SealedSeedError",
    "SeedKeyError",
    "SeedKeyMissing",
    "SeedKeys",
    "SittingToken",
    "StoreError",
    "StoredEvent",
    "StreamCorrupted",
    "StreamExists",
    "StreamHead",
    "StreamInfo",
    "StreamNotFound",
    "UnsafeLogin",
    "VersionConflict",
    "check_login",
    "check_seed_keys",
    "create_pool",
    "grant_login",
    "migrate",
    "open_store",
    "parse_notification",
    "provision",
    "seal_seeds",
]
