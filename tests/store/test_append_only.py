"""History cannot be rewritten: the database itself refuses, whoever asks through the service."""

from __future__ import annotations

from collections.abc import Callable

import psycopg
import pytest
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from eventstore.pool import Pool
from eventstore.store import EventStore
from tests.store.helpers import events, make_stream

Conn = AsyncConnection[TupleRow]

REWRITES = [
    "UPDATE {table} SET body = 'rewritten' WHERE game_id = %(g)s",
    "DELETE FROM {table} WHERE game_id = %(g)s",
    "TRUNCATE {table} CASCADE",
    "UPDATE {table} SET body = body WHERE false",  # even a statement that touches no row
]
HISTORY_TABLES = ["events", "commands"]


@pytest.fixture
async def game_with_history(event_store: EventStore, new_game_id: Callable[[], str]) -> str:
    game_id = new_game_id()
    await make_stream(event_store, game_id, opening=2)
    await event_store.append(
        game_id, expected_version=2, events=events("a", 2), seat=0, command_body=b"a"
    )
    return game_id


async def history(conn: Conn, game_id: str) -> list[tuple[object, ...]]:
    cursor = await conn.execute(
        """SELECT 'e', seq, body, hash FROM events WHERE game_id = %(g)s
           UNION ALL SELECT 'c', command_id, body, NULL FROM commands WHERE game_id = %(g)s
           ORDER BY 1, 2""",
        {"g": game_id},
    )
    return await cursor.fetchall()


async def attempt(conn: Conn, statement: str, table: str, game_id: str) -> None:
    await conn.execute(statement.format(table=table), {"g": game_id})


@pytest.mark.parametrize("table", HISTORY_TABLES)
@pytest.mark.parametrize("statement", REWRITES)
async def test_the_applications_connections_cannot_rewrite_history(
    store_pool: Pool,
    superuser_conn: Conn,
    game_with_history: str,
    table: str,
    statement: str,
) -> None:
    before = await history(superuser_conn, game_with_history)
    async with store_pool.connection() as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            await attempt(conn, statement, table, game_with_history)
    assert await history(superuser_conn, game_with_history) == before


@pytest.mark.parametrize("table", HISTORY_TABLES)
@pytest.mark.parametrize("statement", REWRITES)
async def test_raw_sql_as_the_application_role_cannot_rewrite_history(
    app_role_conn: Conn, superuser_conn: Conn, game_with_history: str, table: str, statement: str
) -> None:
    before = await history(superuser_conn, game_with_history)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        await attempt(app_role_conn, statement, table, game_with_history)
    assert await history(superuser_conn, game_with_history) == before


@pytest.mark.parametrize("table", HISTORY_TABLES)
@pytest.mark.parametrize("statement", REWRITES)
async def test_even_a_superuser_is_refused_while_the_guard_is_on(
    superuser_conn: Conn, game_with_history: str, table: str, statement: str
) -> None:
    before = await history(superuser_conn, game_with_history)
    with pytest.raises(psycopg.errors.RestrictViolation, match="append-only"):
        await attempt(superuser_conn, statement, table, game_with_history)
    assert await history(superuser_conn, game_with_history) == before


async def created_with(conn: Conn, game_id: str) -> tuple[object, ...] | None:
    cursor = await conn.execute(
        "SELECT kind, seats, seed, seed_key_id, sealed_seed FROM games WHERE game_id = %s",
        [game_id],
    )
    return await cursor.fetchone()


async def test_the_application_role_cannot_lift_the_guard_or_touch_what_a_game_was_created_with(
    app_role_conn: Conn, superuser_conn: Conn, game_with_history: str
) -> None:
    before = await created_with(superuser_conn, game_with_history)
    forbidden = [
        "ALTER TABLE events DISABLE TRIGGER events_append_only",
        "ALTER TABLE commands DISABLE TRIGGER ALL",
        "ALTER TABLE games DISABLE TRIGGER games_only_move_forward",
        "UPDATE games SET seed = 'x' WHERE game_id = %(g)s",
        "UPDATE games SET sealed_seed = 'x', seed_key_id = 'x' WHERE game_id = %(g)s",
        "SELECT seed FROM games WHERE game_id = %(g)s",
        "INSERT INTO games (game_id, kind, rules_version, seats, status, version, seed,"
        " seed_chosen_by_creator) VALUES ('plain', 'k', '1', 1, 'active', 1, 'x', false)",
        "UPDATE games SET kind = 'x', seats = 9 WHERE game_id = %(g)s",
        "DELETE FROM games WHERE game_id = %(g)s",
        "DELETE FROM seat_tokens WHERE game_id = %(g)s",
        "UPDATE seat_tokens SET token_hash = 'x' WHERE game_id = %(g)s",
        "DELETE FROM game_creations",
        "SET session_replication_role = replica",  # would silence the triggers
        "SET ROLE postgres",
    ]
    for statement in forbidden:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            await app_role_conn.execute(statement, {"g": game_with_history})
    after = await created_with(superuser_conn, game_with_history)
    assert after == before
    assert after is not None and after[:3] == ("test-kind", 3, None)  # the seed is sealed


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE games SET version = version - 1 WHERE game_id = %(g)s",
        "UPDATE games SET version = 0, command_count = 0 WHERE game_id = %(g)s",
        "UPDATE games SET command_count = command_count - 1 WHERE game_id = %(g)s",
    ],
)
async def test_nobody_moves_a_game_back_while_the_guard_is_on(
    app_role_conn: Conn, superuser_conn: Conn, game_with_history: str, statement: str
) -> None:
    before = await history(superuser_conn, game_with_history)
    for conn in (app_role_conn, superuser_conn):
        with pytest.raises(psycopg.errors.RestrictViolation, match="cannot go back"):
            await conn.execute(statement, {"g": game_with_history})
    assert await history(superuser_conn, game_with_history) == before
    cursor = await superuser_conn.execute(
        "SELECT version, command_count FROM games WHERE game_id = %s", [game_with_history]
    )
    assert await cursor.fetchone() == (4, 1)


async def test_a_finished_game_stays_finished(
    app_role_conn: Conn, event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await make_stream(event_store, game_id, status="finished")
    with pytest.raises(psycopg.errors.RestrictViolation, match="stays finished"):
        await app_role_conn.execute(
            "UPDATE games SET status = 'active' WHERE game_id = %s", [game_id]
        )
    assert (await event_store.info(game_id)).status == "finished"


async def test_a_superuser_can_lift_the_guard_to_tamper(
    superuser_conn: Conn, game_with_history: str
) -> None:
    """What the tamper tests rely on: only possible behind the service's back."""
    before = await history(superuser_conn, game_with_history)
    async with superuser_conn.transaction(force_rollback=True):
        await superuser_conn.execute("ALTER TABLE events DISABLE TRIGGER events_append_only")
        await superuser_conn.execute(
            "UPDATE events SET body = 'tampered' WHERE game_id = %s AND seq = 2",
            [game_with_history],
        )
        tampered = await history(superuser_conn, game_with_history)
        assert [row[2] for row in tampered if row[:2] == ("e", 2)] == [b"tampered"]
    assert await history(superuser_conn, game_with_history) == before


# The referee's published proofs (migration 0010): the keys that signed, the log, checkpoints.
PROOF_TABLES = {
    "signing_keys": "UPDATE signing_keys SET public_key = public_key",
    "log_leaves": "UPDATE log_leaves SET leaf = leaf",
    "checkpoints": "UPDATE checkpoints SET root = root",
}


@pytest.mark.parametrize("table", PROOF_TABLES)
@pytest.mark.parametrize("how", ["update", "DELETE FROM {table}", "TRUNCATE {table}"])
async def test_the_published_proofs_are_append_only(
    app_role_conn: Conn, superuser_conn: Conn, table: str, how: str
) -> None:
    statement = PROOF_TABLES[table] if how == "update" else how.format(table=table)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        await app_role_conn.execute(statement)
    with pytest.raises(psycopg.errors.RestrictViolation, match="append-only"):
        await superuser_conn.execute(statement)
