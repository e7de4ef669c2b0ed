"""Versioned schema migrations: `NNNN_what.sql` files in this package, applied in order.

Each pending migration runs in its own transaction together with its row in
`schema_migrations`, under an advisory lock, so running `migrate` twice, or from several processes
at once (`referee migrate` beside a starting server), applies each migration exactly once.
An applied migration is never edited: its checksum is recorded and checked on every run.

The migrating user must be able to create the application's role (`referee_app`), or find it
created and be able to grant it to itself: a superuser, or a user with CREATEROLE.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import resources

import psycopg

from eventstore.types import DatabaseUnavailable, StoreError

# An arbitrary constant naming "the referee's migrations" among the database's advisory locks.
_ADVISORY_LOCK_KEY = 0x7265_6665_7265_6531
_FILE_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")

_CREATE_LEDGER = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    text        PRIMARY KEY,
    checksum   text        NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""


class MigrationError(StoreError):
    """The database's recorded migrations do not match this code's."""


@dataclass(frozen=True)
class Migration:
    version: str  # the file name without ".sql", e.g. "0001_initial"
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()


def available_migrations() -> list[Migration]:
    """This code's migrations, in the order they apply."""
    files = [f for f in resources.files(__package__).iterdir() if _FILE_NAME.match(f.name)]
    migrations = [
        Migration(f.name.removesuffix(".sql"), f.read_text(encoding="utf-8"))
        for f in sorted(files, key=lambda f: f.name)
    ]
    numbers = [m.version[:4] for m in migrations]
    if len(set(numbers)) != len(numbers):
        raise MigrationError(f"two migrations share a number: {numbers}")
    return migrations


async def migrate(conninfo: str, *, until: str | None = None) -> list[str]:
    """Apply the pending migrations; return the versions applied by this call (maybe none).

    `until` stops after that version (a test's way to make a database of an older release).
    """
    migrations = available_migrations()
    if until is not None:
        versions = [m.version for m in migrations]
        if until not in versions:
            raise MigrationError(f"there is no migration {until!r}")
        migrations = migrations[: versions.index(until) + 1]
    try:
        async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
            await conn.execute("SELECT pg_advisory_lock(%s)", [_ADVISORY_LOCK_KEY])
            try:
                return await _apply_pending(conn, migrations)
            finally:
                await conn.execute("SELECT pg_advisory_unlock(%s)", [_ADVISORY_LOCK_KEY])
    except psycopg.OperationalError as error:
        raise DatabaseUnavailable(str(error)) from error


def _later_than(migrations: list[Migration]) -> set[str]:
    """This code's migrations after `migrations` (all of them but for `until`)."""
    return {m.version for m in available_migrations()} - {m.version for m in migrations}


async def _apply_pending(conn: psycopg.AsyncConnection, migrations: list[Migration]) -> list[str]:
    await conn.execute(_CREATE_LEDGER)
    cursor = await conn.execute("SELECT version, checksum FROM schema_migrations")
    recorded: dict[str, str] = dict(await cursor.fetchall())
    known = {m.version for m in migrations}
    if unknown := sorted(set(recorded) - known - _later_than(migrations)):
        raise MigrationError(f"the database has migrations this code does not know: {unknown}")
    applied = []
    for migration in migrations:
        if migration.version in recorded:
            if recorded[migration.version] != migration.checksum:
                raise MigrationError(f"migration {migration.version} was edited after it ran")
            continue
        async with conn.transaction():
            await conn.execute(migration.sql.encode())
            await conn.execute(
                "INSERT INTO schema_migrations (version, checksum) VALUES (%s, %s)",
                [migration.version, migration.checksum],
            )
        applied.append(migration.version)
    return applied
