"""Group commit (eventstore/groupcommit.py): appends to different games that arrive together are
written together, one statement for the batch, each game still checked on its own.

Every append here is from a head the store remembers (its own last write), the path a server
takes for nearly every move. Each test reads every stream back verified: the chain, the
versions, the commands.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from eventstore import (
    AppendResult,
    IdempotencyKeyReused,
    StoredEvent,
    StreamCorrupted,
    StreamNotFound,
    VersionConflict,
)
from eventstore.pool import Pool
from eventstore.seeds import SeedKeys
from eventstore.store import _APPEND_MANY, _NEWER, EventStore
from eventstore.types import OpenStream, SittingToken
from tests.store.helpers import events, make_stream, seed_of, token_hash
from tests.store.statements import recording_store
from tests.tamper import behind_the_back

GAMES = 12


async def streams(store: EventStore, new_game_id: Callable[[], str], count: int) -> list[str]:
    games = [new_game_id() for _ in range(count)]
    for game_id in games:
        await make_stream(store, game_id, opening=2)
    return games


async def append(
    store: EventStore, game_id: str, version: int, label: str, key: str | None = None
) -> AppendResult:
    return await store.append(
        game_id,
        expected_version=version,
        events=events(label, 2),
        seat=0,
        command_body=f'{{"move":"{label}"}}'.encode(),
        idempotency_key=key,
    )


async def verified(store: EventStore, game_id: str) -> list[bytes]:
    return [event.body for event in await store.read(game_id, verify=True)]


async def test_appends_to_different_games_at_once_go_in_one_batch(
    store_pool: Pool, seed_keys: SeedKeys, new_game_id: Callable[[], str]
) -> None:
    store = EventStore(store_pool, seed_keys)
    games = await streams(store, new_game_id, GAMES)
    before = store.group_commits.batches
    results = await asyncio.gather(
        *(append(store, game, 2, f"g{i}") for i, game in enumerate(games))
    )
    assert [result.version for result in results] == [4] * GAMES
    assert store.group_commits.largest == GAMES  # all of them waited for one writer
    assert store.group_commits.batches - before == 1
    for i, (game, result) in enumerate(zip(games, results, strict=True)):
        assert result.command is not None and result.command.first_seq == 3
        bodies = await verified(store, game)
        assert bodies[2:] == [f'{{"g{i}":0}}'.encode(), f'{{"g{i}":1}}'.encode()]
    # Again, from the heads the batch left: the next batch chains on.
    again = await asyncio.gather(*(append(store, game, 4, f"h{i}") for i, game in enumerate(games)))
    assert [result.version for result in again] == [6] * GAMES
    for game in games:
        assert len(await verified(store, game)) == 6


async def test_one_game_moved_by_another_writer_fails_alone_in_its_batch(
    store_pool: Pool, seed_keys: SeedKeys, new_game_id: Callable[[], str]
) -> None:
    """Another process appended to one game: this store's head of it is stale; in the batch it
    matches nothing, and its caller is told of the conflict; the others are written."""
    store, other = EventStore(store_pool, seed_keys), EventStore(store_pool, seed_keys)
    games = await streams(store, new_game_id, 6)
    await append(other, games[3], 2, "elsewhere")  # `store` still remembers version 2
    results = await asyncio.gather(
        *(append(store, game, 2, f"g{i}") for i, game in enumerate(games)),
        return_exceptions=True,
    )
    conflict = results[3]
    assert isinstance(conflict, VersionConflict), conflict
    assert (conflict.expected, conflict.actual) == (2, 4)
    assert [r.version for i, r in enumerate(results) if i != 3] == [4] * 5  # type: ignore[union-attr]
    assert store.group_commits.largest == 6
    assert (await verified(store, games[3]))[2:] == [b'{"elsewhere":0}', b'{"elsewhere":1}']


async def test_a_batch_the_database_refuses_whole_is_written_append_by_append(
    store_pool: Pool, seed_keys: SeedKeys, new_game_id: Callable[[], str]
) -> None:
    """An idempotency key used again with another command: its row breaks the batch's unique
    key, so nothing of the batch is written; each append is then written alone and gets its
    own answer (that one refused, the others recorded)."""
    store = EventStore(store_pool, seed_keys)
    games = await streams(store, new_game_id, 5)
    await append(store, games[0], 2, "first", key="k-1")
    other = EventStore(store_pool, seed_keys)
    for game in games:  # heads remembered from verified reads, as after a restart
        await other.read(game, verify=True)
    results = await asyncio.gather(
        append(other, games[0], 4, "second", key="k-1"),
        *(append(other, game, 2, f"g{i}") for i, game in enumerate(games[1:])),
        return_exceptions=True,
    )
    assert isinstance(results[0], IdempotencyKeyReused), results[0]
    assert [r.version for r in results[1:]] == [4] * 4  # type: ignore[union-attr]
    assert other.group_commits.largest == 5
    assert len(await verified(other, games[0])) == 4  # nothing of the refused command


async def test_a_games_second_append_waits_for_the_next_batch(
    store_pool: Pool, seed_keys: SeedKeys, new_game_id: Callable[[], str]
) -> None:
    """Two appends to one game at once: never in one statement. One is written, the other
    conflicts, as two writers racing on a game always have."""
    store = EventStore(store_pool, seed_keys)
    game, *others = await streams(store, new_game_id, 3)
    results = await asyncio.gather(
        append(store, game, 2, "a"),
        append(store, game, 2, "b"),
        *(append(store, other, 2, "c") for other in others),
        return_exceptions=True,
    )
    written = [r for r in results[:2] if isinstance(r, AppendResult)]
    assert len(written) == 1 and isinstance(
        next(r for r in results[:2] if not isinstance(r, AppendResult)), VersionConflict
    )
    assert len(await verified(store, game)) == 4


async def test_an_append_with_nothing_else_on_its_way_is_written_at_once_alone(
    store_pool: Pool, seed_keys: SeedKeys, new_game_id: Callable[[], str]
) -> None:
    store = EventStore(store_pool, seed_keys)
    (game,) = await streams(store, new_game_id, 1)
    before = store.group_commits.batches
    result = await append(store, game, 2, "solo")
    assert result.version == 4
    assert store.group_commits.batches == before + 1
    assert store.group_commits.largest == 1


async def test_with_no_writers_each_append_is_its_own_statement(
    store_pool: Pool, seed_keys: SeedKeys, new_game_id: Callable[[], str]
) -> None:
    """REFEREE_GROUP_COMMIT_WRITERS=0 (a Citus cluster): no batch ever holds two games."""
    store = EventStore(store_pool, seed_keys, group_commit_writers=0)
    games = await streams(store, new_game_id, 6)
    results = await asyncio.gather(
        *(append(store, game, 2, f"g{i}") for i, game in enumerate(games))
    )
    assert [result.version for result in results] == [4] * 6
    assert (store.group_commits.batches, store.group_commits.largest) == (6, 1)
    for game in games:
        assert len(await verified(store, game)) == 4


async def test_sittings_in_a_batch_keep_their_names_and_tokens(
    store_pool: Pool, seed_keys: SeedKeys, new_game_id: Callable[[], str]
) -> None:
    """Appends that seat players at open tables (names with open seats left, a new sitting's
    token) go in a batch like any other: the names and tokens are the games' after it."""
    store = EventStore(store_pool, seed_keys)
    games = [new_game_id() for _ in range(4)]
    for game_id in games:
        await store.create_stream(
            game_id,
            kind="test-kind",
            rules_version="1",
            seats=3,
            seed=seed_of(game_id),
            seed_chosen_by_creator=False,
            seat_token_hashes=[],
            events=events("opening", 1),
            status="waiting",
            open_table=OpenStream(listed=True, names=[None, None, None], tokens=[]),
        )

    async def sit(i: int, game_id: str) -> AppendResult:
        return await store.append(
            game_id,
            expected_version=1,
            events=events(f"sat{i}", 1),
            seat=1,
            command_body=b'{"type":"game.sit"}',
            names=[None, f"Player {i}", None],
            token=SittingToken(1, 2, token_hash(game_id, 1)),
        )

    results = await asyncio.gather(*(sit(i, game) for i, game in enumerate(games)))
    assert [result.version for result in results] == [2] * 4
    assert store.group_commits.largest == 4
    for i, game_id in enumerate(games):
        assert (await store.info(game_id)).names == [None, f"Player {i}", None]
        assert await store.token_holder(game_id, token_hash(game_id, 1)) == (1, 2)


# -- reads of what is newer than a game held, asked together -------------------------------------


async def test_reads_of_what_is_newer_go_together_and_each_gets_its_own_answer(
    store_pool: Pool,
    seed_keys: SeedKeys,
    new_game_id: Callable[[], str],
    superuser_conn: AsyncConnection[TupleRow],
) -> None:
    """A process holding games asks what is newer than each (a read after its version): asked
    at once, they go in one statement. A game still at that version has nothing newer; one
    moved by another process is read
    and verified; one whose head event was deleted is a corrupt stream; an unknown one is not
    found: each alone."""
    store, other = EventStore(store_pool, seed_keys), EventStore(store_pool, seed_keys)
    games = await streams(store, new_game_id, GAMES)
    moved, damaged = games[:3], games[3]
    for game in moved:
        await append(other, game, 2, "elsewhere")
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute("DELETE FROM events WHERE game_id = %s AND seq = 2", [damaged])
    unknown = new_game_id()
    before = store.newer_reads.batches

    async def newer(game: str) -> list[StoredEvent] | Exception:
        try:
            return await store.read(game, after=2, verify=True)
        except (StreamCorrupted, StreamNotFound) as error:
            return error

    answers = await asyncio.gather(*(newer(game) for game in [*games, unknown]))
    assert store.newer_reads.batches - before == 1 and store.newer_reads.largest == GAMES + 1
    for answer in answers[: len(moved)]:
        assert not isinstance(answer, Exception)
        assert [event.body for event in answer] == [b'{"elsewhere":0}', b'{"elsewhere":1}']
    assert isinstance(answers[3], StreamCorrupted) and "event 2 is missing" in str(answers[3])
    assert answers[4:GAMES] == [[]] * (GAMES - 4)
    assert isinstance(answers[GAMES], StreamNotFound)

    result = await append(store, games[5], 2, "here")  # and the game plays on
    assert result.version == 4 and len(await verified(store, games[5])) == 4


async def test_games_moved_elsewhere_are_read_in_the_same_statement(
    database_url: str,
    store_pool: Pool,
    seed_keys: SeedKeys,
    new_game_id: Callable[[], str],
    superuser_conn: AsyncConnection[TupleRow],
) -> None:
    """The events another process added to a game come in the batch's one statement, with the
    heads of the games that did not move: no second round trip per game moved. The statement
    looks each game up by key, however many events the table holds."""
    other = EventStore(store_pool, seed_keys)
    async with recording_store(database_url, seed_keys) as (store, recorder):
        games = await streams(store, new_game_id, 6)
        for game in games[:3]:
            await append(other, game, 2, "elsewhere")
        recorder.take()
        answers = await asyncio.gather(*(store.read(g, after=2, verify=True) for g in games))
        (statement,) = recorder.take()
        result = await append(store, games[0], 4, "here")  # from the head the read reached
        assert result.version == 6 and len(await verified(store, games[0])) == 6
    assert statement.text.startswith("WITH asked AS"), statement.text
    for answer in answers[:3]:
        assert [event.body for event in answer] == [b'{"elsewhere":0}', b'{"elsewhere":1}']
        assert [event.seq for event in answer] == [3, 4]
    assert answers[3:] == [[]] * 3

    cursor = await superuser_conn.execute("EXPLAIN (FORMAT JSON) " + _NEWER, statement.params)
    ((plan,),) = await cursor.fetchall()
    nodes = list(scans(plan[0]["Plan"]))
    assert not {("Seq Scan", "events"), ("Seq Scan", "games")} & set(nodes), nodes


def scans(plan: dict[str, Any]) -> Iterator[tuple[str, str | None]]:
    """Every node of an EXPLAIN (FORMAT JSON) plan, with the relation it reads, if any."""
    yield plan["Node Type"], plan.get("Relation Name")
    for child in plan.get("Plans", []):
        yield from scans(child)


async def test_a_batchs_checks_are_index_probes_however_long_the_games(
    database_url: str,
    seed_keys: SeedKeys,
    new_game_id: Callable[[], str],
    superuser_conn: AsyncConnection[TupleRow],
) -> None:
    """Each game's head and what follows it are looked up by key: no scan of the events table
    (written as EXISTS, PostgreSQL hashed a scan of all of it for every batch), and no count of
    a game's events (as long as the game) on every move."""
    async with recording_store(database_url, seed_keys) as (store, recorder):
        games = await streams(store, new_game_id, 4)
        recorder.take()
        await asyncio.gather(*(append(store, game, 2, f"g{i}") for i, game in enumerate(games)))
        (batch,) = [s for s in recorder.take() if s.text.startswith("WITH a AS")]
    cursor = await superuser_conn.execute(  # planned, not run
        "EXPLAIN (FORMAT JSON) " + _APPEND_MANY, batch.params
    )
    ((plan,),) = await cursor.fetchall()
    nodes = list(scans(plan[0]["Plan"]))
    assert ("Seq Scan", "events") not in nodes, nodes
    assert not any(kind == "Aggregate" for kind, _ in nodes), nodes
