"""Faults and operations on a cluster, while games are played through a real `referee serve`:
a worker killed (kill -9 of its postmaster) and started again, a shard moved between workers,
a third worker added and the shards rebalanced onto it. Every move the referee acknowledged is
found afterwards, every game plays to its end, and every audit passes.

Each test has a database of its own on the session's cluster, so that a node it stops or adds
changes nothing for the other tests (a node added to one database's cluster is that database's:
Citus keeps its nodes per database)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg
import pytest

from tests.api.helpers import PROBLEM
from tests.citus.cluster import Cluster
from tests.citus.conftest import drop_database, login_url, new_database
from tests.citus.test_served import referee_migrate
from tests.live.test_bot_cli import Game, audited, create
from tests.servers import Server, start_server, stop_server

GAMES = 12  # Coyote games at once: enough that each worker holds some
PATIENCE = 300.0  # seconds for what must happen; a bound, never a measured time


@dataclass
class Played:
    """A game as the test plays it: what the referee acknowledged, move by move."""

    game: Game
    # seq -> (recorded_at, seat) of every event of every acknowledged command
    acknowledged: dict[int, tuple[str, int | None]] = field(default_factory=dict)
    status: str = "active"


@pytest.fixture
def cluster_database(citus_cluster: Cluster) -> Iterator[tuple[str, str]]:
    owner = new_database(citus_cluster)
    try:
        referee_migrate(owner, login_url(owner))
        yield owner, login_url(owner)
    finally:
        drop_database(citus_cluster, owner)


@pytest.fixture
def served(cluster_database: tuple[str, str], tmp_path: Path) -> Iterator[Server]:
    server = start_server(
        cluster_database[1], tmp_path / "server.log", expensive_reads_per_minute=0
    )
    try:
        yield server
    finally:
        stop_server(server)


def node_of(owner: str, game_id: str) -> int:
    """The port of the worker that holds the game's shard."""
    with psycopg.connect(owner) as conn:
        row = conn.execute(
            "SELECT p.nodeport FROM pg_dist_shard_placement p"
            " WHERE p.shardid = get_shard_id_for_distribution_column('games', %s::text)",
            [game_id],
        ).fetchone()
    assert row is not None
    return int(row[0])


async def move(client: httpx.AsyncClient, played: Played) -> httpx.Response | None:
    """The seat to act plays its last legal command, from the version it saw; the answer (None
    if the game is over). An acknowledged move is remembered with the head it made."""
    game = played.game
    seen = await client.get(f"/v1/games/{game.game_id}")
    if seen.status_code != 200:
        return seen
    state = seen.json()
    if state["status"] == "finished":
        played.status = "finished"
        return None
    seat = state["to_act"][0]
    auth = {"Authorization": f"Bearer {game.tokens[seat]}"}
    url = f"/v1/games/{game.game_id}/legal-commands"
    legal = await client.get(url, params={"limit": 1}, headers=auth)
    if legal.status_code == 200:  # the last legal command: it ends a game sooner than the first
        last = {"offset": legal.json()["total"] - 1, "limit": 1}
        legal = await client.get(url, params=last, headers=auth)
    if legal.status_code != 200:
        return legal
    body = {"command": legal.json()["commands"][0], "expected_version": state["version"]}
    answer = await client.post(f"/v1/games/{game.game_id}/commands", json=body, headers=auth)
    if answer.status_code == 200:
        for event in answer.json()["events"]:
            played.acknowledged[event["seq"]] = (event["recorded_at"], event["seat"])
    return answer


async def play_to_the_end(client: httpx.AsyncClient, games: list[Played]) -> None:
    async def one(played: Played) -> None:
        while played.status != "finished":
            answer = await move(client, played)
            assert answer is None or answer.status_code in (200, 409), answer.text

    await asyncio.wait_for(asyncio.gather(*(one(played) for played in games)), PATIENCE)


async def check_nothing_lost(
    client: httpx.AsyncClient, games: list[Played], server: Server
) -> None:
    """Every event of every acknowledged command is in the record as it was acknowledged (its
    place, time and seat), and every finished game's audit passes."""
    for played in games:
        events = await client.get(
            f"/v1/games/{played.game.game_id}/events", params={"after": 0, "limit": 1000}
        )
        assert events.status_code == 200, events.text
        stored = {e["seq"]: (e["recorded_at"], e["seat"]) for e in events.json()["events"]}
        assert played.acknowledged and played.acknowledged.items() <= stored.items()
        audited(server.url, played.game)


async def test_a_worker_killed_stops_its_games_alone_and_loses_nothing(
    citus_cluster: Cluster, cluster_database: tuple[str, str], served: Server
) -> None:
    owner, _ = cluster_database
    games = [Played(create(served.url, "coyote")) for _ in range(GAMES)]
    by_node: dict[int, list[Played]] = {}
    for played in games:
        by_node.setdefault(node_of(owner, played.game.game_id), []).append(played)
    assert len(by_node) == 2, "both workers hold games"
    killed_port, kept_port = sorted(by_node)
    killed = next(node for node in citus_cluster.workers if node.port == killed_port)

    async with httpx.AsyncClient(base_url=served.url, timeout=60) as client:
        for _ in range(3):  # a few moves everywhere first
            for played in games:
                assert (answer := await move(client, played)) is None or answer.status_code == 200

        citus_cluster.kill_node(killed)
        try:
            answers = await asyncio.gather(*(move(client, played) for played in games))
            for played, answer in zip(games, answers, strict=True):
                if answer is None:
                    continue
                if node_of_cached(played, by_node) == kept_port:
                    assert answer.status_code == 200, answer.text  # the other worker's play on
                else:
                    assert_unavailable(answer)
        finally:
            citus_cluster.restart_node(killed)

        await play_to_the_end(client, games)
        await check_nothing_lost(client, games, served)


def node_of_cached(played: Played, by_node: dict[int, list[Played]]) -> int:
    return next(port for port, held in by_node.items() if played in held)


def assert_unavailable(answer: httpx.Response) -> None:
    assert answer.status_code == 503, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["type"] == PROBLEM + "database-unavailable", answer.json()
    assert int(answer.headers["Retry-After"]) >= 1


def placements(owner: str) -> dict[int, int]:
    """Shards of the games' co-location group by worker port."""
    with psycopg.connect(owner) as conn:
        rows = conn.execute(
            "SELECT p.nodeport, count(*) FROM pg_dist_shard_placement p"
            " JOIN pg_dist_shard s USING (shardid) WHERE s.logicalrelid = 'games'::regclass"
            " GROUP BY 1"
        ).fetchall()
    return dict(rows)


def move_shard_of(owner: str, game_id: str, to_port: int) -> None:
    """The operator's move of a game's shard (and those co-located with it) to another worker,
    by logical replication: writes go on during the copy and wait only for its last moment."""
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute(
            "SELECT citus_move_shard_placement("
            "  get_shard_id_for_distribution_column('games', %s::text),"
            "  '127.0.0.1', %s, '127.0.0.1', %s, shard_transfer_mode => 'force_logical')",
            [game_id, node_of(owner, game_id), to_port],
        )


async def test_shards_moved_while_games_play_lose_nothing(
    citus_cluster: Cluster, cluster_database: tuple[str, str], served: Server
) -> None:
    owner, _ = cluster_database
    finished = Played(create(served.url, "coyote"))
    games = [Played(create(served.url, "coyote")) for _ in range(GAMES)]
    async with httpx.AsyncClient(base_url=served.url, timeout=60) as client:
        await play_to_the_end(client, [finished])
        audited(served.url, finished.game)  # a report kept, stamped with the rows' versions
        ports = [worker.port for worker in citus_cluster.workers]
        playing = asyncio.ensure_future(play_to_the_end(client, games))
        for played in [finished, *games[:3]]:  # moved while the others play on
            source = node_of(owner, played.game.game_id)
            target = next(port for port in ports if port != source)
            await asyncio.to_thread(move_shard_of, owner, played.game.game_id, target)
            assert node_of(owner, played.game.game_id) == target
        await playing
        await check_nothing_lost(client, [finished, *games], served)


async def test_a_third_worker_added_takes_its_share_of_the_games(
    citus_cluster: Cluster, cluster_database: tuple[str, str], served: Server
) -> None:
    owner, login = cluster_database
    games = [Played(create(served.url, "coyote")) for _ in range(GAMES)]
    name = psycopg.conninfo.conninfo_to_dict(owner)["dbname"]
    third = citus_cluster.extra_node("worker3")
    try:
        with psycopg.connect(third.url(database="postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        with psycopg.connect(third.url(database=name), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION citus")
        async with httpx.AsyncClient(base_url=served.url, timeout=60) as client:
            playing = asyncio.ensure_future(play_to_the_end(client, games))
            await asyncio.to_thread(add_and_rebalance, owner, login, third.port)
            await playing
            assert placements(owner).get(third.port, 0) > 0, placements(owner)
            more = [Played(create(served.url, "coyote")) for _ in range(GAMES)]
            await play_to_the_end(client, more)
            await check_nothing_lost(client, [*games, *more], served)
    finally:
        citus_cluster.stop_node(third, mode="immediate")


def add_and_rebalance(owner: str, login: str, port: int) -> None:
    """The operator's steps: the worker added; `referee migrate` again, which makes the
    service's login there too (Citus carries to a new node only the roles it made itself,
    not one that existed before its extension or in another database); the shards rebalanced
    onto it, waited for."""
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute("SELECT citus_add_node('127.0.0.1', %s)", [port])
    referee_migrate(owner, login)
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute("SELECT citus_rebalance_start(shard_transfer_mode => 'force_logical')")
        conn.execute("SELECT citus_rebalance_wait()")
