"""Fixtures shared by every test folder that needs PostgreSQL (store, API).

One real PostgreSQL serves the whole test run: an embedded server started in a temporary
directory, or the server of `REFEREE_TEST_DATABASE_URL` when it is set (its user must be a
superuser: the tamper tests need one; the test login `referee_test_api` is made on it, with a
password, so that server must accept password logins). The schema is migrated once, as the
owner; the service's code connects as its own login (`database_url`), as in production. Tests
share the database, so each creates its own games (`new_game_id`) and never assumes it is
alone in a table.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from hypothesis import HealthCheck, settings
from psycopg import AsyncConnection, sql
from psycopg.rows import TupleRow

from api.signing import SigningKeys
from eventstore.pool import Pool, create_pool
from eventstore.provision import provision
from eventstore.seeds import SeedKeys
from eventstore.store import EventStore
from tests.servers import TEST_SEED_KEYS, TEST_SIGNING_KEYS

TEST_DATABASE_URL_VARIABLE = "REFEREE_TEST_DATABASE_URL"
TEST_LOGIN = "referee_test_api"  # the service's login on a configured test server

# No deadlines: these machines are noisy, and speed is measured in tests/bench, not asserted.
# In CI the examples are derandomized, so that a landing never depends on a lucky draw; locally
# every run explores new examples.
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("dev"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@dataclass(frozen=True)
class TestServer:
    owner_url: str  # a superuser, who also owns the schema
    app_url: str  # the service's own login (made by `provision`)


@pytest.fixture(scope="session")
def test_server() -> Iterator[TestServer]:
    """The test run's PostgreSQL: its `referee` database as a superuser and as the login."""
    configured = os.environ.get(TEST_DATABASE_URL_VARIABLE)
    if configured:
        login = psycopg.conninfo.make_conninfo(
            configured, user=TEST_LOGIN, password=secrets.token_urlsafe(24)
        )
        yield TestServer(configured, login)
        return
    from eventstore.embedded import start_embedded, stop_embedded  # only when a test needs it

    data_dir = Path(tempfile.mkdtemp(prefix="referee-test-pg-"))
    try:
        embedded = start_embedded(data_dir, durable=False)
        yield TestServer(embedded.owner_url, embedded.app_url)
    finally:
        stop_embedded(data_dir)
        shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server_url(test_server: TestServer) -> str:
    """A libpq URL, as a superuser, to the `referee` database of the test run's server."""
    return test_server.owner_url


@pytest.fixture(scope="session")
def seed_keys() -> SeedKeys:
    """The keys the tests' stores and servers seal seeds with (REFEREE_SEED_KEYS)."""
    return SeedKeys.parse(TEST_SEED_KEYS)


@pytest.fixture(scope="session")
def signing_keys() -> SigningKeys:
    """The keys the tests' servers sign receipts and checkpoints with (REFEREE_SIGNING_KEYS)."""
    return SigningKeys.parse(TEST_SIGNING_KEYS)


@pytest.fixture(scope="session")
async def owner_database_url(test_server: TestServer, seed_keys: SeedKeys) -> str:
    """The test database, migrated and provisioned by its owner (a superuser): for what is
    done behind the service's back, and as `REFEREE_MIGRATION_DATABASE_URL`."""
    await provision(test_server.owner_url, test_server.app_url, seed_keys, set_password=True)
    return test_server.owner_url


@pytest.fixture(scope="session")
async def database_url(owner_database_url: str, test_server: TestServer) -> str:
    """The migrated test database, as the service's own login: give it to an API server
    process as `REFEREE_DATABASE_URL` (with `TEST_SEED_KEYS` as REFEREE_SEED_KEYS)."""
    return test_server.app_url


@pytest.fixture(scope="session")
async def store_pool(database_url: str) -> AsyncIterator[Pool]:
    """The application's pool (logged in as the service's login), open for the whole run."""
    async with create_pool(database_url, min_size=1, max_size=8, name="referee-tests") as pool:
        yield pool


@pytest.fixture
def event_store(store_pool: Pool, seed_keys: SeedKeys) -> EventStore:
    return EventStore(store_pool, seed_keys)


@pytest.fixture
def new_game_id() -> Callable[[], str]:
    """Makes game ids no other test uses."""
    return lambda: f"test-{uuid.uuid4().hex[:16]}"


@pytest.fixture
async def superuser_conn(owner_database_url: str) -> AsyncIterator[AsyncConnection[TupleRow]]:
    """An autocommit connection as the database's superuser: behind the store's back.

    Tamper tests lift the database's guards on it with `tests.tamper.behind_the_back`.
    """
    async with await AsyncConnection.connect(owner_database_url, autocommit=True) as conn:
        yield conn


@pytest.fixture
async def app_role_conn(database_url: str) -> AsyncIterator[AsyncConnection[TupleRow]]:
    """An autocommit connection logged in as the service's own login, as raw SQL would be."""
    async with await AsyncConnection.connect(database_url, autocommit=True) as conn:
        yield conn


@pytest.fixture
def empty_database(postgres_server_url: str) -> Iterator[Callable[[], str]]:
    """Makes fresh, empty databases on the test server (dropped afterwards); returns conninfos
    as the superuser (`login_url` gives the login's)."""
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


@pytest.fixture
def login_url_for(test_server: TestServer) -> Callable[[str], str]:
    """The service's login to the database of a conninfo (e.g. one of `empty_database`)."""

    def login_url(conninfo: str) -> str:
        dbname = psycopg.conninfo.conninfo_to_dict(conninfo)["dbname"]
        return psycopg.conninfo.make_conninfo(test_server.app_url, dbname=dbname)

    return login_url
