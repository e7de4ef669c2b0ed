"""The Citus suite's cluster: Citus built from the vendored source against the embedded
PostgreSQL (tests/citus/cluster.py), a coordinator and two workers on loopback ports, shared by
the whole suite and stopped at its end.

The suite fails, never skips, when Citus cannot be built or the cluster cannot start: running
the referee past one database is what it proves. Tests share the cluster's `referee` database,
provisioned as an operator would (`referee migrate` as the owner); a test that needs a database
of its own (another history, a node added) makes one with `scratch_database`.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from eventstore.pool import Pool, create_pool
from eventstore.provision import Provisioned, provision
from eventstore.seeds import SeedKeys
from tests.citus.cluster import CitusUnavailable, Cluster, build
from tests.conftest import TestServer
from tests.servers import TEST_SEED_KEYS

LOGIN = "referee_citus_login"  # the service's login on the cluster (trusted on loopback)


@pytest.fixture(scope="session")
def citus_cluster() -> Iterator[Cluster]:
    try:
        cluster = Cluster.start(build())
    except CitusUnavailable as error:
        pytest.fail(f"no Citus cluster for the Citus suite: {error}")
    try:
        yield cluster
    finally:
        cluster.stop()


# The root conftest's database, replaced by the cluster's for the tests of this folder: the
# store's own suites that are imported here (test_store_suites.py) run on Citus unchanged. Only
# the session-scoped fixtures need replacing (a session fixture is made once, whoever asks).
@pytest.fixture(scope="session")
def test_server(citus_database: CitusDatabase) -> TestServer:
    return TestServer(citus_database.owner_url, citus_database.app_url)


@pytest.fixture(scope="session")
def postgres_server_url(citus_database: CitusDatabase) -> str:
    return citus_database.owner_url


@pytest.fixture(scope="session")
def owner_database_url(citus_database: CitusDatabase) -> str:
    return citus_database.owner_url


@pytest.fixture(scope="session")
def database_url(citus_database: CitusDatabase) -> str:
    return citus_database.app_url


@pytest.fixture(scope="session")
async def store_pool(citus_database: CitusDatabase) -> AsyncIterator[Pool]:
    async with create_pool(citus_database.app_url, name="referee-citus-tests") as pool:
        yield pool


@dataclass(frozen=True)
class CitusDatabase:
    cluster: Cluster
    name: str
    owner_url: str  # the schema's owner (the cluster's superuser), on the coordinator
    app_url: str  # the service's login, on the coordinator
    provisioned: Provisioned


def login_url(owner_url: str) -> str:
    return psycopg.conninfo.make_conninfo(owner_url, user=LOGIN, password="unused-trusted")


@pytest.fixture(scope="session")
async def citus_database(citus_cluster: Cluster) -> CitusDatabase:
    """The cluster's `referee` database, migrated and distributed as `referee migrate` does."""
    owner = citus_cluster.owner_url
    done = await provision(owner, login_url(owner), SeedKeys.parse(TEST_SEED_KEYS))
    return CitusDatabase(citus_cluster, "referee", owner, login_url(owner), done)


def new_database(cluster: Cluster, *, citus: bool = True) -> str:
    """A new database on every node of the cluster (`citus=False`: the extension only on the
    workers, as on a database that was one PostgreSQL until now); the coordinator's URL as the
    superuser. With the extension, the workers are added to it (`add_workers`)."""
    name = f"referee_{uuid.uuid4().hex[:10]}"
    for node in cluster.nodes:
        with psycopg.connect(node.url(database="postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        if citus or node is not cluster.coordinator:
            with psycopg.connect(node.url(database=name), autocommit=True) as conn:
                conn.execute("CREATE EXTENSION citus")
    url = cluster.coordinator.url(database=name)
    if citus:
        add_workers(cluster, url)
    return url


def drop_database(cluster: Cluster, url: str) -> None:
    name = psycopg.conninfo.conninfo_to_dict(url)["dbname"]
    for node in cluster.nodes:
        with psycopg.connect(node.url(database="postgres"), autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def scratch_database(citus_cluster: Cluster) -> Iterator[Callable[..., str]]:
    """Makes new databases on the cluster (`new_database`), dropped afterwards."""
    made: list[str] = []

    def make(*, citus: bool = True) -> str:
        made.append(new_database(citus_cluster, citus=citus))
        return made[-1]

    yield make
    for url in made:
        drop_database(citus_cluster, url)


def add_workers(cluster: Cluster, coordinator_url: str) -> None:
    """The operator's steps on a database with the extension: the coordinator named, each
    worker added (Citus keeps its nodes per database)."""
    with psycopg.connect(coordinator_url, autocommit=True) as conn:
        coordinator = cluster.coordinator.port
        conn.execute("SELECT citus_set_coordinator_host('127.0.0.1', %s)", [coordinator])
        for worker in cluster.workers:
            conn.execute("SELECT citus_add_node('127.0.0.1', %s)", [worker.port])


@pytest.fixture(scope="session")
def citus_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("citus-servers")


# Cases of the imported suites that do not hold on a cluster, and why (deselected, not skipped:
# nothing is wrong with them).
NOT_ON_A_CLUSTER = {
    # Citus sends a statement that no row can match (`WHERE false`) to no shard: it changes
    # nothing and no guard fires. On one database the append-only trigger refuses even that.
    "WHERE false": "a statement matching no row reaches no shard",
    # Citus carries no ALTER TABLE ... DISABLE TRIGGER to the shards' triggers: an owner lifts
    # the guards there as tests/tamper.py does (session_replication_role, sent to the workers).
    "test_a_superuser_can_lift_the_guard_to_tamper": "DISABLE TRIGGER stays on the coordinator",
    # On a cluster the reads that arrive together are made one game at a time, each on its own
    # shard (EventStore._is_distributed): a list of games would be asked of every shard.
    "test_games_moved_elsewhere_are_read_in_the_same_statement": "a read a game on a cluster",
    # These stage their race by watching the coordinator's pg_stat_activity for writers waiting
    # on a lock, but on a cluster they wait on the worker: the races of a cluster are run
    # by test_races.py instead.
    "test_twenty_writers_from_one_version": "the race is staged on one database's locks",
    "test_twenty_retries_of_one_idempotent": "the race is staged on one database's locks",
    # These hold the one statement of an append or a batch on one database, and its plan: on a
    # cluster a write is a transaction of several statements (eventstore/writes.py), each
    # routed to its shard, which test_statements (run here too) holds to naming its game.
    "test_an_append_after_the_stores_own_is_one_statement": "one database's statement",
    "test_a_long_batch_is_one_write_chained_whole": "one database's statement",
    "test_a_batchs_checks_are_index_probes_however_long_the_games": "one database's plan",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    kept, dropped = [], []
    for item in items:
        on_cluster = here in Path(item.path).parents
        if on_cluster and any(case in item.nodeid for case in NOT_ON_A_CLUSTER):
            dropped.append(item)
        else:
            kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
