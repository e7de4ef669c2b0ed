"""Fixtures shared by every test folder that needs PostgreSQL (store, API).

One real PostgreSQL serves the whole test run: an embedded server started in a temporary
directory, or the server of `REFEREE_TEST_DATABASE_URL` when it is set (its user must be a
superuser: the tamper tests need one). The schema is migrated once; tests share the database,
so each creates its own games (`new_game_id`) and never assumes it is alone in a table.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import psycopg
import pytest
from hypothesis import HealthCheck, settings
from psycopg import AsyncConnection, sql
from psycopg.rows import TupleRow

from eventstore.migrations import migrate
from eventstore.pool import APP_ROLE, Pool, create_pool
from eventstore.store import EventStore

TEST_DATABASE_URL_VARIABLE = "REFEREE_TEST_DATABASE_URL"

# No deadlines: these machines are noisy, and speed is measured in tests/bench, not asserted.
# In CI the examples are derandomized, so that a landing never depends on a lucky draw; locally
# every run explores new examples.
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("dev"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def postgres_server_url() -> Iterator[str]:
    """A libpq URL, as a superuser, to the `referee` database of the test run's server."""
    configured = os.environ.get(TEST_DATABASE_URL_VARIABLE)
    if configured:
        yield configured
        return
    from eventstore.embedded import start_embedded, stop_embedded  # only when a test needs it

    data_dir = Path(tempfile.mkdtemp(prefix="referee-test-pg-"))
    try:
        yield start_embedded(data_dir, durable=False)
    finally:
        stop_embedded(data_dir)
        shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture(scope="session")
async def database_url(postgres_server_url: str) -> str:
    """The migrated test database, as a superuser. Give it to an API server process as
    `REFEREE_DATABASE_URL`; its store connections will act as the application's role."""
    await migrate(postgres_server_url)
    return postgres_server_url


@pytest.fixture(scope="session")
async def store_pool(database_url: str) -> AsyncIterator[Pool]:
    """The application's pool (connections act as `referee_app`), open for the whole run."""
    async with create_pool(database_url, min_size=1, max_size=8, name="referee-tests") as pool:
        yield pool


@pytest.fixture
def event_store(store_pool: Pool) -> EventStore:
    return EventStore(store_pool)


@pytest.fixture
def new_game_id() -> Callable[[], str]:
    """Makes game ids no other test uses."""
    return lambda: f"test-{uuid.uuid4().hex[:16]}"


@pytest.fixture
async def superuser_conn(database_url: str) -> AsyncIterator[AsyncConnection[TupleRow]]:
    """An autocommit connection as the database's superuser: behind the store's back.

    Tamper tests bypass the append-only guard on it, e.g. inside `async with conn.transaction()`:
    `ALTER TABLE events DISABLE TRIGGER events_append_only` (and `commands_append_only`).
    """
    async with await AsyncConnection.connect(database_url, autocommit=True) as conn:
        yield conn


@pytest.fixture
async def app_role_conn(database_url: str) -> AsyncIterator[AsyncConnection[TupleRow]]:
    """An autocommit connection acting as the application's role, as raw SQL would."""
    async with await AsyncConnection.connect(database_url, autocommit=True) as conn:
        await conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(APP_ROLE)))
        yield conn


@pytest.fixture
def empty_database(postgres_server_url: str) -> Iterator[Callable[[], str]]:
    """Makes fresh, empty databases on the test server (dropped afterwards); returns conninfos."""
    created: list[str] = []

    def make() -> str:
        name = f"referee_scratch_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(postgres_server_url, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        created.append(name)
        return psycopg.conninfo.make_conninfo(postgres_server_url, dbname=name)

    yield make
    with psycopg.connect(postgres_server_url, autocommit=True) as conn:
        for name in created:
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
