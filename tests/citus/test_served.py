"""The referee on a cluster as an operator runs it: `referee migrate` as the owner on the
coordinator of a database that has the extension on every node, `referee serve` there as the
service's login, games of every kind played to the end by bots over HTTP, every audit passing,
checkpoints signed, the events on both workers."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from referee.games import REGISTRY
from tests.citus.cluster import Cluster
from tests.citus.conftest import drop_database, login_url, new_database
from tests.live.test_bot_cli import audited, create, play_in_process
from tests.servers import (
    TEST_SEED_KEYS,
    TEST_SIGNING_KEYS,
    Server,
    server_environment,
    start_server,
    stop_server,
)

KINDS = [game.kind for game in REGISTRY]


def referee_migrate(owner_url: str, app_url: str) -> dict[str, object]:
    """`referee migrate` as the README says: the owner's URL, the login's, the keys; its log
    line of what was done."""
    env = server_environment(
        app_url,
        migration_database_url=owner_url,
        seed_keys=TEST_SEED_KEYS,
        signing_keys=TEST_SIGNING_KEYS,
    )
    referee = str(Path(sys.executable).parent / "referee")
    done = subprocess.run(
        [referee, "migrate"], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in (done.stdout + done.stderr).splitlines() if "{" in line]
    (migrated,) = [line for line in lines if line.get("event") == "migrations applied"]
    return migrated


@pytest.fixture(scope="module")
def cluster_database(citus_cluster: Cluster) -> Iterator[tuple[str, str]]:
    """A database of its own on the cluster, with the extension and the workers: the owner's
    URL and the login's."""
    owner = new_database(citus_cluster)
    try:
        yield owner, login_url(owner)
    finally:
        drop_database(citus_cluster, owner)


@pytest.fixture(scope="module")
def served(
    cluster_database: tuple[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    owner, login = cluster_database
    migrated = referee_migrate(owner, login)
    assert "distributed by game_id" in str(migrated["distribution"]), migrated
    log = tmp_path_factory.mktemp("citus-served") / "server.log"
    server = start_server(
        login, log, sweep_interval_seconds=1, checkpoint_seconds=1, expensive_reads_per_minute=0
    )
    try:
        yield server
    finally:
        stop_server(server)


@pytest.mark.parametrize("kind", KINDS)
async def test_bots_play_every_kind_to_the_end_and_every_audit_passes(
    served: Server, kind: str
) -> None:
    game = create(served.url, kind)
    randoms = ["random"] * (len(game.tokens) - 1)
    await play_in_process(served.url, game, *randoms, "greedy")  # type: ignore[arg-type]
    audited(served.url, game)
    exported = httpx.get(f"{served.url}/v1/games/{game.game_id}/export", timeout=60)
    assert exported.status_code == 200, exported.text


def test_the_events_lie_on_both_workers(served: Server, cluster_database: tuple[str, str]) -> None:
    owner, _ = cluster_database
    for kind in KINDS:  # enough games that both workers hold some, whatever the draw of ids
        create(served.url, kind)
    with psycopg.connect(owner) as conn:
        rows = conn.execute(
            "SELECT nodeport, sum(result::bigint) FROM run_command_on_placements("
            "  'events', 'SELECT count(*) FROM %s') GROUP BY nodeport"
        ).fetchall()
        workers = conn.execute(
            "SELECT nodeport FROM pg_dist_node WHERE noderole = 'primary' AND groupid <> 0"
        ).fetchall()
    counts = dict(rows)
    assert len(workers) == 2
    assert all(counts.get(port, 0) > 0 for (port,) in workers), counts


async def test_a_checkpoint_is_signed_over_the_games_of_the_cluster(served: Server) -> None:
    game = create(served.url, "coyote")
    async with httpx.AsyncClient(base_url=served.url, timeout=30) as client:
        for _ in range(600):  # the server signs each second; a bound, not a measured time
            latest = await client.get("/v1/checkpoints/latest")
            proof = await client.get(f"/v1/games/{game.game_id}/inclusion")
            if proof.status_code == 200 and proof.json()["entries"]:
                break
            await asyncio.sleep(0.1)
    assert latest.status_code == 200, latest.text
    assert proof.status_code == 200, proof.text
    assert proof.json()["entries"], proof.json()


def test_the_log_says_the_cluster_was_distributed_once(
    cluster_database: tuple[str, str], served: Server
) -> None:
    """A second `referee migrate` distributes nothing more and keeps the cluster's checks."""
    owner, login = cluster_database
    again = referee_migrate(owner, login)
    assert again["versions"] == []
    assert "already" in str(again["distribution"])
