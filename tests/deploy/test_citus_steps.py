"""The operator's steps of deploy/compose.citus.yaml, run as its services run them, on a real
Citus cluster: Citus 14.0 built for the Citus suite (tests/citus/cluster.py, `make citus`),
a coordinator and two workers on loopback ports that, like the citusdata/citus image on its
network, ask every connection for a password (SCRAM), each with the referee database and the
owner `referee`, a superuser with one password on every node, which the coordinator has in its
environment (PGPASSWORD).

In order: deploy/citus/setup-cluster.sh (twice: it is idempotent), `referee migrate` as the
owner on the coordinator, deploy/citus/worker-login.sh (twice), then `referee serve` as the
service's login, which creates a game and takes a move. Before worker-login.sh the login's
queries are refused by the workers: the step is needed, not only harmless.

Docker is not needed (nor run): what compose adds, the order and the environment of each step,
is test_compose_citus.py's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg
import pytest

from tests.citus.cluster import CitusUnavailable, Cluster, Node, build, free_port
from tests.deploy.files import CITUS_STEPS
from tests.servers import (
    TEST_SEED_KEYS,
    TEST_SIGNING_KEYS,
    server_environment,
    start_server,
    stop_server,
)

OWNER = "referee"
OWNER_PASSWORD = "owner-secret"
LOGIN = "referee_api"
# A password libpq must be given quoted: a space, a quote and a backslash.
LOGIN_PASSWORD = "api 'se\\cret"
DATABASE = "referee"


@dataclass(frozen=True)
class Steps:
    cluster: Cluster
    setup: list[subprocess.CompletedProcess[str]]
    migrate: subprocess.CompletedProcess[str]
    refused_before_login: str  # what the login's first query on the workers was answered
    login: list[subprocess.CompletedProcess[str]]

    def url(self, node: Node, user: str = OWNER, password: str = OWNER_PASSWORD) -> str:
        return psycopg.conninfo.make_conninfo(
            host="127.0.0.1", port=node.port, dbname=DATABASE, user=user, password=password
        )

    @property
    def owner_url(self) -> str:
        return self.url(self.cluster.coordinator)

    @property
    def login_url(self) -> str:
        return self.url(self.cluster.coordinator, LOGIN, LOGIN_PASSWORD)


def address(node: Node) -> str:
    return f"127.0.0.1:{node.port}"


def run_step(script: str, pginstall: Path, **environment: str) -> subprocess.CompletedProcess[str]:
    """A deploy/citus script, with the psql of the cluster's PostgreSQL, as compose runs it."""
    env = {
        **os.environ,
        "PATH": f"{pginstall / 'bin'}{os.pathsep}{os.environ['PATH']}",
        "PGUSER": OWNER,
        "PGPASSWORD": OWNER_PASSWORD,
        "PGDATABASE": DATABASE,
        **environment,
    }
    return subprocess.run(
        ["bash", str(CITUS_STEPS / script)], env=env, capture_output=True, text=True, timeout=300
    )


def start_password_cluster(pginstall: Path) -> Cluster:
    """Three nodes as the image makes them: the referee database, the owner a superuser with
    its password, every TCP connection asked for a password; the coordinator started with the
    owner's password in its environment. No extension, no workers added: the steps' work."""
    base = Path(tempfile.mkdtemp(prefix="referee-deploy-citus-"))
    base.chmod(0o755)
    if os.geteuid() == 0:  # the nodes run as nobody (tests/citus/cluster.py)
        shutil.chown(base, "nobody", "nogroup")
    nodes = [Node(name, free_port(), base / name) for name in ("coordinator", "worker1", "worker2")]
    cluster = Cluster(pginstall, base, nodes[0], nodes[1:])
    try:
        for node in nodes:
            cluster.init_node(node)
            cluster.start_node(node)
            with psycopg.connect(node.url(database="postgres"), autocommit=True) as conn:
                conn.execute(
                    psycopg.sql.SQL("CREATE ROLE {} SUPERUSER LOGIN PASSWORD {}").format(
                        psycopg.sql.Identifier(OWNER), OWNER_PASSWORD
                    )
                )
                conn.execute(f"CREATE DATABASE {DATABASE} OWNER {OWNER}")
            cluster.stop_node(node)
            (node.data_dir / "pg_hba.conf").write_text("host all all 127.0.0.1/32 scram-sha-256\n")
        with pytest.MonkeyPatch.context() as patch:  # the coordinator's server inherits it
            patch.setenv("PGPASSWORD", OWNER_PASSWORD)
            cluster.start_node(cluster.coordinator)
        for worker in cluster.workers:
            cluster.start_node(worker)
    except BaseException:
        cluster.stop()
        raise
    return cluster


def first_refusal(url: str) -> str:
    try:
        with psycopg.connect(url) as conn:
            conn.execute("SELECT count(*) FROM games")
    except psycopg.Error as error:
        return str(error)
    return ""


@pytest.fixture(scope="module")
def steps() -> Iterator[Steps]:
    try:
        pginstall = build()
        cluster = start_password_cluster(pginstall)
    except CitusUnavailable as error:
        pytest.fail(f"no Citus cluster to run deploy/citus on: {error}")
    try:
        workers = " ".join(address(worker) for worker in cluster.workers)
        coordinator = address(cluster.coordinator)
        setup = [
            run_step("setup-cluster.sh", pginstall, COORDINATOR=coordinator, WORKERS=workers)
            for _ in range(2)
        ]
        owner = Steps(cluster, setup, subprocess.CompletedProcess([], 0), "", [])
        env = server_environment(
            owner.login_url,
            migration_database_url=owner.owner_url,
            seed_keys=TEST_SEED_KEYS,
            signing_keys=TEST_SIGNING_KEYS,
        )
        referee = str(Path(sys.executable).parent / "referee")
        migrate = subprocess.run(
            [referee, "migrate"], env=env, capture_output=True, text=True, timeout=600
        )
        refused = first_refusal(owner.login_url)
        login = [
            run_step(
                "worker-login.sh",
                pginstall,
                COORDINATOR=coordinator,
                LOGIN=LOGIN,
                LOGIN_PASSWORD=LOGIN_PASSWORD,
            )
            for _ in range(2)
        ]
        yield Steps(cluster, setup, migrate, refused, login)
    finally:
        cluster.stop()


def test_the_setup_makes_the_nodes_one_cluster_and_again_changes_nothing(steps: Steps) -> None:
    for done in steps.setup:
        assert done.returncode == 0, done.stderr
    with psycopg.connect(steps.owner_url) as conn:
        nodes = conn.execute(
            "SELECT nodeport, groupid, isactive FROM pg_dist_node ORDER BY groupid"
        ).fetchall()
    coordinator, *workers = steps.cluster.nodes
    assert nodes == [
        (coordinator.port, 0, True),
        *[(worker.port, index + 1, True) for index, worker in enumerate(workers)],
    ]
    for node in steps.cluster.nodes:
        with psycopg.connect(steps.url(node)) as conn:
            row = conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'citus'").fetchone()
            assert row == (1,), node.name


def test_migrate_distributes_the_games_over_both_workers(steps: Steps) -> None:
    assert steps.migrate.returncode == 0, steps.migrate.stderr
    assert "distributed by game_id" in steps.migrate.stdout + steps.migrate.stderr
    with psycopg.connect(steps.owner_url) as conn:
        groups = conn.execute(
            "SELECT DISTINCT placement.groupid FROM pg_dist_shard shard"
            " JOIN pg_dist_placement placement USING (shardid)"
            " WHERE shard.logicalrelid = 'events'::regclass ORDER BY 1"
        ).fetchall()
    assert groups == [(1,), (2,)]


def test_the_login_reaches_the_workers_once_the_coordinator_has_its_password(
    steps: Steps,
) -> None:
    # Migrate made the login on every node, but the coordinator could not log in as it there.
    assert f'password authentication failed for user "{LOGIN}"' in steps.refused_before_login
    for done in steps.login:
        assert done.returncode == 0, done.stderr
    with psycopg.connect(steps.login_url) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone() is not None
    with psycopg.connect(steps.owner_url) as conn:
        rows = conn.execute(
            "SELECT nodeid FROM pg_dist_authinfo WHERE rolename = %s", [LOGIN]
        ).fetchall()
    assert rows == [(0,)]  # one row, for every node, however often the step ran
    # The login is the workers' too, with its own password (Citus propagated the role).
    for worker in steps.cluster.workers:
        with psycopg.connect(steps.url(worker, LOGIN, LOGIN_PASSWORD)) as conn:
            assert conn.execute("SELECT current_user").fetchone() == (LOGIN,)


def test_the_api_serves_a_game_on_the_cluster(steps: Steps, tmp_path: Path) -> None:
    for done in steps.login:
        assert done.returncode == 0, done.stderr
    server = start_server(steps.login_url, tmp_path / "serve.log", group_commit_writers=0)
    try:
        created = httpx.post(f"{server.url}/v1/games", json={"kind": "coyote", "seats": 3})
        assert created.status_code == 201, created.text
        game = created.json()
        seat = game["to_act"][0]
        moved = httpx.post(
            f"{server.url}/v1/games/{game['game_id']}/commands",
            json={
                "command": {"type": "coyote.bid", "number": 12},
                "expected_version": game["version"],
            },
            headers={"Authorization": f"Bearer {game['seat_tokens'][seat]['token']}"},
        )
        assert moved.status_code == 200, moved.text
        assert moved.json()["version"] == game["version"] + 1
    finally:
        stop_server(server)
