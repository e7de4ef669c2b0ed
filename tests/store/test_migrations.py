"""Migrations: applied once, in order, recorded; safe twice and from two sessions at once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import psycopg
import pytest

from eventstore.migrations import MigrationError, available_migrations, migrate
from eventstore.pool import APP_ROLE

TABLES = {
    "games",
    "seat_tokens",
    "commands",
    "events",
    "game_creations",
    "redeemed_tickets",
    "schema_migrations",
    "signing_keys",
    "log_leaves",
    "checkpoints",
}


def tables(conninfo: str) -> set[str]:
    with psycopg.connect(conninfo) as conn:
        rows = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        ).fetchall()
    return {name for (name,) in rows}


def recorded(conninfo: str) -> list[tuple[str, str]]:
    with psycopg.connect(conninfo) as conn:
        cursor = conn.execute("SELECT version, checksum FROM schema_migrations ORDER BY version")
        return cursor.fetchall()


def test_migrations_are_numbered_files_in_order() -> None:
    versions = [m.version for m in available_migrations()]
    assert versions[0] == "0001_initial"
    assert versions == sorted(versions)
    assert [int(v[:4]) for v in versions] == list(range(1, len(versions) + 1))


async def test_migrate_applies_everything_once_then_nothing(
    empty_database: Callable[[], str],
) -> None:
    conninfo = empty_database()
    all_versions = [m.version for m in available_migrations()]
    assert await migrate(conninfo) == all_versions
    assert tables(conninfo) == TABLES
    assert recorded(conninfo) == [(m.version, m.checksum) for m in available_migrations()]
    assert await migrate(conninfo) == []
    assert recorded(conninfo) == [(m.version, m.checksum) for m in available_migrations()]


async def test_two_sessions_migrating_at_once_apply_each_migration_once(
    empty_database: Callable[[], str],
) -> None:
    conninfo = empty_database()
    results = await asyncio.gather(*(migrate(conninfo) for _ in range(3)))
    all_versions = [m.version for m in available_migrations()]
    assert sorted(results) == [[], [], all_versions]
    assert tables(conninfo) == TABLES


async def test_an_edited_migration_is_refused(empty_database: Callable[[], str]) -> None:
    conninfo = empty_database()
    await migrate(conninfo)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(
            "UPDATE schema_migrations SET checksum = 'edited' WHERE version = '0001_initial'"
        )
    with pytest.raises(MigrationError, match="edited"):
        await migrate(conninfo)


async def test_a_migration_this_code_does_not_know_is_refused(
    empty_database: Callable[[], str],
) -> None:
    conninfo = empty_database()
    await migrate(conninfo)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES ('9999_from_the_future', 'x')")
    with pytest.raises(MigrationError, match="9999_from_the_future"):
        await migrate(conninfo)


async def test_the_application_role_is_neither_superuser_nor_login(database_url: str) -> None:
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT rolsuper, rolcanlogin, rolcreaterole, rolbypassrls FROM pg_roles"
            " WHERE rolname = %s",
            [APP_ROLE],
        ).fetchone()
    assert row == (False, False, False, False)
