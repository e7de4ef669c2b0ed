"""A referee that outgrew one database: its games were played on a PostgreSQL that now becomes
the coordinator of a cluster (the extension created, the workers added, `referee migrate` run
again). The tables are distributed with their rows; every game is still there, audits, plays on
and answers its Idempotency-Key, and the coordinator keeps no copy of the rows it handed on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from eventstore.distribution import DISTRIBUTED, REFERENCE
from tests.citus.cluster import Cluster
from tests.citus.conftest import add_workers, drop_database, login_url, new_database
from tests.citus.test_served import referee_migrate
from tests.live.test_bot_cli import Game, audited, create, play_in_process
from tests.servers import Server, start_server, stop_server

KEYED_CREATION = {"kind": "tribu", "seats": 3}


def keyed_create(server: Server) -> httpx.Response:
    return httpx.post(
        f"{server.url}/v1/games",
        json=KEYED_CREATION,
        headers={"Idempotency-Key": "outgrown-1"},
        timeout=30,
    )


@pytest.fixture(scope="module")
def one_database(citus_cluster: Cluster) -> Iterator[str]:
    """A database with the extension on the workers only: the coordinator is, so far, one
    PostgreSQL like any other."""
    owner = new_database(citus_cluster, citus=False)
    try:
        yield owner
    finally:
        drop_database(citus_cluster, owner)


def serve(owner: str, log: Path) -> Server:
    return start_server(login_url(owner), log, expensive_reads_per_minute=0)


async def test_a_database_with_games_is_distributed_and_plays_on(
    citus_cluster: Cluster, one_database: str, tmp_path: Path
) -> None:
    owner, login = one_database, login_url(one_database)
    alone = referee_migrate(owner, login)
    assert "no citus extension" in str(alone["distribution"])

    server = serve(owner, tmp_path / "before.log")
    try:
        finished = create(server.url, "coyote")
        await play_in_process(server.url, finished, "random", "random", "greedy")
        waiting = create(server.url, "big-manitou")  # dealt, not yet played
        keyed = keyed_create(server)
        assert keyed.status_code == 201, keyed.text
        before = {
            game.game_id: httpx.get(f"{server.url}/v1/games/{game.game_id}").json()
            for game in (finished, waiting)
        }
    finally:
        stop_server(server)

    with psycopg.connect(owner, autocommit=True) as conn:  # the operator's steps
        conn.execute("CREATE EXTENSION citus")
    add_workers(citus_cluster, owner)
    grown = referee_migrate(owner, login)
    assert "distributed by game_id" in str(grown["distribution"]), grown

    with psycopg.connect(owner) as conn:
        for table in (*DISTRIBUTED, *REFERENCE):
            (size,) = conn.execute("SELECT pg_relation_size(%s)", [table]).fetchone() or (None,)
            assert size == 0, f"the coordinator kept {table}'s rows"

    server = serve(owner, tmp_path / "after.log")
    try:
        for game_id, summary in before.items():
            now = httpx.get(f"{server.url}/v1/games/{game_id}").json()
            assert (now["version"], now["status"]) == (summary["version"], summary["status"])
        audited(server.url, finished)
        await play_in_process(server.url, waiting, "random", "greedy")
        audited(server.url, waiting)
        again = keyed_create(server)
        assert again.status_code in (200, 201), again.text
        assert again.json()["replayed"] is True
        assert again.json()["game_id"] == keyed.json()["game_id"]
        tokens = [t["token"] for t in sorted(again.json()["seat_tokens"], key=lambda t: t["seat"])]
        replayed = Game(again.json()["game_id"], "tribu", tokens)
        await play_in_process(server.url, replayed, "random", "random", "greedy")
        audited(server.url, replayed)
    finally:
        stop_server(server)
